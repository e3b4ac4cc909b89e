#!/bin/sh
# The board side of scripts/deploy, run as root through ssh:
#   sh -s INCOMING USER NAME [UNIT] < deploy/install-on-board.sh
# INCOMING holds the staged tree (opt/fbruntime/bin/NAME, etc/fbruntime/,
# etc/systemd/system/UNIT); UNIT defaults to fbruntime.service. POSIX sh:
# Debian, Buildroot's busybox and Yocto images alike.
set -eu
incoming=$1
user=$2
name=$3
unit=${4:-fbruntime.service}
# The shared libraries: ldd (glibc's) names any that are missing.
if command -v ldd >/dev/null; then
    missing=$(ldd "$incoming/opt/fbruntime/bin/$name" 2>&1 | grep "not found" || true)
    if [ -n "$missing" ]; then echo "deploy: the board lacks libraries:"; echo "$missing"; exit 1; fi
fi
# The account: a system user with no login, in video and input only.
for group in video input; do
    grep -q "^$group:" /etc/group || groupadd --system "$group" 2>/dev/null || addgroup -S "$group"
done
if ! id "$user" >/dev/null 2>&1; then
    if command -v useradd >/dev/null; then
        useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
    else
        adduser -S -D -H -h /nonexistent -s /sbin/nologin "$user"   # busybox
        addgroup -S "$user" 2>/dev/null || true
    fi
fi
for group in video input; do
    if command -v usermod >/dev/null; then usermod -a -G "$group" "$user"; else addgroup "$user" "$group"; fi
done
install -d -m 0755 /opt/fbruntime/bin /etc/fbruntime/boards
install -m 0755 "$incoming/opt/fbruntime/bin/$name" "/opt/fbruntime/bin/$name"
install -m 0644 "$incoming"/etc/fbruntime/boards/*.conf /etc/fbruntime/boards/
install -m 0644 "$incoming/etc/fbruntime/README" /etc/fbruntime/README
install -m 0644 "$incoming/etc/systemd/system/$unit" "/etc/systemd/system/$unit"
rm -rf "$incoming"
systemctl daemon-reload
# One program owns the display (DRM master): another FBRuntime unit, one
# deployed before under another name or installed from an app's .deb, is
# stopped and disabled.
for other in /etc/systemd/system/*.service /lib/systemd/system/*.service; do
    [ -f "$other" ] && [ "${other##*/}" != "$unit" ] || continue
    grep -q '^ExecStart=/opt/fbruntime/bin/' "$other" || continue
    echo "deploy: stopping and disabling ${other##*/} (one FBRuntime program runs at a time)"
    systemctl disable --now "${other##*/}" || true
done
systemctl enable "$unit"
systemctl restart "$unit"
sleep 2
systemctl --no-pager status "$unit" || true
systemctl is-active --quiet "$unit"
