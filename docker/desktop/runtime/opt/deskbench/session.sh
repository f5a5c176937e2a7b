#!/bin/bash
# The desktop session, run as user `user`: Xvfb, the session D-Bus, the AT-SPI bus, the sound server, GNOME Shell
# (X11, software GL) with the Ubuntu-style dock and the GNOME settings daemons. Starts them in the background and
# returns once the shell has started (its deskbench extension writes shell-ready), the settings daemons answer and the
# shell has drawn the desktop with keys working (keys-ready), so that whoever starts the control server next knows the
# desktop is what an agent should see and does what its keys say.
set -u
W="${SCREEN_WIDTH:-1920}" H="${SCREEN_HEIGHT:-1080}"
LOGS=/tmp/deskbench
mkdir -p "$LOGS" "$XDG_RUNTIME_DIR"
rm -f /tmp/.X0-lock /tmp/.X11-unix/X0 "${DBUS_SESSION_BUS_ADDRESS#unix:path=}" "$LOGS/shell-ready" "$LOGS/keys-ready"

# When each step was reached (seconds since the epoch), for profiling the start: /tmp/deskbench/startup.log.
mark() { printf '%s session %s\n' "$EPOCHREALTIME" "$1" >>"$LOGS/startup.log"; }
mark start

# A 10 ms pause without a new process: read's timeout on a pipe nobody writes to. `sleep 0.01` forked and exec'd 100
# times a second while the shell started on the same 2 cores.
exec {never}<> <(:)
pause() { read -r -t 0.01 -u "$never" _; }
wait_for() { # description, tries of 10 ms, test…
  local what="$1" tries="$2" try; shift 2
  for ((try = 0; try < tries; try++)); do "$@" && return 0; pause; done
  echo "deskbench: $what did not appear" >&2; return 1
}

# GLX on Xvfb is what lets mutter composite with Mesa's llvmpipe.
Xvfb :0 -screen 0 "${W}x${H}x24" -nolisten tcp -ac -noreset -dpi 96 +extension RANDR +extension GLX \
  >"$LOGS/xvfb.log" 2>&1 &
dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >"$LOGS/dbus.log" 2>&1 &
wait_for "the session bus" 500 test -S "${DBUS_SESSION_BUS_ADDRESS#unix:path=}"
/usr/libexec/at-spi-bus-launcher --launch-immediately >"$LOGS/at-spi.log" 2>&1 &
# The sound server reads /etc/pulse/default.pa.d/deskbench.pa (a null sink); no exit on idle.
pulseaudio --daemonize=no --exit-idle-time=-1 --log-target=stderr >"$LOGS/pulseaudio.log" 2>&1 &
wait_for "the X display" 1000 test -S /tmp/.X11-unix/X0
# The socket can exist a moment before Xvfb accepts clients.
wait_for "the X server answering" 300 xdpyinfo -display :0 >/dev/null 2>&1

mark "X answers"
gnome-shell --x11 >"$LOGS/gnome-shell.log" 2>&1 &

# About 1.4 s on an idle machine; much longer on a loaded one. After 90 s the server starts anyway (see the log).
wait_for "the shell (shell-ready)" 9000 test -e "$LOGS/shell-ready"
mark shell-ready

# Then the settings daemons that apply settings and answer keys in an Ubuntu session: GTK settings (theme, fonts, text
# scaling), media keys (Ctrl+Alt+T, volume), keyboard, accessibility, sound, date & time, housekeeping. Each one is
# a separate GNOME process; gnome-session would start these and more. After the shell, whose D-Bus
# interface media-keys needs to grab its keys. gsd-power is not started: it needs logind.
# Each as program:the bus name (org.gnome.SettingsDaemon.…) it owns once it is up.
daemons=(xsettings:XSettings media-keys:MediaKeys keyboard:Keyboard a11y-settings:A11ySettings sound:Sound
  datetime:Datetime housekeeping:Housekeeping)
for daemon in "${daemons[@]}"; do
  "/usr/libexec/gsd-${daemon%%:*}" >"$LOGS/gsd-${daemon%%:*}.log" 2>&1 &
done

# Ready when keys work and each daemon owns its bus name (org.gnome.SettingsDaemon.MediaKeys, …): the extension writes
# keys-ready once the desktop is drawn, media-keys has grabbed its keys (Ctrl+Alt+T is bound) and the session's first
# XTEST key has made mutter reload its keymap (see the extension). Until then, a key an agent presses at its first step
# can reach no one. About 0.2 s after the shell. keys-ready is waited for first: it comes last (media-keys is the
# slowest daemon, and the shell draws meanwhile), and asking the bus for its names is a process (gdbus), which asked
# every 10 ms took CPU from the shell; after keys-ready one call nearly always finds all seven.
daemons_answer() {
  local names daemon
  names="$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.ListNames 2>/dev/null)"
  for daemon in "${daemons[@]}"; do
    [[ "$names" == *"'org.gnome.SettingsDaemon.${daemon#*:}'"* ]] || return 1
  done
}
wait_for "the media keys (keys-ready)" 3000 test -e "$LOGS/keys-ready"
mark keys-ready
wait_for "the settings daemons" 3000 daemons_answer
mark "daemons answer"

