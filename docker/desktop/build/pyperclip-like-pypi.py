"""Image build step: Debian's pyperclip picks its clipboard as PyPI's does on OSWorld's VM.

Agents scored on OSWorld (UI-TARS, Doubao, others) type text as `pyperclip.copy(text)` then Ctrl+V, each step a new
`python -c`. OSWorld's VM has PyPI's pyperclip and xclip: xclip's background process keeps serving the copied text
after the step's Python has exited. Debian patches pyperclip to prefer GTK's clipboard when python3-gi is importable
(it is, here), and GTK serves the clipboard only while the copying process runs a main loop: nothing answers the
paste. This removes that preference and tries xclip before xsel, as PyPI's current pyperclip does. Fails the build
when the file no longer looks as expected.
"""
import sys

PATH = sys.argv[1]  # /usr/lib/python3/dist-packages/pyperclip/__init__.py
with open(PATH, encoding='utf-8') as f:
    source = f.read()

GTK_START = '        try:\n            import gi  # check if gi is installed'
GTK_END = '        if (\n                os.environ.get("WAYLAND_DISPLAY")'
XSEL_THEN_XCLIP = '''        if _executable_exists("xsel"):
            return init_xsel_clipboard()
        if _executable_exists("xclip"):
            return init_xclip_clipboard()'''
XCLIP_THEN_XSEL = '''        if _executable_exists("xclip"):
            return init_xclip_clipboard()
        if _executable_exists("xsel"):
            return init_xsel_clipboard()'''

if source.count(GTK_START) != 1 or source.count(GTK_END) != 1 or source.count(XSEL_THEN_XCLIP) != 1:
    raise SystemExit(f'{PATH}: not the pyperclip this patch was written for')
start, end = source.index(GTK_START), source.index(GTK_END)
source = source[:start] + source[end:]
source = source.replace(XSEL_THEN_XCLIP, XCLIP_THEN_XSEL)
with open(PATH, 'w', encoding='utf-8') as f:
    f.write(source)
print('pyperclip: xclip first, no GTK clipboard')
