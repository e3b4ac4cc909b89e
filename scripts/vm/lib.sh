# Helpers for the VM scripts (scripts/vm-kernel, scripts/vm-test). Source it
# after scripts/lib.sh; do not run it. ARCH below is a Debian architecture
# name: amd64 (the default guest) or arm64 (the boards' architecture).

# The guest kernels, pinned so every machine boots the same ones. apt-get
# fetches the .deb (it is never installed on the host). Two series:
#   6.1   Debian 12's own kernel, the default guest: linux-image-6.1.0-50-ARCH.
#   6.12  bookworm-security's newer series (linux-image-6.12.N+deb12-ARCH),
#         for what 6.1's drivers lack: virtio-gpu's FB_DAMAGE_CLIPS (6.4+).
# FBR_VM_KERNEL=SERIES (or vm_kernel's second argument) picks one. Debian
# drops old kernel ABIs from the archive at point releases (and
# bookworm-security keeps only the newest 6.12): if a pinned one is gone,
# vm_kernel falls back to the kernel the series' meta-package depends on
# (linux-image-ARCH, linux-image-6.12-ARCH) and says so: then update its
# line below.
#                ABI                 version             meta-package (fallback)
VM_KERNEL_PINS=("6.1  6.1.0-50           6.1.176-1           linux-image"
                "6.12 6.12.117+deb12     6.12.117-1~deb12u1  linux-image-6.12")
VM_KERNEL_DEFAULT_SERIES=6.1
VM_KERNEL_SERIES="${FBR_VM_KERNEL:-$VM_KERNEL_DEFAULT_SERIES}"
# The default series' pin (scripts/vm-vkms builds vkms against it);
# FBR_VM_KERNEL_ABI/VERSION override it.
read -r _ VM_KERNEL_ABI VM_KERNEL_VERSION _ <<<"${VM_KERNEL_PINS[0]}"
VM_KERNEL_ABI="${FBR_VM_KERNEL_ABI:-$VM_KERNEL_ABI}"
VM_KERNEL_VERSION="${FBR_VM_KERNEL_VERSION:-$VM_KERNEL_VERSION}"

# Prints "ABI VERSION META" of kernel SERIES (6.1 or 6.12).
vm_kernel_pin() {
    local series=$1 line s abi version meta
    for line in "${VM_KERNEL_PINS[@]}"; do
        read -r s abi version meta <<<"$line"
        [ "$s" = "$series" ] || continue
        if [ "$series" = "$VM_KERNEL_DEFAULT_SERIES" ]; then abi=$VM_KERNEL_ABI; version=$VM_KERNEL_VERSION; fi
        echo "$abi $version $meta"
        return
    done
    die "unknown guest kernel series $series (have: $(printf '%s\n' "${VM_KERNEL_PINS[@]}" | cut -d' ' -f1 | tr '\n' ' '))"
}

# Modules the guest loads (with their dependencies, found by
# scripts/vm/kernel.py; built-in ones are skipped): the virtio PCI
# transport, DRM with the virtio-gpu and bochs (QEMU's standard VGA and
# bochs-display) drivers, and input for later tests.
VM_MODULES=(virtio_pci virtio_pci_modern_dev virtio_pci_legacy_dev drm drm_kms_helper drm_shmem_helper
            virtio_dma_buf virtio-gpu bochs virtio_input evdev uinput)

VM_DIR="$FBR_ROOT/scripts/vm"

# arm64 packages need dpkg to know the architecture (as make-sysroot-arm64
# does it).
vm_foreign_arch() {
    local arch=$1
    [ "$arch" = "$(dpkg --print-architecture)" ] && return 0
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        log "adding the $arch architecture to dpkg"
        as_root dpkg --add-architecture "$arch"
        APT_UPDATED=0
        apt_update_once
    fi
}

