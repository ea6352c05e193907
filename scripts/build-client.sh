#!/usr/bin/env bash
# Builds the web client in release into client/dist: cargo (wasm32) → wasm-bindgen → wasm-opt,
# the JavaScript glue minified by esbuild, with content-hashed file names so the relay can cache
# them for a year; the same for the computer's Web Worker (client/worker), a second wasm that
# pages fetch only when they need the computer, its JavaScript entry bundled with its glue; the
# web manifest and its icons; and the service worker (sw.js), generated with the list of every
# file to cache for offline use and the build's version, which index.html carries too. Then
# checks what the page downloads before it can show a board, and the worker, against their size
# budgets: over one, the build is in client/dist but the script fails, unless given
# --warn-over-budget (run.sh; see there). NAMED=1 keeps the functions' names in the wasm files
# for a CPU profile (tests/e2e/hostile.test.mjs, HOSTILE_PROFILE): over budget, only a warning.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# Size budgets in bytes of gzip -9 output; 1 KB = 1000 B.
BUNDLE_BUDGET_BYTES=260000 # a page's initial wasm + JS + texts: the client, remote and watch bundles
# The room paired by hand (paired): the room's page and the pairing — its texts, their QR code,
# the descriptions — loaded only by those who pair without a relay (docs/architecture.md,
# « Bundles »).
PAIRED_BUDGET_BYTES=270000
WORKER_BUDGET_BYTES=120000 # the computer's worker: its wasm

over_budget=fail
case "${1:-}" in
    "") ;;
    --warn-over-budget) over_budget=warn ;;
    *) die "usage: scripts/build-client.sh [--warn-over-budget]" ;;
esac
debug=--strip-debug
if [[ ${NAMED:-} == 1 ]]; then
    debug=-g
    over_budget=warn
fi

ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules "$ROOT/client/tools"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wasm_opt() { # wasm-opt LEVEL IN OUT [OPTION…], with the features rustc enables by default for wasm32 today
    "$ROOT/client/tools/node_modules/.bin/wasm-opt" "$1" "$debug" --strip-producers \
        --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-reference-types --enable-multivalue "${@:4}" "$2" -o "$3"
}

# The site is four bundles of the client crate (docs/architecture.md, « Bundles »): `client`
# — home, hot-seat, computer, lobby and viewer pages (feature `local`) —, `remote` — the room
# (feature `remote`) —, `paired` — the room paired by hand, without a relay (feature `paired`) —
# and `watch` — the spectator's page (feature `watch`); index.html loads the one a page's path
# needs. Each: cargo → wasm-bindgen → wasm-opt
# → esbuild, into $work/NAME.js and $work/NAME_bg.wasm.
build_bundle() { # NAME FEATURE
    step "Building the $1 bundle (release, wasm32, feature $2)"
    cargo build -p client --profile wasm-release --target wasm32-unknown-unknown \
        --no-default-features --features "$2"
    wasm-bindgen --target web --no-typescript --out-dir "$work/$1" --out-name "$1" \
        "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/client.wasm"
    # --converge repeats -Oz until nothing shrinks; the wasm's memory is its own, so it starts
    # zeroed, and Rust puts the stack first, so the lowest 1 KB is never data: together 1.4 KB
    # gzipped less for the remote bundle (docs/architecture.md, « Bundles »).
    wasm_opt -Oz "$work/$1/$1_bg.wasm" "$work/$1_bg.wasm" --converge --zero-filled-memory \
        --low-memory-unused
    # wasm-bindgen writes readable JavaScript: minified it is half the size. Bundled: with the
    # client's own snippets (ui/worker.js, which starts the computer's worker).
    "$ROOT/client/tools/node_modules/.bin/esbuild" "$work/$1/$1.js" --bundle --minify \
        --format=esm --log-level=warning --outfile="$work/$1.js"
}
build_bundle client local
build_bundle remote remote
build_bundle paired paired
build_bundle watch watch

step "Building the computer's worker (release, wasm32)"
cargo build -p client-worker --profile wasm-worker --target wasm32-unknown-unknown
wasm-bindgen --target web --no-typescript --out-dir "$work" --out-name client_worker \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-worker/client_worker.wasm"
# Tuned for speed, like its profile (Cargo.toml).
wasm_opt -O3 "$work/client_worker_bg.wasm" "$work/worker_bg.wasm"
# One script: the page builds each worker from it in memory (no request once loaded).
cp client/worker/src/entry.js "$work/worker-entry.js"
"$ROOT/client/tools/node_modules/.bin/esbuild" "$work/worker-entry.js" --bundle --minify \
    --format=esm --log-level=warning --outfile="$work/worker.js"

# The texts (docs/architecture.md, « Languages »): for each bundle and language, its catalogue
# as the page fetches it — one text per line, the common section's then the bundle's own, in
# the keys' order, as the client's build script (client/build.rs) checked and numbered them —
# and the [page] section of every language, as JSON, for index.html's own texts.
step "Writing each bundle's texts in every language (client/i18n)"
catalogue_values() { # FILE SECTION…
    awk -v want=" ${*:2} " -f scripts/catalogue.awk "$1"
}
languages=(fr en)
page_text=""
for lang in "${languages[@]}"; do
    catalogue_values "client/i18n/$lang.txt" common local >"$work/client-$lang.txt"
    catalogue_values "client/i18n/$lang.txt" common room >"$work/remote-$lang.txt"
    # The room paired by hand and the spectator's page speak with the room's texts.
    cp "$work/remote-$lang.txt" "$work/paired-$lang.txt"
    cp "$work/remote-$lang.txt" "$work/watch-$lang.txt"
    page_text+="${page_text:+,}\"$lang\":{$(awk -v json=1 -v want=" page " -f scripts/catalogue.awk \
        "client/i18n/$lang.txt")}"
