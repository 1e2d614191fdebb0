#!/bin/sh
# harness/probe.sh -- compiles the compile probe conformance/probes/NAME.c, part
# by part, for the test program conformance/tests/NAME.c.
#
#   harness/probe.sh NAME OUTDIR CC [CFLAGS...]
#
# Whether a header defines something is decided by compiling, so each part of
# the probe (PARTS below) is compiled on its own with -DCT_PROBE_PART_<part>;
# the compiler's output goes to OUTDIR/NAME.log after a line "== <part>".
# Prints two lines: the flags the test program is compiled with
# (-DCT_PROBE_<part>=1 or 0 for each part, -DCT_PROBE_LOG="..."), and the
# objects it is linked with (the parts that compiled).  Used by mk/harness.mk
# and harness/mutants/build.py, so that both build the test the same way.
set -u
name=$1 outdir=$2
shift 2
src=conformance/probes/$name.c
PARTS="TRC TEF"
mkdir -p "$outdir" || exit 1
log=$(cd "$outdir" && pwd)/$name.log
: > "$log"
flags='' objs=''
for part in $PARTS; do
    obj=$outdir/${name}_$part.o
    echo "== CT_PROBE_PART_$part" >> "$log"
    if "$@" -DCT_PROBE_PART_"$part" -c -o "$obj" "$src" >> "$log" 2>&1; then
        flags="$flags -DCT_PROBE_$part=1"
        objs="$objs $obj"
    else
        flags="$flags -DCT_PROBE_$part=0"
    fi
done
printf '%s -DCT_PROBE_LOG="%s"\n%s\n' "$flags" "$log" "$objs"
