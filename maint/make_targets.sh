#!/bin/sh
# SPDX-License-Identifier: MIT
# maint/make_targets.sh -- the targets of the Makefile and mk/*.mk, one a line:
# the rules make's database holds whose name is a plain word (no file: no
# '/', '.' or '%'), as 'make help' must list them.
#   usage: sh maint/make_targets.sh [MAKE]   (not from a recipe that names $(MAKE):
# make -q runs such recipes, and help would call itself)
make=${1:-make}
$make --no-print-directory -pRrq help 2>/dev/null | awk '
    /^# Not a target:/ { skip = 1; next }
    /^[A-Za-z0-9][A-Za-z0-9_-]*:/ { if (!skip) { sub(/:.*/, ""); print } }
    { skip = 0 }' | sort -u
