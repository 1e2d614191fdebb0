# SPDX-License-Identifier: MIT
"""The library package's symbols file (debian/libposixtrace0.symbols) and the
version script include/libposixtrace.map agree (issue 18 item 4): the file is
exactly what maint/deb_symbols.py writes from the map, and it names every
exported function of the map once, under the map's version node."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "maint"))

import deb_symbols  # noqa: E402


def symbols_in_file():
    with open(deb_symbols.SYMBOLS, encoding="utf-8") as f:
        return re.findall(r"^ (\w+)@(\w+) ", f.read(), re.M)


def test_the_symbols_file_is_generated_from_the_map():
    with open(deb_symbols.SYMBOLS, encoding="utf-8") as f:
        assert f.read() == deb_symbols.symbols_file(), \
            "debian/libposixtrace0.symbols is stale: run maint/deb_symbols.py --write"


def test_the_file_and_the_map_name_the_same_functions():
    in_map = {(s, node) for node, syms in deb_symbols.nodes() for s in syms}
    in_file = {(s, node) for s, node in symbols_in_file() if s != node}
    assert in_map - in_file == set(), "missing from the symbols file: %s" % sorted(in_map - in_file)
    assert in_file - in_map == set(), "not in the map: %s" % sorted(in_file - in_map)


def test_the_map_is_read_whole():
    [(node, syms)] = deb_symbols.nodes()
    assert node == "POSIXTRACE_0"
    assert {"posix_trace_create", "posixtrace_sim_now", "dump_trace_fd"} <= set(syms)
    assert "*" not in syms
