#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include layering of the project's C code, checked against maint/layers.tsv.

Every C file of the folders the table names is read for its #include lines.
A quoted include is resolved as the compiler would (the including file's own
folder, then include/ and reference/, the -I of the Makefile); an angle include
counts only when it names one of the project's public headers (include/).
Then, for each include, the folder of the including file must be the folder
of the included one or a folder the table lets it include: the table says, per
folder, what it may include, so it is the picture of the layers, lowest first.

What fails (exit 1, one line each, file:line first):
  - an include of a folder the table does not allow (an arrow upwards or
    sideways) or of a file that does not exist;
  - a C file in a folder the table does not know (a new folder needs its line);
  - a cycle in the table itself (the layers must be a stack, not a knot);
  - a header that declares a function some source of another folder defines
    (a lower layer's header must not promise what an upper layer provides;
    the public headers of include/ are the library's promise, and exempt);
  - a cycle between units: a unit is a header with the sources that define
    the functions it declares (stream.h with stream.c and stream_table.c), so
    "a.c includes b.h and b.c includes a.h" is a cycle even though no header
    includes another.  A public header of include/ is a unit alone: the
    sources that keep its promise sit in several layers.

--stats prints the figures of the tree (files per folder, includes, arrows
between folders, unit cycles, the largest files) instead of checking.

Run: python3 maint/layers.py [--root DIR] [--stats]   (make check-layers)
"""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SEARCH = ("include", "reference")
PUBLIC = "include"                         # the installed headers: what the library promises          # the -I of the Makefile, in order
C_SUFFIXES = (".c", ".h")


def read_table(path):
    """{folder: set of folders it may include}, in the table's order."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            folder, allowed = parts[0].rstrip("/"), parts[1:]
            if folder in table:
                raise SystemExit("%s:%d: %s listed twice" % (path, n, folder))
            table[folder] = {a.rstrip("/") for a in allowed if a != "-"}
    return table


def c_files(root, table):
    """The C files below the top folders the table's folders are in (include/,
    reference/, ...), as paths relative to root: those in no folder of the
    table too, which the check reports.  Test fixtures and the fixture vendors
    (harness/vendors/: other implementations of <trace.h>) are not the project's code."""
    tops = sorted({folder.split("/")[0] for folder in table})
    out = []
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in ("fixtures", "vendors"))
            rel = os.path.relpath(dirpath, root)
            out += [os.path.normpath(os.path.join(rel, f)) for f in sorted(filenames)
                    if f.endswith(C_SUFFIXES)]
    return sorted(set(out))


