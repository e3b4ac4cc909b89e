# Helpers for the VM scripts (scripts/vm-kernel, scripts/vm-test). Source it
# after scripts/lib.sh; do not run it.

# The guest kernel: Debian 12's 6.1 kernel, pinned so every machine boots
# the same one. apt-get fetches the .deb (it is never installed on the
# host). Debian drops old kernel ABIs from the archive at point releases; if
# this one is gone, vm_kernel falls back to the kernel that
# linux-image-amd64 depends on and says so: then update these two lines.
VM_KERNEL_PACKAGE="${FBR_VM_KERNEL_PACKAGE:-linux-image-6.1.0-50-amd64}"
VM_KERNEL_VERSION="${FBR_VM_KERNEL_VERSION:-6.1.176-1}"

# Modules the guest loads (with their dependencies, found by
# scripts/vm/kernel.py): the virtio PCI transport, DRM with the virtio-gpu
# and bochs (QEMU's standard VGA) drivers, and input for later tests.
VM_MODULES=(virtio_pci virtio_pci_modern_dev virtio_pci_legacy_dev drm drm_kms_helper drm_shmem_helper
            virtio_dma_buf virtio-gpu bochs virtio_input evdev uinput)

VM_DIR="$FBR_ROOT/scripts/vm"

# Prints "PACKAGE VERSION" of the kernel to use: the pinned one if the
# archive has it, else linux-image-amd64's current dependency.
vm_kernel_package() {
    if ! apt-cache show "$VM_KERNEL_PACKAGE=$VM_KERNEL_VERSION" >/dev/null 2>&1; then
        apt_update_once
    fi
    if apt-cache show "$VM_KERNEL_PACKAGE=$VM_KERNEL_VERSION" >/dev/null 2>&1; then
        echo "$VM_KERNEL_PACKAGE $VM_KERNEL_VERSION"
        return
    fi
    local package version
    package=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\).*/\1/p' | head -1)
    version=$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    [ -n "$package" ] && [ -n "$version" ] && [ "$version" != "(none)" ] ||
        die "neither the pinned kernel $VM_KERNEL_PACKAGE=$VM_KERNEL_VERSION nor linux-image-amd64 is in the apt archive"
    log "warning: the pinned kernel $VM_KERNEL_PACKAGE=$VM_KERNEL_VERSION is gone from the archive;" \
        "using $package=$version (update VM_KERNEL_* in scripts/vm/lib.sh)"
    echo "$package $version"
}

# Makes (or reuses) the guest kernel in the cache and sets VM_VMLINUX (the
# uncompressed kernel), VM_MODULE_DIR (the modules, decompressed, and their
# load-order) and VM_KERNEL (PACKAGE=VERSION).
vm_kernel() {
    local package version
    if [ -f "$FBR_CACHE/vm/${VM_KERNEL_PACKAGE}_$VM_KERNEL_VERSION/vmlinux" ]; then
        package=$VM_KERNEL_PACKAGE; version=$VM_KERNEL_VERSION   # cached: no apt look-up
    else
        read -r package version < <(vm_kernel_package)
    fi
    local dir="$FBR_CACHE/vm/${package}_$version"
    # The module set is part of the key, so editing VM_MODULES re-selects.
    local key
    key=$(printf '%s\n' "${VM_MODULES[@]}" | cat - "$VM_DIR/kernel.py" | sha256sum | cut -c1-12)
    VM_KERNEL="$package=$version"
    VM_VMLINUX="$dir/vmlinux"
    VM_MODULE_DIR="$dir/modules-$key"
    [ -f "$VM_VMLINUX" ] && [ -f "$VM_MODULE_DIR/load-order" ] && return 0

    ensure_packages python3
    mkdir -p "$dir"
    local deb
    deb=$(ls "$dir"/*.deb 2>/dev/null | head -1 || true)
    if [ -z "$deb" ]; then
        log "downloading $package=$version"
        # apt-get download writes to the current folder; as root it warns
        # that the _apt user cannot write there, which is harmless.
        (cd "$dir" && apt-get download -q "$package=$version" 2>&1 | grep -v "unsandboxed" >&2) || true
        deb=$(ls "$dir"/*.deb 2>/dev/null | head -1 || true)
        [ -n "$deb" ] || die "apt-get download $package=$version failed"
    fi
    log "extracting $(basename "$deb")"
    local tree="$dir/tree.tmp"
    rm -rf "$tree"
    dpkg-deb -x "$deb" "$tree"
    local release
    release=$(ls "$tree/lib/modules" | head -1)
    python3 "$VM_DIR/kernel.py" vmlinux "$tree/boot/vmlinuz-$release" "$VM_VMLINUX"
    cp "$tree/boot/config-$release" "$dir/config"
    rm -rf "$VM_MODULE_DIR.tmp"
    python3 "$VM_DIR/kernel.py" modules "$tree/lib/modules/$release" "$VM_MODULE_DIR.tmp" "${VM_MODULES[@]}"
    rm -rf "$VM_MODULE_DIR"
    mv "$VM_MODULE_DIR.tmp" "$VM_MODULE_DIR"
    rm -rf "$tree"
    log "kernel $release ready in $dir"
}
