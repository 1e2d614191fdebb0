#!/bin/sh
# SPDX-License-Identifier: MIT
# harness/build_test.sh -- builds one portable test program,
# conformance/tests/NAME.c, against the implementation under test, so that a
# program that does not build is a result, not a stopped build.
#
#   harness/build_test.sh compile NAME SRC OBJ CC [CFLAGS...] [-- PROGRAM-ONLY FLAGS...]
#   harness/build_test.sh link NAME OBJ OUT LINKER... -- [OBJECTS AND LIBRARIES...]
#   harness/build_test.sh program WHAT OUT CONSEQUENCE CC [SOURCES, FLAGS, LIBRARIES...]
#   harness/build_test.sh archive OUT AR... -- OBJECTS...
#
# compile: SRC -> OBJ (and, when there is a compile probe
# conformance/probes/NAME.c, its parts through harness/probe.sh, compiled with
# CFLAGS but not the program-only flags such as -MMD).  link: OBJ, the probe's
# objects and the rest -> OUT ("LINKER -o OUT OBJ [probe objects] REST"); an
# object of REST that did not compile (its OBJECT.log says BUILD-ERROR: the
# framework ct.o) makes the program a "BUILD-ERROR framework" without a link.
# archive: the objects that compiled (the tests' shared helpers, each
# compiled by the compile step) into the archive OUT, an empty one if none
# did; OUT.log keeps the compile logs of those that did not, and a program
# linked with OUT quotes them in its own log before its link, so that a
# program which needs a missing helper fails to link with the helper's
# compiler errors as its message, and the others build.
# program: a program of the harness, WHAT (e.g. harness/vec/vecrun.c), compiled
# and linked at once ("CC ARGS -o OUT"), its log OUT.build.log, its step
# "compile" or "link" from the compiler's messages; CONSEQUENCE says on
# stderr what its failure means for the run.
#
# Every step exits 0 when the compiler fails: it keeps its output in
# OBJ.log (compile) and OUT.build.log (link: OBJ.log followed by the link's
# output), and ends the log with a line "BUILD-ERROR <step> (exit status N):"
# followed by the compiler's first error lines, indented.  harness/run.py
# reads OUT.build.log: such a program's tests are reported BUILD-ERROR.  A
# step that fails removes what it would have made, so that a program from an
# earlier build is never taken for this one.  Used by mk/harness.mk and
# harness/mutants/build.py, so that both build the tests the same way; run
# from the top of the source tree.
set -u

# qadd VAR WORD...: appends each WORD to the variable VAR, quoted for the
# shell (for eval).  No process is started but for a word holding a quote:
# the suite is built by a few hundred runs of this script, and a process
# costs milliseconds on some machines.
qadd () {
    _var=$1
    shift
    for _w ; do
        case $_w in
        *\'*) _w=$(printf '%s' "$_w" | sed "s/'/'\\\\''/g") ;;
        esac
        eval "$_var=\"\${$_var} '\${_w}'\""
    done
}