def folder_of(path, table):
    """The table's folder a file belongs to: the longest folder that holds it."""
    best = None
    for folder in table:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def resolve(root, including, kind, name, search=SEARCH):
    """The project file an include names (relative to root), or None (a system
    header); '' when a quoted include names nothing that exists."""
    here = os.path.dirname(including)
    places = ([here] if kind == '"' else []) + list(search)
    for place in places:
        cand = os.path.normpath(os.path.join(place, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return "" if kind == '"' else None


def includes(root, files, search=SEARCH):
    """[(file, line, included file or '' for a missing one, the name as written)]."""
    out = []
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if m:
                    target = resolve(root, f, m.group(1), m.group(2), search)
                    if target is not None:
                        out.append((f, n, target, m.group(2)))
    return out


# A prototype at file scope: "type name(" at the start of a line, ending in ';'
# (the project's style puts declarations and definitions at column 0).
DECL = re.compile(r"^(?!static\b|typedef\b|#|\s)[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{]*$|"
                  r"^(?!static\b|typedef\b|#|\s)[A-Za-z_][\w \t*]*?\b(\w+)\s*\(.*\);")
DEF = re.compile(r"^(?!static\b|typedef\b|extern\b|#|\s)[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;]*$")


def functions(root, path, pattern):
    """The names of the functions a file declares (pattern DECL) or defines (DEF)."""
    names = set()
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
        for line in fh:
            m = pattern.match(line)
            if m:
                names.add(m.group(1) or (m.lastindex and m.group(m.lastindex)))
    names.discard(None)
    return names


def units(root, files):
    """{file: its unit's name}: a header with the sources that define what it
    declares (union-find); a file alone otherwise.  The name is the header's."""
    parent = {f: f for f in files}

    def find(f):
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    defined_in = {}
    for f in files:
        if f.endswith(".c"):
            for name in functions(root, f, DEF):
                defined_in.setdefault(name, set()).add(f)
    declared = {}
    for h in files:
        if h.endswith(".h"):
            declared[h] = functions(root, h, DECL)
            if h.startswith(PUBLIC + "/"):
                # The library's promise, kept by sources of several layers
                # (stream/attr.c and posix/read.c both define <trace.h>'s
                # functions): it joins none of them into one unit, or every
                # file that includes <trace.h> would sit in a cycle.
                continue
            for name in declared[h]:
                for c in defined_in.get(name, ()):
                    a, b = find(h), find(c)
                    if a != b:
                        # the header names the unit
                        parent[b if a.endswith(".h") else a] = a if a.endswith(".h") else b
    return {f: os.path.splitext(find(f))[0] for f in files}, declared, defined_in


def cycles(edges):
    """The strongly connected components of more than one node (Tarjan),
    each sorted, in sorted order."""
    graph = {}
    for a, b in edges:
        if a != b:
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set())
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # iterative Tarjan: the graphs are small, but recursion depth is not ours to spend
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def check(root, table, search=SEARCH):
    """The problems, one line each."""
    problems = []
    for comp in cycles((a, b) for a, allowed in table.items() for b in allowed):
        problems.append("maint/layers.tsv: the folders %s allow each other in a cycle"
                        % " -> ".join(comp))
    files = c_files(root, table)
    for f in files:
        if folder_of(f, table) is None:
            problems.append("%s: in no folder of maint/layers.tsv" % f)
    arrows = includes(root, files, search)
    for f, n, target, name in arrows:
        if target == "":
            problems.append('%s:%d: #include "%s" names no file of the project' % (f, n, name))
            continue
        a, b = folder_of(f, table), folder_of(target, table)
        if b is None:
            problems.append("%s:%d: includes %s, in no folder of maint/layers.tsv" % (f, n, target))
        elif a is not None and a != b and b not in table[a]:
            problems.append("%s:%d: includes %s: %s may not include %s (maint/layers.tsv)"
                            % (f, n, target, a, b))
    unit, declared, defined_in = units(root, files)
    for h in sorted(declared):
        if folder_of(h, table) == PUBLIC:
            continue
        for name in sorted(declared[h]):
            for c in sorted(defined_in.get(name, ())):
                if folder_of(c, table) != folder_of(h, table):
                    problems.append("%s: declares %s(), which %s defines: a header promises "
                                    "only what its own folder provides" % (h, name, c))
    for comp in cycles((unit[f], unit[t]) for f, _, t, _ in arrows if t):
        problems.append("include cycle between the units %s (a unit: a header and the sources "
                        "that define its functions)"
                        % ", ".join(comp))
    return problems


def stats(root, table, search=SEARCH):
    files = c_files(root, table)
    arrows = [(f, t) for f, _, t, _ in includes(root, files, search) if t]
    per_folder = {}
    for f in files:
        per_folder.setdefault(folder_of(f, table), []).append(f)
    print("C files per folder:")
    for folder in table:
        if folder in per_folder:
            print("  %-22s %3d" % (folder, len(per_folder[folder])))
    disallowed = [(f, t) for f, t in arrows
                  if folder_of(f, table) != folder_of(t, table)
                  and folder_of(t, table) not in table.get(folder_of(f, table), ())]
    print("includes: %d, between folders: %d, not allowed by the table: %d"
          % (len(arrows), sum(folder_of(f, table) != folder_of(t, table) for f, t in arrows),
             len(disallowed)))
    unit = units(root, files)[0]
    unit_cycles = cycles((unit[f], unit[t]) for f, t in arrows)
    folder_cycles = cycles((folder_of(f, table), folder_of(t, table)) for f, t in arrows)
    print("unit cycles: %d%s" % (len(unit_cycles), "".join(
        "\n  " + ", ".join(c) for c in unit_cycles)))
    print("folder cycles: %d%s" % (len(folder_cycles), "".join(
        "\n  " + ", ".join(c) for c in folder_cycles)))
    sizes = []
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            sizes.append((sum(1 for _ in fh), f))
    print("largest files: " + ", ".join("%s %d" % (f, n) for n, f in sorted(sizes)[::-1][:5]))


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(here), help="the source tree [this one]")
    ap.add_argument("--table", help="the allowed-dependencies table [ROOT/maint/layers.tsv]")
    ap.add_argument("--stats", action="store_true", help="print the tree's figures")
    ap.add_argument("--search", nargs="+", default=list(SEARCH), metavar="DIR",
                    help="the folders of the include path, as -I gives them [%(default)s]")
    args = ap.parse_args(argv)
    table = read_table(args.table or os.path.join(args.root, "maint", "layers.tsv"))
    if args.stats:
        stats(args.root, table, args.search)
        return 0
    problems = check(args.root, table, args.search)
    for p in problems:
        print(p)
    n = len(c_files(args.root, table))
    print("layers: %d C files in %d folders, %s" % (
        n, len(table), "%d problem(s)" % len(problems) if problems else "every include goes down"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
