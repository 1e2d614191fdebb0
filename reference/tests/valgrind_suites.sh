#!/bin/sh
# valgrind_suites.sh -- the unit tests under valgrind, each suite in a valgrind
# of its own, JOBS at a time ('make check-valgrind').
#
#   sh reference/tests/valgrind_suites.sh JOBS LOGDIR TEST_BIN VALGRIND [OPTION...]
#
# One valgrind for the whole program ran on one processor for two minutes;
# the suites are independent (each test sets up its own streams), so they run
# side by side, the slowest first (TEST_BIN --list-suites gives that order).
# Each suite's output goes to LOGDIR/SUITE.log; the log of a suite that failed,
# or that ran no test (a name CK_RUN_SUITE does not know), is printed.
# Exit status: 0 if every suite passed with no valgrind error, 1 otherwise.
#
# Under valgrind the multi-process stress test writes POSIXTRACE_STRESS_EVENTS
# events a thread (20,000 here unless set; 100,000 in the plain run): the same
# checks on a shorter run, as memory errors do not need the long one.
set -u

if [ $# -lt 4 ]; then
    echo "usage: $0 JOBS LOGDIR TEST_BIN VALGRIND [OPTION...]" >&2
    exit 2
fi
jobs=$1 logdir=$2 bin=$3
shift 3

suites=$("$bin" --list-suites) || { echo "$0: $bin --list-suites failed" >&2; exit 2; }
[ -n "$suites" ] || { echo "$0: $bin lists no suite" >&2; exit 2; }
rm -rf "$logdir"
mkdir -p "$logdir" || exit 2

# Each suite: its log, then 'STATUS SECONDS' in LOGDIR/SUITE.status.
export CK_FORK=no CK_DEFAULT_TIMEOUT=120
export POSIXTRACE_STRESS_EVENTS="${POSIXTRACE_STRESS_EVENTS:-20000}"
printf '%s\n' $suites | xargs -P "$jobs" -I{} sh -c '
    dir=$1 suite=$2
    shift 2
    start=$(date +%s)
    CK_RUN_SUITE="$suite" "$@" >"$dir/$suite.log" 2>&1
    echo $? $(($(date +%s) - start)) >"$dir/$suite.status"
' sh "$logdir" {} "$@" "$bin"

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
if [ "$failed" -ne 0 ]; then
    echo "check-valgrind: $failed of $count suites failed or ran no test"
    exit 1
fi
echo "check-valgrind: $count suites, $checks checks, no valgrind error ($jobs at a time)"
