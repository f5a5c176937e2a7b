// The script measure.ts runs in the desktop (its Python 3 with python-xlib) to list the top-level windows as a person
// sees them: WM_CLASS, title, type, the visible rectangle (the window manager's frame for server-decorated windows, the
// client area less its shadow for client-decorated ones) and whether it is maximized. One JSON list on stdout.
export const WINDOW_RECTS_PY = `import json
from Xlib import X, display

d = display.Display()
root = d.screen().root


def atom(name):
    return d.intern_atom(name)


def cardinals(window, name):
    prop = window.get_full_property(atom(name), X.AnyPropertyType)
    return list(prop.value) if prop else []


def text(window, name):
    prop = window.get_full_property(atom(name), X.AnyPropertyType)
    if not prop:
        return ''
    value = prop.value
    return value.decode('utf-8', 'replace') if isinstance(value, bytes) else str(value)


windows = []
for wid in cardinals(root, '_NET_CLIENT_LIST_STACKING'):
    window = d.create_resource_object('window', wid)
    try:
        geometry = window.get_geometry()
        origin = window.translate_coords(root, 0, 0)
        wm_class = window.get_wm_class() or ('', '')
        types = [d.get_atom_name(a) for a in cardinals(window, '_NET_WM_WINDOW_TYPE')]
        states = [d.get_atom_name(a) for a in cardinals(window, '_NET_WM_STATE')]
        left, right, top, bottom = (cardinals(window, '_NET_FRAME_EXTENTS') or [0, 0, 0, 0])[:4]
        gl, gr, gt, gb = (cardinals(window, '_GTK_FRAME_EXTENTS') or [0, 0, 0, 0])[:4]
    except Exception:  # a window that closed while we looked
        continue
    x, y = -origin.x, -origin.y
    windows.append({
        'id': hex(wid),
        'class': wm_class[1],
        'instance': wm_class[0],
        'title': text(window, '_NET_WM_NAME') or text(window, 'WM_NAME'),
        'type': (types[0] if types else '_NET_WM_WINDOW_TYPE_NORMAL').replace('_NET_WM_WINDOW_TYPE_', '').lower(),
        'rect': [x - left + gl, y - top + gt, geometry.width + left + right - gl - gr,
                 geometry.height + top + bottom - gt - gb],
        'maximized': '_NET_WM_STATE_MAXIMIZED_VERT' in states and '_NET_WM_STATE_MAXIMIZED_HORZ' in states,
        'fullscreen': '_NET_WM_STATE_FULLSCREEN' in states,
    })
print(json.dumps(windows))
`;
