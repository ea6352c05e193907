#!/usr/bin/env bash
# Rehearses the README's commands on a brand-new machine, in a few seconds, without network,
# root, or touching this checkout's target/ and node_modules/.
#
# The set-up scripts only ever ran on machines that already had the tools, so a set-up step that
# breaks when a tool is missing went unseen (run.sh once died silently, exit 127, on a machine
# without wasm-bindgen). Here each scenario copies what the scripts read into a temporary folder
# and runs them with a PATH that hides every real tool: symlinks to the basic utilities of any
# Debian (SYSTEM_TOOLS below), plus fakes (shim.sh) of rustup, cargo, apt-get, sudo and id. The
# fakes record every call and act like a fresh machine: no wasm32 target, no wasm-bindgen, no
# Node.js, Chromium, Firefox, nginx or Python until the scripts install them. Then the scenario
# checks the calls, in order, and what the scripts printed.
#
#   tests/fresh-machine/rehearse.sh       # scripts/test.sh runs it first
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHIM="$HERE/shim.sh"

# What a fresh Debian has (its Essential packages) and the scripts may use. A script needing
# anything else fails here with « command not found »: install it in lib.sh, or add it here if
# every machine has it.
SYSTEM_TOOLS=(bash env cat cp mv rm mkdir ln chmod touch ls head tail cut tr wc sort sed awk grep
    gzip mktemp sha256sum sleep seq dirname basename readlink)

# The files the set-up scripts read; the scripts write node_modules/, target/ and client/dist in
# the copy.
COPIED=(scripts Cargo.lock client/static client/i18n client/worker/src/entry.js client/tools/package.json
    client/tools/package-lock.json
    tests/e2e/package.json tests/e2e/package-lock.json)

# The wasm-bindgen version in Cargo.lock, read another way than lib.sh does.
WANT=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' "$REPO/Cargo.lock")
[ -n "$WANT" ] || { echo "rehearse.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fresh-machine.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/system-bin"
for tool in "${SYSTEM_TOOLS[@]}"; do
    path=$(type -P "$tool") || { echo "rehearse.sh: no $tool on this machine" >&2; exit 1; }
    ln -s "$path" "$TMP/system-bin/$tool"
done

# new_machine NAME [--user] [--sudo] [--without=TOOL]: a fresh machine in $TMP/NAME ($M), with
# rustup, cargo, apt-get and id; root unless --user; sudo only with --sudo.
new_machine() {
    M="$TMP/$1"
    shift
    local tools=(rustup cargo apt-get id) option tool item
    UID_OF_MACHINE=0
    for option; do
        case $option in
        --user) UID_OF_MACHINE=1000 ;;
        --sudo) tools+=(sudo) ;;
        --without=*) for tool in "${!tools[@]}"; do
                [ "${tools[$tool]}" != "${option#--without=}" ] || unset "tools[$tool]"; done ;;
        esac
    done
    mkdir -p "$M"/{repo,state,shims,usr-bin,home/.cargo/bin}
    for item in "${COPIED[@]}"; do
        mkdir -p "$M/repo/$(dirname "$item")"
        cp -R "$REPO/$item" "$M/repo/$item"
    done
    # test.sh starts by running this rehearsal; on the fake machine, a fake records that it did.
    mkdir -p "$M/repo/tests/fresh-machine"
    ln -s "$SHIM" "$M/repo/tests/fresh-machine/rehearse.sh"
    for tool in "${tools[@]}"; do ln -s "$SHIM" "$M/shims/$tool"; done
    echo x86_64-unknown-linux-gnu >"$M/state/rustup-targets"
    : >"$M/log"
}

# run_script [VAR=VALUE…] SCRIPT [ARG…]: runs a script of the copy on machine $M, with nothing
# of this machine's environment; sets RC, and leaves the output in $M/stdout and $M/stderr.
run_script() {
    local extra=()
    while [[ $1 == *=* ]]; do extra+=("$1"); shift; done
    : >"$M/log"
    RC=0
    mkdir -p "$M/tmp"
    timeout 60 env -i HOME="$M/home" TMPDIR="$M/tmp" \
        PATH="$M/home/.cargo/bin:$M/shims:$M/usr-bin:$TMP/system-bin" \
        REHEARSAL_DIR="$M" REHEARSAL_LOG="$M/log" REHEARSAL_SHIM="$SHIM" \
        FAKE_UID="$UID_OF_MACHINE" "${extra[@]}" \
        "$M/repo/$1" "${@:2}" >"$M/stdout" 2>"$M/stderr" || RC=$?
}

