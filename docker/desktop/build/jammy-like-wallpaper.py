# The default wallpaper: a smooth field in the colours of Ubuntu 22.04's default (dark aubergine at the top left to
# warm magenta at the bottom right), as agents see it around windows on OSWorld's VM. The colours are nine points
# read off OSWorld's screenshot os-desktop-with-file-on-desktop.jpg; the picture itself (the jellyfish) is not in
# Debian, so it is not drawn.
import sys

from PIL import Image

GRID = [
    ['#2f122a', '#4c1734', '#742541'],
    ['#41172e', '#782657', '#9d323e'],
    ['#531b3a', '#8d2d58', '#b64a3f'],
]
small = Image.new('RGB', (3, 3))
for y, row in enumerate(GRID):
    for x, colour in enumerate(row):
        small.putpixel((x, y), tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)))
small.resize((1920, 1080), Image.BILINEAR).save(sys.argv[1])
