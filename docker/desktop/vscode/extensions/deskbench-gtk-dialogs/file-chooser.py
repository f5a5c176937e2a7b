"""GTK 3 file chooser for VS Code's file dialogs, as the desktop VS Code (Electron) shows them on Ubuntu.

Run by extension.js (the extension host, on the desktop as the desktop's user): one dialog per process.
Usage: file-chooser.py '<JSON request>'; prints one JSON line: {"paths": [...]} (empty: cancelled).
The request: {"save": bool, "title": str, "label": str|null, "defaultPath": str|null, "canSelectFiles": bool,
"canSelectFolders": bool, "canSelectMany": bool, "filters": [{"name": str, "extensions": [str]}]|null}.

Electron builds its dialogs with gtk_file_chooser_dialog_new: header bar (GNOME's gtk-dialogs-use-header) with
"Cancel" on the left and the accept button on the right, styled as the suggested action (Yaru's green); Save dialogs
put the "Name:" entry in the header bar instead of the title. The dialog is made transient for the VS Code window
(its X window, found by WM_CLASS "Code"), so that it stays above it and the shell groups them.

Where it appears: Electron's dialogs on OSWorld's Ubuntu VM come up centred in the monitor's work area (right of
the dock, below the top bar), 1203 x 957 px, whatever the VS Code window's size (reference screen
vs_code-open-folder-dialog.jpg: centred on the work area with a windowed VS Code). Real trajectories agree: every
dialog they use (Open Folder, Open File, Install from VSIX, Save Workspace As, Create File) has its header bar's
accept button at y 97-103 and the places sidebar's rows at x 447-457 (Home at y 144 in Save dialogs, which have no
"Recent", at y 181-184 in Open dialogs; Desktop at 181-184 in Save dialogs). GTK's own default (a size derived
from the font) differs with this image's fonts, so the size is set here and the window is moved there once mapped.
"""
import json
import os
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('Gdk', '3.0')
gi.require_version('GdkX11', '3.0')
from gi.repository import Gdk, GdkX11, GLib, Gtk  # noqa: E402

# OSWorld's dialog size at 1920x1080 (see above); smaller work areas get the dialog clamped to them.
WIDTH, HEIGHT = 1203, 957


def fail(message):
    print(f'file-chooser.py: {message}', file=sys.stderr)
    sys.exit(1)


def code_window(display):
    """The X window of VS Code to attach the dialog to: the active window when it is VS Code's (the dialog was asked
    for from it), else the topmost VS Code window. None when there is none (the dialog is then shown on its own)."""
    from Xlib import X, display as xdisplay  # python3-xlib; GDK has no call for another client's WM_CLASS
    xd = xdisplay.Display(display)
    root = xd.screen().root

    def windows(name):
        prop = root.get_full_property(xd.intern_atom(name), X.AnyPropertyType)
        return list(prop.value) if prop else []

    def is_code(xid):
        try:
            wm_class = xd.create_resource_object('window', xid).get_wm_class()
        except Exception:  # the window went away meanwhile
            return False
        # VS Code's windows: Chromium app windows started with --class=Code (the `code` wrapper)
        return bool(wm_class) and wm_class[1] == 'Code'

    active = windows('_NET_ACTIVE_WINDOW')
    if active and active[0] and is_code(active[0]):
        return active[0]
    return next((xid for xid in reversed(windows('_NET_CLIENT_LIST_STACKING')) if is_code(xid)), None)


def add_filters(dialog, filters):
    """VS Code's filters as Electron adds them: one GtkFileFilter each, in order (the first is selected), patterns
    *.ext in both cases; "*" matches everything."""
    for entry in filters or []:
        gtk_filter = Gtk.FileFilter()
        gtk_filter.set_name(entry.get('name') or '')
        for extension in entry.get('extensions') or []:
            if extension == '*':
                gtk_filter.add_pattern('*')
            else:
                gtk_filter.add_pattern(f'*.{extension.lower()}')
                gtk_filter.add_pattern(f'*.{extension.upper()}')
        dialog.add_filter(gtk_filter)