# Prints "PACKAGE VERSION" of the kernel to use for ARCH and SERIES: the
# pinned one if the archive has it, else the series meta-package's current
# dependency.
vm_kernel_package() {
    local arch=$1 series=$2 abi version meta
    read -r abi version meta < <(vm_kernel_pin "$series")
    local pinned="linux-image-$abi-$arch:$arch" pinned_version=$version
    vm_foreign_arch "$arch"
    if ! apt-cache show "$pinned=$pinned_version" >/dev/null 2>&1; then
        apt_update_once
    fi
    if apt-cache show "$pinned=$pinned_version" >/dev/null 2>&1; then
        echo "$pinned $pinned_version"
        return
    fi
    local package
    package=$(apt-cache depends "$meta-$arch:$arch" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\).*/\1/p' | head -1)
    package="${package%%:*}:$arch"
    version=$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    if [ -z "$version" ] || [ "$version" = "(none)" ]; then
        die "neither the pinned kernel $pinned=$pinned_version nor $meta-$arch is in the apt archive"
    fi
    log "warning: the pinned kernel $pinned=$pinned_version is gone from the archive;" \
        "using $package=$version (update VM_KERNEL_PINS in scripts/vm/lib.sh)"
    echo "$package $version"
}

# Makes (or reuses) the guest kernel of SERIES (default: FBR_VM_KERNEL,
# else 6.1; see VM_KERNEL_PINS) for ARCH in the cache and sets
# VM_KERNEL_IMAGE (what QEMU boots: the uncompressed ELF vmlinux on amd64,
# the Image on arm64), VM_MODULE_DIR (the modules, decompressed, and their
# load-order) and VM_KERNEL (PACKAGE=VERSION).
vm_kernel() {
    local arch=$1 series=${2:-$VM_KERNEL_SERIES} abi version meta package
    read -r abi version meta < <(vm_kernel_pin "$series")
    [ -n "$abi" ] || exit 1   # vm_kernel_pin said why
    package="linux-image-$abi-$arch:$arch"
    if [ ! -f "$FBR_CACHE/vm/${package%%:*}_$version/kernel" ]; then
        read -r package version < <(vm_kernel_package "$arch" "$series")
        [ -n "$package" ] || exit 1
    fi
    local dir="$FBR_CACHE/vm/${package%%:*}_$version"
    # The module set is part of the key, so editing VM_MODULES re-selects.
    local key
    key=$(printf '%s\n' "${VM_MODULES[@]}" | cat - "$VM_DIR/kernel.py" | sha256sum | cut -c1-12)
    VM_KERNEL="${package%%:*}=$version"
    VM_KERNEL_IMAGE="$dir/kernel"
    VM_MODULE_DIR="$dir/modules-$key"
    [ -f "$VM_KERNEL_IMAGE" ] && [ -f "$VM_MODULE_DIR/load-order" ] && return 0

    ensure_packages python3
    mkdir -p "$dir"
    local deb
    deb=$(find "$dir" -maxdepth 1 -name '*.deb' | head -1)
    if [ -z "$deb" ]; then
        log "downloading $package=$version"
        # apt-get download writes to the current folder; as root it warns
        # that the _apt user cannot write there, which is harmless.
        (cd "$dir" && apt-get download -q "$package=$version" 2>&1 | grep -v "unsandboxed" >&2) || true
        deb=$(find "$dir" -maxdepth 1 -name '*.deb' | head -1)
        [ -n "$deb" ] || die "apt-get download $package=$version failed"
    fi
    log "extracting $(basename "$deb")"
    local tree="$dir/tree.tmp"
    rm -rf "$tree"
    dpkg-deb -x "$deb" "$tree"
    local release
    release=$(basename "$(find "$tree/lib/modules" -mindepth 1 -maxdepth 1 | head -1)")
    python3 "$VM_DIR/kernel.py" image "$tree/boot/vmlinuz-$release" "$VM_KERNEL_IMAGE"
    cp "$tree/boot/config-$release" "$dir/config"
    rm -rf "$VM_MODULE_DIR.tmp"
    python3 "$VM_DIR/kernel.py" modules "$tree/lib/modules/$release" "$VM_MODULE_DIR.tmp" "${VM_MODULES[@]}"
    rm -rf "$VM_MODULE_DIR"
    mv "$VM_MODULE_DIR.tmp" "$VM_MODULE_DIR"
    rm -rf "$tree"
    log "kernel $release ready in $dir"
}

