// An app icon's right-click menu as OSWorld's Ubuntu 22.04 (GNOME 42) shows it. Agents scored on OSWorld right-click
// an app in the overview's search results (or the app grid, or the dock) and click where "Remove from Favorites" was.
//
// GNOME 42.9's js/ui/appMenu.js and GNOME 43.9's are the same file: for a favourite app that is not running the menu
// is "New Window", separator, the favourites item, separator, "Show Details" (only if org.gnome.Software.desktop is
// installed), then Quit only for a running app; the "Open Windows" header, the GPU item and the spare separators are
// hidden. Two things made OSWorld's menu differ from GNOME 43's here:
//  - Ubuntu 22.04's gnome-shell reverts upstream's "dash: Use pin instead of favorites" (a67877f5) in the ubuntu
//    session, so the item says "Remove from Favorites" / "Add to Favorites" (not "Unpin" / "Pin to Dash"), and the
//    overview's note after it says "… has been removed from / added to your favorites.";
//  - OSWorld's VM has no GNOME Software (Ubuntu Software is the snap store there), so no "Show Details". This
//    desktop has GNOME Software as the dock's "Ubuntu Software", and with it a third item that moved the favourites
//    item up by one row: the menu is centred on the icon, so for the Vim icon in the search results at y 184 the
//    favourites item is at y 193-228 with two items, as on OSWorld (the recorded clicks are at y 208-211), and was at
//    y 168-204 here with three.
// Yaru 22.04 spaces the menu as Yaru 22.10 does (items 9px above and below the text, separators 6px + 1px + 6px), so
// only the item set and the labels change; stylesheet.css has Yaru 22.04's radii.
//
// Ubuntu 22.04's dock (ubuntu-dock 72~ubuntu5) builds its own menu, which says "Remove from Favorites" / "Add to
// Favorites" too and shows "Show Details" under the same condition: the same two changes are made to dash-to-dock's
// DockAppIconMenu after it builds its items.
const { Shell } = imports.gi;
const Main = imports.ui.main;
const AppFavorites = imports.ui.appFavorites;
const { AppMenu } = imports.ui.appMenu;

const Gettext = imports.gettext;
const _ = Gettext.domain('gnome-shell').gettext;

const DASH_TO_DOCK = 'dash-to-dock@micxgx.gmail.com';

// GNOME 42's own strings (gnome-shell's translations still have them).
const REMOVE = () => _('Remove from Favorites');
const ADD = () => _('Add to Favorites');

class OsworldAppMenu {
    enable() {
        this._saved = [];
        const self = this;

        // The shell's menu (overview search results, app grid, GNOME's own dash).
        this._patch(AppMenu.prototype, '_updateFavoriteItem', function (orig) {
            orig.call(this);
            if (!this._toggleFavoriteItem.visible)
                return;
            this._toggleFavoriteItem.label.text = this._appFavorites.isFavorite(this._app.get_id())
                ? REMOVE() : ADD();
        });
        this._patch(AppMenu.prototype, '_updateDetailsVisibility', function () {
            this._detailsItem.visible = false;
        });

        // The note the overview shows after the change, as before a67877f5 (same code, the old strings).
        const favorites = AppFavorites.getAppFavorites();
        this._patch(favorites, 'addFavoriteAtPos', function (_orig, appId, pos) {
            if (!this._addFavorite(appId, pos))
                return;
            const app = Shell.AppSystem.get_default().lookup_app(appId);
            Main.overview.setMessage(_('%s has been added to your favorites.').format(app.get_name()), {
                forFeedback: true,
                undoCallback: () => this._removeFavorite(appId),
            });
        });
        this._patch(favorites, 'removeFavorite', function (_orig, appId) {
            const pos = this._getIds().indexOf(appId);
            const app = this._favorites[appId];
            if (!this._removeFavorite(appId))
                return;
            Main.overview.setMessage(_('%s has been removed from your favorites.').format(app.get_name()), {
                forFeedback: true,
                undoCallback: () => this._addFavorite(appId, pos),
            });
        });

        // The dock's menu, once dash-to-dock is loaded (it may be enabled after this extension).
        this._patchDock();
        this._extensionStateId = Main.extensionManager.connect('extension-state-changed',
            () => this._patchDock());
    }

    _patch(object, name, replacement) {
        const orig = object[name];
        this._saved.push([object, name, orig, Object.prototype.hasOwnProperty.call(object, name)]);
        object[name] = function (...args) {
            return replacement.call(this, orig, ...args);
        };
    }

    _patchDock() {
        if (this._dockPatched)
            return;
        const dock = Main.extensionManager.lookup(DASH_TO_DOCK);
        const menuClass = dock?.imports?.appIcons?.DockAppIconMenu;
        if (!menuClass)
            return;
        this._dockPatched = true;
        // dash-to-dock takes these three from gnome-shell's translations.
        const [unpin, pin, details] = [_('Unpin'), _('Pin to Dash'), _('Show Details')];
        this._patch(menuClass.prototype, '_rebuildMenu', function (orig) {
            orig.call(this);
            for (const item of this._getMenuItems()) {
                const text = item.label?.text;
                if (text === unpin)
                    item.label.text = REMOVE();
                else if (text === pin)
                    item.label.text = ADD();
                else if (text === details)
                    item.destroy(); // its separator is then hidden as a trailing one
            }
        });
    }

    disable() {
        if (this._extensionStateId)
            Main.extensionManager.disconnect(this._extensionStateId);
        this._extensionStateId = 0;
        for (const [object, name, orig, own] of this._saved.reverse()) {
            if (own)
                object[name] = orig;
            else
                delete object[name];
        }
        this._saved = [];
        this._dockPatched = false;
    }
}

function init() {
    return new OsworldAppMenu();
}
