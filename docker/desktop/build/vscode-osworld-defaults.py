"""Image build step: code-server's workbench shown as OSWorld's VS Code 1.91 (titleBarStyle native) shows itself.

Each part fails the build when code-server's files no longer look as expected (a new code-server version): check the
changes then. In out/vs/workbench/workbench.web.main.js (VS Code 1.90 for the web):
- Defaults (DEFAULTS): a menu bar (File Edit Selection View Go Run Terminal Help) instead of the web's compact
  (hamburger) menu, no command centre, no layout controls, no auto-save. The workbench reads these application-wide
  settings once at start, before any extension's configurationDefaults arrive, so their defaults change in the
  workbench itself; a user's or a task's settings.json still overrides them, as on OSWorld.
- Workbench patches (WORKBENCH_PATCHES): the Explorer's side bar as OSWorld's VM keeps it (shown with no folder, 256 px
  wide), and the desktop VS Code's menus (the gear's Backup and Sync Settings... and Check for Updates..., File >
  Preferences' User Tasks): they decide where the editor's pages and the menus' rows sit, where agents click.
- File dialogs: the desktop VS Code's are GTK's file chooser; the web workbench's file dialog service is routed to a
  built-in extension's command that shows one on the desktop (deskbench-gtk-dialogs), the quick pick kept as fallback.
- VS Code's name: product.json names the product "code-server", which the workbench puts at the end of every window
  title ("hello.py - ws - code-server"); OSWorld's windows say "Visual Studio Code" (code-server 4.90's --app-name
  brands only its login page and manifest), so the product's names, compiled into each bundle, become VS Code's own;
  the same product fields open the Welcome page on its main page, as on OSWorld's VM.
The stylesheet osworld.css, linked here from workbench.html (out/vs/code/browser/workbench/), draws the menu bar as GTK's.
Usage: vscode-osworld-defaults.py <code-server>/lib/vscode/out
"""
import glob
import re
import sys

OUT = sys.argv[1]  # …/lib/vscode/out
MAIN = f'{OUT}/vs/workbench/workbench.web.main.js'
HTML = f'{OUT}/vs/code/browser/workbench/workbench.html'

