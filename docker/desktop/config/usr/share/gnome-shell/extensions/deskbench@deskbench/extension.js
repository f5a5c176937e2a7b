// deskbench's shell extension. Ubuntu's GNOME starts on the desktop, upstream GNOME on the Activities overview:
// once the shell has finished starting, leave the overview. Then write /tmp/deskbench/shell-ready, which the
// container's session script waits for before the control server answers (ready = the shell is drawn).
const { GLib } = imports.gi;
const Main = imports.ui.main;

const READY_FILE = '/tmp/deskbench/shell-ready';

class DeskbenchSession {
    enable() {
        if (Main.layoutManager._startingUp)
            this._startupId = Main.layoutManager.connect('startup-complete', () => this._started());
        else
            this._started();
    }

    _started() {
        Main.overview.hide();
        // The next frame shows the desktop without the overview.
        GLib.idle_add(GLib.PRIORITY_LOW, () => {
            GLib.file_set_contents(READY_FILE, `${Date.now()}\n`);
            return GLib.SOURCE_REMOVE;
        });
    }

    disable() {
        if (this._startupId)
            Main.layoutManager.disconnect(this._startupId);
        this._startupId = 0;
    }
}

function init() {
    return new DeskbenchSession();
}
