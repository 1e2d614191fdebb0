# SPDX-License-Identifier: MIT
"""The specification lives in the repository (spec/, read by harness/rules/spec.py alone).

(a) A copy of the repository's harness and spec/ with nothing beside it and
    POSIXTRACE_SPEC_DIR unset checks the catalogue and quotes every S-ID.
(b) A report made without the full specification pages says so, in every
    report, and still carries each rule's shall sentences.
(c) POSIXTRACE_SPEC_DIR pointing at the full pages: they are read instead of
    the derived files, and the derived files are what the pages give.
No test here refers to a path outside the repository or the temporary folders.
"""

import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import PYTHON, REPO, RUN_PY, run_runner, write_spec
from rules import spec

NO_PAGES = "the full specification pages were not there"


@pytest.fixture
def no_env(monkeypatch):
    monkeypatch.delenv(spec.ENV, raising=False)
    return dict((k, v) for k, v in os.environ.items() if k != spec.ENV)


@pytest.fixture
def alone(tmp_path, no_env):
    """A copy of the repository's catalogue, harness and spec/ in a folder of its own: no
    folder beside it, no other spec anywhere near."""
    root = tmp_path / "clone" / "posixtrace"
    shutil.copytree(os.path.join(REPO, "spec"), str(root / "spec"))
    shutil.copytree(os.path.join(REPO, "conformance"), str(root / "conformance"),
                    ignore=shutil.ignore_patterns("tests", "probes"))
    shutil.copytree(os.path.join(REPO, "harness"), str(root / "harness"),
                    ignore=shutil.ignore_patterns("tests", "mutants", "*.c", "*.h", "__pycache__"))
    assert sorted(os.listdir(str(tmp_path / "clone"))) == ["posixtrace"]
    return root


def full_pages(base):
    """A stand-in for the full pages under base/posix/issue7-2016 (two pages, other facts
    than the real ones, so that it shows which were read)."""
    pages = base / "posix" / "issue7-2016"
    pages.mkdir(parents=True)
    (pages / "xbd_trace.h.txt").write_text("int posix_trace_fake(trace_id_t);\n")
    (pages / "xsh_posix_trace_fake.txt").write_text(
        "DESCRIPTION\n\nshall\n\nERRORS\n\n[EFAKE]\n    no.\n\n"
        "The following sections are informative.\n[ELATER]\n")
    return pages


# ---- (a) the repository alone ---------------------------------------------------------------

def test_in_repo_spec_is_the_default(no_env):
    s = spec.Spec(REPO)
    repo_spec = os.path.join(REPO, "spec")
    assert s.files.statements == os.path.join(repo_spec, "posix", "SHALL_STATEMENTS.tsv")
    assert s.files.ksp == os.path.join(repo_spec, "kernel-slot-protocol.md")
    assert s.files.pages is None and s.describe()["full_pages"] is None
    assert len(s.shall) == 323 and len(s.ksp) == 25 and s.ksp_sections[1] == "1"
    assert s.shall["S0001"].text.startswith("The posix_trace_attr_destroy() function shall")
    assert len(s.stems) == 29 and "xsh_posix_trace_create" in s.stems
    assert len(s.functions) == 50 and "posix_trace_trid_eventid_open" in s.functions
    assert s.errors["xsh_posix_trace_clear"] == ["EINVAL"]


