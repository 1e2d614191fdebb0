# SPDX-License-Identifier: MIT
"""maint/coverage_tiers.py, which 'make coverage' runs on its lcov tracefiles
(issue 31 item 3): the .info format read by hand (SF:, DA:, BRDA:, a file met
twice, '-' branches), the figures by folder of reference/, lcov's percentages,
and tiers.txt / tiers.json, on a tiny fake tracefile."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "maint"))

import coverage_tiers as ct  # noqa: E402

# posix/: a.c, 2 of 3 lines, 1 of 4 branches (two of them '-': their block
# never ran); a.h, in two records (two objects), 0 + 2: hit.  log/: nothing
# hit, no branch.  tests/ and a file outside reference/: not counted.
FAKE = """TN:
SF:{root}/reference/posix/a.c
FN:1,f
FNDA:3,f
DA:1,3
DA:2,0
DA:3,1,abcdef
BRDA:2,0,0,1
BRDA:2,0,1,0
BRDA:3,0,0,-
BRDA:3,0,1,-
end_of_record
SF:{root}/reference/posix/a.h
DA:5,0
end_of_record
SF:{root}/reference/log/l.c
DA:1,0
DA:2,0
end_of_record
SF:{root}/reference/posix/a.h
DA:5,2
end_of_record
SF:{root}/reference/tests/t.c
DA:1,1
end_of_record
SF:/usr/include/stdio.h
DA:1,1
end_of_record
"""

# The unit tier in the CLI test: all of it hit.
FULL = """SF:{root}/reference/posix/a.c
DA:1,1
DA:2,1
DA:3,1
BRDA:2,0,0,1
BRDA:2,0,1,1
BRDA:3,0,0,1
BRDA:3,0,1,1
end_of_record
"""


def fake(root, text=FAKE):
    return ct.read_info(text.format(root=root).splitlines())


def test_a_file_met_twice_adds_its_counts(tmp_path):
    files = fake(tmp_path)
    assert files[str(tmp_path / "reference/posix/a.h")]["lines"] == {5: 2}
    a = files[str(tmp_path / "reference/posix/a.c")]
    assert a["lines"] == {1: 3, 2: 0, 3: 1}
    assert a["branches"] == {(2, 0, 0): 1, (2, 0, 1): 0, (3, 0, 0): 0, (3, 0, 1): 0}


def test_figures_by_folder_of_reference(tmp_path):
    got = ct.summarize(fake(tmp_path), str(tmp_path))
    assert got == {
        "posix": {"lines": [3, 4], "branches": [1, 4]},
        "log": {"lines": [0, 2], "branches": [0, 0]},
        "reference": {"lines": [3, 6], "branches": [1, 4]},
    }


def test_folder_of(tmp_path):
    root = str(tmp_path)
    assert ct.folder_of(root + "/reference/shm/shm.c", root) == "shm"
    assert ct.folder_of(root + "/reference/tools/../dump/d.c", root) == "dump"
    assert ct.folder_of(root + "/reference/bench/b.c", root) is None
    assert ct.folder_of(root + "/reference/top.c", root) is None
    assert ct.folder_of(root + "/referenced/x/y.c", root) is None
    assert ct.folder_of(root + "/reference/tests/t.c", root, exclude=()) == "tests"


def test_percentages_are_lcovs():
    assert ct.percent(1, 3) == 33.3
    assert ct.percent(2, 3) == 66.7
    assert ct.percent(19999, 20000) == 99.9      # not 100.0: one is missing
    assert ct.percent(1, 20000) == 0.1           # not 0.0: one is hit
    assert ct.percent(5, 5) == 100.0
    assert ct.percent(0, 5) == 0.0
    assert ct.percent(0, 0) is None


def test_a_malformed_line_is_named():
    with pytest.raises(ValueError, match="line 3: malformed 'DA:x,1'"):
        ct.read_info(["SF:/r/reference/posix/a.c", "DA:1,1", "DA:x,1", "end_of_record"])
    with pytest.raises(ValueError, match="line 1: DA outside a record"):
        ct.read_info(["DA:1,1"])


def test_tiers_txt_and_json(tmp_path, capsys):
    (tmp_path / "conf.info").write_text(FAKE.format(root=tmp_path))
    (tmp_path / "unit.info").write_text(FULL.format(root=tmp_path))
    txt, js = tmp_path / "tiers.txt", tmp_path / "tiers.json"
    status = ct.main(["--root", str(tmp_path), "--txt", str(txt), "--json", str(js),
                      "--headline", "conformance=The portable suite alone",
                      "--headline-folders", "posix,log,shm",
                      "--tier", "unit", str(tmp_path / "unit.info"), "the unit tests",
                      "--tier", "conformance", str(tmp_path / "conf.info"), "the portable suite"])
    assert status == 0
    printed = capsys.readouterr().out
    text = txt.read_text()
    assert printed.splitlines()[:4] == [
        "The portable suite alone (tier conformance: the portable suite) covers:",
        "  posix/    lines  75.0% (3/4), branches  25.0% (1/4)",
        "  log/      lines   0.0% (0/2), branches      - (0/0)",
        "  shm/      -",
    ]
    assert text.startswith(printed)

    rows = ct.parse_table(text)
    assert [(r["tier"], r["folder"]) for r in rows] == [
        ("unit", "posix"), ("unit", "reference"),
        ("conformance", "log"), ("conformance", "posix"), ("conformance", "reference")]
    assert rows[3] == {"tier": "conformance", "folder": "posix",
                       "lines_hit": "3", "lines_total": "4", "lines_pct": "75.0%",
                       "branches_hit": "1", "branches_total": "4", "branches_pct": "25.0%"}
    assert rows[2]["branches_pct"] == "-"
    assert rows[0]["lines_pct"] == "100.0%"

    # The percent matrices: folders down, tiers across.
    lines = text.splitlines()
    head = lines.index("lines             unit conformance")
    assert lines[head + 1:head + 4] == [
        "log                  -        0.0%",
        "posix           100.0%       75.0%",
        "reference       100.0%       50.0%",
    ]

    doc = json.loads(js.read_text())
    assert doc["folders"] == ["log", "posix", "reference"]
    assert [t["name"] for t in doc["tiers"]] == ["unit", "conformance"]
    conf = doc["tiers"][1]
    assert conf["description"] == "the portable suite"
    assert conf["folders"]["posix"] == {"lines": {"hit": 3, "total": 4, "percent": 75.0},
                                        "branches": {"hit": 1, "total": 4, "percent": 25.0}}
    assert conf["folders"]["log"]["branches"] == {"hit": 0, "total": 0, "percent": None}


def test_a_missing_tracefile_or_tier_fails(tmp_path, capsys):
    assert ct.main(["--root", str(tmp_path), "--tier", "unit", str(tmp_path / "no.info"), "x"]) == 2
    (tmp_path / "u.info").write_text(FULL.format(root=tmp_path))
    assert ct.main(["--root", str(tmp_path), "--headline", "conformance",
                    "--tier", "unit", str(tmp_path / "u.info"), "x"]) == 2
    assert "no tier 'conformance'" in capsys.readouterr().err
