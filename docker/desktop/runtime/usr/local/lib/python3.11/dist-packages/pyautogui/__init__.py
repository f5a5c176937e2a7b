"""A pyautogui-compatible module for the deskbench desktop (PyPI is not reachable, so the real one cannot be installed).

Covers what computer-use agents emit: mouse (click, doubleClick, tripleClick, rightClick, middleClick, moveTo,
moveRel/move, dragTo, dragRel, mouseDown, mouseUp, scroll, hscroll, vscroll), keyboard (typewrite/write, press,
keyDown, keyUp, hotkey) with pyautogui's key names, size, position, onScreen, screenshot, pixel, PAUSE, FAILSAFE.
Input goes through the X server's XTEST extension (python3-xlib). Every printable character is typed as itself:
characters missing from the keyboard map are bound to a spare keycode for the time of the keystroke.
"""
import collections
import json
import os
import time

from Xlib import X, XK, display as _xdisplay
from Xlib.ext import xtest

__version__ = "0.9.54-deskbench"

PAUSE = 0.1
FAILSAFE = True
FAILSAFE_POINTS = [(0, 0)]
MINIMUM_DURATION = 0.1
MINIMUM_SLEEP = 0.05
DARWIN_CATCH_UP_TIME = 0.01

Point = collections.namedtuple("Point", "x y")
Size = collections.namedtuple("Size", "width height")


class PyAutoGUIException(Exception):
    pass


class FailSafeException(PyAutoGUIException):
    pass


class ImageNotFoundException(PyAutoGUIException):
    pass


LEFT, MIDDLE, RIGHT, PRIMARY, SECONDARY = "left", "middle", "right", "primary", "secondary"
_BUTTONS = {LEFT: 1, MIDDLE: 2, RIGHT: 3, PRIMARY: 1, SECONDARY: 3, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}

_display = None


def _d():
    global _display
    if _display is None:
        _display = _xdisplay.Display()
    return _display


def _root():
    return _d().screen().root


# --- key names ---------------------------------------------------------------------------------------------------

_NAMED_KEYS = {
    "backspace": "BackSpace", "\b": "BackSpace", "tab": "Tab", "\t": "Tab", "enter": "Return", "return": "Return",
    "\n": "Return", "\r": "Return", "esc": "Escape", "escape": "Escape", "space": "space", " ": "space",
    "shift": "Shift_L", "shiftleft": "Shift_L", "shiftright": "Shift_R",
    "ctrl": "Control_L", "ctrlleft": "Control_L", "ctrlright": "Control_R",
    "alt": "Alt_L", "altleft": "Alt_L", "altright": "Alt_R",
    "option": "Alt_L", "optionleft": "Alt_L", "optionright": "Alt_R",
    "win": "Super_L", "winleft": "Super_L", "winright": "Super_R", "super": "Super_L",
    "command": "Super_L", "cmd": "Super_L", "fn": "Super_L",
    "up": "Up", "down": "Down", "left": "Left", "right": "Right",
    "home": "Home", "end": "End", "pageup": "Prior", "pgup": "Prior", "pagedown": "Next", "pgdn": "Next",
    "insert": "Insert", "delete": "Delete", "del": "Delete",
    "capslock": "Caps_Lock", "numlock": "Num_Lock", "scrolllock": "Scroll_Lock",
    "printscreen": "Print", "prntscrn": "Print", "prtsc": "Print", "prtscr": "Print", "print": "Print",
    "pause": "Pause", "apps": "Menu", "menu": "Menu", "clear": "Clear", "help": "Help", "select": "Select",
    "execute": "Execute", "cancel": "Cancel", "kana": "Kana_Shift", "hanguel": "Hangul", "hangul": "Hangul",
    "hanja": "Hangul_Hanja", "kanji": "Kanji", "convert": "Henkan", "nonconvert": "Muhenkan",
    "add": "KP_Add", "subtract": "KP_Subtract", "multiply": "KP_Multiply", "divide": "KP_Divide",
    "decimal": "KP_Decimal", "separator": "KP_Separator",
    "volumemute": "XF86AudioMute", "volumedown": "XF86AudioLowerVolume", "volumeup": "XF86AudioRaiseVolume",
    "playpause": "XF86AudioPlay", "stop": "XF86AudioStop", "nexttrack": "XF86AudioNext",
    "prevtrack": "XF86AudioPrev", "browserback": "XF86Back", "browserforward": "XF86Forward",
    "browserrefresh": "XF86Refresh", "browserhome": "XF86HomePage", "browsersearch": "XF86Search",
    "browserfavorites": "XF86Favorites", "browserstop": "XF86Stop", "launchmail": "XF86Mail",
    "launchmediaselect": "XF86AudioMedia", "sleep": "XF86Sleep",
}
for _i in range(1, 25):
    _NAMED_KEYS["f%d" % _i] = "F%d" % _i