# vm_unpacked_debs ARCH NAME MARKER PACKAGE…: the Debian PACKAGEs for ARCH
# at the apt archive's candidate version of the first (they come from one
# source package), fetched with apt-get download into
# $FBR_CACHE/vm/NAME_VERSION_ARCH/, unpacked there and never installed;
# reused while MARKER (a path inside it) is executable. Sets VM_DEBS_DIR.
vm_unpacked_debs() {
    local arch=$1 name=$2 marker=$3
    shift 3
    local version
    version=$(apt-cache policy "$1:$arch" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    if [ -z "$version" ] || [ "$version" = "(none)" ]; then apt_update_once
        version=$(apt-cache policy "$1:$arch" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    fi
    [ -n "$version" ] && [ "$version" != "(none)" ] || die "no $1:$arch in the apt archive"
    local dir="$FBR_CACHE/vm/${name}_${version//:/%3a}_$arch"
    if [ ! -x "$dir/$marker" ]; then
        log "downloading ${*/%/=$version}"
        rm -rf "$dir.tmp"
        mkdir -p "$dir.tmp"
        (cd "$dir.tmp" && apt-get download -q "${@/%/:$arch=$version}" 2>&1 | grep -v "unsandboxed" >&2) || true
        local deb count=0
        for deb in "$dir.tmp"/*.deb; do
            [ -f "$deb" ] || continue
            dpkg-deb -x "$deb" "$dir.tmp"
            rm -f "$deb"
            count=$((count + 1))
        done
        [ "$count" = $# ] || die "apt-get download $* ($version) failed"
        rm -rf "$dir"
        mv "$dir.tmp" "$dir"
    fi
    VM_DEBS_DIR=$dir
}

# Sets VM_BUSYBOX to a static busybox for ARCH: the host's own on the host
# architecture (package busybox-static), else one extracted from Debian's
# busybox-static:ARCH into the cache.
vm_busybox() {
    local arch=$1
    if [ "$arch" = "$(dpkg --print-architecture)" ]; then
        ensure_packages busybox-static
        VM_BUSYBOX=/bin/busybox
        return
    fi
    vm_foreign_arch "$arch"
    vm_unpacked_debs "$arch" busybox-static bin/busybox busybox-static
    VM_BUSYBOX="$VM_DEBS_DIR/bin/busybox"
}

# systemd-udevd for the guest's udev-seat tests (scripts/vm/with-udevd):
# Debian's udev package and libsystemd-shared at the host's candidate
# version, fetched with apt-get download into the cache (keyed by the
# version, never installed), unpacked there. Sets VM_UDEV_LIST to
# scripts/vm/mkcpio.py lines: udevadm (also as /lib/systemd/systemd-udevd,
# which it is in the package), the rules libinput's devices need (input_id
# sets ID_INPUT*, the default rules), udev.conf, the with-udevd wrapper and
# the libraries udevadm needs (ldd; libsystemd-shared through its RUNPATH
# from the unpacked tree). No hwdb.bin: libinput needs none of its entries
# for a touchscreen, and compiling it would add 10 MB to every boot.
# amd64 only for now (the host's ldd resolves the libraries); arm64 would
# need the udev libraries (libkmod, libacl, libcap, libselinux, libblkid)
# in the arm64 sysroot.
VM_UDEV_RULES=(50-udev-default.rules 60-input-id.rules 60-evdev.rules 60-persistent-input.rules 70-touchpad.rules)
vm_udev() {
    local arch=$1
    [ "$arch" = "$(dpkg --print-architecture)" ] || die "vm_udev: only the host's architecture ($arch asked)"
    vm_unpacked_debs "$arch" udev bin/udevadm udev libsystemd-shared
    local dir=$VM_DEBS_DIR
    local udevadm="$dir/bin/udevadm" shared
    shared=$(find "$dir/usr/lib" -name 'libsystemd-shared-*.so' | head -1)
    [ -n "$shared" ] || die "$dir has no libsystemd-shared"
    VM_UDEV_LIST="dir /run
dir /usr
dir /usr/bin
dir /lib/systemd
dir /lib/udev
dir /lib/udev/rules.d
dir /etc/udev
file /usr/bin/udevadm $udevadm 755
symlink /lib/systemd/systemd-udevd /usr/bin/udevadm
file /etc/udev/udev.conf $dir/etc/udev/udev.conf 644
file /bin/with-udevd $VM_DIR/with-udevd 755
file ${shared#"$dir"} $shared 755"
    local rule
    for rule in "${VM_UDEV_RULES[@]}"; do
        VM_UDEV_LIST+=$'\n'"file /lib/udev/rules.d/$rule $dir/lib/udev/rules.d/$rule 644"
    done
    # udevadm's libraries but libsystemd-shared (above, from the tree).
    VM_UDEV_LIST+=$'\n'$(LD_LIBRARY_PATH="$(dirname "$shared")" ldd "$udevadm" \
        | awk '/=> \// && !/libsystemd-shared/ { print "file " $3 " " $3 " 755" } /^\t\// { print "file " $1 " " $1 " 755" }')
}

# vm_seatd ARCH: seatd and libseat for the guest's seat tests
# (scripts/vm/with-seatd), Debian's seatd and libseat1 at the archive's
# candidate version, fetched with apt-get download into
# $FBR_CACHE/vm/seatd_VERSION_ARCH/ and never installed (the seatd package
# would start a seat manager on a host that runs systemd). Sets
# VM_SEATD_LIST: mkcpio.py lines for seatd, libseat.so.1 (the programs load
# it with dlopen, so ldd does not name it) and libseat's libraries (the
# host's: libsystemd0 and what it needs), as-user and with-seatd.
vm_seatd() {
    local arch=$1
    [ "$arch" = "$(dpkg --print-architecture)" ] || die "vm_seatd: only the host's architecture ($arch asked)"
    vm_unpacked_debs "$arch" seatd usr/sbin/seatd seatd libseat1
    local dir=$VM_DEBS_DIR
    local libseat
    libseat=$(find "$dir/usr/lib" -name 'libseat.so.1*' -type f | head -1)
    [ -n "$libseat" ] || die "$dir has no libseat.so.1"
    local found
    found=$(ldd "$libseat")
    if grep -q "not found" <<<"$found"; then
        die "libseat needs libraries this host lacks: $(grep "not found" <<<"$found" | tr -s ' \t\n' ' ')"
    fi
    VM_SEATD_LIST="dir /run
file /usr/sbin/seatd $dir/usr/sbin/seatd 755
file /usr/lib/x86_64-linux-gnu/libseat.so.1 $libseat 755
file /bin/with-seatd $VM_DIR/with-seatd 755
file /bin/as-user $VM_DIR/as-user 755"
    VM_SEATD_LIST+=$'\n'$(awk '/=> \// { print "file " $3 " " $3 " 755" }' <<<"$found")
}

# Prints the scripts/vm/mkcpio.py lines every guest has: the folders,
# board-configs/*.conf in /etc/fbruntime/boards, the console node, busybox
# (VM_BUSYBOX), scripts/vm/init, scripts/vm/as-user and the kernel modules
# (VM_MODULE_DIR) with their load order. Call vm_kernel and vm_busybox
# first. (scripts/qemu-board uses it; scripts/vm-test still spells the same
# lines out in its prepare.)
vm_base_list() {
    local conf ko
    printf 'dir /%s\n' proc sys dev tmp run etc etc/vmtest etc/fbruntime etc/fbruntime/boards
    for conf in "$FBR_ROOT"/board-configs/*.conf; do echo "file /etc/fbruntime/boards/$(basename "$conf") $conf 644"; done
    echo "nod /dev/console c 5 1 600"
    echo "file /bin/busybox $VM_BUSYBOX 755"
    echo "symlink /bin/sh busybox"
    echo "file /init $VM_DIR/init 755"
    echo "file /bin/as-user $VM_DIR/as-user 755"
    for ko in "$VM_MODULE_DIR"/*.ko; do echo "file /lib/modules/$(basename "$ko") $ko 644"; done
    echo "file /lib/modules/load-order $VM_MODULE_DIR/load-order 644"
}
