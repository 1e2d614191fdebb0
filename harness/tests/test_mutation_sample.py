# SPDX-License-Identifier: MIT
"""The random mutants' generator and their triage (harness/mutants/sites.py,
sample.py, triage.py): sites found only in code, every operator of the
classic set, keys that do not move with line numbers, a draw that only the
seed decides, and a triage file read strictly.  The sample itself is run by
'make check-mutation' (CI runs the 10 of ci_sample.tsv)."""

import os
import sys

import pytest

from conftest import HARNESS, REPO

sys.path.insert(0, os.path.join(HARNESS, "mutants"))
import sample    # noqa: E402
import sites     # noqa: E402
import triage    # noqa: E402

C = """/* a comment: if (a < b) return 1; */
#include <stdio.h>
#define MAX(a, b) ((a) > (b) ? (a) : (b))
static int f(int a, int b, const char *s)
{
    int n = 0;                          // x = y + 1;
    if (a < b && !s[0])
        n += 2;
    while (n != 3)
        n++;
    g(a, "if (x == y) z;", 'c');
    return a * b - n;
}
"""


def mutants_of(text, name="posix/x.c"):
    return [(s.op, s.old, s.new, s.line) for s in sites.sites(text, name)]


def test_sites_only_in_code():
    found = mutants_of(C)
    lines = {ln for _, _, _, ln in found}
    # Not in the comment (line 1), the #include and #define (2, 3), the // comment
    # and the string and character literals.
    assert not lines & {1, 2, 3}
    assert ("CRP", "1", "2", 6) not in found            # 'y + 1' in the // comment
    assert not [m for m in found if m[3] == 11 and m[0] in ("ROR", "COND")]


def test_every_operator():
    found = mutants_of(C)
    ops = {op for op, _, _, _ in found}
    assert ops == {"ROR", "AOR", "LCR", "UOI", "CRP", "COND", "SDL", "RVR"}
    assert ("ROR", "<", "<=", 7) in found and ("ROR", "!=", "==", 9) in found
    assert ("LCR", "&&", "||", 7) in found and ("UOI", "!", "", 7) in found
    assert ("AOR", "+=", "-=", 8) in found and ("AOR", "++", "--", 10) in found
    assert ("AOR", "*", "/", 12) in found and ("AOR", "-", "+", 12) in found
    assert ("CRP", "2", "3", 8) in found and ("CRP", "0", "1", 6) in found
    assert ("COND", "a < b && !s[0]", "!(a < b && !s[0])", 7) in found
    assert ("COND", "a < b && !s[0]", "0", 7) in found
    assert ("SDL", "g(a, \"if (x == y) z;\", 'c');", ";", 11) in found
    assert ("RVR", "a * b - n", "0", 12) in found
    # A declaration is not a statement to delete; a pointer's '*' is no product.
    assert not [m for m in found if m[0] == "SDL" and m[3] in (4, 6)]
    assert not [m for m in found if m[0] == "AOR" and m[3] == 4]


def test_apply_changes_only_the_site():
    for s in sites.sites(C, "posix/x.c"):
        out = s.apply(C)
        assert out[:s.start] == C[:s.start]
        assert out[s.start + len(s.new):] == C[s.end:]


def test_keys_unique_and_stable_when_lines_move():
    a = {s.key: s for s in sites.sites(C, "posix/x.c")}
    assert len(a) == len(sites.sites(C, "posix/x.c"))
    moved = "\n\n/* three more lines */\n" + C
    b = {s.key: s for s in sites.sites(moved, "posix/x.c")}
    assert set(a) == set(b)
    assert all(b[k].line == a[k].line + 3 for k in a)
    # The same line twice: two mutants, two keys.
    twice = C.replace("        n++;\n", "        n++;\n        n++;\n")
    k = [s.key for s in sites.sites(twice, "posix/x.c") if s.op == "AOR" and s.old == "++"]
    assert len(k) == 2 and len(set(k)) == 2


