// Ctrl+V in the Activities overview pastes into its search box, as it did on OSWorld's Ubuntu 22.04 (GNOME 42).
// Agents scored there open the overview and type an app's name through the clipboard (pyperclip.copy, then Ctrl+V);
// GNOME 43 starts a search only from a printable key, so the paste went nowhere here until the box was clicked.
const { Clutter, GLib, St } = imports.gi;
const Main = imports.ui.main;

class OverviewPaste {
    enable() {
        // Before any actor sees the key: the search box's own Ctrl+V did not paste either once it had been clicked
        // (UI-TARS's trajectory for the remove-vim task: Show Applications, click the box, paste; nothing arrived).
        this._keyPressId = global.stage.connect('captured-event', (_stage, event) =>
            event.type() === Clutter.EventType.KEY_PRESS ? this._onKeyPress(event) : Clutter.EVENT_PROPAGATE);
    }

    _onKeyPress(event) {
        const ctrl = (event.get_state() & Clutter.ModifierType.CONTROL_MASK) !== 0;
        const symbol = event.get_key_symbol();
        if (!Main.overview.visible || !ctrl || (symbol !== Clutter.KEY_v && symbol !== Clutter.KEY_V))
            return Clutter.EVENT_PROPAGATE;
        const entry = Main.overview.searchEntry;
        const focus = global.stage.get_key_focus();
        // Another text field (an app folder's name being edited) pastes by itself.
        if (focus instanceof Clutter.Text && focus !== entry.clutter_text)
            return Clutter.EVENT_PROPAGATE;
        if (focus !== entry.clutter_text)
            entry.grab_key_focus();
        this._paste(entry, 20);
        return Clutter.EVENT_STOP;
    }

    // pyperclip.copy (xclip) just before Ctrl+V: the shell may not know the clipboard's new owner yet and reads
    // nothing, so an empty read is tried again every 50ms for up to a second.
    _paste(entry, tries) {
        St.Clipboard.get_default().get_text(St.ClipboardType.CLIPBOARD, (_clipboard, text) => {
            if (!text) {
                if (tries > 1) {
                    this._retryId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
                        this._retryId = 0;
                        this._paste(entry, tries - 1);
                        return GLib.SOURCE_REMOVE;
                    });
                }
                return;
            }
            // As StEntry pastes: over the selection, at the cursor.
            entry.clutter_text.delete_selection();
            entry.clutter_text.insert_text(text, entry.clutter_text.get_cursor_position());
        });
    }

    disable() {
        if (this._retryId)
            GLib.source_remove(this._retryId);
        this._retryId = 0;
        if (this._keyPressId)
            global.stage.disconnect(this._keyPressId);
        this._keyPressId = 0;
    }
}

function init() {
    return new OverviewPaste();
}
