#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Coverage of reference/ per test tier and per folder (issue 31 item 3).

'make coverage' runs each tier of tests that runs the library (the unit
tests, the portable conformance tests, the vectors, the KSP vectors, the
golden logs, the tools as the harness's pytest tests run them) with gcov
writing into a folder of its own, captures one lcov tracefile per tier
(combined with the initial capture, so that a file no test of the tier ran
counts with all its lines), and this script reads them and writes

    tiers.txt    the figures as a plain table: for each tier and folder of
                 reference/, lines and branches hit/total and percent
    tiers.json   the same figures

The tracefile format (geninfo(1)): records from 'SF:<source file>' to
'end_of_record', with 'DA:<line>,<count>[,<checksum>]' for each line and
'BRDA:<line>,<block>,<branch>,<taken>' for each branch, <taken> being '-'
when the block holding the branch never ran.  A file met in several records
(a header compiled into several objects) is one file: its counts are added.
Only files under ROOT/reference/ are counted, less the folders of
--exclude (the unit tests and benchmarks themselves), as the HTML report.

Percentages are lcov's: one decimal, never 100.0 unless everything is hit,
never 0.0 if anything is.  Standard library only.

    coverage_tiers.py --root . --txt reports/coverage/tiers.txt \\
        --json reports/coverage/tiers.json \\
        --tier unit build/coverage/unit.info 'the Check unit tests' ...
"""

import argparse
import json
import os
import sys

TOTAL = "reference"          # the row of a tier's whole reference/
DEFAULT_EXCLUDE = ("tests", "bench")


def read_info(lines):
    """{source path: {"lines": {line: count}, "branches": {(line, block,
    branch): taken}}} of a tracefile's lines; taken is 0 for '-'.  Counts
    of a file met twice are added."""
    files, current = {}, None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("SF:"):
            current = files.setdefault(line[3:], {"lines": {}, "branches": {}})
        elif line == "end_of_record":
            current = None
        elif line.startswith("DA:") or line.startswith("BRDA:"):
            if current is None:
                raise ValueError("line %d: %s outside a record (no SF: before it)"
                                 % (number, line.split(":")[0]))
            fields = line.split(":", 1)[1].split(",")
            try:
                if line.startswith("DA:"):
                    key, count = int(fields[0]), int(fields[1])
                    current["lines"][key] = current["lines"].get(key, 0) + count
                else:
                    key = (int(fields[0]), int(fields[1]), int(fields[2]))
                    taken = 0 if fields[3] == "-" else int(fields[3])
                    current["branches"][key] = current["branches"].get(key, 0) + taken
            except (IndexError, ValueError):
                raise ValueError("line %d: malformed %r" % (number, line)) from None
    return files


def read_info_file(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return read_info(f)


def folder_of(path, root, exclude=DEFAULT_EXCLUDE):
    """The folder of reference/ that holds path (reference/posix/x.c:
    'posix'), or None for a file outside reference/, directly in it, or in
    an excluded folder."""
    ref = os.path.join(os.path.abspath(root), "reference")
    path = os.path.normpath(os.path.join(os.path.abspath(root), path))
    if not path.startswith(ref + os.sep):
        return None
    parts = os.path.relpath(path, ref).split(os.sep)
    if len(parts) < 2 or parts[0] in exclude:
        return None
    return parts[0]


def summarize(files, root, exclude=DEFAULT_EXCLUDE):
    """{folder: {"lines": [hit, total], "branches": [hit, total]}} of a
    tracefile's files, with the row TOTAL for all of reference/."""
    out = {}

    def add(folder, kind, hit, total):
        row = out.setdefault(folder, {"lines": [0, 0], "branches": [0, 0]})
        row[kind][0] += hit
        row[kind][1] += total

    for path, data in files.items():
        folder = folder_of(path, root, exclude)
        if folder is None:
            continue
        for name in (folder, TOTAL):
            add(name, "lines", sum(1 for c in data["lines"].values() if c > 0), len(data["lines"]))
            add(name, "branches", sum(1 for t in data["branches"].values() if t > 0),
                len(data["branches"]))
    return out


def percent(hit, total):
    """lcov's rate: one decimal; None when there is nothing to count."""
    if total == 0:
        return None
    rate = round(100.0 * hit / total, 1)
    if rate >= 100.0 and hit < total:
        rate = 99.9
    if rate <= 0.0 and hit > 0:
        rate = 0.1
    return rate


def folders_in(tiers):
    """Every folder of any tier, sorted, TOTAL last."""
    names = {f for t in tiers for f in t["folders"]} - {TOTAL}
    return sorted(names) + [TOTAL]


def document(tiers):
    """The JSON document: tiers in order, each with its figures by folder."""
    doc = {"format": "posixtrace coverage tiers 1",
           "folders": folders_in(tiers),
           "tiers": []}
    for t in tiers:
        entry = {"name": t["name"], "description": t["description"], "folders": {}}
        for folder, row in sorted(t["folders"].items()):
            entry["folders"][folder] = {
                kind: {"hit": row[kind][0], "total": row[kind][1],
                       "percent": percent(*row[kind])}
                for kind in ("lines", "branches")}
        doc["tiers"].append(entry)
    return doc


def show(rate):
    return "-" if rate is None else "%.1f%%" % rate


def cell(doc_tier, folder, kind):
    row = doc_tier["folders"].get(folder)
    return show(row[kind]["percent"]) if row else "-"


def headline(doc, tier, folders, label=None):
    """Lines saying what tier covers of each of folders, lines and branches
    (label: what they call the tier; default 'tier NAME alone')."""
    t = next((t for t in doc["tiers"] if t["name"] == tier), None)
    if t is None:
        raise ValueError("no tier %r" % tier)
    out = ["%s (tier %s: %s) covers:" % (label or "tier %s alone" % tier, tier, t["description"])]
    for folder in folders:
        row = t["folders"].get(folder)
        if row is None:
            out.append("  %-9s -" % (folder + "/"))
            continue
        out.append("  %-9s lines %6s (%d/%d), branches %6s (%d/%d)" % (
            folder + "/", show(row["lines"]["percent"]), row["lines"]["hit"],
            row["lines"]["total"], show(row["branches"]["percent"]), row["branches"]["hit"],
            row["branches"]["total"]))
    return out


def matrix(doc, kind):
    """Folders down, tiers across: the percent of kind ('lines', 'branches')."""
    names = [t["name"] for t in doc["tiers"]]
    width = max([len(n) for n in names] + [6])
    head = "%-10s" % kind + "".join(" %*s" % (width, n) for n in names)
    rows = [head]
    for folder in doc["folders"]:
        rows.append("%-10s" % folder + "".join(" %*s" % (width, cell(t, folder, kind))
                                               for t in doc["tiers"]))
    return rows


TABLE_COLUMNS = ("tier", "folder", "lines_hit", "lines_total", "lines_pct",
                 "branches_hit", "branches_total", "branches_pct")


def table(doc):
    """The long table: one row a tier and folder, columns TABLE_COLUMNS,
    separated by spaces; '-' for a percent of nothing."""
    rows = [TABLE_COLUMNS]
    for t in doc["tiers"]:
        for folder in doc["folders"]:
            row = t["folders"].get(folder)
            if row is None:
                continue
            rows.append((t["name"], folder,
                         str(row["lines"]["hit"]), str(row["lines"]["total"]),
                         show(row["lines"]["percent"]),
                         str(row["branches"]["hit"]), str(row["branches"]["total"]),
                         show(row["branches"]["percent"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(TABLE_COLUMNS))]
    return [" ".join(v.ljust(w) if i < 2 else v.rjust(w)
                     for i, (v, w) in enumerate(zip(r, widths))).rstrip() for r in rows]


def parse_table(text):
    """The rows of table()'s lines (the part of tiers.txt after its header
    line), as dicts; for readers of tiers.txt and the tests."""
    rows, header = [], None
    for line in text.splitlines():
        fields = line.split()
        if tuple(fields) == TABLE_COLUMNS:
            header = fields
            continue
        if header and len(fields) == len(header):
            rows.append(dict(zip(header, fields)))
    return rows


def summary_text(doc, headlines=(), headline_folders=()):
    """The short part: the headlines ((tier, label) pairs), then the two
    matrices."""
    out = []
    for tier, label in headlines:
        out += headline(doc, tier, headline_folders, label)
    if headlines:
        out.append("")
    out.append("Coverage of reference/ by tier (percent; hit/total in the table below):")
    out += matrix(doc, "lines")
    out.append("")
    out += matrix(doc, "branches")
    out.append("")
    out.append("Tiers:")
    out += ["  %-12s %s" % (t["name"], t["description"]) for t in doc["tiers"]]
    return out


def full_text(doc, headlines=(), headline_folders=()):
    return "\n".join(summary_text(doc, headlines, headline_folders)
                     + ["", "Lines and branches hit/total by tier and folder:"]
                     + table(doc)) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=".", help="the source tree (its reference/ is counted)")
    ap.add_argument("--tier", nargs=3, action="append", default=[],
                    metavar=("NAME", "INFO", "DESCRIPTION"),
                    help="a tier: its name, its lcov tracefile, what it runs (repeat, in order)")
    ap.add_argument("--exclude", default=",".join(DEFAULT_EXCLUDE),
                    help="folders of reference/ not counted (default: %(default)s)")
    ap.add_argument("--txt", help="write the table here")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--headline", metavar="TIER[=LABEL]", action="append", default=[],
                    help="say first what this tier alone covers, calling it LABEL (repeat)")
    ap.add_argument("--headline-folders", default="posix,stream,log,shm",
                    help="of these folders (default: %(default)s)")
    ap.add_argument("--print", choices=("summary", "full", "none"), default="summary",
                    help="what to print on stdout (default: %(default)s)")
    args = ap.parse_args(argv)
    if not args.tier:
        ap.error("no --tier given")
    exclude = tuple(e for e in args.exclude.split(",") if e)
    tiers = []
    for name, info, description in args.tier:
        try:
            files = read_info_file(info)
        except (OSError, ValueError) as e:
            print("coverage_tiers: %s: %s" % (info, e), file=sys.stderr)
            return 2
        tiers.append({"name": name, "description": description,
                      "folders": summarize(files, args.root, exclude)})
    doc = document(tiers)
    folders = [f for f in args.headline_folders.split(",") if f]
    headlines = [tuple(h.split("=", 1)) if "=" in h else (h, None) for h in args.headline]
    try:
        text = full_text(doc, headlines, folders)
    except ValueError as e:
        print("coverage_tiers: %s" % e, file=sys.stderr)
        return 2
    if args.txt:
        with open(args.txt, "w", encoding="utf-8") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, sort_keys=False)
            f.write("\n")
    if args.print == "full":
        sys.stdout.write(text)
    elif args.print == "summary":
        print("\n".join(summary_text(doc, headlines, folders)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