def test_the_draw_is_the_seeds():
    one = [s.key for s in sample.draw(REPO, 1)[:50]]
    assert one == [s.key for s in sample.draw(REPO, 1)[:50]]
    assert one != [s.key for s in sample.draw(REPO, 2)[:50]]
    everything = sample.all_sites(REPO)
    files = {s.file.split("/")[0] for s in everything}
    assert files == set(sample.FOLDERS)
    assert len(everything) > 5000


def test_changed_rules_only_those_that_got_worse():
    base = {"a": {"result": "PASS", "tests": ["t1"]}, "b": {"result": "FAIL", "tests": ["t2"]},
            "c": {"result": "PASS", "tests": ["t3"]}, "d": {"result": "UNTESTED", "tests": []}}
    doc = {"rules": [{"id": "a", "result": "FAIL", "tests": ["t1"]},
                     {"id": "b", "result": "FAIL", "tests": ["t2"]},
                     {"id": "c", "result": "UNRESOLVED", "tests": ["t3", "t4"]},
                     {"id": "d", "result": "UNRESOLVED", "tests": []}]}
    assert sample.changed_rules(doc, base) == ["a", "d"]


def write(tmp_path, lines):
    p = tmp_path / "triage.tsv"
    p.write_text("# comment\n" + "".join("\t".join(c) + "\n" for c in lines))
    return str(p)


def test_triage_file_read_strictly(tmp_path):
    ok = ("posix/x.c:0123456789ab", "invisible", "posix/x.c:9", "ROR '<' -> '<='",
          "a speed path")
    book = triage.load(write(tmp_path, [ok]))
    assert book["posix/x.c:0123456789ab"].verdict == "invisible"
    for bad, said in [
            ((ok[0], "harmless", ok[2], ok[3], ok[4]), "verdict 'harmless'"),
            ((ok[0], "observable", ok[2], ok[3], " "), "has no reason"),
            (ok[:4], "4 columns")]:
        with pytest.raises(triage.TriageError) as e:
            triage.load(write(tmp_path, [bad]))
        assert said in str(e.value)
    with pytest.raises(triage.TriageError, match="judged twice"):
        triage.load(write(tmp_path, [ok, ok]))


def test_the_repositorys_triage_file_reads():
    book = triage.load(os.path.join(HARNESS, "mutants", "triage.tsv"))
    keys = {s.key for s in sample.all_sites(REPO)}
    # A judgement whose mutant is gone (its line changed) is a stale line.
    stale = sorted(k for k in book if k not in keys)
    assert not stale, "triage.tsv judges mutants no longer in the reference: %s" % stale


def test_pinned_sample_by_key(tmp_path):
    """--keys judges exactly the mutants a file names, in its order; a key
    whose line has changed is reported, not judged; a list with no mutant
    left is an error."""
    drawn = sample.draw(REPO, 5)[:3]
    keys = tmp_path / "keys.tsv"
    keys.write_text("# comment\n%s\tx\n\n%s\n%s\tlater columns ignored\n"
                    "posix/gone.c:000000000000\tits line changed\n"
                    % (drawn[2].key, drawn[0].key, drawn[1].key))
    got, gone = sample.pinned(REPO, str(keys))
    assert [s.key for s in got] == [drawn[2].key, drawn[0].key, drawn[1].key]
    assert gone == ["posix/gone.c:000000000000"]
    keys.write_text("posix/gone.c:000000000000\n")
    with pytest.raises(triage.TriageError):
        sample.pinned(REPO, str(keys))


def test_ci_sample_is_all_in_the_reference():
    """CI's pinned mutants are mostly still there: an edit of the reference
    that changes one of their lines shrinks CI's sample (sample.py says
    which); past three gone, pin others (harness/mutants/README.md)."""
    got, gone = sample.pinned(REPO, os.path.join(HARNESS, "mutants", "ci_sample.tsv"))
    assert len(got) + len(gone) == 10
    assert len(gone) <= 3, "CI's pinned mutants whose lines changed: %s" % ", ".join(gone)