for _i in range(10):
    _NAMED_KEYS["num%d" % _i] = "KP_%d" % _i

KEYBOARD_KEYS = sorted(set(_NAMED_KEYS) | {chr(c) for c in range(0x20, 0x7F)} - {"\b"})
KEY_NAMES = KEYBOARD_KEYS


def _keysym(key):
    """pyautogui key name or single character -> X keysym."""
    if len(key) > 1:
        name = _NAMED_KEYS.get(key.lower())
        if name is None:
            raise PyAutoGUIException("unknown key name %r" % key)
        return XK.string_to_keysym(name)
    if key in _NAMED_KEYS:
        return XK.string_to_keysym(_NAMED_KEYS[key])
    code = ord(key)
    # Latin-1 keysyms equal the code point; everything else uses the Unicode keysym range.
    return code if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF else 0x01000000 + code


def isValidKey(key):
    try:
        _keysym(key)
        return True
    except Exception:
        return False


# Spare keycodes (none of the keyboard's symbols on them) type characters missing from the keyboard map. They are
# shared by every pyautogui process of the session, and an agent's every step is one: the first process to need one
# records which keycodes the map leaves empty, and all take turns over that list. (A process that counted only the
# keycodes still empty found none left once earlier steps had bound about twenty characters.)
_SPARE_FILE = '/tmp/deskbench/spare-keycodes.json'
_spare_state = None  # {"codes": [keycode, ...], "next": index of the next one to use}


def _next_spare_keycode(d):
    global _spare_state
    if _spare_state is None:
        try:
            with open(_SPARE_FILE) as f:
                _spare_state = json.load(f)
        except (OSError, ValueError):
            first = d.display.info.min_keycode
            count = d.display.info.max_keycode - first + 1
            empty = [first + offset for offset, syms in enumerate(d.get_keyboard_mapping(first, count)) if not any(syms)]
            _spare_state = {"codes": empty, "next": 0}
    codes = _spare_state["codes"]
    if not codes:
        raise PyAutoGUIException("no spare keycode to type a character missing from the keyboard map")
    code = codes[_spare_state["next"] % len(codes)]
    _spare_state["next"] += 1
    try:
        with open(_SPARE_FILE + ".tmp", "w") as f:
            json.dump(_spare_state, f)
        os.replace(_SPARE_FILE + ".tmp", _SPARE_FILE)
    except OSError:
        pass  # no session folder (another desktop): this process keeps its own turns
    return code


def _keycode(keysym):
    """-> (keycode, needs_shift). Binds a spare keycode when the keysym is not on the keyboard."""
    d = _d()
    plain = shifted = None
    for code, index in d.keysym_to_keycodes(keysym):
        if index == 0 and plain is None:
            plain = code
        elif index == 1 and shifted is None:
            shifted = code
    if plain is not None:
        return plain, False
    if shifted is not None:
        return shifted, True
    code = _next_spare_keycode(d)
    reloads = _keymap_reloads()
    d.change_keyboard_mapping(code, [(keysym, keysym)])
    d.sync()
    d._update_keymap(code, 1)  # python-xlib's keymap cache, which would still give the keycode's previous character
    _await_keymap_reload(reloads)
    return code, False


