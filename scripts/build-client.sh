#!/usr/bin/env bash
# Builds the web client in release into client/dist: cargo (wasm32) → wasm-bindgen → wasm-opt,
# the JavaScript glue minified by esbuild, with content-hashed file names so the relay can cache
# them for a year; the same for the computer's Web Worker (client/worker), a second wasm that
# pages fetch only when they need the computer, its JavaScript entry bundled with its glue. Then
# checks what the page downloads before it can show a board, and the worker, against their size
# budgets: over one, the build is in client/dist but the script fails, unless given
# --warn-over-budget (run.sh; see there).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# Size budgets in bytes of gzip -9 output; 1 KB = 1000 B.
BUNDLE_BUDGET_BYTES=250000 # the page's initial wasm + JS
WORKER_BUDGET_BYTES=120000 # the computer's worker: its wasm

over_budget=fail
case "${1:-}" in
    "") ;;
    --warn-over-budget) over_budget=warn ;;
    *) die "usage: scripts/build-client.sh [--warn-over-budget]" ;;
esac

ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules "$ROOT/client/tools"

step "Building the client (release, wasm32)"
cargo build -p client --profile wasm-release --target wasm32-unknown-unknown

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$work" --out-name client \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/client.wasm"
# The features rustc enables by default for wasm32 today; wasm-opt must accept them.
"$ROOT/client/tools/node_modules/.bin/wasm-opt" -Oz --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$work/client_bg.wasm" -o "$work/client_bg.opt.wasm"
mv "$work/client_bg.opt.wasm" "$work/client_bg.wasm"
# wasm-bindgen writes readable JavaScript: minified it is half the size. Bundled: with the
# client's own snippet (ui/worker.js, which starts the computer's worker).
"$ROOT/client/tools/node_modules/.bin/esbuild" "$work/client.js" --bundle --minify --format=esm \
    --log-level=warning --outfile="$work/client.min.js"
mv "$work/client.min.js" "$work/client.js"

step "Building the computer's worker (release, wasm32)"
cargo build -p client-worker --profile wasm-worker --target wasm32-unknown-unknown
wasm-bindgen --target web --no-typescript --out-dir "$work" --out-name client_worker \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-worker/client_worker.wasm"
# Tuned for speed, like its profile (Cargo.toml).
"$ROOT/client/tools/node_modules/.bin/wasm-opt" -O3 --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$work/client_worker_bg.wasm" -o "$work/worker_bg.wasm"
# One script: the page builds each worker from it in memory (no request once loaded).
cp client/worker/src/entry.js "$work/worker-entry.js"
"$ROOT/client/tools/node_modules/.bin/esbuild" "$work/worker-entry.js" --bundle --minify \
    --format=esm --log-level=warning --outfile="$work/worker.js"

hash=$(cat "$work/client_bg.wasm" "$work/client.js" client/static/style.css | sha256sum | cut -c1-16)
worker_hash=$(cat "$work/worker_bg.wasm" "$work/worker.js" | sha256sum | cut -c1-16)
dist="$ROOT/client/dist"
rm -rf "$dist.new"
mkdir -p "$dist.new"
cp "$work/client.js" "$dist.new/client-$hash.js"
cp "$work/client_bg.wasm" "$dist.new/client-${hash}_bg.wasm"
cp client/static/style.css "$dist.new/style-$hash.css"
cp "$work/worker.js" "$dist.new/worker-$worker_hash.js"
cp "$work/worker_bg.wasm" "$dist.new/worker-${worker_hash}_bg.wasm"
sed "s/{{HASH}}/$hash/g; s/{{WORKER_HASH}}/$worker_hash/g" client/static/index.html \
    > "$dist.new/index.html"
rm -rf "$dist"
mv "$dist.new" "$dist"

step "Size budget (gzip -9, 1 KB = 1000 B)"
wasm="$dist/client-${hash}_bg.wasm"
js="$dist/client-$hash.js"
worker="$dist/worker-${worker_hash}_bg.wasm"
printf 'client/dist: wasm %s B, js %s B, worker wasm %s B before compression\n' \
    "$(wc -c < "$wasm")" "$(wc -c < "$js")" "$(wc -c < "$worker")"
# One line per budgeted set of files; every budget is reported before failing.
over=""
check_budget "initial wasm + JS" "$BUNDLE_BUDGET_BYTES" "$wasm" "$js" || over=1
check_budget "worker wasm" "$WORKER_BUDGET_BYTES" "$worker" || over=1
if [ -n "$over" ]; then
    [ "$over_budget" = warn ] || die "the client is over its size budget (see above)"
    printf 'warning: the client is over its size budget; scripts/test.sh fails on this\n' >&2
fi