# Expectations on the last run; each failed one is noted, `verdict` reports them. Patterns are
# globs, and inside [[ ]] extended ones: write « * (exit 1) », not « *(exit 1) ».
PROBLEMS=()
expect_status() {
    [ "$RC" = "$1" ] || PROBLEMS+=("exit status $RC, expected $1")
}
# expect_calls PATTERN…: calls matching these glob patterns were made, in this order.
expect_calls() {
    local pattern line=0 found text
    for pattern; do
        found=""
        while IFS= read -r text; do
            line=$((line + 1))
            # shellcheck disable=SC2053 # $pattern is a glob on purpose
            if [[ $text == $pattern ]]; then found=1; break; fi
        done < <(tail -n +"$((line + 1))" "$M/log")
        [ -n "$found" ] || { PROBLEMS+=("no call « $pattern » (in this order)"); return; }
    done
}
# expect_no_call PATTERN…: no call matches any of these glob patterns.
expect_no_call() {
    local pattern text
    for pattern; do
        while IFS= read -r text; do
            # shellcheck disable=SC2053
            [[ $text != $pattern ]] || PROBLEMS+=("unexpected call « $text »")
        done <"$M/log"
    done
}
expect_count() { # N PATTERN
    local count=0 text
    while IFS= read -r text; do
        # shellcheck disable=SC2053
        [[ $text != $2 ]] || count=$((count + 1))
    done <"$M/log"
    [ "$count" = "$1" ] || PROBLEMS+=("$count calls « $2 », expected $1")
}
# expect_output stdout|stderr PATTERN: a line of that output matches the glob pattern.
expect_output() {
    local text
    while IFS= read -r text; do
        # shellcheck disable=SC2053
        [[ $text != $2 ]] || return 0
    done <"$M/$1"
    PROBLEMS+=("no line « $2 » on $1")
}
expect_file() {
    [ -f "$M/$1" ] || PROBLEMS+=("no file $1")
}

SCENARIOS=0 FAILED=0
verdict() {
    SCENARIOS=$((SCENARIOS + 1))
    if [ ${#PROBLEMS[@]} = 0 ]; then
        printf '  ok    %s\n' "$1"
        return
    fi
    FAILED=$((FAILED + 1))
    printf '  FAIL  %s\n' "$1"
    printf '        - %s\n' "${PROBLEMS[@]}"
    printf '        calls:\n'
    sed 's/^/          /' "$M/log"
    printf '        stderr (last 15 lines):\n'
    tail -n 15 "$M/stderr" | sed 's/^/          /'
    PROBLEMS=()
}

START=$(date +%s%N)
echo "Fresh-machine rehearsal: the set-up scripts with every tool hidden from PATH"

new_machine fresh-run --user --sudo
run_script CARGO_TARGET_DIR="$M/cargo-target" scripts/run.sh --addr 127.0.0.1:0
expect_status 0
expect_calls \
    "rustup target list --installed" \
    "rustup target add wasm32-unknown-unknown" \
    "cargo install wasm-bindgen-cli --version $WANT" \
    "sudo apt-get update -qq" \
    "apt-get update -qq" \
    "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm" \
    "apt-get install -y -qq nodejs npm" \
    "npm ci --no-audit --no-fund --loglevel=error (in repo/client/tools)" \
    "cargo build -p client --profile wasm-release --target wasm32-unknown-unknown --no-default-features --features local" \
    "wasm-bindgen --target web * --out-name client cargo-target/wasm32-unknown-unknown/wasm-release/client.wasm" \
    "wasm-opt -Oz *" \
    "esbuild */client.js --bundle --minify *" \
    "cargo build -p client --profile wasm-release --target wasm32-unknown-unknown --no-default-features --features remote" \
    "wasm-bindgen --target web * --out-name remote cargo-target/wasm32-unknown-unknown/wasm-release/client.wasm" \
    "wasm-opt -Oz *" \
    "esbuild */remote.js --bundle --minify *" \
    "cargo build -p client-worker --profile wasm-worker --target wasm32-unknown-unknown" \
    "wasm-bindgen --target web * cargo-target/wasm32-unknown-unknown/wasm-worker/client_worker.wasm" \
    "wasm-opt -O3 *" \
    "esbuild */worker-entry.js --bundle --minify *" \
    "cargo build --release -p signaling" \
    "signaling --static-dir repo/client/dist --addr 127.0.0.1:0"
for lang in fr en; do
    expect_output stdout "the other pages' initial wasm + JS + $lang texts (client): * B gzipped, within its budget of 260000 B (*%)"
    expect_output stdout "the rooms' initial wasm + JS + $lang texts (remote): * B gzipped, within its budget of 260000 B (*%)"
    expect_output stdout "the rooms paired by hand's initial wasm + JS + $lang texts (paired): * B gzipped, within its budget of 270000 B (*%)"
done
expect_output stdout "worker wasm: * B gzipped, within its budget of 120000 B (*%)"
expect_file repo/client/dist/index.html
# Every file index.html names is in client/dist.
for named in $(grep -o '[a-z-]*-[0-9a-f]\{16\}' "$M/repo/client/dist/index.html" 2>/dev/null | sort -u); do
    case $named in
    style-*) expect_file "repo/client/dist/$named.css" ;;
    *-fr-* | *-en-*) expect_file "repo/client/dist/$named.txt" ;; # a bundle's texts
    *)
        expect_file "repo/client/dist/$named.js"
        expect_file "repo/client/dist/${named}_bg.wasm"
        ;;
    esac
