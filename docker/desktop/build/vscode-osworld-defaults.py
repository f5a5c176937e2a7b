"""Image build step: code-server's workbench shown as OSWorld's VS Code 1.91 (titleBarStyle native) shows itself.

VS Code for the web defaults to a compact (hamburger) menu, a command centre and layout controls in its title bar;
VS Code on OSWorld's Linux VM has a menu bar (File Edit Selection View Go Run Terminal Help) and neither of the others.
These are application-wide settings the workbench reads once at start, before any extension's configurationDefaults
arrive, so their defaults are changed in the workbench itself. A user's or a task's settings.json still overrides
them, as on OSWorld. The stylesheet osworld.css, linked here from workbench.html, draws that menu bar as GTK's.
Fails the build when code-server's files no longer look as expected (a new code-server version): check the changes.
"""
import re
import sys

WORKBENCH = sys.argv[1]  # …/lib/vscode/out/vs/code/browser/workbench

DEFAULTS = {
    'window.menuBarVisibility': '"classic"',
    'window.commandCenter': '!1',
    'workbench.layoutControl.enabled': '!1',
}


def value_end(text, start):
    """Where the JavaScript expression starting at `start` ends: the first , or } outside brackets and strings."""
    depth, quote, i = 0, None, start
    while i < len(text):
        c = text[i]
        if quote:
            if c == '\\':
                i += 1
            elif c == quote:
                quote = None
        elif c in '"\'`':
            quote = c
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                return i
            depth -= 1
        elif c == ',' and depth == 0:
            return i
        i += 1
    raise SystemExit('unterminated expression')


with open(f'{WORKBENCH}/workbench.js', encoding='utf-8') as f:
    js = f.read()
for key, value in DEFAULTS.items():
    found = [m.end() for m in re.finditer(re.escape(f'"{key}":{{'), js)]
    if len(found) != 1:
        raise SystemExit(f'{key}: expected one definition in workbench.js, found {len(found)}')
    at = js.index('default:', found[0])
    if at - found[0] > 600:
        raise SystemExit(f'{key}: no default near its definition')
    start = at + len('default:')
    js = js[:start] + value + js[value_end(js, start):]
with open(f'{WORKBENCH}/workbench.js', 'w', encoding='utf-8') as f:
    f.write(js)

LINK = '<link rel="stylesheet" href="{{WORKBENCH_WEB_BASE_URL}}/out/vs/code/browser/workbench/workbench.css">'
with open(f'{WORKBENCH}/workbench.html', encoding='utf-8') as f:
    html = f.read()
if html.count(LINK) != 1:
    raise SystemExit('workbench.html: the workbench.css link is not there once')
html = html.replace(LINK, LINK + '\n\t\t' + LINK.replace('workbench.css', 'osworld.css'))
with open(f'{WORKBENCH}/workbench.html', 'w', encoding='utf-8') as f:
    f.write(html)
print('VS Code: OSWorld defaults and menu bar style in place')
