#!/usr/bin/env bash
# The tools of a fake fresh machine, for tests/fresh-machine/rehearse.sh. This one file stands
# for every tool, installed (symlinked) under each tool's name; it records each call in
# $REHEARSAL_LOG and acts like the real tool would on a machine that has only the Rust
# toolchain: no wasm32 target, no wasm-bindgen, no Node.js, no Chromium, no nginx, no Python.
# Installing a tool (rustup target add, cargo install, apt-get install, npm ci) puts its shim
# where the real one would go, so the scripts' later steps find it or fail as they would.
#
# Set by rehearse.sh: REHEARSAL_DIR (the machine: repo/, state/, usr-bin/, home/),
# REHEARSAL_LOG, REHEARSAL_SHIM (this file), FAKE_UID (what `id -u` says), and optionally
# REHEARSAL_FAIL="PREFIX=STATUS" (a call whose "name args" starts with PREFIX records itself
# and exits with STATUS) and REHEARSAL_WASM_BYTES (size of the wasm wasm-bindgen writes).
set -euo pipefail

name=${0##*/}
machine=$REHEARSAL_DIR
state=$machine/state

# The call, with the machine's path left out so that the log reads the same on every run.
call="$name${*:+ $*}"
call=${call//"$machine/"/}
if [ "$name" = npm ]; then call="$call (in ${PWD#"$machine/"})"; fi

fail=${REHEARSAL_FAIL:-}
if [ -n "$fail" ] && [[ "$name $*" == "${fail%=*}"* ]]; then
    echo "$call -> exit ${fail##*=}" >>"$REHEARSAL_LOG"
    echo "$name: failing here, as the rehearsal asked" >&2
    exit "${fail##*=}"
fi
echo "$call" >>"$REHEARSAL_LOG"

unsupported() {
    echo "fake $name: « $name $* » is not emulated; teach tests/fresh-machine/shim.sh" >&2
    exit 64
}

install_tool() { # DIR NAME: the tool NAME is now in DIR
    mkdir -p "$1"
    ln -sf "$REHEARSAL_SHIM" "$1/$2"
}

case $name in
id)
    [ "$*" = -u ] || unsupported "$@"
    echo "$FAKE_UID"
    ;;
sudo)
    FAKE_UID=0 exec "$@"
    ;;
rustup)
    case "$*" in
    "target list --installed") cat "$state/rustup-targets" ;;
    "target add "*)
        shift 2
        for target; do
            grep -qx "$target" "$state/rustup-targets" || echo "$target" >>"$state/rustup-targets"
        done
        ;;
    *) unsupported "$@" ;;
    esac
    ;;
cargo)
    command=${1:-}
    shift || true
    case $command in
    install)
        [ "${1:-}" = wasm-bindgen-cli ] || unsupported install "$@"
        version=0.2.999 # the newest, which is not what Cargo.lock wants
        [ "${2:-}" = --version ] && version=$3
        echo "$version" >"$state/wasm-bindgen-version"
        install_tool "$HOME/.cargo/bin" wasm-bindgen
        echo "  Installed package \`wasm-bindgen-cli v$version\` (executable \`wasm-bindgen\`)" >&2
        ;;
    build)
        packages=() profile=debug target=""
        while [ $# -gt 0 ]; do
            case $1 in
            -p) packages+=("$2"); shift ;;
            --profile) profile=$2; shift ;;
            --release) profile=release ;;
            --target) target=$2; shift ;;
            --features) shift ;;
            -q | --no-default-features) ;;
            *) unsupported build "$@" ;;
            esac
            shift
        done
        out=${CARGO_TARGET_DIR:-$PWD/target}${target:+/$target}/$profile
        if [ -n "$target" ] && ! grep -qx "$target" "$state/rustup-targets"; then
            echo "error[E0463]: can't find crate for \`core\`" >&2
            echo "  = note: the \`$target\` target may not be installed" >&2
            exit 101
        fi
        mkdir -p "$out"
        for package in "${packages[@]}"; do
            case $package/$target in
            client/wasm32-unknown-unknown) printf '\0asm\1\0\0\0' >"$out/client.wasm" ;;
            client-worker/wasm32-unknown-unknown) printf '\0asm\1\0\0\0' >"$out/client_worker.wasm" ;;
            signaling/ | engine/) install_tool "$out" "$package" ;;
            *) unsupported build -p "$package" --target "$target" ;;
            esac
        done
        ;;
    fmt | clippy | test) ;;
    *) unsupported "$command" "$@" ;;
    esac
    ;;
