#!/usr/bin/env bash
# Sets up what is missing, builds the web client in release, and starts the relay serving it.
# Extra arguments go to the relay (see `--help`), e.g. `scripts/run.sh --addr 0.0.0.0:3536`.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# Over its size budget the client is still served, with a warning: whoever runs this wants a
# page, and the budget is the test suite's business (scripts/test.sh fails on it).
STEP="Building the client (scripts/build-client.sh)"
"$ROOT/scripts/build-client.sh" --warn-over-budget
step "Starting the relay"
cargo build --release -p signaling
relay="$CARGO_TARGET_DIR/release/signaling"
# A failed `exec` ends the script before the ERR trap can name the step.
[ -x "$relay" ] || die "cargo built no relay at $relay"
exec "$relay" --static-dir "$ROOT/client/dist" "$@"