def test_catalogue_checks_with_nothing_beside_the_repository(alone, no_env):
    p = subprocess.run([PYTHON, str(alone / "harness" / "rules" / "catalogue.py"), "check"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=no_env)
    assert p.returncode == 0, p.stderr
    assert "S-IDs: 323 in SHALL_STATEMENTS.tsv: 317 covered" in p.stdout
    assert "catalogue OK" in p.stdout


def test_missing_spec_names_the_path_tried(alone, no_env):
    tsv = alone / "spec" / "posix" / "SHALL_STATEMENTS.tsv"
    tsv.unlink()
    p = subprocess.run([PYTHON, str(alone / "harness" / "rules" / "catalogue.py"), "check"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=no_env)
    assert p.returncode == 1
    assert "%s: cannot read the shall sentences" % tsv in p.stderr
    assert "spec/spec" not in p.stderr


def test_a_wrong_env_folder_is_named_with_every_place_tried(tmp_path):
    with pytest.raises(spec.SpecError) as e:
        spec.Spec(REPO, env=str(tmp_path / "nowhere"))
    where = str(tmp_path / "nowhere")
    assert "POSIXTRACE_SPEC_DIR=%s: none of %s, %s/posix, %s/spec/posix holds" % (
        where, where, where, where) in str(e.value)


def test_no_file_refers_to_a_path_outside_the_repository():
    """Code, tests, make files, configure, CI and docs name spec/, never a folder beside the
    repository (the pattern below is escaped so that this file does not match itself)."""
    outside = re.compile(r"\.\./shared|\bshared/spec\b|\bshared/ARCHITECTURE")
    found = []
    for top, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in (".git", "build", "reports", "__pycache__",
                                                ".pytest_cache")]
        for name in files:
            path = os.path.join(top, name)
            if path == os.path.abspath(__file__):
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        if outside.search(line):
                            found.append("%s:%d: %s" % (os.path.relpath(path, REPO), n,
                                                        line.strip()))
            except (UnicodeDecodeError, OSError):
                continue
    assert found == []


# ---- (b) a report without the full pages ------------------------------------------------

def test_report_without_pages_says_so_and_quotes_the_sentences(fake_env, no_env):
    """The fake catalogue cites S0001 and S0002: their text comes from the repository's
    SHALL_STATEMENTS.tsv when POSIXTRACE_SPEC_DIR is unset (index.html quotes the
    sentences of the failing rule r.fail)."""
    shutil.copytree(os.path.join(REPO, "spec"), os.path.join(fake_env["root"], "spec"))
    p = run_runner(fake_env, "--test", "fake.pass*", "--test", "fake.fail",
                   extra_env={spec.ENV: ""})
    assert p.returncode == 1, p.stdout + p.stderr
    with open(os.path.join(fake_env["reports"], "conformance.json")) as f:
        doc = json.load(f)
    sp = doc["summary"]["spec"]
    assert sp["full_pages"] is None and sp["sentences"] == 323
    # Relative to the source tree, as every path in the reports.
    assert sp["statements"] == os.path.join("spec", "posix", "SHALL_STATEMENTS.tsv")
    rule = {r["id"]: r for r in doc["rules"]}["r.pass"]
    assert rule["spec"][0]["id"] == "S0001"
    assert rule["spec"][0]["text"].startswith("The posix_trace_attr_destroy() function shall")
    assert NO_PAGES in p.stdout
    for name in ("index.html", "junit.xml"):
        with open(os.path.join(fake_env["reports"], name)) as f:
            assert NO_PAGES in f.read(), name
    with open(os.path.join(fake_env["reports"], "index.html")) as f:
        assert "The posix_trace_attr_init() function shall initialize" in f.read()


def test_report_with_a_wrong_env_folder_warns_and_still_quotes(fake_env, tmp_path):
    shutil.copytree(os.path.join(REPO, "spec"), os.path.join(fake_env["root"], "spec"))
    p = run_runner(fake_env, "--test", "fake.pass*", extra_env={spec.ENV: str(tmp_path / "x")})
    assert p.returncode == 0, p.stdout + p.stderr
    assert "warning: POSIXTRACE_SPEC_DIR=%s: none of" % (tmp_path / "x") in p.stdout
    with open(os.path.join(fake_env["reports"], "conformance.json")) as f:
        doc = json.load(f)
    assert doc["summary"]["spec"]["sentences"] == 323
    assert {r["id"]: r for r in doc["rules"]}["r.pass"]["spec"][0]["text"]


# ---- (c) the full pages through POSIXTRACE_SPEC_DIR ----------------------------------------

@pytest.mark.parametrize("named", ["spec", "spec/posix", "."])
def test_env_adds_the_full_pages(tmp_path, named):
    pages = full_pages(tmp_path / "shared" / "spec")
    s = spec.Spec(REPO, env=str(tmp_path / "shared" / named))
    assert s.files.pages == str(pages)
    assert s.stems == {"xbd_trace.h", "xsh_posix_trace_fake"}
    assert s.functions == {"posix_trace_fake"}
    assert s.errors == {"xsh_posix_trace_fake": ["EFAKE"]}
    # No sentences there: the repository's are kept.
    assert s.files.statements == os.path.join(REPO, "spec", "posix", "SHALL_STATEMENTS.tsv")
    assert len(s.shall) == 323


def test_env_statements_replace_the_repository_copy(fake_env):
    s = spec.Spec(REPO, env=fake_env["spec"])
    assert s.files.statements == os.path.join(fake_env["spec"], "SHALL_STATEMENTS.tsv")
    assert set(s.shall) == {"S0001", "S0002", "S0003"} and s.files.pages is None


def test_report_with_the_full_pages_names_them(fake_env, tmp_path):
    pages = full_pages(tmp_path / "full")
    write_spec(str(pages.parent))
    p = run_runner(fake_env, "--test", "fake.pass*", extra_env={spec.ENV: str(tmp_path / "full")})
    assert p.returncode == 0, p.stdout + p.stderr
    with open(os.path.join(fake_env["reports"], "conformance.json")) as f:
        doc = json.load(f)
    assert doc["summary"]["spec"]["full_pages"] == str(pages)
    assert NO_PAGES not in p.stdout and "full pages from %s" % pages in p.stdout


def test_derive_writes_what_the_pages_give(tmp_path):
    pages = full_pages(tmp_path / "spec")
    out = tmp_path / "out"
    out.mkdir()
    spec.write_derived(str(pages), str(out))
    assert spec.facts_from_derived(str(out)) == spec.facts_from_pages(str(pages))


def test_derived_files_match_the_real_pages():
    """Run with POSIXTRACE_SPEC_DIR set to the full specification: the repository's derived
    files are exactly what 'harness/rules/spec.py derive' would write from it."""
    env = os.environ.get(spec.ENV)
    files = spec.Files(REPO, env) if env else None
    if not files or not files.pages:
        pytest.skip("POSIXTRACE_SPEC_DIR does not name the full pages")
    assert spec.facts_from_derived(files.derived) == spec.facts_from_pages(files.pages)
    assert len(spec.facts_from_pages(files.pages)[0]) == 29