done
for bundle in client remote paired watch worker style client-fr client-en remote-fr remote-en paired-fr paired-en; do
    grep -q "\"/\{0,1\}$bundle-[0-9a-f]\{16\}" "$M/repo/client/dist/index.html" 2>/dev/null ||
        PROBLEMS+=("index.html does not name the $bundle files")
done
# The web manifest, its icons and the service worker; the worker caches every other file of the
# build, index.html apart, under the version index.html carries.
for file in manifest.webmanifest icon.svg icon-192.png icon-512.png icon-maskable-512.png sw.js; do
    expect_file "repo/client/dist/$file"
done
version=$(sed -n 's|.*<meta name="build" content="\([0-9a-f]\{16\}\)">.*|\1|p' \
    "$M/repo/client/dist/index.html" 2>/dev/null || true)
[ -n "$version" ] || PROBLEMS+=("index.html carries no build version")
grep -q "^const VERSION = \"$version\";" "$M/repo/client/dist/sw.js" 2>/dev/null ||
    PROBLEMS+=("sw.js is not of the version index.html names (${version:-none})")
for file in "$M"/repo/client/dist/*; do
    case ${file##*/} in
    index.html | sw.js) ;;
    *) grep -q "\"/${file##*/}\"" "$M/repo/client/dist/sw.js" 2>/dev/null ||
        PROBLEMS+=("sw.js does not cache ${file##*/}") ;;
    esac
done
! grep -q '{{' "$M/repo/client/dist/index.html" "$M/repo/client/dist/sw.js" 2>/dev/null ||
    PROBLEMS+=("a {{PLACEHOLDER}} is left in index.html or sw.js")
worker=$(sed -n 's|.*data-worker="/\(worker-[0-9a-f]*\)\.js".*|\1|p' "$M/repo/client/dist/index.html" 2>/dev/null || true)
expect_file "repo/client/dist/${worker:-no-worker-in-index.html}.js"
expect_file "repo/client/dist/${worker:-no-worker-in-index.html}_bg.wasm"
cp "$M/log" "$TMP/first-calls"
verdict "run.sh as a user with sudo: installs, builds the client, starts the relay, in order"

run_script CARGO_TARGET_DIR="$M/cargo-target" scripts/run.sh
expect_status 0
expect_no_call "rustup target add*" "cargo install*" "*apt-get*" "npm*"
expect_calls "cargo build -p client *" "wasm-bindgen --target web *" "signaling --static-dir *"
verdict "run.sh again on that machine: nothing installed twice"

new_machine fresh-test
# The fake cargo stops test.sh at its first lint, right after the set-up.
run_script REHEARSAL_FAIL="cargo fmt=99" scripts/test.sh
expect_status 99
expect_calls \
    "rehearse.sh" \
    "rustup target add wasm32-unknown-unknown" \
    "cargo install wasm-bindgen-cli --version $WANT" \
    "apt-get update -qq" \
    "apt-get install -y -qq nodejs npm" \
    "npm ci * (in repo/client/tools)" \
    "npm ci * (in repo/tests/e2e)" \
    "apt-get install -y -qq chromium chromium-driver" \
    "apt-get install -y -qq firefox-esr" \
    "apt-get install -y -qq nginx" \
    "apt-get install -y -qq python3" \
    "cargo fmt --all --check -> exit 99"
