#!/usr/bin/env bash
# Builds the web client in release into client/dist: cargo (wasm32) → wasm-bindgen → wasm-opt,
# the JavaScript glue minified by esbuild, with content-hashed file names so the relay can cache them for a year. Then checks what the
# page downloads before it can show a board against its size budget: over it, the build is in
# client/dist but the script fails, unless given --warn-over-budget (run.sh; see there).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# Size budgets in bytes of gzip -9 output; 1 KB = 1000 B.
BUNDLE_BUDGET_BYTES=250000 # the page's initial wasm + JS

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
# wasm-bindgen writes readable JavaScript: minified it is half the size.
"$ROOT/client/tools/node_modules/.bin/esbuild" "$work/client.js" --minify --format=esm \
    --log-level=warning --outfile="$work/client.min.js"
mv "$work/client.min.js" "$work/client.js"

hash=$(cat "$work/client_bg.wasm" "$work/client.js" client/static/style.css | sha256sum | cut -c1-16)
dist="$ROOT/client/dist"
rm -rf "$dist.new"
mkdir -p "$dist.new"
cp "$work/client.js" "$dist.new/client-$hash.js"
cp "$work/client_bg.wasm" "$dist.new/client-${hash}_bg.wasm"
cp client/static/style.css "$dist.new/style-$hash.css"
sed "s/{{HASH}}/$hash/g" client/static/index.html > "$dist.new/index.html"
rm -rf "$dist"
mv "$dist.new" "$dist"

step "Size budget (gzip -9, 1 KB = 1000 B)"
wasm="$dist/client-${hash}_bg.wasm"
js="$dist/client-$hash.js"
printf 'client/dist: wasm %s B, js %s B before compression\n' "$(wc -c < "$wasm")" "$(wc -c < "$js")"
# One line per budgeted set of files; every budget is reported before failing.
over=""
check_budget "initial wasm + JS" "$BUNDLE_BUDGET_BYTES" "$wasm" "$js" || over=1
if [ -n "$over" ]; then
    [ "$over_budget" = warn ] || die "the client is over its size budget (see above)"
    printf 'warning: the client is over its size budget; scripts/test.sh fails on this\n' >&2
fi
