// The top bar's system menu as OSWorld's Ubuntu 22.04 (GNOME 42) shows it: a list, not GNOME 43's Quick Settings.
// Agents scored on OSWorld click where that list's rows were: the output volume slider first (y≈55), Settings near
// y≈185. Here the right corner of the top bar opens GNOME 42's "aggregate menu" laid out as Ubuntu 22.04 lays it
// out in a VM with a wired network and no battery or Bluetooth. At 1920×1080 (panel 27px, menu x 1591-1914):
//
//   y  40- 76  [speaker] ────●──        output volume (js/ui/status/volume.js); slider x 1640-1895
//   y  76- 89  ─────────────────        separator
//   y  89-124  [wired] Wired Connected ▸   (js/ui/status/network.js: Turn Off, Wired Settings)
//   y 124-159  [gauge] Balanced ▸          (js/ui/status/powerProfiles.js)
//   y 159-172  ─────────────────
//   y 172-207  [gear] Settings             (js/ui/status/system.js)
//   y 207-242  [lock] Lock
//   y 242-277  [power] Power Off / Log Out ▸   (Suspend, Restart…, Power Off…, Log Out)
//
// The rows are GNOME 43's PopupMenu items, which are GNOME 42's; stylesheet.css brings back the rules Ubuntu 22.04's
// Yaru had for this menu (Yaru 22.10 dropped them with the menu). GNOME 43's Quick Settings button stays, hidden, so
// the shell's code that refers to it (Main.panel.closeQuickSettings, …) keeps working.
const { Clutter, Gio, GObject, Gvc, Shell, St } = imports.gi;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;
const Slider = imports.ui.slider;
const BoxPointer = imports.ui.boxpointer;
const Util = imports.misc.util;
const Volume = imports.ui.status.volume;

const ALLOW_AMPLIFIED_VOLUME_KEY = 'allow-volume-above-100-percent';

// GNOME 42's panel.js AggregateLayout: the menu is as wide as its min-width (22em in Yaru) unless one of the
// "size children" (the system section) needs more; other rows never widen it.
const AggregateLayout = GObject.registerClass(
class AggregateLayout extends Clutter.BoxLayout {
    _init() {
        super._init({ orientation: Clutter.Orientation.VERTICAL });
        this._sizeChildren = [];
    }

    addSizeChild(actor) {
        this._sizeChildren.push(actor);
        this.layout_changed();
    }

    vfunc_get_preferred_width(container, forHeight) {
        let minWidth = container.get_theme_node().get_min_width();
        let natWidth = minWidth;
        for (const child of this._sizeChildren) {
            const [childMin, childNat] = child.get_preferred_width(forHeight);
            minWidth = Math.max(minWidth, childMin);
            natWidth = Math.max(natWidth, childNat);
        }
        return [minWidth, natWidth];
    }
});

/** A menu item that does what the container can: close the menu (and run `action`, if any). */
function addItem(menu, item, topMenu, action = null) {
    item.connect('activate', () => {
        topMenu.itemActivated(BoxPointer.PopupAnimation.NONE);
        action?.();
    });
    menu.addMenuItem(item);
    return item;
}

// GNOME 43 puts an image item's (empty, zero-width) ornament after its label; GNOME 42 had it first, and the item's
// 6px spacing around it moves the icon and label by that much.
function ornamentFirst(item) {
    item.set_child_below_sibling(item._ornamentLabel, null);
    return item;
}

/**
 * The output volume row of GNOME 42's volume.js (StreamSlider + OutputStreamSlider): a slider on the default sink
 * through Gvc.MixerControl. Pressing anywhere on the row starts a drag and moves the knob to the pointer at once.
 */
class OutputVolume {
    constructor(control, onIconChanged) {
        this._control = control;
        this._onIconChanged = onIconChanged;
        this._stream = null;

        this.item = new PopupMenu.PopupBaseMenuItem({ activate: false });
        this._slider = new Slider.Slider(0);
        this._slider.accessible_name = 'Volume';
        this._icon = new St.Icon({ style_class: 'popup-menu-icon', icon_name: 'audio-speakers-symbolic' });
        this.item.add_child(this._icon);
        this.item.add_child(this._slider);
        this.item.connect('button-press-event', (_actor, event) => this._slider.startDragging(event));
        this.item.connect('key-press-event', (_actor, event) => this._slider.emit('key-press-event', event));
        this.item.connect('scroll-event', (_actor, event) => this._slider.emit('scroll-event', event));
        this._sliderChangedId = this._slider.connect('notify::value', () => this._sliderChanged());

        this._soundSettings = new Gio.Settings({ schema_id: 'org.gnome.desktop.sound' });
        this._soundSettings.connectObject(`changed::${ALLOW_AMPLIFIED_VOLUME_KEY}`,
            () => this._amplifySettingsChanged(), this);
        this._amplifySettingsChanged();

        this._control.connectObject(
            'state-changed', () => this._readOutput(),
            'default-sink-changed', () => this._readOutput(), this);
        this._readOutput();
    }

