#!/usr/bin/env bash
# Builds the desktop image deskbench/desktop:<hash> (+ :latest) from docker/desktop and the control server in server/.
# Never rebuilds an unchanged image: the tag is a hash of docker/ and server/ (and the base image name).
# Works with no registry: when the base image cannot be pulled it is made with debootstrap + docker import.
#   env: BASE_IMAGE (default debian:bookworm-slim), DESKBENCH_IMAGE (default deskbench/desktop; a tag other than
#        :latest pins that image), FORCE=1 to rebuild.
#   --hash: print the tag this source tree builds and exit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# DESKBENCH_IMAGE may carry a tag (deskbench/desktop:latest, as the runtime reads it); the repository part names the
# build. Another tag pins an image (deskbench/desktop:d9826880d541): used as it is when present, else built and tagged so.
IMAGE="${DESKBENCH_IMAGE:-deskbench/desktop}"
PIN=""
if [[ "${IMAGE##*/}" == *:* ]]; then PIN="${IMAGE##*:}"; IMAGE="${IMAGE%:*}"; fi
[ "$PIN" = latest ] && PIN=""
BASE_IMAGE="${BASE_IMAGE:-debian:bookworm-slim}"
LOCAL_BASE="deskbench/debian-base:bookworm"
say() { echo "[deskbench image] $*" >&2; }
start=$(date +%s)

# The tag: a hash of docker/, server/ (and src/shared/shlex.ts and src/python/repr.ts, which the server bundles), this
# script (names and bytes; READMEs excluded) and the base image name. Python's byte-code caches are left out: running a
# build script by hand leaves a __pycache__ that a fresh clone has not, and the same commit gave two tags.
hash="$(cd "$ROOT" && {
  echo "base=$BASE_IMAGE"
  find docker server src/shared/shlex.ts src/python/repr.ts scripts/build-image.sh -type f ! -name '*.md' ! -path '*/__pycache__/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
} | sha256sum | cut -c1-12)"
if [ "${1:-}" = "--hash" ]; then echo "$hash"; exit 0; fi
if ! docker info >/dev/null 2>&1; then
  say "no Docker engine answers (docker info failed): start one, set DOCKER_HOST, or run 'deskbench image --docker' (as root on Debian)"
  exit 1
fi
if [ -z "${FORCE:-}" ] && [ -n "$PIN" ] && docker image inspect "$IMAGE:$PIN" >/dev/null 2>&1; then
  [ "$PIN" = "$hash" ] || say "using $IMAGE:$PIN as DESKBENCH_IMAGE pins it (this tree builds $IMAGE:$hash)"
  exit 0
fi
if [ -z "${FORCE:-}" ] && docker image inspect "$IMAGE:$hash" >/dev/null 2>&1; then
  docker tag "$IMAGE:$hash" "$IMAGE:latest"
  say "$IMAGE:$hash is up to date"
  exit 0
fi

# 1. Base image: local copy, else pull, else debootstrap (no registry needed).
base="$BASE_IMAGE"
if ! docker image inspect "$base" >/dev/null 2>&1; then
  say "stage 1/4: base image $base is not local; trying to pull it"
  if ! timeout 60 docker pull -q "$base" >/dev/null 2>&1; then
    base="$LOCAL_BASE"
    if docker image inspect "$base" >/dev/null 2>&1; then
      say "stage 1/4: no registry; using the debootstrapped base $base"
    else
      say "stage 1/4: no registry; making $base with debootstrap --variant=minbase bookworm (~30 s)"
      if ! command -v debootstrap >/dev/null 2>&1; then
        [ "$(id -u)" = 0 ] || { say "debootstrap is missing: run 'sudo apt-get install debootstrap' and retry"; exit 1; }
        flock /tmp/apt.lock apt-get install -y --no-install-recommends debootstrap >&2
      fi
      dir="$(mktemp -d /tmp/deskbench-rootfs.XXXXXX)"
      trap 'rm -rf "$dir"' EXIT
      debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian >"$dir.log" 2>&1 \
        || { say "debootstrap failed; see $dir.log"; exit 1; }
      rm -rf "$dir/var/cache/apt/archives/"*.deb "$dir/var/lib/apt/lists/"*
      tar -C "$dir" -c . | docker import - "$base" >/dev/null
      rm -rf "$dir" "$dir.log"
      trap - EXIT
    fi
  fi
else
  say "stage 1/4: base image $base is local"
fi

