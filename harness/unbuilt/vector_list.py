# SPDX-License-Identifier: MIT
"""The golden vectors' tests read from the .vec files, without their
interpreter: what `build/harness/vecrun --dir DIR --list` gives, for when
vecrun did not build against the implementation under test (its tests are
then reported BUILD-ERROR, harness/unbuilt/build_results.py).

It follows harness/vec/vecrun.c (walk(): the folders depth first, names sorted
bytewise, [a-z0-9_-] names only, test id "vec." and the path with dots) and
harness/vec/vec_lex.c (vec_load(): the "# title" line, then the header fields
"rules:" and "options:" before the first step).  harness/tests/
test_vector_list.py compares the two on vectors/, so that they cannot drift.

What it cannot know: the functions a vector calls, which vecrun derives from
its steps (vec_check()); they are left empty.  A vector whose header cannot
be read lists as vecrun lists it: rule "vectors.malformed", option TRC.
"""

import os
import re

from runner.protocol import parse_list

# The option names in vecrun's order (vec_options_text()).
OPTION_ORDER = ("TRC", "TEF", "TRI", "TRL")

_COMPONENT_RE = re.compile(r"^[a-z0-9_-]+$")
_RULE_ID_RE = re.compile(r"^[A-Za-z0-9._-]+$")
_FIELD_RE = re.compile(r"^([a-z]+):(?=[ \t]|$)")
_MAX_DEPTH = 16


def vector_files(root):
    """[(test id, path)] of the vectors below root, in vecrun's order."""
    out = []

    def walk(rel, depth):
        d = os.path.join(root, rel) if rel else root
        if depth > _MAX_DEPTH:
            return
        try:
            names = sorted(os.listdir(d), key=lambda n: n.encode("utf-8", "surrogateescape"))
        except OSError:
            return
        for name in names:
            if name.startswith("."):
                continue
            sub = rel + "/" + name if rel else name
            full = os.path.join(root, sub)
            if os.path.isdir(full):
                if _COMPONENT_RE.match(name):
                    walk(sub, depth + 1)
            elif name.endswith(".vec") and len(name) > 4 and _COMPONENT_RE.match(name[:-4]):
                out.append(("vec." + sub[:-4].replace("/", "."), full))

    walk("", 0)
    return out


def _names(value):
    """header_list(): (names separated by commas or blanks, up to the first
    that is not a valid name; whether all were valid and there was one)."""
    names = []
    for word in re.split(r"[, \t]+", value):
        if not word:
            continue
        if not _RULE_ID_RE.match(word):
            return names, False
        names.append(word)
    return names, bool(names)


def read_header(path):
    """(rules, options) of the vector at path, as vec_load() reads them
    (lists, possibly empty when the header is malformed)."""
    rules, options = [], set()
    try:
        with open(path, "rb") as f:
            data = f.read().decode("utf-8", "surrogateescape")
    except OSError:
        return rules, []
    title = False
    for raw in data.split("\n"):
        line = raw.rstrip("\r\n").lstrip(" \t")
        if not line:
            continue
        if not title:
            if not line.startswith("#") or not line[1:].strip(" \t"):
                break                           # no "# title": malformed
            title = True
            continue
        if line.startswith("#"):
            continue
        m = _FIELD_RE.match(line)
        if not m or m.group(1) == "exact":
            break                               # the first step: the header is over
        key, value = m.group(1), line[m.end():]
        if key == "rules" and not rules:
            rules, ok = _names(value)
        elif key == "options" and not options:
            names, ok = _names(value)
            options.update(n for n in names if n in OPTION_ORDER)
            ok = ok and all(n in OPTION_ORDER for n in names)
        else:
            ok = False                          # unknown or repeated field
        if not ok:
            break                               # vec_load() stops at the error
    return rules, [o for o in OPTION_ORDER if o in options]


def list_lines(root):
    """The lines of `vecrun --dir root --list`, without the functions."""
    lines = []
    for tid, path in vector_files(root):
        rules, options = read_header(path)
        lines.append("%s\t%s\t%s" % (tid, ",".join(rules) or "vectors.malformed",
                                     ",".join(options) or "TRC"))
    return lines


def tests(root, exe):
    """The TestCases of the vectors below root, of exe (the interpreter)."""
    return parse_list("\n".join(list_lines(root)), exe)
