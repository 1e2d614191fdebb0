#!/bin/sh
# SPDX-License-Identifier: MIT
# maint/make_help.sh -- 'make help': the targets with what they do, from
# mk/help.tsv, then any target make knows that the table does not describe
# (maint/make_targets.sh lists them), so that none is left out.
#   usage: sh maint/make_help.sh   (MAKE_CMD: the make to ask, default make)
make=${MAKE_CMD:-make}
echo "Targets (run ./configure first; './configure --help' lists its options):"
awk -F'\t' '
    /^## / { sub(/^## /, ""); printf "\n%s:\n", $0; next }
    /^#/ || NF < 2 || $2 == "-" { next }
    { if (length($1) > 22) printf "  make %s\n  %-27s %s\n", $1, "", $2
      else printf "  make %-22s %s\n", $1, $2 }' mk/help.tsv
undescribed=$(sh maint/make_targets.sh "$make" | while read -r t; do
    grep -q "^$t	" mk/help.tsv || printf ' %s' "$t"; done)
if [ -n "$undescribed" ]; then
    printf '\nOther targets (no description in mk/help.tsv yet):\n %s\n' "$undescribed"
fi