# dir_of PATH: sets dir to the folder of PATH (dirname, without a process).
dir_of () { case $1 in */*) dir=${1%/*} ; dir=${dir:-/} ;; *) dir=. ;; esac ; }

# The compiler's first error lines: first_errors LOG (harness/compiler_errors.sh).
dir_of "$0"
. "$dir/compiler_errors.sh"

# fail LOG STEP WHAT STATUS [CONSEQUENCE]: ends LOG with the BUILD-ERROR
# lines and says so on stderr.
fail () {
    errors=$(first_errors "$1" | sed 's/^/  /')
    printf 'BUILD-ERROR %s (exit status %s):\n%s\n' "$2" "$4" "$errors" >> "$1"
    printf '%s does not %s against the implementation under test: %s (log: %s)\n%s\n' \
        "$3" "$2" "${5:-the report gives its tests BUILD-ERROR}" "$1" "$errors" >&2
}

# run LOG STEP WHAT COMMAND...: runs the command, its line and output going to
# LOG; on failure ends LOG with the BUILD-ERROR lines, says so on stderr and
# returns 1.  STEP "program" (a compile and link at once) is reported as
# "compile" when the compiler found an error in a source, else as "link".
run () {
    log=$1 step=$2 what=$3
    shift 3
    { printf '$' ; for a in "$@" ; do printf ' %s' "$a" ; done ; echo ; } >> "$log"
    if "$@" >> "$log" 2>&1 ; then
        echo "-- $step: ok" >> "$log"
        return 0
    else
        status=$?
        if test "$step" = program ; then
            step=link
            grep -Eq ':[0-9]+(:[0-9]+)?: (fatal )?error:' "$log" && step=compile
        fi
        fail "$log" "$step" "$what" "$status" "$consequence"
        return 1
    fi
}
consequence=''

step=${1-}
case $step in
compile)
    test $# -ge 5 || { echo "usage: $0 compile NAME SRC OBJ CC [CFLAGS...]" >&2 ; exit 2 ; }
    name=$2 src=$3 obj=$4
    shift 4
    common='' ; only=''
    while test $# -gt 0 && test "$1" != -- ; do qadd common "$1" ; shift ; done
    test $# -gt 0 && shift
    qadd only "$@"
    log=$obj.log
    dir_of "$obj"
    objdir=$dir
    mkdir -p "$objdir" || exit 1
    rm -f "$obj" "$obj.extra"
    : > "$log"
    extra_flags='' extra_objs=''
    if test -f "conformance/probes/$name.c" ; then
        # The probe decides with the compiler whether a header defines
        # something; its own log is quoted by the test's failure messages.
        args=''
        qadd args "$name" "$objdir/probes"
        out=$(eval "sh harness/probe.sh $args $common") ||
            { echo "BUILD-ERROR compile (harness/probe.sh $name failed):" >> "$log" ; exit 0 ; }
        extra_flags=$(printf '%s\n' "$out" | sed -n 1p)
        extra_objs=$(printf '%s\n' "$out" | sed -n 2p)
    fi
    files=''
    qadd files "$obj" "$src"
    eval "set -- $common $extra_flags $only -c -o $files"
    run "$log" compile "$src" "$@" || { rm -f "$obj" ; exit 0 ; }
    printf '%s\n' "$extra_objs" > "$obj.extra"
    ;;
link)
    test $# -ge 5 || { echo "usage: $0 link NAME OBJ OUT LINKER... -- [REST...]" >&2 ; exit 2 ; }
    name=$2 obj=$3 out=$4
    shift 4
    linker=''
    while test $# -gt 0 && test "$1" != -- ; do qadd linker "$1" ; shift ; done
    test $# -gt 0 && shift
    log=$out.build.log
    rm -f "$out"
    if test -f "$obj.log" ; then cp "$obj.log" "$log" ; else : > "$log" ; fi
    if ! test -f "$obj" ; then
        # The compile failed (its log, copied above, says why) or never ran.
        grep -q '^BUILD-ERROR' "$log" ||
            echo "BUILD-ERROR compile (no object $obj: compile it first):" >> "$log"
        exit 0
    fi
    # An object it is linked with that did not compile (the framework ct.o,
    # built by the compile step too): its log says why; every program
    # linked with it is a BUILD-ERROR "framework".
    for a ; do
        case $a in *.o) ;; *) continue ;; esac
        test -f "$a" || ! grep -q '^BUILD-ERROR' "$a.log" 2>/dev/null || {
            sed '/^BUILD-ERROR/,$d' "$a.log" >> "$log"
            fw_src=$(sed -n '1s/.* //p' "$a.log")
            printf 'BUILD-ERROR framework (%s, which every test program is linked with, does not compile against the implementation under test; log: %s):\n' \
                "$fw_src" "$a.log" >> "$log"
            sed '1,/^BUILD-ERROR/d' "$a.log" >> "$log"
            exit 0
        }
    done
    # An archive of helpers some of which did not compile (archive step):
    # their logs go before the link, indented (a line BUILD-ERROR at the
    # start would make the program one), where first_errors finds their
    # errors should the link fail for want of them.
    for a ; do
        case $a in *.a) ;; *) continue ;; esac
        ! grep -q '^BUILD-ERROR' "$a.log" 2>/dev/null || {
            printf -- '-- %s lacks the helpers that did not compile:\n' "$a" >> "$log"
            sed 's/^/  /' "$a.log" >> "$log"
        }
    done
    extra_objs=$(cat "$obj.extra" 2>/dev/null)
    files=''
    qadd files "$out" "$obj"
    eval "set -- $linker -o $files $extra_objs \"\$@\""
    run "$log" link "conformance/tests/$name.c" "$@" || { rm -f "$out" ; exit 0 ; }
    ;;
archive)
    test $# -ge 3 || { echo "usage: $0 archive OUT AR... -- OBJECTS..." >&2 ; exit 2 ; }
    out=$2
    shift 2
    ar=''
    while test $# -gt 0 && test "$1" != -- ; do qadd ar "$1" ; shift ; done
    test $# -gt 0 && shift
    log=$out.log
    dir_of "$out"
    mkdir -p "$dir" || exit 1
    rm -f "$out"
    : > "$log"
    objs=''
    for o ; do
        if test -f "$o" ; then
            qadd objs "$o"
        else
            # Its BUILD-ERROR lines: the step, the compiler's first errors.
            sed -n '/^BUILD-ERROR/,$p' "$o.log" >> "$log" 2>/dev/null ||
                echo "BUILD-ERROR compile (no object $o: compile it first):" >> "$log"
        fi
    done
    # An archiver that fails is the harness's fault, not the implementation's.
    files=''
    qadd files "$out"
    eval "set -- $ar rcs $files $objs"
    "$@" >> "$log" 2>&1 || { cat "$log" >&2 ; rm -f "$out" ; exit 1 ; }
    ;;
program)
    # A program of the harness other than a test (the vector interpreter,
    # the implementation profile), compiled and linked at once.
    test $# -ge 5 || { echo "usage: $0 program WHAT OUT CONSEQUENCE CC [ARGS...]" >&2 ; exit 2 ; }
    name=$2 out=$3 consequence=$4
    shift 4
    log=$out.build.log
    dir_of "$out"
    mkdir -p "$dir" || exit 1
    rm -f "$out"
    : > "$log"
    run "$log" program "$name" "$@" -o "$out" || { rm -f "$out" ; exit 0 ; }
    ;;
*)
    echo "usage: $0 compile|link|archive|program ..." >&2
    exit 2
    ;;
esac
exit 0