# 2. The control server, bundled to one file with no npm dependencies.
say "stage 2/4: bundling the control server (esbuild)"
ctx="$(mktemp -d /tmp/deskbench-context.XXXXXX)"
trap 'rm -rf "$ctx"' EXIT
cp -r "$ROOT/docker/desktop/." "$ctx/"
# esbuild: the checkout's node_modules, or the user project's when deskbench is an installed package.
PATH="$ROOT/.tools/node/bin:$ROOT/node_modules/.bin:$ROOT/../.bin:$PATH" \
  esbuild "$ROOT/server/main.ts" --bundle --platform=node --format=esm --target=node18 \
  --outfile="$ctx/runtime/opt/deskbench/server.mjs" --log-level=warning >&2

# 2b. The VS Code stage (docker/vscode: code-server + Node 24, compiled there), an image of its own with a content tag
# (a hash of that folder and the base), so the desktop build copies it in seconds unless that folder changes.
vscode_hash="$(cd "$ROOT" && { echo "base=$base"; find docker/vscode -type f ! -name '*.md' ! -path '*/__pycache__/*' -print0 | LC_ALL=C sort -z \
  | xargs -0 sha256sum; } | sha256sum | cut -c1-12)"
VSCODE_IMAGE="$IMAGE-code-server:$vscode_hash"
if [ -n "${FORCE:-}" ] || ! docker image inspect "$VSCODE_IMAGE" >/dev/null 2>&1; then
  say "stage 2b/4: docker build $VSCODE_IMAGE (code-server from the npm registry, native modules compiled: ~6 min)"
  vctx="$(mktemp -d /tmp/deskbench-vscode.XXXXXX)"
  cp -r "$ROOT/docker/vscode/." "$vctx/" && mkdir -p "$vctx/ca"
  # An HTTPS-intercepting proxy's CA, when this machine trusts one: the build's npm must trust it too.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then cp /usr/local/share/ca-certificates/*.crt "$vctx/ca/"; fi
  DOCKER_BUILDKIT=0 docker build --build-arg "BASE_IMAGE=$base" -t "$VSCODE_IMAGE" "$vctx" >>/tmp/deskbench-build.log 2>&1 \
    || { rm -rf "$vctx"; say "docker build of $VSCODE_IMAGE failed; full log: /tmp/deskbench-build.log"; exit 1; }
  rm -rf "$vctx"
  for old in $(docker images "$IMAGE-code-server" --format '{{.Tag}}' | grep -vx "$vscode_hash"); do
    docker rmi "$IMAGE-code-server:$old" >/dev/null 2>&1 || true
  done
fi

# 3. docker build with the classic builder (BuildKit would try to reach a registry for its frontend).
say "stage 3/4: docker build $IMAGE:$hash from $base (apt installs ~1 GB on a first build; later builds reuse layers)"
DOCKER_BUILDKIT=0 docker build --build-arg "BASE_IMAGE=$base" --build-arg "VSCODE_IMAGE=$VSCODE_IMAGE" -t "$IMAGE:$hash" -t "$IMAGE:latest" \
  --label "deskbench.hash=$hash" "$ctx" 2>&1 | while IFS= read -r line; do
    case "$line" in
      "Step "*) say "  ${line}";;
      *"E: "*|*"rror"*) echo "$line" >&2;;
    esac
    echo "$line" >>"/tmp/deskbench-build.log"
  done
[ "${PIPESTATUS[0]}" = 0 ] || { say "docker build failed; full log: /tmp/deskbench-build.log"; exit 1; }

# Older content tags of this image are removed unless a container was made from them (a run in progress, a pinned
# DESKBENCH_IMAGE elsewhere): docker would untag them under a running container.
in_use="$(docker ps -a --format '{{.Image}}')"
if [ -n "$PIN" ] && [ "$PIN" != "$hash" ]; then docker tag "$IMAGE:$hash" "$IMAGE:$PIN"; fi
for old in $(docker images "$IMAGE" --format '{{.Tag}}' | grep -vx -e "$hash" -e latest -e "${PIN:-latest}"); do
  grep -qxF "$IMAGE:$old" <<<"$in_use" && continue
  docker rmi "$IMAGE:$old" >/dev/null 2>&1 || true
done
size="$(docker image inspect "$IMAGE:$hash" --format '{{.Size}}' | awk '{printf "%.2f GB", $1/1e9}')"
say "stage 4/4: built $IMAGE:$hash ($size) in $(( $(date +%s) - start )) s"