wasm-bindgen)
    if [ "$*" = --version ]; then
        echo "wasm-bindgen $(cat "$state/wasm-bindgen-version")"
        exit
    fi
    out_dir="" out_name="" input=""
    while [ $# -gt 0 ]; do
        case $1 in
        --out-dir) out_dir=$2; shift ;;
        --out-name) out_name=$2; shift ;;
        --target) shift ;;
        --no-typescript) ;;
        -*) unsupported "$@" ;;
        *) input=$1 ;;
        esac
        shift
    done
    [ -f "$input" ] || { echo "error: failed reading '$input'" >&2; exit 1; }
    mkdir -p "$out_dir"
    # Random bytes do not compress: the gzipped size is about REHEARSAL_WASM_BYTES.
    { printf '\0asm\1\0\0\0'; head -c "${REHEARSAL_WASM_BYTES:-60000}" /dev/urandom; } \
        >"$out_dir/${out_name}_bg.wasm"
    printf 'export default async function init() { /* loads %s_bg.wasm */ }\n' "$out_name" \
        >"$out_dir/$out_name.js"
    ;;
wasm-opt)
    input="" output=""
    while [ $# -gt 0 ]; do
        case $1 in
        -o) output=$2; shift ;;
        -*) ;;
        *) input=$1 ;;
        esac
        shift
    done
    [ -f "$input" ] || { echo "[wasm-validator error] cannot read $input" >&2; exit 1; }
    cp "$input" "$output"
    ;;
esbuild)
    input="" output=""
    for arg; do
        case $arg in
        --outfile=*) output=${arg#--outfile=} ;;
        -*) ;;
        *) input=$arg ;;
        esac
    done
    [ -f "$input" ] || { echo "✘ [ERROR] Could not resolve \"$input\"" >&2; exit 1; }
    cp "$input" "$output"
    ;;
apt-get)
    if [ "$FAKE_UID" != 0 ]; then
        echo "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)" >&2
        exit 100
    fi
    case ${1:-} in
    update) touch "$state/apt-lists" ;;
    install)
        shift
        for package; do
            case $package in
            -*) continue ;;
            nodejs) tools=(node) ;;
            npm) tools=(npm node) ;; # Debian's npm depends on nodejs
            chromium) tools=(chromium) ;;
            chromium-driver) tools=(chromedriver) ;;
            firefox-esr) tools=(firefox-esr) ;;
            nginx) tools=(nginx) ;;
            python3) tools=(python3) ;;
            *) tools=() ;;
            esac
            # A fresh Debian image has no package lists until `apt-get update`.
            if [ ! -f "$state/apt-lists" ] || [ ${#tools[@]} = 0 ]; then
                echo "E: Unable to locate package $package" >&2
                exit 100
            fi
            for tool in "${tools[@]}"; do install_tool "$machine/usr-bin" "$tool"; done
        done
        ;;
    *) unsupported "$@" ;;
    esac
    ;;
npm)
    [ "${1:-}" = ci ] || unsupported "$@"
    if [ ! -f package-lock.json ]; then
        echo "npm ERR! The \`npm ci\` command can only install with an existing package-lock.json" >&2
        exit 1
    fi
    command -v node >/dev/null || { echo "/usr/bin/env: 'node': No such file or directory" >&2; exit 127; }
    rm -rf node_modules
    mkdir -p node_modules/.bin
    # The devDependencies, one folder each; binaryen brings wasm-opt, esbuild itself.
    while read -r package; do
        mkdir -p "node_modules/$package"
        echo '{}' >"node_modules/$package/package.json"
        [ "$package" != binaryen ] || install_tool node_modules/.bin wasm-opt
        [ "$package" != esbuild ] || install_tool node_modules/.bin esbuild
    done < <(sed -n '/"devDependencies"/,/}/ s/^ *"\([^"]*\)": *".*$/\1/p' package.json)
    ;;
# Tools that the set-up installs but does not run, and the binaries cargo builds: they only
# record their call (the relay started at the end of run.sh exits at once).
node | chromium | chromedriver | firefox-esr | nginx | python3 | signaling | engine | rehearse.sh) ;;
*) unsupported "$@" ;;
esac
