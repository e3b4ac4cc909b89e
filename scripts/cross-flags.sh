# Sourced by the scripts that cross-build: the SwiftPM arguments for an
# Embedded Swift build for aarch64 Linux against the sysroot in $SYSROOT.
#
# The target triple is bare-metal (aarch64-none-none-elf) because that is the
# triple Embedded Swift ships a standard library for; the C side gets the
# Debian sysroot and the Linux predefines the bare-metal driver leaves out
# (without __linux__, drm.h takes its BSD branch), and the link is done by
# clang for aarch64-linux-gnu against glibc in the sysroot with lld.
SWIFT_BIN_DIR="$(dirname "$(readlink -f "$(command -v swift)")")"
SWIFT_EMBEDDED_LIB="$SWIFT_BIN_DIR/../lib/swift/embedded/aarch64-none-none-elf"
# FBR_BOARD_BUILD=1 tells Package.swift to optimise every module but Raster
# for size (-Osize after release's -O; Raster keeps -O).
export FBR_BOARD_BUILD=1
cross_swiftpm_args() {
    local S="$SYSROOT"
    local a=(
        -c release --triple aarch64-none-none-elf --scratch-path "$FBR_ROOT/.build-arm64"
        -Xswiftc -enable-experimental-feature -Xswiftc Embedded -Xswiftc -wmo
        -Xswiftc -DFBR_EMBEDDED
        # Size: every function (Swift and C) in a section of its own, so the
        # linker drops what the program never reaches (public API of the
        # modules that this program does not call: Swift's whole-module
        # build keeps every public symbol, and without these flags a whole
        # file's .text stays once anything in it is used); relative
        # relocations packed as RELR (glibc 2.36+), not 24 bytes each.
        # Together: fbdemo 3.89 MB -> 1.37 MB stripped (.text 3.50 -> 1.20 MB,
        # .rela.dyn 210 KB -> 1.4 KB of RELR).
        -Xswiftc -Xfrontend -Xswiftc -function-sections
        -Xcc -ffunction-sections -Xcc -fdata-sections
        -Xlinker --gc-sections -Xlinker -z -Xlinker pack-relative-relocs
    )
    local d
    for d in "--sysroot=$S" -isystem "$S/usr/include/aarch64-linux-gnu" -isystem "$S/usr/include" \
             "-I$S/usr/include/libdrm" "-I$S/usr/include/libpng16" "-I$S/usr/include/freetype2" \
             -D__linux__ -D__linux -D__gnu_linux__ -D__unix__ -D__unix -D_GNU_SOURCE; do
        a+=(-Xcc "$d")
    done
    for d in --target=aarch64-linux-gnu "--sysroot=$S" -fuse-ld=lld; do
        a+=(-Xswiftc -Xclang-linker -Xswiftc "$d")
    done
    # Module-map link lines are ignored in Embedded mode: name every library.
    a+=(-Xlinker "-L$SWIFT_EMBEDDED_LIB" -Xlinker -lswiftUnicodeDataTables)
    for d in drm input udev png16 jpeg z freetype harfbuzz pthread m; do a+=(-Xlinker "-l$d"); done
    printf '%s\n' "${a[@]}"
}
