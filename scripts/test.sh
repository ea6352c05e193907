#!/usr/bin/env bash
# The whole test suite: formatting and lints, unit, property and integration tests, the
# independent reference cross-check of the engine, the release client build, the end-to-end
# suite in headless Chromium and Firefox, and two relays behind nginx. Installs what a fresh machine
# lacks first, after rehearsing that set-up on a fake fresh machine (tests/fresh-machine).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# First, and in seconds: the set-up below only ever runs on machines that already have the tools.
step "Fresh-machine rehearsal (set-up scripts with every tool hidden from PATH)"
tests/fresh-machine/rehearse.sh

ensure_wasm_target
ensure_wasm_bindgen
ensure_node_modules "$ROOT/client/tools"
ensure_node_modules "$ROOT/tests/e2e"
ensure_chromium
ensure_firefox
ensure_nginx
ensure_python3

step "Formatting and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p client --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p client-worker --target wasm32-unknown-unknown -- -D warnings

step "Unit, property and integration tests"
cargo test --workspace

# The engine in release: the reference cross-check and the browser tests run it thousands of
# times; its examples write the viewer's long and hostile transcripts (tests/e2e/viewer.test.mjs).
# The relay needs no release build here: the one `cargo test` built above (signaling/tests/cli.rs
# runs it; `cargo build` would build it again, with other features of tokio) serves a few
# browsers as well, and a release build of its dependency tree with LTO cost minutes of a cold
# run (docs/architecture.md, « The suite's time »).
step "Release engine; the relay as tested"
cargo build --release -p engine --bin engine --example long_transcript --example hostile
RELAY="$CARGO_TARGET_DIR/debug/signaling"
[ -x "$RELAY" ] || die "cargo test did not build the relay at $RELAY"
# Likewise the hostile peer the browser tests send the live attacks from (tests/e2e/hostile.test.mjs).
HOSTILE_PEER="$CARGO_TARGET_DIR/debug/hostile-peer"
[ -x "$HOSTILE_PEER" ] || die "cargo test did not build the hostile peer at $HOSTILE_PEER"
# And the pairing texts' example, which the browsers check (tests/e2e/pairing-texts.test.mjs).
PAIRING="$CARGO_TARGET_DIR/debug/examples/pairing"
[ -x "$PAIRING" ] || die "cargo test did not build the pairing example at $PAIRING"

step "Two relays behind nginx, rooms routed by URL"
RELAY_BIN="$RELAY" "$ROOT/scripts/nginx-two-relays.sh"

step "Independent reference rules (Python) and the engine cross-checked against them"
python3 tests/reference/test_rules.py
python3 tests/reference/crosscheck.py --engine "$CARGO_TARGET_DIR/release/engine"

step "Release client"
"$ROOT/scripts/build-client.sh"

# Two files at a time: most of a browser test waits (on timers, on the other browser); the
# figures they print (latencies, search speeds) are then measured beside another file.
step "End-to-end in headless Chromium and Firefox"
node tests/e2e/print-versions.mjs
RELAY_BIN="$RELAY" ENGINE_BIN="$CARGO_TARGET_DIR/release/engine" HOSTILE_PEER_BIN="$HOSTILE_PEER" PAIRING_BIN="$PAIRING" \
    node --test --test-concurrency=2 tests/e2e/

printf '\nThe whole suite passed in %d:%02d.\n' $((SECONDS / 60)) $((SECONDS % 60))
