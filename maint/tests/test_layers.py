# SPDX-License-Identifier: MIT
"""maint/layers.py: each kind of layering fault is found in a small tree, and a
tree without one passes (run: /usr/bin/python3 -m pytest maint/tests)."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERS = os.path.join(os.path.dirname(HERE), "layers.py")

TABLE = """\
include     -
lib/low     include
lib/high    include lib/low
"""

CLEAN = {
    "include/api.h": "int api(void);\n",
    "lib/low/ring.h": "int ring_put(int x);\n",
    "lib/low/ring.c": '#include "ring.h"\nint ring_put(int x)\n{\n    return x;\n}\n',
    "lib/high/stream.h": '#include "low/ring.h"\nint stream_put(int x);\n',
    "lib/high/stream.c": '#include <api.h>\n#include <stdio.h>\n#include "stream.h"\n'
                         'int stream_put(int x)\n{\n    return ring_put(x);\n}\n',
}


def run(tmp_path, files, table=TABLE, stats=False):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "maint").mkdir(exist_ok=True)
    (tmp_path / "maint" / "layers.tsv").write_text(table)
    # include/ and lib/ are the search path of this tree (as include/ and reference/ are)
    p = subprocess.run([sys.executable, LAYERS, "--root", str(tmp_path)] +
                       (["--stats"] if stats else []) + ["--search", "include", "lib"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def test_a_clean_tree_passes(tmp_path):
    rc, out = run(tmp_path, CLEAN)
    assert rc == 0, out
    assert "every include goes down" in out


def test_an_upward_include_fails(tmp_path):
    files = dict(CLEAN)
    files["lib/low/ring.c"] = '#include "ring.h"\n#include "high/stream.h"\n' \
                              'int ring_put(int x)\n{\n    return x;\n}\n'
    rc, out = run(tmp_path, files)
    assert rc == 1
    assert "lib/low/ring.c:2: includes lib/high/stream.h: lib/low may not include lib/high" in out


def test_an_include_of_no_file_fails(tmp_path):
    files = dict(CLEAN, **{"lib/low/extra.c": '#include "nowhere.h"\n'})
    rc, out = run(tmp_path, files)
    assert rc == 1
    assert 'lib/low/extra.c:1: #include "nowhere.h" names no file of the project' in out


def test_a_header_promising_what_a_higher_folder_defines_fails(tmp_path):
    files = dict(CLEAN)
    files["lib/low/ring.h"] = "int ring_put(int x);\nint stream_put(int x);\n"
    rc, out = run(tmp_path, files)
    assert rc == 1
    assert "lib/low/ring.h: declares stream_put(), which lib/high/stream.c defines" in out


def test_a_cycle_between_units_fails(tmp_path):
    files = dict(CLEAN)
    files["lib/high/names.h"] = "int names_get(int x);\n"
    files["lib/high/names.c"] = '#include "stream.h"\n#include "names.h"\n' \
                                'int names_get(int x)\n{\n    return stream_put(x);\n}\n'
    files["lib/high/stream.c"] = CLEAN["lib/high/stream.c"] + '#include "names.h"\n'
    rc, out = run(tmp_path, files)
    assert rc == 1
    assert "include cycle between the units lib/high/names, lib/high/stream" in out


def test_a_public_header_kept_in_two_layers_makes_no_cycle(tmp_path):
    # include/api.h is kept by lib/low/ring.c and lib/high/stream.c; lib/low's
    # names.h includes <api.h> for its types and lib/high/stream.c includes
    # names.h: the public header joins no unit, or that would be a cycle.
    files = dict(CLEAN)
    files["include/api.h"] = "int api(void);\nint api_low(void);\n"
    files["lib/low/ring.c"] = CLEAN["lib/low/ring.c"] + 'int api_low(void)\n{\n    return 0;\n}\n'
    files["lib/low/names.h"] = "#include <api.h>\nint names_get(int x);\n"
    files["lib/low/names.c"] = '#include "names.h"\nint names_get(int x)\n{\n    return x;\n}\n'
    files["lib/high/stream.c"] = CLEAN["lib/high/stream.c"] + '#include "low/names.h"\n' \
                                 'int api(void)\n{\n    return names_get(1);\n}\n'
    rc, out = run(tmp_path, files)
    assert rc == 0, out


def test_a_file_in_no_folder_of_the_table_fails(tmp_path):
    files = dict(CLEAN, **{"lib/other/x.c": "int x;\n"})
    table = TABLE + "lib         include\n"
    rc, out = run(tmp_path, files, table)
    assert rc == 0, out             # lib/ holds it: the longest folder wins
    rc, out = run(tmp_path, files, TABLE.replace("lib/high", "lib/top"))
    assert rc == 1
    assert "lib/high/stream.c: in no folder of maint/layers.tsv" in out


def test_a_cycle_in_the_table_fails(tmp_path):
    rc, out = run(tmp_path, CLEAN, TABLE.replace("lib/low     include",
                                                 "lib/low     include lib/high"))
    assert rc == 1
    assert "the folders lib/high -> lib/low allow each other in a cycle" in out


def test_stats_count_what_the_check_sees(tmp_path):
    files = dict(CLEAN)
    files["lib/low/ring.c"] += '#include "high/stream.h"\n'
    rc, out = run(tmp_path, files, stats=True)
    assert rc == 0
    assert "not allowed by the table: 1" in out
    assert "unit cycles: 1" in out        # ring.c -> stream.h -> ring.h


def test_the_project_itself_passes():
    """The check of 'make check-layers' on this repository."""
    p = subprocess.run([sys.executable, LAYERS], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    assert p.returncode == 0, p.stdout
