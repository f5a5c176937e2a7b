#!/bin/bash
# Run in the image's warm-up stage (Dockerfile, block 13): starts the desktop's session once, as a container's start
# does, lets it draw for a few seconds, and moves what it cached for the user into /warm: Mesa's shader cache
# (llvmpipe compiles the shell's shaders at each fresh start), fontconfig's cache of the fonts the system cache does
# not cover, GStreamer's plugin registry. A desktop started from an image that has them skips that work: ~0.3 CPU-s a
# start (docs/desktop.md, "How it starts"). Only these folders reach the final image; everything else this session
# wrote stays in the stage.
set -euo pipefail
mkdir -p /run/dbus && rm -f /run/dbus/pid /run/dbus/system_bus_socket
dbus-daemon --system --fork
as_user() { setpriv --reuid=user --regid=user --init-groups "$@"; }
install -d -o user -g user /tmp/deskbench "$XDG_RUNTIME_DIR"
as_user /opt/deskbench/session.sh
# The desktop icons (DING) and the dock draw after the session reports ready.
sleep 8
mkdir -p /warm
for dir in mesa_shader_cache fontconfig gstreamer-1.0; do
  if [ -d "/home/user/.cache/$dir" ]; then
    mv "/home/user/.cache/$dir" /warm/
  else
    echo "warm-user-caches: the session wrote no ~/.cache/$dir" >&2
    install -d -o user -g user "/warm/$dir"
  fi
done
du -sh /warm/* >&2
