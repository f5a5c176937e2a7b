// Ctrl+V in the Activities overview pastes into its search box, as it did on OSWorld's Ubuntu 22.04 (GNOME 42).
// Agents scored there open the overview and type an app's name through the clipboard (pyperclip.copy, then Ctrl+V);
// GNOME 43 starts a search only from a printable key, so the paste went nowhere here until the box was clicked.
const { Clutter, St } = imports.gi;
const Main = imports.ui.main;

class OverviewPaste {
    enable() {
        this._keyPressId = global.stage.connect('key-press-event', (_stage, event) => this._onKeyPress(event));
    }

    _onKeyPress(event) {
        const ctrl = (event.get_state() & Clutter.ModifierType.CONTROL_MASK) !== 0;
        const symbol = event.get_key_symbol();
        if (!Main.overview.visible || !ctrl || (symbol !== Clutter.KEY_v && symbol !== Clutter.KEY_V))
            return Clutter.EVENT_PROPAGATE;
        const entry = Main.overview.searchEntry;
        // A search box that already has the keyboard pastes by itself.
        if (global.stage.get_key_focus() === entry.clutter_text)
            return Clutter.EVENT_PROPAGATE;
        entry.grab_key_focus();
        St.Clipboard.get_default().get_text(St.ClipboardType.CLIPBOARD, (_clipboard, text) => {
            if (text)
                entry.clutter_text.insert_text(text, entry.clutter_text.get_cursor_position());
        });
        return Clutter.EVENT_STOP;
    }

    disable() {
        if (this._keyPressId)
            global.stage.disconnect(this._keyPressId);
        this._keyPressId = 0;
    }
}

function init() {
    return new OverviewPaste();
}