    _readOutput() {
        const stream = this._control.get_state() === Gvc.MixerControlState.READY
            ? this._control.get_default_sink() : null;
        if (stream === this._stream)
            return;
        this._stream?.disconnectObject(this);
        this._stream = stream;
        this._stream?.connectObject(
            'notify::is-muted', () => this._updateVolume(),
            'notify::volume', () => this._updateVolume(),
            'notify::port', () => this._updateSliderIcon(), this);
        this.item.visible = this._stream !== null;
        if (this._stream) {
            this._updateSliderIcon();
            this._updateVolume();
        } else {
            this._onIconChanged(this.panelIcon);
        }
    }

    _sliderChanged() {
        if (!this._stream)
            return;
        const volume = this._slider.value * this._control.get_vol_max_norm();
        const wasMuted = this._stream.is_muted;
        if (volume < 1) {
            this._stream.volume = 0;
            if (!wasMuted)
                this._stream.change_is_muted(true);
        } else {
            this._stream.volume = volume;
            if (wasMuted)
                this._stream.change_is_muted(false);
        }
        this._stream.push_volume();
    }

    _updateVolume() {
        this._slider.block_signal_handler(this._sliderChangedId);
        this._slider.value = this._stream.is_muted ? 0 : this._stream.volume / this._control.get_vol_max_norm();
        this._slider.unblock_signal_handler(this._sliderChangedId);
        this._onIconChanged(this.panelIcon);
    }

    _updateSliderIcon() {
        // As GNOME 42: headphones for a headset/headphone sink or port, the speaker otherwise.
        const formFactor = this._stream.get_form_factor();
        const port = this._stream.get_ports().length > 0 ? this._stream.get_port()?.port ?? '' : '';
        const headphones = formFactor === 'headset' || formFactor === 'headphone' || port.includes('headphone');
        this._icon.icon_name = headphones ? 'audio-headphones-symbolic' : 'audio-speakers-symbolic';
    }

    _amplifySettingsChanged() {
        const amplified = this._soundSettings.get_boolean(ALLOW_AMPLIFIED_VOLUME_KEY);
        this._slider.maximum_value = amplified
            ? this._control.get_vol_max_amplified() / this._control.get_vol_max_norm() : 1;
        if (this._stream)
            this._updateVolume();
    }

    /** The top bar's volume icon, chosen as GNOME 42 chooses it; null without a sink. */
    get panelIcon() {
        if (!this._stream)
            return null;
        const icons = ['audio-volume-muted-symbolic', 'audio-volume-low-symbolic', 'audio-volume-medium-symbolic',
            'audio-volume-high-symbolic', 'audio-volume-overamplified-symbolic'];
        const volume = this._stream.volume;
        if (this._stream.is_muted || volume <= 0)
            return icons[0];
        return icons[Math.clamp(Math.ceil(3 * volume / this._control.get_vol_max_norm()), 1, icons.length - 1)];
    }

    destroy() {
        this._stream?.disconnectObject(this);
        this._control.disconnectObject(this);
        this._soundSettings.disconnectObject(this);
    }
}

