#!/bin/sh
# SPDX-License-Identifier: MIT
# run_suites.sh -- the unit tests, each Check suite in a process of its own,
# JOBS at a time ('make check-unit', 'make check-valgrind').
#
#   sh reference/tests/run_suites.sh JOBS LOGDIR COMMAND...
#
# COMMAND is the test program, behind its wrapper if any (valgrind and its
# options; qemu-user for a cross build): 'COMMAND --list-suites' names the
# suites, slowest first, and 'CK_RUN_SUITE=NAME COMMAND' runs one.  The
# suites are independent (each test sets up its own streams), so they run
# side by side: under valgrind or an emulator one program ran on one
# processor for minutes.  Each suite's output goes to LOGDIR/SUITE.log; the
# log of a suite that failed, or that ran no test (a name CK_RUN_SUITE does
# not know), is printed.  The CK_* variables (CK_FORK, CK_DEFAULT_TIMEOUT,
# CK_TIMEOUT_MULTIPLIER...) reach every suite from the environment.
# Exit status: 0 if every suite passed, 1 otherwise, 2 if the suites could
# not be listed.
set -u

if [ $# -lt 3 ]; then
    echo "usage: $0 JOBS LOGDIR COMMAND..." >&2
    exit 2
fi
jobs=$1 logdir=$2
shift 2

suites=$("$@" --list-suites) || { echo "$0: $* --list-suites failed" >&2; exit 2; }
[ -n "$suites" ] || { echo "$0: $* lists no suite" >&2; exit 2; }
rm -rf "$logdir"
mkdir -p "$logdir" || exit 2

# Each suite: its log, then 'STATUS SECONDS' in LOGDIR/SUITE.status.
start=$(date +%s)
printf '%s\n' $suites | xargs -P "$jobs" -I{} sh -c '
    dir=$1 suite=$2
    shift 2
    t0=$(date +%s)
    CK_RUN_SUITE="$suite" "$@" >"$dir/$suite.log" 2>&1
    echo $? $(($(date +%s) - t0)) >"$dir/$suite.status"
' sh "$logdir" {} "$@"

failed=0 checks=0
for s in $suites; do
    read -r st secs <"$logdir/$s.status" 2>/dev/null || st=missing secs=
    line=$(grep -E '^[0-9]+%: Checks: [0-9]+' "$logdir/$s.log" | tail -1)
    n=$(printf '%s\n' "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
    if [ "$st" != 0 ] || [ -z "$n" ] || [ "$n" -eq 0 ]; then
        failed=$((failed + 1))
        echo "---- suite $s: exit status $st, ${n:-no} checks ($logdir/$s.log) ----"
        cat "$logdir/$s.log"
    else
        checks=$((checks + n))
        printf '%-16s %s (%s s)\n' "$s" "$line" "$secs"
    fi
done
count=$(printf '%s\n' $suites | wc -l)
secs=$(($(date +%s) - start))
if [ "$failed" -ne 0 ]; then
    echo "unit tests: $failed of $count suites failed or ran no test ($secs s)"
    exit 1
fi
echo "unit tests: $count suites, $checks checks passed ($jobs at a time, $secs s)"
