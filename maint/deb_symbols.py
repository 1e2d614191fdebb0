#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""deb_symbols.py -- debian/libposixtrace0.symbols from the version script
include/libposixtrace.map: every function it exports, under its version node,
since the version that introduced the node (the Makefile's VERSION for
POSIXTRACE_0).  dpkg-gensymbols checks the built library against it (level 4
in debian/rules: any difference fails the build); maint/tests/test_deb_symbols.py
checks the file is what this script writes.

usage: maint/deb_symbols.py [--write]   (prints it; --write rewrites the file)
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAP = os.path.join(ROOT, "include", "libposixtrace.map")
SYMBOLS = os.path.join(ROOT, "debian", "libposixtrace0.symbols")
SONAME = "libposixtrace.so.0"
PACKAGE = "libposixtrace0"


def version():
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        return re.search(r"^VERSION\s*=\s*(\S+)", f.read(), re.M).group(1)


def nodes(path=MAP):
    """[(node, [global symbols])] of a version script, in its order."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    out = []
    for node, body in re.findall(r"(\w+)\s*\{(.*?)\}\s*[\w\s]*;", text, re.S):
        glob = body.split("local:")[0].split("global:")[-1]
        out.append((node, [s.strip() for s in glob.split(";") if s.strip()]))
    return out


def symbols_file():
    v = version()
    lines = ["%s %s #MINVER#" % (SONAME, PACKAGE),
             "* Build-Depends-Package: libposixtrace-dev"]
    for node, syms in nodes():
        lines.append(" %s@%s %s" % (node, node, v))
        lines += [" %s@%s %s" % (s, node, v) for s in sorted(syms)]
    return "\n".join(lines) + "\n"


def main(argv):
    text = symbols_file()
    if "--write" in argv:
        with open(SYMBOLS, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
