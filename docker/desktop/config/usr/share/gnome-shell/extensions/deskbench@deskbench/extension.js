// deskbench's shell extension. Ubuntu's GNOME starts on the desktop, upstream GNOME on the Activities overview:
// once the shell has finished starting, leave the overview. Then write /tmp/deskbench/shell-ready, which the
// container's session script waits for before it starts the settings daemons. Then write /tmp/deskbench/keys-ready
// once keys work (see _waitForKeys) and the desktop is drawn, which the session script waits for before the control
// server answers: an agent's first Ctrl+Alt+T must open a terminal, not reach no one. From then on, count in
// /tmp/deskbench/keymap-changes the keymap reloads mutter has finished (see _keymapChanged).
const { Clutter, GLib, Meta } = imports.gi;
const Main = imports.ui.main;

const READY_FILE = '/tmp/deskbench/shell-ready';
const KEYS_READY_FILE = '/tmp/deskbench/keys-ready';
const KEYMAP_CHANGES_FILE = '/tmp/deskbench/keymap-changes';
// Ctrl+Alt+T as mutter matches it: the X keycode of T on Xvfb's evdev keymap (KEY_T 20 + 8), Control | Mod1.
const T_KEYCODE = 28;
const CONTROL_ALT = (1 << 2) | (1 << 3);

/** Whether a grab answers Ctrl+Alt+T: gsd-media-keys grabs all its keys (this one too) in one call to the shell. */
function ctrlAltTBound() {
    return global.display.get_keybinding_action(T_KEYCODE, CONTROL_ALT) !== 0;
}

class DeskbenchSession {
    enable() {
        this._polls = new Set();
        this._keymapChanges = 0;
        if (Main.layoutManager._startingUp)
            this._startupId = Main.layoutManager.connect('startup-complete', () => this._started());
        else
            this._started();
    }

    _started() {
        Main.overview.hide();
        // The settings daemons start now (session.sh), while the shell draws the desktop: keys-ready waits for both.
        GLib.file_set_contents(READY_FILE, `${Date.now()}\n`);
        // The first moment the shell is idle: the desktop is drawn without the overview.
        this._drawn = new Promise((resolve) => {
            GLib.idle_add(GLib.PRIORITY_LOW, () => {
                resolve();
                return GLib.SOURCE_REMOVE;
            });
        });
        this._waitForKeys();
    }

    // Ready for keys once gsd-media-keys has grabbed its keys (some time after it starts) and the first synthetic key
    // has come and gone: the X server's XTEST keyboard carries a keymap of its own, so the first XTEST key of the
    // session makes mutter reload its keymap and grabs, and a key arriving meanwhile (an agent's first Ctrl+Alt+T)
    // reaches no one. A Shift press from here takes that first key.
    async _waitForKeys() {
        await this._until(ctrlAltTBound);
        let reloaded = false;
        const keymapId = Meta.get_backend().connect('keymap-changed', () => (reloaded = true));
        const keyboard = Clutter.get_default_backend().get_default_seat()
            .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
        keyboard.notify_keyval(GLib.get_monotonic_time(), Clutter.KEY_Shift_L, Clutter.KeyState.PRESSED);
        keyboard.notify_keyval(GLib.get_monotonic_time(), Clutter.KEY_Shift_L, Clutter.KeyState.RELEASED);
        // A server whose XTEST keymap matches never reloads: go on after a second.
        const since = GLib.get_monotonic_time();
        await this._until(() => reloaded || GLib.get_monotonic_time() - since > 1e6);
        Meta.get_backend().disconnect(keymapId);
        await this._until(ctrlAltTBound);
        await this._drawn;
        GLib.file_set_contents(KEYS_READY_FILE, `${Date.now()}\n`);
        this._keymapId = Meta.get_backend().connect('keymap-changed', () => this._keymapChanged());
    }

    // Any later keymap change reloads mutter's grabs the same way (the pyautogui shim binds a spare keycode to type a
    // character the keyboard lacks), and a key arriving during a reload reaches no one. The shim reads this count
    // before its change and sends its next key once the count has gone up.
    async _keymapChanged() {
        await this._until(ctrlAltTBound);
        GLib.file_set_contents(KEYMAP_CHANGES_FILE, `${++this._keymapChanges}\n`);
    }

    /** Resolves once `ready()` holds, checking every 25 ms (never, if the extension is disabled meanwhile). */
    _until(ready) {
        return new Promise((resolve) => {
            const id = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 25, () => {
                if (!ready())
                    return GLib.SOURCE_CONTINUE;
                this._polls.delete(id);
                resolve();
                return GLib.SOURCE_REMOVE;
            });
            this._polls.add(id);
        });
    }

    disable() {
        if (this._startupId)
            Main.layoutManager.disconnect(this._startupId);
        if (this._keymapId)
            Meta.get_backend().disconnect(this._keymapId);
        for (const id of this._polls)
            GLib.source_remove(id);
        this._polls.clear();
        this._startupId = this._keymapId = 0;
    }
}

function init() {
    return new DeskbenchSession();
}