# deskbench's GNOME Shell extension counts here the keymap reloads mutter has finished. A keymap change makes mutter
# drop and re-take its key grabs; a global shortcut (Ctrl+Alt+T) sent meanwhile reaches no one.
_KEYS_READY = '/tmp/deskbench/keys-ready'
_KEYMAP_RELOADS = '/tmp/deskbench/keymap-changes'


def _keymap_reloads():
    try:
        with open(_KEYMAP_RELOADS) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


def _await_keymap_reload(before, timeout=5.0):
    """Until the reload our keymap change caused is done; 20 ms where no extension counts (another desktop). It takes
    milliseconds on an idle desktop; the bound is for a loaded host, where a second was seen to pass before it."""
    if not os.path.exists(_KEYS_READY):
        time.sleep(0.02)
        return
    deadline = time.monotonic() + timeout
    while _keymap_reloads() <= before and time.monotonic() < deadline:
        time.sleep(0.005)


_SHIFT = None


def _shift_code():
    global _SHIFT
    if _SHIFT is None:
        _SHIFT = _d().keysym_to_keycode(XK.string_to_keysym("Shift_L"))
    return _SHIFT


def _fake_key(down, key):
    code, shift = _keycode(_keysym(key))
    d = _d()
    if down:
        if shift:
            xtest.fake_input(d, X.KeyPress, _shift_code())
        xtest.fake_input(d, X.KeyPress, code)
    else:
        xtest.fake_input(d, X.KeyRelease, code)
        if shift:
            xtest.fake_input(d, X.KeyRelease, _shift_code())
    d.sync()


# --- helpers -----------------------------------------------------------------------------------------------------

def _failsafe_check():
    if FAILSAFE and tuple(position()) in [tuple(p) for p in FAILSAFE_POINTS]:
        raise FailSafeException(
            "PyAutoGUI fail-safe triggered from mouse moving to a corner of the screen. "
            "To disable this fail-safe, set pyautogui.FAILSAFE to False.")


def _handle_pause(_pause_flag=True):
    if _pause_flag and PAUSE:
        time.sleep(PAUSE)


def _button(button):
    key = button.lower() if isinstance(button, str) else button
    if key not in _BUTTONS:
        raise PyAutoGUIException("button argument must be one of %r, not %r" % (sorted(map(str, _BUTTONS)), button))
    return _BUTTONS[key]


def _unpack(x, y):
    """pyautogui accepts (x, y), ((x, y),), None for 'current', and floats."""
    if isinstance(x, (tuple, list)):
        x, y = x[0], x[1]
    elif isinstance(x, str):
        raise PyAutoGUIException("image locating is not supported in this desktop")
    cur = position()
    return (int(round(cur.x if x is None else x)), int(round(cur.y if y is None else y)))


def linear(n):
    return n


def easeInQuad(n):
    return n * n


def easeOutQuad(n):
    return -n * (n - 2)


def easeInOutQuad(n):
    return 2 * n * n if n < 0.5 else -2 * n * n + 4 * n - 1


def __getattr__(name):
    # Any other pyautogui tween function (easeInOutElastic, ...): a linear tween moves to the same end point.
    if name.startswith("ease"):
        return linear
    raise AttributeError("module 'pyautogui' has no attribute %r" % name)


def _motion(x, y):
    xtest.fake_input(_d(), X.MotionNotify, x=x, y=y)
    _d().sync()


def _move_to(x, y, duration=0.0, tween=linear):
    sx, sy = position()
    if duration and duration > MINIMUM_DURATION:
        steps = max(int(duration / MINIMUM_SLEEP), 1)
        for i in range(1, steps + 1):
            t = tween(i / steps)
            _motion(int(round(sx + (x - sx) * t)), int(round(sy + (y - sy) * t)))
            time.sleep(duration / steps)
    _motion(x, y)


# --- screen ------------------------------------------------------------------------------------------------------

def size():
    screen = _d().screen()
    return Size(screen.width_in_pixels, screen.height_in_pixels)


