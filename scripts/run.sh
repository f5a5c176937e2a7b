#!/usr/bin/env bash
# Runs a project command with the project's Node first on PATH, after setup.
#   scripts/run.sh [--desktop] <command> [args...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
setup_args=()
if [ "${1:-}" = "--desktop" ]; then setup_args=(--desktop); shift; fi
bash "$ROOT/scripts/setup.sh" "${setup_args[@]}"
if [ -x "$ROOT/.tools/node/bin/node" ]; then export PATH="$ROOT/.tools/node/bin:$PATH"; fi
export PATH="$ROOT/node_modules/.bin:$PATH"
# Node keeps the code it compiled for the modules it loads (vitest, vite, testcontainers, playwright …): the test
# runs start many Node processes (vitest's workers, child vitest runs, the deskbench command) that load the same
# modules, and each spends half the CPU on start-up without it.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$ROOT/node_modules/.cache/node-compile-cache}"
exec "$@"