done

# Each file set named after its own content: a change to one bundle leaves the others cached.
hashed() { cat "$@" | sha256sum | cut -c1-16; }
declare -A name
for b in client remote paired watch worker; do
    name[$b]="$b-$(hashed "$work/${b}_bg.wasm" "$work/$b.js")"
done
for b in client remote paired watch; do
    for lang in "${languages[@]}"; do
        name[$b-$lang]="$b-$lang-$(hashed "$work/$b-$lang.txt")"
    done
done
style="style-$(hashed client/static/style.css)"
dist="$ROOT/client/dist"
rm -rf "$dist.new"
mkdir -p "$dist.new"
for b in client remote paired watch worker; do
    cp "$work/$b.js" "$dist.new/${name[$b]}.js"
    cp "$work/${b}_bg.wasm" "$dist.new/${name[$b]}_bg.wasm"
done
catalogues=""
for b in client remote paired watch; do
    files=""
    for lang in "${languages[@]}"; do
        cp "$work/$b-$lang.txt" "$dist.new/${name[$b-$lang]}.txt"
        files+="${files:+,}\"$lang\":\"${name[$b-$lang]}.txt\""
    done
    catalogues+="${catalogues:+,}\"${name[$b]}\":{$files}"
done
cp client/static/style.css "$dist.new/$style.css"
# The web manifest and its icons, under fixed names (the manifest names them).
cp client/static/manifest.webmanifest client/static/icon.svg client/static/icon-*.png "$dist.new/"
# The service worker caches every file but itself and index.html, under this build's version —
# a hash of all of them and of both templates — which index.html carries too (client/static/sw.js).
mapfile -t assets < <(cd "$dist.new" && ls)
version=$(cd "$dist.new" && cat "${assets[@]}" "$ROOT/client/static/index.html" \
    "$ROOT/client/static/sw.js" | sha256sum | cut -c1-16)
asset_list=$(printf '"/%s", ' "${assets[@]}")
page=$(sed "s/{{CLIENT}}/${name[client]}/g; s/{{REMOTE}}/${name[remote]}/g; s/{{PAIRED}}/${name[paired]}/g; s/{{WATCH}}/${name[watch]}/g; s/{{STYLE}}/$style/g; \
    s/{{WORKER}}/${name[worker]}/g; s/{{VERSION}}/$version/g; s/{{CATALOGUES}}/{$catalogues}/g" \
    client/static/index.html)
# Quoted: the texts are taken as they are (no pattern, no « & »).
printf '%s\n' "${page/'{{PAGE_TEXT}}'/"{$page_text}"}" >"$dist.new/index.html"
sed "s|{{VERSION}}|$version|g; s|{{ASSETS}}|${asset_list%, }|" client/static/sw.js >"$dist.new/sw.js"
rm -rf "$dist"
mv "$dist.new" "$dist"

step "Size budget (gzip -9, 1 KB = 1000 B)"
for b in client remote paired watch worker; do
    printf 'client/dist: %s: wasm %s B, js %s B before compression\n' "$b" \
        "$(wc -c <"$dist/${name[$b]}_bg.wasm")" "$(wc -c <"$dist/${name[$b]}.js")"
done
# One line per budgeted set of files; every budget is reported before failing. A page loads
# one bundle: the budget is per bundle.
over=""
# With its texts: a page fetches its language's catalogue before it starts.
for lang in "${languages[@]}"; do
    check_budget "the other pages' initial wasm + JS + $lang texts (client)" "$BUNDLE_BUDGET_BYTES" \
        "$dist/${name[client]}_bg.wasm" "$dist/${name[client]}.js" \
        "$dist/${name[client-$lang]}.txt" || over=1
    check_budget "the rooms' initial wasm + JS + $lang texts (remote)" "$BUNDLE_BUDGET_BYTES" \
        "$dist/${name[remote]}_bg.wasm" "$dist/${name[remote]}.js" \
        "$dist/${name[remote-$lang]}.txt" || over=1
    check_budget "the rooms paired by hand's initial wasm + JS + $lang texts (paired)" \
        "$PAIRED_BUDGET_BYTES" "$dist/${name[paired]}_bg.wasm" "$dist/${name[paired]}.js" \
        "$dist/${name[paired-$lang]}.txt" || over=1
    check_budget "the spectators' initial wasm + JS + $lang texts (watch)" "$BUNDLE_BUDGET_BYTES" \
        "$dist/${name[watch]}_bg.wasm" "$dist/${name[watch]}.js" \
        "$dist/${name[watch-$lang]}.txt" || over=1
done
check_budget "worker wasm" "$WORKER_BUDGET_BYTES" "$dist/${name[worker]}_bg.wasm" || over=1
if [ -n "$over" ]; then
    [ "$over_budget" = warn ] || die "the client is over its size budget (see above)"
    printf 'warning: the client is over its size budget; scripts/test.sh fails on this\n' >&2
fi
