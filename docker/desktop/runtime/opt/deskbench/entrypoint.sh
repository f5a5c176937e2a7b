#!/bin/bash
# Brings up the desktop. Runs as root (PID 1) only to keep the desktop's secrets away from the session: the host
# copies them into a root-only file, which is read here and deleted, then handed to the control server on its standard
# input. Every other process runs as `user` and never has them in its environment: Xvfb, the session D-Bus, the
# AT-SPI bus, openbox, then the control server in the foreground. The server only starts answering once X and the
# window manager are usable.
set -u
W="${SCREEN_WIDTH:-1920}" H="${SCREEN_HEIGHT:-1080}"
LOGS=/tmp/deskbench
SECRETS_FILE=/run/deskbench/secrets

# key=value lines (token=…, vlc_password=…); absent when the container was started by hand without secrets.
secrets=""
if [ -f "$SECRETS_FILE" ]; then secrets="$(cat "$SECRETS_FILE")"; rm -rf /run/deskbench; fi
unset DESKBENCH_TOKEN DESKBENCH_VLC_PASSWORD

as_user() { setpriv --reuid=user --regid=user --init-groups "$@"; }

install -d -o user -g user "$LOGS" "$XDG_RUNTIME_DIR"
rm -f /tmp/.X0-lock /tmp/.X11-unix/X0 "${DBUS_SESSION_BUS_ADDRESS#unix:path=}"

# VLC's HTTP interface gets this desktop's own password (the server's VLC front adds it to requests).
vlc_password="$(sed -n 's/^vlc_password=//p' <<<"$secrets")"
if [ -n "$vlc_password" ]; then
  as_user sed -i "s/^http-password=.*/http-password=${vlc_password}/" /home/user/.config/vlc/vlcrc
fi
unset vlc_password

as_user Xvfb :0 -screen 0 "${W}x${H}x24" -nolisten tcp -ac -noreset -dpi 96 +extension RANDR >"$LOGS/xvfb.log" 2>&1 &
as_user dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >"$LOGS/dbus.log" 2>&1 &

wait_for_socket() { # path, tries of 10 ms
  for _ in $(seq 1 "$2"); do [ -S "$1" ] && return 0; sleep 0.01; done
  echo "deskbench: $1 did not appear" >&2; return 1
}
wait_for_socket "${DBUS_SESSION_BUS_ADDRESS#unix:path=}" 500
as_user /usr/libexec/at-spi-bus-launcher --launch-immediately >"$LOGS/at-spi.log" 2>&1 &
wait_for_socket /tmp/.X11-unix/X0 1000
# The socket can exist a moment before Xvfb accepts clients: retry openbox until it holds the display.
( for _ in $(seq 1 200); do as_user openbox >>"$LOGS/openbox.log" 2>&1 && break; sleep 0.02; done ) &

cd "$HOME"
# bash stays PID 1 so that processes orphaned by closed apps are reaped (node would leave them as zombies).
DESKBENCH_SECRETS_ON_STDIN=1 as_user node /opt/deskbench/server.mjs <<<"$secrets" &
server=$!
unset secrets
trap 'kill -TERM $server 2>/dev/null' TERM INT
wait $server
