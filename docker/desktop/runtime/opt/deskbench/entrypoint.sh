#!/bin/bash
# Brings up the desktop. Runs as root (PID 1) for two things only: the desktop's secrets, kept away from the session
# (the host copies them into a root-only file, which is read here and deleted, then handed to the control server on
# its standard input), and the system D-Bus that GNOME needs. Every other process runs as `user` and never has the
# secrets in its environment: the GNOME session (session.sh), then the control server in the foreground. The server
# only starts once the shell has drawn the desktop.
set -u
LOGS=/tmp/deskbench
SECRETS_FILE=/run/deskbench/secrets

# key=value lines (token=…, vlc_password=…); absent when the container was started by hand without secrets.
secrets=""
if [ -f "$SECRETS_FILE" ]; then secrets="$(cat "$SECRETS_FILE")"; rm -rf /run/deskbench; fi
unset DESKBENCH_TOKEN DESKBENCH_VLC_PASSWORD

as_user() { setpriv --reuid=user --regid=user --init-groups "$@"; }

install -d -o user -g user "$LOGS" "$XDG_RUNTIME_DIR"
# When each step was reached, for profiling the start (session.sh adds its own).
install -o user -g user /dev/null "$LOGS/startup.log"
mark() { printf '%s entrypoint %s\n' "$EPOCHREALTIME" "$1" >>"$LOGS/startup.log"; }
mark start

# ---- root part: the system bus. GNOME Shell exits without it (UPower, accounts); polkit and systemd-timedated
# (timedatectl, Settings → Date & Time) are started on demand by it. It drops to the messagebus user by itself.
mkdir -p /run/dbus && rm -f /run/dbus/pid /run/dbus/system_bus_socket
dbus-daemon --system --fork
# timedatectl (and the other systemd clients) refuse to talk to their services unless /run/systemd/system exists
# (sd_booted). systemd is not PID 1 here, but timedated is the real one, started by the system bus.
mkdir -p /run/systemd/system
# ---- end of the root part

# VLC's HTTP interface gets this desktop's own password (the server's VLC front adds it to requests).
vlc_password="$(sed -n 's/^vlc_password=//p' <<<"$secrets")"
if [ -n "$vlc_password" ]; then
  as_user sed -i "s/^http-password=.*/http-password=${vlc_password}/" /home/user/.config/vlc/vlcrc
fi
unset vlc_password

as_user /opt/deskbench/session.sh
mark session-ready

cd "$HOME"
# bash stays PID 1 so that processes orphaned by closed apps are reaped (node would leave them as zombies).
DESKBENCH_SECRETS_ON_STDIN=1 as_user node /opt/deskbench/server.mjs <<<"$secrets" &
server=$!
unset secrets
trap 'kill -TERM $server 2>/dev/null' TERM INT
wait $server
