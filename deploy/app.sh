# What scripts/deploy and scripts/package-deb share: finding an app
# package's executable, cross-building it, and filling in the unit template
# (deploy/app.service.in). Host side, bash; source it after scripts/lib.sh.

# The executable product of the Swift package in DIR: PRODUCT when given
# (checked), else the package's only one. Asks SwiftPM (about a second;
# resolves the package's dependencies the first time).
app_product() {   # app_product DIR [PRODUCT]
    local dir="$1" want="${2:-}" json answer
    json=$(swift package --package-path "$dir" describe --type json 2>/dev/null) \
        || die "swift package describe failed in $dir (is it a Swift package?)"
    answer=$(printf '%s' "$json" | python3 -c '
import json, sys
want = sys.argv[1]
exes = sorted(p["name"] for p in json.load(sys.stdin)["products"] if "executable" in p["type"])
if want:
    if want not in exes:
        sys.exit("no executable product %s in the package (it has: %s)" % (want, ", ".join(exes) or "none"))
    print(want)
elif len(exes) == 1:
    print(exes[0])
else:
    sys.exit("the package has %s executable products (%s): name one with --product"
             % (len(exes) or "no", ", ".join(exes)))
' "$want" 2>&1) || die "$dir: $answer"
    printf '%s\n' "$answer"
}

# Cross-builds PRODUCT of the package in DIR for aarch64 (Embedded Swift,
# scripts/cross-build-arm64) and prints the binary's path.
app_build() {   # app_build DIR PRODUCT
    local bindir
    bindir=$("$FBR_ROOT/scripts/cross-build-arm64" --package-path "$1" "$2") || die "cross-building $2 of $1 failed"
    [ -f "$bindir/$2" ] || die "the cross-build made no $bindir/$2"
    printf '%s\n' "$bindir/$2"
}

# ELF e_machine 183 is aarch64.
is_aarch64_elf() { [ "$(od -An -t u2 -j 18 -N 2 "$1" | tr -d ' ')" = 183 ]; }

# Names that go into unit files and paths: program, unit and board names.
check_name() {   # check_name WHAT VALUE
    [[ "$2" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad $1 '$2' (letters, digits, '.', '_', '-')"
}

# The program's arguments go into ExecStart= as they are: nothing that sed,
# the shell or systemd's specifiers and quoting would change.
check_args() {
    [[ "$1" != *[$'\n'\'\"\\\$\`\&\|%]* ]] || die "--args: no quotes, backslashes, \$, &, |, % or newlines (the unit's ExecStart takes it as is)"
}

# Fills in deploy/app.service.in. BOARD "auto" (or empty) leaves
# FBRUNTIME_BOARD empty: no board file, every setting auto.
render_unit() {   # render_unit OUT USER EXEC ARGS BOARD DOC
    local out="$1" user="$2" exec="$3" args="$4" board="$5" doc="$6"
    [ "$board" != auto ] || board=""
    [[ "$exec$doc" != *[$'\n'\|\&\\%]* ]] || die "unusable path in the unit: $exec"
    sed -e "s|@USER@|$user|g" -e "s|@EXEC@|$exec|g" -e "s|@ARGS@|$args|g" -e "s|@BOARD@|$board|g" \
        -e "s|@DOC@|$doc|g" -e "s|^\(ExecStart=.*[^ ]\) *$|\1|" "$FBR_ROOT/deploy/app.service.in" > "$out"
    ! grep -q "@[A-Z]*@" "$out" || die "unfilled placeholder in $out"
}
