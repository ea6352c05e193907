# shellcheck shell=bash
# Shared by run.sh, test.sh, build-client.sh and nginx-two-relays.sh: installs what a fresh
# machine lacks, only when it is missing, and makes every failure say which step failed and why.
# Sourced, not run.
#
# Probe for a tool with `command -v`, never by running it: a missing command run inside `$(…)` or
# a pipeline fails the whole line under pipefail, and `set -e` then ends the script before the
# step that would have installed it (how a missing wasm-bindgen once ended run.sh silently).
# tests/fresh-machine/rehearse.sh runs the set-up with every tool hidden, to catch that.

# -e: stop at the first failing command; -E: the ERR trap below also runs inside functions and
# subshells; inherit_errexit: a failing command inside $(…) stops it too instead of going on.
set -Eeuo pipefail
shopt -s inherit_errexit

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
# Debug info doubles cold build time and nobody steps through these builds.
export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-0}
export CARGO_PROFILE_TEST_DEBUG=${CARGO_PROFILE_TEST_DEBUG:-0}

# Errors go to the script's own stderr, saved here, so that a failing command's `2>/dev/null`
# cannot hide why the script stopped.
exec {ERR_FD}>&2

# The step under way, named in every error. `step` announces one; the ensure_* functions set it
# quietly while they only look, so a failure there does not blame the previous step.
STEP="${0##*/}, before its first step"
# Each announcement says when it starts (min:s since the script started), for the suite's figures.
step() { STEP=$*; printf '\n\033[1m==> [%d:%02d] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
die() { printf 'error: %s (step « %s »)\n' "$*" "$STEP" >&"$ERR_FD"; exit 1; }

# Bash runs this for a command it cannot find on PATH (exit 127): say which one.
command_not_found_handle() {
    printf 'error: « %s »: command not found (not installed, or not on PATH)\n' "$1" >&"$ERR_FD"
    return 127
}

# Runs when a command fails where `set -e` ends the script: which step, where, what, how.
# Only the script's own shell reports; a failure inside ( … ) or $( … ) is reported once, as the
# failure of the line that contains it.
on_error() {
    local status=$1 file=$2 line=$3 command=$4 why="" signal first=${4%% *}
    [ "$BASH_SUBSHELL" = 0 ] || return 0
    case $status in
        126) why=": not executable" ;;
        # Said outright only when the command's plain first word is not on PATH: the 127 may
        # come from a script it ran, which has said which command it missed.
        127) if [[ $first != *[\"\'\$=\(]* ]] && ! command -v "$first" >/dev/null; then
                 why=": command not found"; else why=": a command was not found, see above"; fi ;;
        *) if [ "$status" -gt 128 ] && signal=$(kill -l "$status" 2>/dev/null); then
               why=": killed by SIG$signal"; fi ;;
    esac
    file=${file#"$ROOT"/}
    printf 'error: step « %s » failed: %s line %s: %s (exit %s%s)\n' \
        "$STEP" "${file#./}" "$line" "$command" "$status" "$why" >&"$ERR_FD"
}
trap 'on_error "$?" "${BASH_SOURCE[0]:-$0}" "$LINENO" "$BASH_COMMAND"' ERR

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        die "need root to run: $*"; fi
}

apt_install() {
    command -v apt-get >/dev/null || die "install $* with your package manager"
    if [ -z "${APT_UPDATED:-}" ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# ensure_command COMMAND WHAT PACKAGE…: installs the Debian packages unless COMMAND is on PATH,
# then checks that it is.
ensure_command() {
    local command=$1 what=$2
    shift 2
    STEP="Checking for $what"
    command -v "$command" >/dev/null && return
    step "Installing $what"
    apt_install "$@"
    command -v "$command" >/dev/null || die "installed $* but « $command » is still not on PATH"
}

ensure_wasm_target() {
    local installed
    STEP="Checking for the wasm32-unknown-unknown target"
    command -v rustup >/dev/null ||
        die "rustup is needed to add the wasm32-unknown-unknown target: https://rustup.rs"
    # The list first, then the search: in `rustup … | grep -q` under pipefail, grep stopping at
    # the first match can fail rustup with SIGPIPE, and the target would be added every time.
    installed=$(rustup target list --installed)
    if ! grep -qx wasm32-unknown-unknown <<<"$installed"; then
        step "Adding the wasm32-unknown-unknown target"
        rustup target add wasm32-unknown-unknown
    fi
}

# The version of the wasm-bindgen on PATH, or nothing when there is none or it does not run.
wasm_bindgen_version() {
    local out=""
    if command -v wasm-bindgen >/dev/null; then out=$(wasm-bindgen --version) || out=""; fi
    echo "${out#wasm-bindgen }"
}

# The wasm-bindgen CLI must match the wasm-bindgen crate in Cargo.lock exactly.
ensure_wasm_bindgen() {
    local want have where
    STEP="Checking for wasm-bindgen-cli"
    want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$ROOT/Cargo.lock")
    [ -n "$want" ] || die "no wasm-bindgen in Cargo.lock"
    have=$(wasm_bindgen_version)
    if [ "$have" != "$want" ]; then
        step "Installing wasm-bindgen-cli $want (a few minutes, once)"
        # Not --locked: one of its locked dependencies is missing from the registry index.
        cargo install wasm-bindgen-cli --version "$want"
        # Another wasm-bindgen earlier on PATH, or cargo's bin folder missing from it, would
        # otherwise surface later as a puzzling schema mismatch or "command not found".
        have=$(wasm_bindgen_version)
        if [ "$have" != "$want" ]; then
            where=$(command -v wasm-bindgen) || where="none on PATH"
            die "after installing wasm-bindgen-cli $want, wasm-bindgen ($where) says" \
                "« ${have:-nothing} »: put ${CARGO_HOME:-$HOME/.cargo}/bin first on PATH"
        fi
    fi
}

have_node() { command -v node >/dev/null && command -v npm >/dev/null; }
ensure_node() {
    STEP="Checking for Node.js and npm"
    have_node && return
    step "Installing Node.js and npm"
    apt_install nodejs npm
    have_node || die "installed nodejs npm but « node » or « npm » is still not on PATH"
}

# npm packages of a folder, installed from its lockfile when absent or out of date.
ensure_node_modules() {
    local dir=$1
    local stamp="$dir/node_modules/.installed-from"
    local sum
    STEP="Checking the npm packages in ${dir#"$ROOT"/}"
    sum=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -c1-16)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
        ensure_node
        step "Installing npm packages in ${dir#"$ROOT"/}"
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$sum" > "$stamp"
    fi
}

ensure_chromium() { ensure_command chromium "Debian's Chromium" chromium chromium-driver; }

# Stock Firefox ESR for the end-to-end suite (tests/e2e/firefox.mjs drives it with puppeteer-core
# over WebDriver BiDi: no browser download).
ensure_firefox() { ensure_command firefox-esr "Debian's Firefox ESR" firefox-esr; }

# Debian's nginx, for scripts/nginx-two-relays.sh. The package's own service is not started here
# (containers deny it; the script runs its own nginx with a temporary config anyway).
ensure_nginx() { ensure_command nginx "Debian's nginx" nginx; }

# For the reference rules and the cross-check (tests/reference) and nginx-two-relays.sh.
ensure_python3() { ensure_command python3 "Python 3" python3; }

# check_budget LABEL LIMIT FILE…: the files' total size compressed with gzip -9 (what a server's
# static compression achieves at best), against LIMIT bytes. Prints the total; over the limit it
# says so on stderr and returns 1, so that a caller can report every budget before failing.
check_budget() {
    local label=$1 limit=$2 total=0 size file
    shift 2
    [ "$#" -gt 0 ] || die "check_budget $label: no files"
    for file in "$@"; do
        [ -f "$file" ] || die "check_budget $label: no file $file"
        size=$(gzip -9c "$file" | wc -c)
        total=$((total + size))
    done
    if [ "$total" -gt "$limit" ]; then
        printf 'error: %s: %s B gzipped, over its budget of %s B by %s B\n' \
            "$label" "$total" "$limit" "$((total - limit))" >&"$ERR_FD"
        return 1
    fi
    printf '%s: %s B gzipped, within its budget of %s B (%s%%)\n' \
        "$label" "$total" "$limit" "$((total * 100 / limit))"
}
