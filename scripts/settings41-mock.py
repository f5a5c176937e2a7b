# A GTK 3 copy of gnome-control-center 41's window (Ubuntu 22.04's Settings; shell/cc-window.ui and cc-panel-list.c's
# row_data_new at tag 41.7): the header bar, the sidebar's rows and separators, Ubuntu 22.04's list of panels. It prints
# where the window and each row are (screen pixels) after 3, 8 and 13 s, to compare with where OSWorld's agents clicked
# (docs/desktop.md, "The Settings app is GNOME 43's"). Run it inside a desktop container: python3 settings41-mock.py
# [content-height, default 640]; scroll its sidebar with `xdotool click --repeat 5 5` between two reports.
import sys, gi
gi.require_version('Gtk', '3.0'); gi.require_version('Gdk', '3.0')
from gi.repository import Gtk, Gdk, GLib
GROUPS = [
 [('Network','network-workgroup-symbolic'),('Bluetooth','bluetooth-active-symbolic'),('Background','preferences-desktop-wallpaper-symbolic'),('Appearance','preferences-desktop-appearance-symbolic'),('Notifications','preferences-system-notifications-symbolic'),('Search','preferences-system-search-symbolic'),('Multitasking','view-grid-symbolic'),('Applications','preferences-desktop-apps-symbolic')],
 [('Privacy','preferences-system-privacy-symbolic',True),('Online Accounts','goa-panel-symbolic'),('Sharing','preferences-system-sharing-symbolic')],
 [('Sound','audio-speakers-symbolic'),('Power','gnome-power-manager-symbolic'),('Displays','preferences-desktop-display-symbolic'),('Mouse & Touchpad','input-mouse-symbolic'),('Keyboard','input-keyboard-symbolic'),('Printers','printer-symbolic'),('Removable Media','media-removable-symbolic'),('Color','preferences-color-symbolic')],
 [('Region & Language','preferences-desktop-locale-symbolic'),('Accessibility','preferences-desktop-accessibility-symbolic'),('Users','system-users-symbolic'),('Default Applications','starred-symbolic'),('Date & Time','preferences-system-time-symbolic'),('About','help-about-symbolic')],
]
win = Gtk.Window()
win.set_wmclass('gnome-control-center', 'Gnome-control-center')
win.set_position(Gtk.WindowPosition.CENTER)
win.set_default_size(980, int(sys.argv[1]) if len(sys.argv) > 1 else 640)
tb = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
h1 = Gtk.HeaderBar(title='Settings', show_close_button=True)
sb = Gtk.ToggleButton(); sb.add(Gtk.Image.new_from_icon_name('edit-find-symbolic', Gtk.IconSize.BUTTON)); sb.get_style_context().add_class('image-button'); h1.pack_start(sb)
mb = Gtk.MenuButton(); mb.add(Gtk.Image.new_from_icon_name('open-menu-symbolic', Gtk.IconSize.BUTTON)); h1.pack_end(mb)
tb.pack_start(h1, False, True, 0)
s1 = Gtk.Separator(orientation=Gtk.Orientation.VERTICAL); s1.get_style_context().add_class('sidebar'); tb.pack_start(s1, False, True, 0)
h2 = Gtk.HeaderBar(show_close_button=True, hexpand=True); h2.set_title('Network'); tb.pack_start(h2, True, True, 0)
win.set_titlebar(tb)
body = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
side = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, hexpand=False)
sbar = Gtk.SearchBar(); se = Gtk.SearchEntry(width_chars=25, max_width_chars=25); sbar.add(se); side.pack_start(sbar, False, True, 0)
sw = Gtk.ScrolledWindow(vexpand=True, width_request=200); sw.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.AUTOMATIC); sw.get_style_context().add_class('view')
lb = Gtk.ListBox()
rows = []
for gi_, g in enumerate(GROUPS):
    for item in g:
        name, icon = item[0], item[1]
        row = Gtk.ListBoxRow(); row.cat = gi_
        grid = Gtk.Grid(hexpand=True, border_width=12, column_spacing=12)
        im = Gtk.Image.new_from_icon_name(icon, Gtk.IconSize.BUTTON); im.get_style_context().add_class('sidebar-icon'); grid.attach(im, 0, 0, 1, 1)
        lab = Gtk.Label(label=name, xalign=0, hexpand=True); grid.attach(lab, 1, 0, 1, 1)
        if len(item) > 2:
            im2 = Gtk.Image.new_from_icon_name('go-next-symbolic', Gtk.IconSize.BUTTON); im2.get_style_context().add_class('sidebar-icon'); grid.attach(im2, 2, 0, 1, 1)
        d = Gtk.Label(label='desc', xalign=0, hexpand=True); d.set_no_show_all(True); grid.attach(d, 1, 1, 1, 1)
        row.add(grid); lb.add(row); rows.append((name, row, lab))
def hdr(row, before):
    if before is not None and row.cat != before.cat:
        s = Gtk.Separator(orientation=Gtk.Orientation.HORIZONTAL, hexpand=True); s.show(); row.set_header(s)
    else:
        row.set_header(None)
lb.set_header_func(hdr)
sw.add(lb); side.pack_start(sw, True, True, 0)
body.pack_start(side, False, True, 0)
s2 = Gtk.Separator(orientation=Gtk.Orientation.VERTICAL); s2.get_style_context().add_class('sidebar'); body.pack_start(s2, False, True, 0)
st = Gtk.Stack(hexpand=True, vexpand=True, width_request=360); st.get_style_context().add_class('background'); st.add(Gtk.Label(label='panel'))
body.pack_start(st, True, True, 0)
win.add(body)
# keep the header's sidebar part as wide as the sidebar (cc-window's header_sizegroup)
sg = Gtk.SizeGroup(mode=Gtk.SizeGroupMode.HORIZONTAL); sg.add_widget(h1); sg.add_widget(side)
win.connect('destroy', Gtk.main_quit)
win.show_all()
def report():
    gw = win.get_window()
    fx = gw.get_frame_extents(); _, ox, oy = gw.get_origin()
    print('frame_extents', fx.x, fx.y, fx.width, fx.height, 'origin', ox, oy, 'size', win.get_size(), flush=True)
    def at(w):
        x, y = w.translate_coordinates(win, 0, 0); a = w.get_allocation(); return (ox + x, oy + y, a.width, a.height)
    print('header1', at(h1), 'search', at(sb), 'sidebar sw', at(sw), 'stack', at(st), flush=True)
    adj = sw.get_vadjustment(); print('vadj', adj.get_value(), adj.get_page_size(), adj.get_upper(), flush=True)
    for name, row, lab in rows:
        x, y, w, h = at(row); print('row', name, 'y', y, 'h', h, 'center', y + h / 2, 'label', at(lab), flush=True)
    return False  # once per timer: the three reports the header names
GLib.timeout_add(3000, report)
GLib.timeout_add(8000, report)
GLib.timeout_add(13000, report)
Gtk.main()
