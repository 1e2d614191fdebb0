# SPDX-License-Identifier: MIT
"""harness/unbuilt/vector_list.py reads the vectors' tests as build/harness/vecrun
--list gives them (id, rules, options; not the functions), for when vecrun
does not build against the implementation under test: the two must not
drift.  Compared on vectors/ and on odd files (ids from paths, names vecrun
skips, malformed headers)."""

import os
import subprocess

import pytest

from conftest import REPO
from unbuilt import vector_list

VECRUN = os.path.join(REPO, "build", "harness", "vecrun")


def vecrun_list(root):
    if not os.access(VECRUN, os.X_OK):
        pytest.skip("no %s (make vecrun)" % VECRUN)
    p = subprocess.run([VECRUN, "--dir", root, "--list"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    assert p.returncode == 0, p.stderr
    return ["\t".join(line.split("\t")[:3]) for line in p.stdout.splitlines()]


def test_the_vectors_list_as_vecrun_lists_them():
    root = os.path.join(REPO, "vectors")
    mine = vector_list.list_lines(root)
    assert len(mine) > 100
    assert mine == vecrun_list(root)


ODD = {
    "a/x.vec": "# t\nrules: r.one, r.two\noptions: TRC\n\nstart t\n",
    "a/x-sim.vec": "  # t\n# comment\nrules:  r.one\noptions: TRL TRC,\tTEF\nstart t\n",
    "m/no_blank.vec": "# t\nrules:r.one\noptions: TRC\nstart t\n",
    "a/b/deep.vec": "# t\r\nrules: r.one\r\noptions: TRI\r\nstart t\r\n",
    "a/Bad/skipped.vec": "# t\nrules: r\noptions: TRC\nstart t\n",
    "a/Upper.vec": "# t\nrules: r\noptions: TRC\nstart t\n",
    "a/.hidden.vec": "# t\nrules: r\noptions: TRC\nstart t\n",
    "a/notes.txt": "not a vector\n",
    "m/no_title.vec": "rules: r\noptions: TRC\nstart t\n",
    "m/empty_title.vec": "#   \nrules: r\noptions: TRC\nstart t\n",
    "m/bad_rule.vec": "# t\nrules: r.one, r!two, r.three\noptions: TEF\nstart t\n",
    "m/bad_option.vec": "# t\noptions: TEF, FOO\nrules: r\nstart t\n",
    "m/options_first.vec": "# t\noptions: TEF\nrules: r\nstart t\n",
    "m/step_first.vec": "# t\nstart t\nrules: r\noptions: TRC\n",
    "m/rules_twice.vec": "# t\nrules: r\nrules: s\noptions: TRL\nstart t\n",
    "m/unknown_field.vec": "# t\nrules: r\ntitle: x\noptions: TRL\nstart t\n",
    "m/exact_first.vec": "# t\nrules: r\nexact: start t\noptions: TRL\n",
    "m/empty_rules.vec": "# t\nrules: ,\noptions: TRL\nstart t\n",
    "m/empty.vec": "",
}


def test_odd_vectors_list_as_vecrun_lists_them(tmp_path):
    for rel, text in ODD.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    mine = vector_list.list_lines(str(tmp_path))
    assert [line.split("\t")[0] for line in mine] == \
        ["vec.a.b.deep", "vec.a.x-sim", "vec.a.x", "vec.m.bad_option", "vec.m.bad_rule",
         "vec.m.empty", "vec.m.empty_rules", "vec.m.empty_title", "vec.m.exact_first",
         "vec.m.no_blank", "vec.m.no_title", "vec.m.options_first", "vec.m.rules_twice", "vec.m.step_first",
         "vec.m.unknown_field"]
    assert mine == vecrun_list(str(tmp_path))