resolution = size


def position(x=None, y=None):
    pointer = _root().query_pointer()
    return Point(int(pointer.root_x if x is None else x), int(pointer.root_y if y is None else y))


def onScreen(x, y=None):
    if isinstance(x, (tuple, list)):
        x, y = x
    width, height = size()
    return 0 <= x < width and 0 <= y < height


def screenshot(imageFilename=None, region=None):
    from PIL import Image

    width, height = size()
    left, top, w, h = region if region else (0, 0, width, height)
    raw = _root().get_image(left, top, w, h, X.ZPixmap, 0xFFFFFFFF)
    image = Image.frombytes("RGB", (w, h), raw.data, "raw", "BGRX")
    if imageFilename:
        image.save(imageFilename)
    return image


def pixel(x, y):
    return screenshot(region=(x, y, 1, 1)).getpixel((0, 0))


def pixelMatchesColor(x, y, expectedRGBColor, tolerance=0):
    actual = pixel(x, y)
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expectedRGBColor))


def _not_supported(*_args, **_kwargs):
    raise ImageNotFoundException("image locating is not supported in this desktop (no OpenCV/pyscreeze)")


locateOnScreen = locateCenterOnScreen = locateAllOnScreen = locate = locateAll = _not_supported


def sleep(seconds):
    time.sleep(seconds)


# --- mouse -------------------------------------------------------------------------------------------------------