const AggregateMenu = GObject.registerClass(
class AggregateMenu extends PanelMenu.Button {
    _init() {
        super._init(0.0, 'System', false);
        this.menu.actor.add_style_class_name('aggregate-menu');
        const layout = new AggregateLayout();
        this.menu.box.set_layout_manager(layout);

        // Top bar: network, volume, power, as on OSWorld's VM (its screenshots show these three).
        this._indicators = new St.BoxLayout({ style_class: 'panel-status-indicators-box' });
        this.add_child(this._indicators);
        const indicator = (iconName) => {
            const icon = new St.Icon({ style_class: 'system-status-icon', icon_name: iconName });
            this._indicators.add_child(icon);
            return icon;
        };
        this._networkIcon = indicator('network-wired-symbolic');
        this._volumeIcon = indicator('audio-volume-medium-symbolic');
        // GNOME 42's power indicator shows this icon when UPower reports no battery, as in a VM.
        this._powerIcon = indicator('system-shutdown-symbolic');

        // Volume (GNOME 42 puts the brightness slider after it; a VM has none, so it is hidden there too).
        this._volume = new OutputVolume(Volume.getMixerControl(), (icon) => this._syncVolumeIcon(icon));
        this.menu.addMenuItem(this._volume.item);
        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());

        // Network. There is no NetworkManager in this container, so this row is static: it shows what GNOME 42's
        // network.js shows for a VM's connected wired device (its one connection makes the submenu "Turn Off"
        // plus the settings action).
        const wired = new PopupMenu.PopupSubMenuMenuItem('Wired Connected', true);
        wired.icon.icon_name = 'network-wired-symbolic';
        addItem(wired.menu, new PopupMenu.PopupMenuItem('Turn Off'), this.menu);
        addItem(wired.menu, new PopupMenu.PopupMenuItem('Wired Settings'), this.menu,
            () => this._launchSettings(['network']));
        this.menu.addMenuItem(wired);

        // Power mode (GNOME 42's powerProfiles.js), shown whenever power-profiles-daemon runs, as it does on Ubuntu
        // 22.04, in a VM too (its placeholder driver: Balanced and Power Saver). Without this row Settings would sit
        // 35px higher than where OSWorld's agents click it (y≈185). The daemon is not in the container: the choice is
        // kept here only, for the row's label and the submenu's dot.
        this._powerMode = new PopupMenu.PopupSubMenuMenuItem('', true);
        const modes = new PopupMenu.PopupMenuSection();
        this._modeItems = new Map();
        for (const [profile, label] of [['balanced', 'Balanced'], ['power-saver', 'Power Saver']]) {
            this._modeItems.set(profile, addItem(modes, new PopupMenu.PopupMenuItem(label), this.menu,
                () => this._setPowerMode(profile)));
        }
        this._powerMode.menu.addMenuItem(modes);
        this._powerMode.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        addItem(this._powerMode.menu, new PopupMenu.PopupMenuItem('Power Settings'), this.menu,
            () => this._launchSettings(['power']));
        this._setPowerMode('balanced');
        this.menu.addMenuItem(this._powerMode);
        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());

        // System (GNOME 42's system.js, in a section as its indicator's menu was).
        const system = new PopupMenu.PopupMenuSection();
        const app = Shell.AppSystem.get_default().lookup_app('org.gnome.Settings.desktop');
        const [settingsIcon] = app?.app_info.get_icon()?.names ?? ['org.gnome.Settings'];
        addItem(system, ornamentFirst(new PopupMenu.PopupImageMenuItem(app?.get_name() ?? 'Settings', settingsIcon)),
            this.menu, () => this._launchSettings([], app));
        // GNOME 42 locks the screen here (Main.screenShield.lock). The container has no GDM, through which the unlock
        // dialog authenticates, so a locked screen could never be unlocked (GNOME 43 hides its own lock button for
        // the same reason): the item is there, as on OSWorld's VM, and only closes the menu.
        addItem(system, ornamentFirst(new PopupMenu.PopupImageMenuItem('Lock', 'changes-prevent-symbolic')),
            this.menu);
        // Suspend, restart, power off and log out need logind and gnome-session, which the container does not run:
        // the items are there, as on OSWorld's VM, and only close the menu. (Switch User… is hidden there too: one user.)
        const session = new PopupMenu.PopupSubMenuMenuItem('Power Off / Log Out', true);
        session.icon.icon_name = 'system-shutdown-symbolic';
        for (const label of ['Suspend', 'Restart…', 'Power Off…'])
            addItem(session.menu, new PopupMenu.PopupMenuItem(label), this.menu);
        session.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        addItem(session.menu, new PopupMenu.PopupMenuItem('Log Out'), this.menu);
        system.addMenuItem(session);
        this.menu.addMenuItem(system);
        layout.addSizeChild(system.actor);
    }

    /** As GNOME 42's Settings item and settings actions: leave the overview, start the Settings app (on a panel). */
    _launchSettings(args, app = null) {
        Main.overview.hide();
        if (app)
            app.activate();
        else
            Util.spawn(['gnome-control-center', ...args]);
    }

    _setPowerMode(profile) {
        for (const [name, item] of this._modeItems)
            item.setOrnament(name === profile ? PopupMenu.Ornament.DOT : PopupMenu.Ornament.NONE);
        this._powerMode.label.text = profile === 'balanced' ? 'Balanced' : 'Power Saver';
        this._powerMode.icon.icon_name = `power-profile-${profile}-symbolic`;
    }

    _syncVolumeIcon(icon) {
        this._volumeIcon.visible = icon !== null;
        if (icon)
            this._volumeIcon.icon_name = icon;
    }

    _onDestroy() {
        this._volume.destroy();
        super._onDestroy();
    }
});

class OsworldSystemMenu {
    enable() {
        const quickSettings = Main.panel.statusArea.quickSettings;
        const index = Main.panel._rightBox.get_children().indexOf(quickSettings.container);
        this._menu = new AggregateMenu();
        Main.panel.addToStatusArea('aggregateMenu', this._menu, Math.max(index, 0), 'right');
        quickSettings.container.hide();
    }

    disable() {
        this._menu?.destroy();
        this._menu = null;
        Main.panel.statusArea.quickSettings?.container.show();
    }
}

function init() {
    return new OsworldSystemMenu();
}