# Each setting's definition in the minified configuration registry: a string key, or a LayoutSettings constant.
DEFAULTS = {
    'window.menuBarVisibility': (r'"window\.menuBarVisibility":\{', '"classic"'),
    'window.commandCenter': (r'\[\w+\.LayoutSettings\.COMMAND_CENTER\]:\{', '!1'),
    'workbench.layoutControl.enabled': (r'\[\w+\.LayoutSettings\.LAYOUT_ACTIONS\]:\{', '!1'),
    # VS Code for the web saves edits by itself after a second; the desktop VS Code of OSWorld's VM saves on Ctrl+S only,
    # so a task that asks to save is not done by typing alone.
    'files.autoSave': (r'"files\.autoSave":\{', '"off"'),
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


with open(MAIN, encoding='utf-8') as f:
    js = f.read()
for key, (pattern, value) in DEFAULTS.items():
    found = [m.end() for m in re.finditer(pattern, js)]
    if len(found) != 1:
        raise SystemExit(f'{key}: expected one definition in workbench.web.main.js, found {len(found)}')
    at = js.find('default:', found[0])
    if at < 0 or at - found[0] > 600:
        raise SystemExit(f'{key}: no default near its definition')
    start = at + len('default:')
    print(f'VS Code: {key} default {js[start:value_end(js, start)]} -> {value}')
    js = js[:start] + value + js[value_end(js, start):]

# Workbench patches, each a regular expression that must match once in workbench.web.main.js and its replacement.
SYNC = '"workbench.userDataSync.actions.turnOn"'
WORKBENCH_PATCHES = {
    # The side bar: OSWorld's VS Code shows the Explorer in a window with no folder too ("No Folder Opened", Open
    # Folder: vs_code-initial-welcome.jpg), 256 px wide, the size a fresh VS Code gives it in a 1024 px window (a
    # quarter) and then keeps in its profile, though the window now opens maximized (a fresh one would give it 300). It
    # decides where the editor's centred pages sit: with it, New File... on the Welcome page is where agents on
    # OSWorld's VM click it (672, 407), and so are the Settings editor's search box (599, 151) and its number fields
    # (827 and 879, 298).
    'side bar of a window with no folder shown': (
        r'(\w+\.SIDEBAR_HIDDEN\.defaultValue=)this\.\w+\.getWorkbenchState\(\)===\w+\.WorkbenchState\.EMPTY', r'\g<1>!1'),
    'side bar 256 px wide': (r'(\w+\.SIDEBAR_SIZE\.defaultValue=)Math\.min\(300,\w+\.width/4\)', r'\g<1>256'),
    # The Manage (gear) menu of the desktop VS Code ends with "Backup and Sync Settings..." and "Check for Updates...",
    # each in a group of its own; the web workbench has neither (no settings-sync store, so the sync contribution stays
    # off; no update service, so the update item's `when` is false). The menu opens upwards from the gear, so these two
    # rows and their separators (74 px) decide where Settings and Themes sit: agents on OSWorld's VM click Settings at y
    # 848 and Themes at y 967, 74 px above where the web workbench puts them. Both are shown here, next to the update
    # item's registration; choosing them does nothing (on OSWorld's VM, offline, they lead nowhere either).
    'Backup and Sync Settings...': (
        r'(\w+\.\$\w+)\.registerCommand\("update\.check",(.{0,80}?)\),(\w+\.\$\w+)\.appendMenuItem\((\w+\.\$\w+)\.GlobalActivity,'
        r'\{group:"7_update",command:\{id:"update\.check"',
        lambda m: (f'{m[1]}.registerCommand({SYNC},()=>{{}}),'
                   # in the gear menu below Themes; in File > Preferences last, below Online Services Settings
                   + ''.join(f'{m[3]}.appendMenuItem({m[4]}.{menu},{{group:"{group}",command:{{id:{SYNC},'
                             f'title:"Backup and Sync Settings..."}},order:2}}),'
                             for menu, group in (('GlobalActivity', '3_configuration'), ('MenubarPreferencesMenu', '4_sync')))
                   + m[0])),
    # File > Preferences lists User Tasks above Theme, as the gear menu does: its `when` (tasks supported, known once
    # the server answers) kept it out of the menu bar's submenu, which is built before; Doubao-1.5 clicks Theme at y
    # 680.
    'User Tasks in File > Preferences': (
        r'(appendMenuItem\(\w+\.\$\w+\.MenubarPreferencesMenu,\{command:\{id:\w+,title:\w+\}),when:\w+\.\$\w+,(group:"2_configuration",order:6\})',
        r'\1,\2'),
    'Check for Updates... shown': (
        r'(appendMenuItem\(\w+\.\$\w+\.GlobalActivity,\{group:"7_update",command:\{id:"update\.check",title:[^}]*\}),when:[^}]*\}',
        r'\1}'),
}
# Each patch must match exactly once: a new code-server version fails the build here rather than silently not patching.
for name, (pattern, replacement) in WORKBENCH_PATCHES.items():
    js, count = re.subn(pattern, replacement, js)
    if count != 1:
        raise SystemExit(f'{name}: expected one match in workbench.web.main.js, found {count}')
    print(f'VS Code: {name}')

# File dialogs: the desktop VS Code opens GTK's file chooser (Electron's dialog: vs_code-open-folder-dialog.jpg) for
# Open File..., Open Folder..., Save As..., the Create File dialog of New File... and extensions' showOpenDialog /
# showSaveDialog; the web workbench shows its "simple file dialog" (a quick pick with a path box) for the server's
# files. Agents on OSWorld's VM click in GTK's dialog (the places sidebar, the header bar's Open / Save / Create File),
# so here the abstract file dialog service, where every one of these dialogs ends (pickResource for the open
# dialogs, saveRemoteResource for the save dialogs, showOpenDialogSimplified for several files), first asks our
# built-in extension deskbench-gtk-dialogs (command deskbench.gtkFileDialog) for a GTK file chooser on the desktop.
# It answers the chosen paths (none: cancelled, and the caller does what VS Code's cancel does). The quick pick stays
# for other file systems, with files.simpleDialog.enable (VS Code's own setting for it), and whenever the command
# fails (no extension host yet, no display): a dialog always comes up. $deskbenchGtkFileDialog resolves to null for
# "use the quick pick", else to the chosen URIs (on the dialog's file system: the default URI's, or the user's home).
IDENT = r'[\w$]+'
GTK_CALL = ('async $deskbenchGtkFileDialog(save,options){'
            'const scheme=options.availableFileSystems?.[0]??options.defaultUri?.scheme;'
            'if(scheme!=="vscode-remote"||this.{config}.getValue("files.simpleDialog.enable")===true)return null;'
            'const onScheme=options.defaultUri?.scheme===scheme?options.defaultUri:void 0;let answer;'
            'try{answer=await this.{commands}.executeCommand("deskbench.gtkFileDialog",{save,title:options.title,'
            'label:save?options.saveLabel:options.openLabel,defaultPath:onScheme?.path,'
            'canSelectFiles:!!options.canSelectFiles,canSelectFolders:!!options.canSelectFolders,'
            'canSelectMany:!!options.canSelectMany,filters:options.filters})}'
            'catch(error){console.warn("deskbench: no GTK file dialog, the quick pick instead:",error);return null}'
            'if(!answer?.paths?.length)return[];'
            'const base=onScheme??await this.preferredHome(scheme);'
            'return answer.paths.map(path=>base.with({path,query:"",fragment:""}))}')


def one(pattern, what):
    found = list(re.finditer(pattern, js))
    if len(found) != 1:
        raise SystemExit(f'file dialogs, {what}: expected one match in workbench.web.main.js, found {len(found)}')
    return found[0]


# The service's configuration and command services, by the calls that name them (one each in the workbench).
config = one(rf'this\.({IDENT})\.inspect\("files\.dialog\.defaultPath"\)', 'configuration service')[1]
commands = one(rf'this\.({IDENT})\.executeCommand\("workbench\.action\.remote\.showMenu"\)', 'command service')[1]
# createSimpleFileDialog(){…} pickResource(options){…showOpenDialog…} saveRemoteResource(options){…showSaveDialog…}
dialogs = one(rf'({IDENT})\(\)\{{return this\.{IDENT}\.createInstance\({IDENT}\.{IDENT}\)\}}'
              rf'({IDENT})\(({IDENT})\)\{{return this\.\1\(\)\.showOpenDialog\(\3\)\}}'
              rf'({IDENT})\(({IDENT})\)\{{return this\.\1\(\)\.showSaveDialog\(\5\)\}}', 'dialog methods')
simple, pick, save = dialogs[1], dialogs[2], dialogs[4]
# pickResource(options, many): the chosen URI, or all of them when `many` (the quick pick picks one).
js = (js[:dialogs.start()] + dialogs[0][:dialogs.start(2) - dialogs.start()]
      + f'{pick}(options,many){{return this.$deskbenchGtkFileDialog(!1,options).then(uris=>uris===null?'
        f'this.{simple}().showOpenDialog(options).then(uri=>many&&uri?[uri]:uri):many?uris:uris[0])}}'
      + f'{save}(options){{return this.$deskbenchGtkFileDialog(!0,options).then(uris=>uris===null?'
        f'this.{simple}().showSaveDialog(options):uris[0])}}'
      + GTK_CALL.replace('{config}', config).replace('{commands}', commands)
      + js[dialogs.end():])
# showOpenDialogSimplified: every URI chosen when the dialog may choose several (canSelectMany), as Electron's does.
many = one(rf'(const ({IDENT})=await this\.){re.escape(pick)}\(({IDENT})\);return \2\?\[\2\]:void 0', 'open dialog')
js = js[:many.start()] + f'{many[1]}{pick}({many[3]},!0);return {many[2]}?.length?{many[2]}:void 0' + js[many.end():]
print('VS Code: file dialogs through deskbench.gtkFileDialog (GTK) unless files.simpleDialog.enable')

with open(MAIN, 'w', encoding='utf-8') as f:
    f.write(js)

LINK = '<link data-name="vs/workbench/workbench.web.main" rel="stylesheet" href="{{WORKBENCH_WEB_BASE_URL}}/out/vs/workbench/workbench.web.main.css">'
OURS = '<link rel="stylesheet" href="{{WORKBENCH_WEB_BASE_URL}}/out/vs/code/browser/workbench/osworld.css">'
with open(HTML, encoding='utf-8') as f:
    html = f.read()
if html.count(LINK) != 1:
    raise SystemExit('workbench.html: the workbench.web.main.css link is not there once')
html = html.replace(LINK, LINK + '\n\t\t' + OURS)
with open(HTML, 'w', encoding='utf-8') as f:
    f.write(html)
# The product's names are compiled into each bundle (product.json is not read at run time).
PRODUCT_NAMES = 'nameShort:"code-server",nameLong:"code-server"'
# The Welcome page opens on its main page (Start: New File…, Open File…; Recent; Walkthroughs), as on OSWorld's VM,
# where VS Code's first session lies days back; on a first session it would open the first walkthrough instead.
OSWORLD_PRODUCT = 'nameShort:"Code",nameLong:"Visual Studio Code",openToWelcomeMainPage:!0'
renamed = []
for path in glob.glob(f'{OUT}/**/*.js', recursive=True):
    with open(path, encoding='utf-8') as f:
        code = f.read()
    if PRODUCT_NAMES in code:
        with open(path, 'w', encoding='utf-8') as f:
            f.write(code.replace(PRODUCT_NAMES, OSWORLD_PRODUCT))
        renamed.append(path[len(OUT) + 1:])
if 'vs/workbench/workbench.web.main.js' not in renamed:
    raise SystemExit(f'product names: not found in the workbench (renamed in {renamed})')
print(f'VS Code: product named "Visual Studio Code" in {", ".join(sorted(renamed))}')
print('VS Code: OSWorld defaults, Manage menu, file dialogs, menu bar style, product name and Welcome page in place')
