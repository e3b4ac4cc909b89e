# Shared helpers for the scripts in this folder. Source it; do not run it.
set -euo pipefail

# Without symbolic links (pwd -P), as SwiftPM spells its .build folder: a
# scratch path named here must be the very string SwiftPM uses (see
# app_scratch).
FBR_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
# Caches that outlive a clone (sysroots, kernels) live outside the repo.
FBR_CACHE="${FBR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbruntime}"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root for: $*"; fi
}

APT_UPDATED=0
apt_update_once() {
    if [ "$APT_UPDATED" = 0 ]; then
        as_root apt-get update -qq >/dev/null
        APT_UPDATED=1
    fi
}

# Installs the Debian packages named that are not installed yet.
ensure_packages() {
    local missing=()
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        log "installing Debian packages: ${missing[*]}"
        apt_update_once
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# What the host build and the tests need.
# Text: FreeType and HarfBuzz; DejaVu Sans and Lohit Devanagari for the
# text tests (and DejaVu for the demo's line of text); fontconfig, loaded
# at run time, for fonts by family name and glyph fallback.
# Hardware keyboards: libxkbcommon, the keymaps it compiles (xkb-data) and
# the compose tables of dead keys and the Compose key (libX11's, libx11-data).
HOST_PACKAGES=(pkg-config libdrm-dev libinput-dev libudev-dev libpng-dev zlib1g-dev libjpeg62-turbo-dev libcairo2-dev libpixman-1-dev file
               libfreetype-dev libharfbuzz-dev fonts-dejavu-core fonts-lohit-deva libfontconfig1
               libxkbcommon-dev xkb-data libx11-data)
# libseat (loaded at run time, Sources/CSeat): SeatTests run the real one
# (a seatd backend that cannot connect). Not seatd itself: the package would
# start a seat manager on a host that runs systemd (the VM's comes from
# vm_seatd, never installed).
HOST_PACKAGES+=(libseat1)
# The desktop simulator (fbsim, host only) links SDL2.
HOST_PACKAGES+=(libsdl2-dev)
# Its test: an X server without a screen, mouse input through XTEST, and
# window captures.
SIM_TEST_PACKAGES=(xvfb xdotool x11-apps)

# app_scratch PACKAGE-DIR [-arm64]: the scratch folder (SwiftPM's
# --scratch-path) for an app package's host build, or with -arm64 its board
# build (scripts/cross-build-arm64 --package-path). An app anywhere else builds
# into its own folder, DIR/.build or DIR/.build-arm64, as SwiftPM would. The
# examples in this checkout (Examples/*) depend on it by path ("../.."), so
# they build into the checkout's own .build and .build-arm64: the runtime's
# modules are then compiled once for this package's programs and every
# example, not once each. Sharing is safe because their compile commands are
# the same whichever package is the root (SwiftPM keeps a module only when its
# whole command line is unchanged, and recompiles it otherwise), and each
# example still builds as its own package: its own manifest, FBRuntime through
# its products.
app_scratch() {
    local dir
    dir="$(cd "$1" && pwd -P)"
    case "$dir/" in
        "$FBR_ROOT/"*) echo "$FBR_ROOT/.build${2:-}" ;;
        *) echo "$dir/.build${2:-}" ;;
    esac
}

# forget_build_plan SCRATCH CONFIGURATION: makes SwiftPM plan the next build
# in SCRATCH afresh. It re-plans when the root package's files change, but not
# when a package it depends on by path gains a file: an app's old plan kept
# compiling FBRuntime without a file added since ("cannot find 'SurveyMemo' in
# scope"). Without its plan (the llbuild manifest) SwiftPM makes a new one, a
# second or two; what it compiled is kept unless its command changed.
forget_build_plan() {
    rm -f "$1/$2.yaml"
}

require_swift() {
    command -v swift >/dev/null || die "swift is not on PATH (this project needs Swift 6.2 or newer)"
}