def moveTo(x=None, y=None, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    _failsafe_check()
    x, y = _unpack(x, y)
    _move_to(x, y, duration, tween)
    _handle_pause(_pause)


def moveRel(xOffset=None, yOffset=None, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    if isinstance(xOffset, (tuple, list)):
        xOffset, yOffset = xOffset[0], xOffset[1]
    cur = position()
    moveTo(cur.x + int(xOffset or 0), cur.y + int(yOffset or 0), duration, tween, logScreenshot, _pause)


move = moveRel


def mouseDown(x=None, y=None, button=PRIMARY, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    _failsafe_check()
    if x is not None or y is not None:
        _move_to(*_unpack(x, y), duration, tween)
    xtest.fake_input(_d(), X.ButtonPress, _button(button))
    _d().sync()
    _handle_pause(_pause)


def mouseUp(x=None, y=None, button=PRIMARY, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    _failsafe_check()
    if x is not None or y is not None:
        _move_to(*_unpack(x, y), duration, tween)
    xtest.fake_input(_d(), X.ButtonRelease, _button(button))
    _d().sync()
    _handle_pause(_pause)


def click(x=None, y=None, clicks=1, interval=0.0, button=PRIMARY, duration=0.0, tween=linear,
          logScreenshot=False, _pause=True):
    _failsafe_check()
    if x is not None or y is not None:
        _move_to(*_unpack(x, y), duration, tween)
    code = _button(button)
    for i in range(int(clicks)):
        xtest.fake_input(_d(), X.ButtonPress, code)
        xtest.fake_input(_d(), X.ButtonRelease, code)
        _d().sync()
        if interval and i < clicks - 1:
            time.sleep(interval)
    _handle_pause(_pause)


def leftClick(x=None, y=None, interval=0.0, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    click(x, y, 1, interval, LEFT, duration, tween, logScreenshot, _pause)


def rightClick(x=None, y=None, interval=0.0, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    click(x, y, 1, interval, RIGHT, duration, tween, logScreenshot, _pause)


def middleClick(x=None, y=None, interval=0.0, duration=0.0, tween=linear, logScreenshot=False, _pause=True):
    click(x, y, 1, interval, MIDDLE, duration, tween, logScreenshot, _pause)


def doubleClick(x=None, y=None, interval=0.0, button=LEFT, duration=0.0, tween=linear, logScreenshot=False,
                _pause=True):
    click(x, y, 2, interval, button, duration, tween, logScreenshot, _pause)


def tripleClick(x=None, y=None, interval=0.0, button=LEFT, duration=0.0, tween=linear, logScreenshot=False,
                _pause=True):
    click(x, y, 3, interval, button, duration, tween, logScreenshot, _pause)


def dragTo(x=None, y=None, duration=0.0, tween=linear, button=PRIMARY, logScreenshot=False, _pause=True,
           mouseDownUp=True):
    _failsafe_check()
    x, y = _unpack(x, y)
    code = _button(button)
    if mouseDownUp:
        xtest.fake_input(_d(), X.ButtonPress, code)
        _d().sync()
    # A drag needs intermediate motion for most toolkits to notice it.
    _move_to(x, y, max(duration, MINIMUM_DURATION + MINIMUM_SLEEP), tween)
    if mouseDownUp:
        xtest.fake_input(_d(), X.ButtonRelease, code)
        _d().sync()
    _handle_pause(_pause)


def dragRel(xOffset=0, yOffset=0, duration=0.0, tween=linear, button=PRIMARY, logScreenshot=False, _pause=True,
            mouseDownUp=True):
    if isinstance(xOffset, (tuple, list)):
        xOffset, yOffset = xOffset[0], xOffset[1]
    cur = position()
    dragTo(cur.x + int(xOffset), cur.y + int(yOffset), duration, tween, button, logScreenshot, _pause, mouseDownUp)


drag = dragRel


def _scroll_buttons(clicks, positive, negative, x, y):
    if x is not None or y is not None:
        _move_to(*_unpack(x, y))
    code = positive if clicks > 0 else negative
    for _ in range(abs(int(clicks))):
        xtest.fake_input(_d(), X.ButtonPress, code)
        xtest.fake_input(_d(), X.ButtonRelease, code)
    _d().sync()


def scroll(clicks, x=None, y=None, logScreenshot=False, _pause=True):
    """Positive clicks scroll up, negative down (X buttons 4 and 5)."""
    _failsafe_check()
    _scroll_buttons(clicks, 4, 5, x, y)
    _handle_pause(_pause)


vscroll = scroll


def hscroll(clicks, x=None, y=None, logScreenshot=False, _pause=True):
    """Positive clicks scroll right, negative left (X buttons 7 and 6)."""
    _failsafe_check()
    _scroll_buttons(clicks, 7, 6, x, y)
    _handle_pause(_pause)


# --- keyboard ----------------------------------------------------------------------------------------------------

def keyDown(key, logScreenshot=False, _pause=True):
    _failsafe_check()
    _fake_key(True, key)
    _handle_pause(_pause)


def keyUp(key, logScreenshot=False, _pause=True):
    _failsafe_check()
    _fake_key(False, key)
    _handle_pause(_pause)


def press(keys, presses=1, interval=0.0, logScreenshot=False, _pause=True):
    if isinstance(keys, str):
        keys = [keys]
    _failsafe_check()
    for i in range(int(presses)):
        for key in keys:
            _fake_key(True, key)
            _fake_key(False, key)
            if interval:
                time.sleep(interval)
    _handle_pause(_pause)


def typewrite(message, interval=0.0, logScreenshot=False, _pause=True):
    """Types each character of a string (or presses each key name of a list); '\\n' is Enter."""
    _failsafe_check()
    for key in message:
        _fake_key(True, key)
        _fake_key(False, key)
        if interval:
            time.sleep(interval)
    _handle_pause(_pause)


write = typewrite


def hotkey(*args, **kwargs):
    keys = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    interval = kwargs.get("interval", 0.0)
    _failsafe_check()
    for key in keys:
        _fake_key(True, key)
        if interval:
            time.sleep(interval)
    for key in reversed(keys):
        _fake_key(False, key)
        if interval:
            time.sleep(interval)
    _handle_pause(kwargs.get("_pause", True))


class _Hold:
    def __init__(self, keys):
        self.keys = [keys] if isinstance(keys, str) else list(keys)

    def __enter__(self):
        for key in self.keys:
            keyDown(key)

    def __exit__(self, *exc):
        for key in reversed(self.keys):
            keyUp(key)


def hold(keys, logScreenshot=None, _pause=True):
    return _Hold(keys)
