# Shared by run.sh, test.sh and build-client.sh: installs what a fresh machine lacks, only when
# it is missing. Sourced, not run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
# Debug info doubles cold build time and nobody steps through these builds.
export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-0}
export CARGO_PROFILE_TEST_DEBUG=${CARGO_PROFILE_TEST_DEBUG:-0}

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        die "need root to run: $*"; fi
}

apt_install() {
    command -v apt-get >/dev/null || die "install $* with your package manager"
    if [ -z "${APT_UPDATED:-}" ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

ensure_wasm_target() {
    if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
        step "Adding the wasm32-unknown-unknown target"
        rustup target add wasm32-unknown-unknown
    fi
}

# The wasm-bindgen CLI must match the wasm-bindgen crate in Cargo.lock exactly.
ensure_wasm_bindgen() {
    local want have
    want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$ROOT/Cargo.lock")
    [ -n "$want" ] || die "no wasm-bindgen in Cargo.lock"
    # No pipe: under `set -o pipefail` a missing wasm-bindgen would fail the assignment and
    # `set -e` would end the script silently before the install below (exit 127).
    have=""
    if command -v wasm-bindgen >/dev/null; then have=$(wasm-bindgen --version 2>/dev/null) || have=""; fi
    have=${have#wasm-bindgen }
    if [ "$have" != "$want" ]; then
        step "Installing wasm-bindgen-cli $want (a few minutes, once)"
        # Not --locked: one of its locked dependencies is missing from the registry index.
        cargo install wasm-bindgen-cli --version "$want"
    fi
}

ensure_npm() {
    command -v npm >/dev/null && return
    step "Installing Node.js and npm"
    apt_install nodejs npm
}

# npm packages of a folder, installed from its lockfile when absent or out of date.
ensure_node_modules() {
    local dir=$1
    local stamp="$dir/node_modules/.installed-from"
    local sum
    sum=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -c1-16)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
        ensure_npm
        step "Installing npm packages in ${dir#"$ROOT"/}"
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$sum" > "$stamp"
    fi
}

ensure_chromium() {
    if ! command -v chromium >/dev/null; then
        step "Installing Debian's Chromium"
        apt_install chromium chromium-driver
    fi
}

# Debian's nginx, for scripts/nginx-two-relays.sh. The package's own service is not started here
# (containers deny it; the script runs its own nginx with a temporary config anyway).
ensure_nginx() {
    if ! command -v nginx >/dev/null; then
        step "Installing Debian's nginx"
        apt_install nginx
    fi
}