expect_count 1 "apt-get update*"
expect_no_call "sudo *"
expect_file repo/tests/e2e/node_modules/playwright-core/package.json
expect_file repo/tests/e2e/node_modules/puppeteer-core/package.json
expect_output stderr \
    "error: step « Formatting and lints » failed: scripts/test.sh line *: cargo fmt --all --check (exit 99)"
verdict "test.sh as root: the rehearsal, then installs, then the lints (stopped there)"

new_machine cargo-install-fails
run_script REHEARSAL_FAIL="cargo install=101" scripts/build-client.sh
expect_status 101
expect_output stderr "error: step « Installing wasm-bindgen-cli $WANT (a few minutes, once) » failed: scripts/lib.sh line *: cargo install wasm-bindgen-cli --version * (exit 101)"
expect_no_call "cargo build*" "npm*"
verdict "cargo install fails: build-client.sh stops there and names the step"

new_machine npm-ci-fails
run_script REHEARSAL_FAIL="npm ci=1" scripts/build-client.sh
expect_status 1
expect_output stderr "error: step « Installing npm packages in client/tools » failed: scripts/lib.sh line *npm ci* (exit 1)"
expect_no_call "cargo build*"
verdict "npm ci fails (inside a subshell): the step is named"

new_machine no-cargo --without=cargo
run_script scripts/build-client.sh
expect_status 127
expect_output stderr "error: « cargo »: command not found*"
expect_output stderr "error: step « Installing wasm-bindgen-cli $WANT * » failed: * (exit 127: command not found)"
verdict "no cargo on PATH: the missing command and the step are named"

new_machine no-sudo --user
run_script scripts/build-client.sh
expect_status 1
expect_output stderr "error: need root to run: apt-get update -qq (step « Installing Node.js and npm »)"
expect_no_call "apt-get*"
verdict "a user without sudo: says root is needed, in which step"

new_machine over-budget
run_script REHEARSAL_WASM_BYTES=270000 scripts/build-client.sh
expect_status 1
for lang in fr en; do
    expect_output stderr "error: the other pages' initial wasm + JS + $lang texts (client): * B gzipped, over its budget of 260000 B by * B"
    expect_output stderr "error: the rooms' initial wasm + JS + $lang texts (remote): * B gzipped, over its budget of 260000 B by * B"
done
expect_output stderr "error: worker wasm: * B gzipped, over its budget of 120000 B by * B"
expect_output stderr "error: the client is over its size budget (see above) (step « Size budget *»)"
verdict "a client over its size budget: build-client.sh (and so test.sh) fails"
run_script REHEARSAL_WASM_BYTES=270000 scripts/run.sh
expect_status 0
expect_output stderr "warning: the client is over its size budget; scripts/test.sh fails on this"
expect_calls "signaling --static-dir repo/client/dist"
verdict "the same client with run.sh: a warning, and the relay still starts"

# check_budget at its limit: within at exactly the limit, over at one byte more.
head -c 5000 /dev/urandom >"$M/some.wasm"
size=$(gzip -9c "$M/some.wasm" | wc -c)
for limit in "$size" "$((size - 1))"; do
    RC=0
    # shellcheck disable=SC2016 # expanded by that bash
    env -i PATH="$TMP/system-bin" bash -c 'source "$1"; check_budget "a file" "$2" "$3"' \
        - "$M/repo/scripts/lib.sh" "$limit" "$M/some.wasm" >"$M/stdout" 2>"$M/stderr" || RC=$?
    if [ "$limit" = "$size" ]; then
        expect_status 0
        expect_output stdout "a file: $size B gzipped, within its budget of $size B (100%)"
    else
        expect_status 1
        expect_output stderr "error: a file: $size B gzipped, over its budget of $limit B by 1 B"
    fi
done
verdict "check_budget: $size B passes a budget of $size B and fails one of $((size - 1)) B"

echo "  What run.sh ran on the fresh machine:"
sed -E 's/^(.{90}).{4,}$/\1 …/; s/^/        /' "$TMP/first-calls"
TENTHS=$((($(date +%s%N) - START) / 100000000))
printf '%s scenarios, %s failed, in %s.%s s\n' "$SCENARIOS" "$FAILED" $((TENTHS / 10)) $((TENTHS % 10))
[ "$FAILED" = 0 ]
