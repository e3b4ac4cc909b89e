# Shared helpers for the scripts in this folder. Source it; do not run it.
set -euo pipefail

FBR_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
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
HOST_PACKAGES=(pkg-config libdrm-dev libinput-dev libudev-dev libpng-dev zlib1g-dev libjpeg62-turbo-dev libcairo2-dev libpixman-1-dev file
               libfreetype-dev libharfbuzz-dev fonts-dejavu-core fonts-lohit-deva libfontconfig1)
# The desktop simulator (fbsim, host only) links SDL2.
HOST_PACKAGES+=(libsdl2-dev)
# Its test: an X server without a screen, mouse input through XTEST, and
# window captures.
SIM_TEST_PACKAGES=(xvfb xdotool x11-apps)

require_swift() {
    command -v swift >/dev/null || die "swift is not on PATH (this project needs Swift 6.2 or newer)"
}