def build(request):
    save = bool(request.get('save'))
    folders = not save and request.get('canSelectFolders') and not request.get('canSelectFiles')
    action = (Gtk.FileChooserAction.SAVE if save
              else Gtk.FileChooserAction.SELECT_FOLDER if folders else Gtk.FileChooserAction.OPEN)
    # use_header_bar: as GNOME's setting gtk-dialogs-use-header makes gtk_file_chooser_dialog_new do on Ubuntu
    dialog = Gtk.FileChooserDialog(title=request.get('title') or '', action=action, use_header_bar=True)
    dialog.add_button('_Cancel', Gtk.ResponseType.CANCEL)
    # VS Code's labels come without mnemonics here (the web workbench strips its &&): an underscore is a character.
    label = request.get('label')
    dialog.add_button(label.replace('_', '__') if label else ('_Save' if save else '_Open'), Gtk.ResponseType.ACCEPT)
    dialog.set_default_response(Gtk.ResponseType.ACCEPT)
    dialog.set_select_multiple(bool(request.get('canSelectMany')) and not save)
    dialog.set_create_folders(True)  # Electron's 'createDirectory'
    dialog.set_do_overwrite_confirmation(False)  # Electron asks only with 'showOverwriteConfirmation', VS Code never
    dialog.set_local_only(True)
    add_filters(dialog, request.get('filters'))

    default = request.get('defaultPath')
    if default:
        if os.path.isdir(default):
            dialog.set_current_folder(default)
        elif save:
            if os.path.isdir(os.path.dirname(default)):
                dialog.set_current_folder(os.path.dirname(default))
            dialog.set_current_name(os.path.basename(default))
            # The dialog moves the Name entry into its header bar when it maps: the name again if it got lost there.
            name = os.path.basename(default)

            def keep_name(*_):
                if not dialog.get_current_name():
                    dialog.set_current_name(name)
                return False  # map-event: let the other handlers run

            dialog.connect('map-event', keep_name)
        elif os.path.exists(default):
            dialog.set_filename(default)
        elif os.path.isdir(os.path.dirname(default)):
            dialog.set_current_folder(os.path.dirname(default))
    return dialog


def show_desktop(widget):
    """Desktop in the places sidebar, as on Ubuntu: GTK lists it only where the desktop shows icons by GNOME's old
    setting, which this GNOME no longer has (its icons come from a shell extension)."""
    if isinstance(widget, Gtk.PlacesSidebar):
        widget.set_show_desktop(True)
    elif isinstance(widget, Gtk.Container):
        widget.forall(show_desktop)


def place(dialog, parent):
    """Size the dialog as OSWorld's and centre it in the work area of VS Code's monitor, once it is mapped (the
    window manager has placed it by then; a move of a mapped window is honoured, a position asked before mapping is
    not, for a dialog)."""
    display = Gdk.Display.get_default()
    monitor = display.get_monitor_at_window(parent) if parent else display.get_primary_monitor()
    area = (monitor or display.get_monitor(0)).get_workarea()
    width, height = min(WIDTH, area.width), min(HEIGHT, area.height)
    dialog.set_default_size(width, height)
    target = (area.x + (area.width - width) // 2, area.y + (area.height - height) // 2)

    def settle():
        # The visible dialog's corner (the window manager takes the shadow GTK draws around it into account); its
        # size without the header bar, which GTK 3 adds to the size a client-decorated window is given.
        bar = dialog.get_titlebar()
        dialog.resize(width, height - (bar.get_allocated_height() if bar else 0))
        dialog.move(*target)
        return False

    # Once GTK is done with the mapped dialog: GtkFileChooserDialog gives it its own default size as it maps.
    dialog.connect('map-event', lambda *_: GLib.idle_add(settle) and False)


def main():
    if len(sys.argv) != 2:
        fail('usage: file-chooser.py <JSON request>')
    try:
        request = json.loads(sys.argv[1])
    except ValueError as error:
        fail(f'the request is not JSON: {error}')
    if not Gtk.init_check(sys.argv)[0]:
        fail(f'cannot open the display {os.environ.get("DISPLAY")!r}')
    Gdk.set_program_class('Code')  # WM_CLASS "code", "Code", as the dialog of Electron's VS Code has

    dialog = build(request)
    show_desktop(dialog)
    parent = None
    gdk_display = Gdk.Display.get_default()
    if isinstance(gdk_display, GdkX11.X11Display):
        xid = code_window(os.environ.get('DISPLAY'))
        if xid:
            parent = GdkX11.X11Window.foreign_new_for_display(gdk_display, xid)
    place(dialog, parent)
    dialog.realize()
    if parent:
        dialog.get_window().set_transient_for(parent)
    # Not modal for the window manager: GNOME Shell attaches a modal dialog to its parent's top edge (mutter's
    # attach-modal-dialogs), where Electron's dialogs on OSWorld's VM do not sit.
    # A timestamp of now: the window manager gives the focus to a window the user has not acted on since.
    dialog.present_with_time(GdkX11.x11_get_server_time(dialog.get_window()))

    # Not gtk_dialog_run(), which makes the dialog modal (see above): a main loop until the dialog answers (Cancel,
    # Escape and closing it answer too).
    answer = {}

    def on_response(_dialog, response):
        answer['paths'] = dialog.get_filenames() if response == Gtk.ResponseType.ACCEPT else []
        Gtk.main_quit()

    dialog.connect('response', on_response)
    Gtk.main()
    paths = answer['paths']
    dialog.destroy()
    while Gtk.events_pending():  # let the window go before VS Code takes the focus back
        Gtk.main_iteration()
    print(json.dumps({'paths': paths}), flush=True)


if __name__ == '__main__':
    # WM_CLASS "code", "Code" (with the program class in main) as the dialog of Electron's VS Code has.
    GLib.set_prgname('code')
    GLib.set_application_name('Code')
    main()
