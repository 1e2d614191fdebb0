#!/bin/sh
# SPDX-License-Identifier: MIT
# maint/check_deb_root.sh -- the two halves of 'make check-deb' (mk/deb.mk), as root:
#
#   check_deb_root.sh make TAR SUITE MIRROR CACHE INCLUDE
#       a clean root by mmdebstrap --variant=minbase, with the packages
#       INCLUDE (comma-separated), written as the tarball TAR.
#   check_deb_root.sh run TAR ROOT DEB...
#       unpacks TAR into ROOT (a fresh root each run), installs the .deb
#       files there with dpkg, and runs the installed posixtrace-conformance
#       in it (chroot) against the installed libposixtrace, the reports in
#       ROOT/tmp/reports (copied beside ROOT); fails unless it conforms.
set -eu

mode=$1; shift
mounted=
cleanup () {
    for m in $mounted; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

case $mode in
make)
    tar=$1 suite=$2 mirror=$3 cache=$4 include=$5
    # mmdebstrap, not debootstrap: it resolves and unpacks the whole set
    # with apt and one dpkg run (about a minute), where debootstrap installs
    # its ~145 packages one at a time (seven to eleven minutes here).
    rm -rf "$tar.tmp"                   # what a failed run left
    echo "mmdebstrap --variant=minbase --include=$include $suite ($mirror)"
    mmdebstrap --variant=minbase --format=tar --include="$include" \
        "$suite" "$tar.tmp" "$mirror" > "$cache/../mmdebstrap.log" 2>&1 || {
        tail -20 "$cache/../mmdebstrap.log"; echo "check-deb: mmdebstrap failed"; exit 1; }
    mv "$tar.tmp" "$tar"
    echo "wrote $tar ($(du -h "$tar" | cut -f1))"
    ;;
run)
    tar=$1 root=$2; shift 2
    for m in "$root/proc" "$root/dev/shm"; do umount "$m" 2>/dev/null || true; done
    rm -rf "$root" && mkdir -p "$root"
    tar -C "$root" -xf "$tar"
    mkdir -p "$root/tmp/debs" "$root/tmp/reports" "$root/dev/shm"
    cp "$@" "$root/tmp/debs/"
    # The reference's streams live in POSIX shared memory (/dev/shm); the
    # runner reads /proc for the state of a test that hangs.
    mount -t proc proc "$root/proc"; mounted="$root/proc"
    mount -t tmpfs -o mode=1777 shm "$root/dev/shm"; mounted="$mounted $root/dev/shm"
    echo "dpkg -i $(cd "$root/tmp/debs" && echo *.deb)"
    chroot "$root" sh -c 'dpkg -i /tmp/debs/*.deb' > "$root/tmp/dpkg.log" 2>&1 || {
        cat "$root/tmp/dpkg.log"; echo "check-deb: the packages do not install"; exit 1; }
    chroot "$root" dpkg-query -W -f='  ${Package} ${Version} ${Status}\n' \
        libposixtrace0 libposixtrace-dev posixtrace-tools posixtrace-conformance
    chroot "$root" sh -c 'tracedump --version && tracesim --version && posixtrace-conformance --version'
    st=0
    # (what follows -- goes to the suite's runner)
    chroot "$root" env -i PATH=/usr/bin:/bin HOME=/tmp sh -c \
        'cd /tmp/reports && posixtrace-conformance -- --no-progress' \
        > "$root/tmp/conformance.out" 2>&1 || st=$?
    tail -4 "$root/tmp/conformance.out"
    rm -rf "$root/../reports" && cp -r "$root/tmp/reports" "$root/../reports"
    if [ "$st" != 0 ] || ! tail -3 "$root/tmp/conformance.out" | grep -q '^CONFORMS'; then
        cat "$root/tmp/conformance.out"
        echo "check-deb: the installed suite does not say the installed library conforms (exit status $st)"
        exit 1
    fi
    echo "check-deb: the installed posixtrace-conformance says the installed libposixtrace conforms (reports: $(dirname "$root")/reports)"
    ;;
*)
    echo "usage: $0 make TAR SUITE MIRROR CACHE INCLUDE | run TAR ROOT DEB..." >&2; exit 2 ;;
esac
