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
# The flags of the board build, one per line, for three tools: the Swift
# compiler, the C compiler (also handed to Swift's Clang importer) and the
# linker. cross_swiftpm_args spells them as SwiftPM command-line options;
# scripts/make-swift-sdk-arm64 writes the same lists into a Swift SDK's
# toolset.json, so both build paths get one set of flags.
board_swift_flags() {
    printf '%s\n' -enable-experimental-feature Embedded -wmo -DFBR_EMBEDDED
    # Size: every function (Swift and C) in a section of its own, so the
    # linker drops what the program never reaches (public API of the
    # modules that this program does not call: Swift's whole-module build
    # keeps every public symbol, and without these flags a whole file's
    # .text stays once anything in it is used); relative relocations packed
    # as RELR (glibc 2.36+), not 24 bytes each. Together: fbdemo 3.89 MB ->
    # 1.37 MB stripped (.text 3.50 -> 1.20 MB, .rela.dyn 210 KB -> 1.4 KB).
    printf '%s\n' -Xfrontend -function-sections
    local d
    for d in --target=aarch64-linux-gnu "--sysroot=$SYSROOT" -fuse-ld=lld; do
        printf '%s\n' -Xclang-linker "$d"
    done
}
board_c_flags() {
    local S="$SYSROOT"
    printf '%s\n' "--sysroot=$S" -isystem "$S/usr/include/aarch64-linux-gnu" -isystem "$S/usr/include" \
        "-I$S/usr/include/libdrm" "-I$S/usr/include/libpng16" "-I$S/usr/include/freetype2" \
        -D__linux__ -D__linux -D__gnu_linux__ -D__unix__ -D__unix -D_GNU_SOURCE \
        -ffunction-sections -fdata-sections
}
# The object of board-runtime/bridge_object_retain.c (the Embedded
# runtime's bridge-object retains, returning their argument as the compiler
# assumes), compiled for aarch64 Linux once per source and toolchain into
# the cache; prints its path.
board_runtime_object() {
    local source="$FBR_ROOT/board-runtime/bridge_object_retain.c" key object
    key=$( { cat "$source"; "$SWIFT_BIN_DIR/clang" --version; } | sha256sum | cut -c1-16)
    object="$FBR_CACHE/board-runtime/bridge_object_retain-$key.o"
    if [ ! -f "$object" ]; then
        mkdir -p "$FBR_CACHE/board-runtime"
        "$SWIFT_BIN_DIR/clang" --target=aarch64-linux-gnu -O2 -ffunction-sections -fno-stack-protector \
            -c "$source" -o "$object.tmp" || die "cannot compile $source for aarch64"
        mv "$object.tmp" "$object"
    fi
    printf '%s\n' "$object"
}
board_linker_flags() {
    printf '%s\n' --gc-sections -z pack-relative-relocs
    # Strong definitions that replace the weak ones of the Embedded runtime
    # (board-runtime/bridge_object_retain.c says why).
    board_runtime_object
    # Module-map link lines are ignored in Embedded mode: name every library.
    printf '%s\n' "-L$SWIFT_EMBEDDED_LIB" -lswiftUnicodeDataTables
    local l
    for l in drm input udev xkbcommon png16 jpeg z freetype harfbuzz pthread m; do printf '%s\n' "-l$l"; done
}
cross_swiftpm_args() {
    printf '%s\n' -c release --triple aarch64-none-none-elf --scratch-path "${CROSS_SCRATCH:-$FBR_ROOT/.build-arm64}"
    local d
    while read -r d; do printf '%s\n' -Xswiftc "$d"; done < <(board_swift_flags)
    while read -r d; do printf '%s\n' -Xcc "$d"; done < <(board_c_flags)
    while read -r d; do printf '%s\n' -Xlinker "$d"; done < <(board_linker_flags)
}
