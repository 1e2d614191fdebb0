# SPDX-License-Identifier: MIT
# harness/compiler_errors.sh -- sourced by harness/build_test.sh and
# harness/probe.sh, so that both pick a failed compile's message the same way.
#
# first_errors LOG [N]: the compiler's first N (default 3) error lines of LOG
# ("file:line:col: error:", "fatal error:", "collect2: error:", "undefined
# reference" or "undefined symbol" -- not any line holding the word, which
# may be an identifier such as probe_error); if there is none, its first N
# non-blank lines.  Lines "$ command" (the command, as build_test.sh logs
# it) are skipped.
first_errors () {
    fe_n=${2:-3}
    fe_lines=$(grep -v '^\$ ' "$1" |
        grep -E '(^|[: ])(fatal )?error:|undefined (reference|symbol)' | head -n "$fe_n")
    test -n "$fe_lines" ||
        fe_lines=$(grep -v '^\$ ' "$1" | grep -v '^[[:space:]]*$' | head -n "$fe_n")
    test -z "$fe_lines" || printf '%s\n' "$fe_lines"
}
