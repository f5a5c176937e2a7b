// Where apps open on OSWorld's VM. Agents act at coordinates read off screenshots, and the agents scored on
// OSWorld-Verified saw Chrome, VS Code, GIMP and Thunderbird maximized (each app's own saved state there, which a
// fresh container does not have), VLC's main window at one spot, and clicked in Settings as if its window were at
// one spot. Not the terminal: it opens at its profile's size
// there (agents clicked its menu at x 841 in 13584542, whose check needs a new terminal of the profile's size); tasks
// that want it maximized launch `gnome-terminal --maximize`. This places each new main window
// of those apps the same way, however the app was started: by a task's setup, the dock, or a command the agent typed.
// Two kinds of dialog are placed too, where agents' clicks on OSWorld-Verified show them: GTK's file chooser (every app's
// Open and Save As) centred in the work area, and VLC's Preferences at its saved spot. Other dialogs, pop-ups and
// windows of these apps are left where the app and mutter put them (modal dialogs are not attached to their parent, as on
// the VM: attach-modal-dialogs in 95_osworld-screen.gschema.override). LibreOffice is not
// listed: it opens maximized by itself (its profile says so). The rectangles are measured on OSWorld's screenshots
// (docs/desktop.md, "Window placement"), except Settings', inferred from clicks (docs/desktop.md, "The Settings app").
const { GLib, Meta } = imports.gi;

/** One rule per main window: its WM_CLASS (res_class), its WM_WINDOW_ROLE, and what to do with it. */
const RULES = [
    { app: 'Chrome', wmClass: /^google-chrome$/i, role: /^browser$/, maximize: true },
    { app: 'VS Code', wmClass: /^code$/i, maximize: true },
    { app: 'GIMP', wmClass: /^gimp/i, role: /^gimp-image-window/, maximize: true },
    { app: 'Thunderbird', wmClass: /^thunderbird/i, role: /^3pane$/, maximize: true },
    // VLC's main window keeps its size; its frame's top-left corner goes where OSWorld's was.
    { app: 'VLC', wmClass: /^vlc$/i, role: /^vlc-main$/, moveTo: [646, 327] },
    // Settings: where Ubuntu 22.04's gnome-control-center 41 window was inferred to open (its size, 980 x 707, is
    // org.gnome.Settings' window-state in 95_osworld-screen.gschema.override; docs/desktop.md, "The Settings app").
    { app: 'Settings', wmClass: /^gnome-control-center$/i, moveTo: [505, 139] },
];

/** Dialogs (windows with a parent) placed by their WM_CLASS and WM_WINDOW_ROLE. */
const DIALOG_RULES = [
    // GTK 3's file chooser at 1203 x 957 in the middle of the work area, as VS Code's and LibreOffice's were on the
    // VM: agents click its Save at (1546, 91–106) and its Open at (1546, 99) in LibreOffice, Thunderbird and VS Code
    // (docs/desktop.md, "Dialogs"). GTK sizes it by what each app asks, and mutter centres it on the parent's client
    // area, 18 px lower.
    // Chrome's is smaller: the VM's Chrome asked the desktop portal, whose chooser opens at GTK 4's default size,
    // centred on Chrome; agents click its Save or Open at (1369, 387) and Desktop in its sidebar at x 641.
    { app: "Chrome's file chooser", wmClass: /^(chrome|google-chrome|chromium)$/i, role: /^GtkFileChooserDialog$/, size: [840, 385] },
    { app: 'file chooser', wmClass: /./, role: /^GtkFileChooserDialog$/, size: [1203, 957] },
    // VLC's Tools › Preferences: VLC's default 800 x 700 with its frame's left edge at x 442, 104 px left of where
    // mutter centres it over the main window here, at VLC's saved geometry on the VM (f3977615's trajectory by UI-TARS
    // ticks a box at x 582 and clicks Save at (1192, 900)); y as mutter puts it, which the clicks agree with.
    { app: 'VLC Preferences', wmClass: /^vlc$/i, role: /^vlc-preferences$/, moveTo: [442, 187] },
];

function ruleFor(window) {
    const wmClass = window.get_wm_class() ?? '';
    const role = window.get_role() ?? '';
    const matches = (rule) => rule.wmClass.test(wmClass) && (!rule.role || rule.role.test(role));
    if (window.get_transient_for())
        return DIALOG_RULES.find(matches) ?? null;
    if (window.get_window_type() !== Meta.WindowType.NORMAL)
        return null;
    return RULES.find(matches) ?? null;
}

/** Places a window's frame: at a rule's spot, or at a rule's size in the middle of the work area of its monitor. */
function place(window, rule) {
    if (rule.moveTo) {
        window.move_frame(true, ...rule.moveTo);
        return;
    }
    const area = window.get_work_area_current_monitor();
    const [width, height] = rule.size.map((side, i) => Math.min(side, i ? area.height : area.width));
    window.move_resize_frame(true, area.x + Math.floor((area.width - width) / 2),
        area.y + Math.floor((area.height - height) / 2), width, height);
}

class OsworldWindows {
    enable() {
        this._createdId = global.display.connect('window-created', (_display, window) => this._place(window));
    }

    _place(window) {
        const rule = ruleFor(window);
        if (!rule)
            return;
        if (rule.maximize) {
            // Before the first frame: the window appears maximized, never small first.
            window.maximize(Meta.MaximizeFlags.BOTH);
            return;
        }
        // A position sticks once mutter has placed the window and the app has set its own, which is done by the window's
        // first frame. Its actor exists once this signal's handlers have run.
        GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            const actor = window.get_compositor_private();
            const firstFrameId = actor?.connect('first-frame', () => {
                actor.disconnect(firstFrameId);
                place(window, rule);
            });
            return GLib.SOURCE_REMOVE;
        });
    }

    disable() {
        if (this._createdId)
            global.display.disconnect(this._createdId);
        this._createdId = 0;
    }
}

function init() {
    return new OsworldWindows();
}
