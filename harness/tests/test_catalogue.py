# SPDX-License-Identifier: MIT
"""Tests of harness/rules/catalogue.py and of the real rule catalogue.

The first tests hold the real catalogue to its promises (valid, every S-ID accounted for, every
KSP rule present, every error condition a rule).  The others break temporary copies of it and
check that each kind of damage is reported -- so that the check itself can fail.
"""

import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / 'harness'))
from rules import catalogue  # noqa: E402

CLI = [sys.executable, str(REPO / 'harness' / 'rules' / 'catalogue.py')]


@functools.lru_cache()
def the_spec():
    """spec/ of the repository (and $POSIXTRACE_SPEC_DIR), read once."""
    return catalogue.load_spec(REPO)


def all_sids():
    return set(the_spec().shall)


# ---- the real catalogue ----------------------------------------------------------------------

def test_real_catalogue_passes_the_check():
    assert catalogue.check(REPO) == []


def test_all_323_sids_are_accounted_for():
    sids = all_sids()
    assert len(sids) == 323 and 'S0001' in sids and 'S0323' in sids
    cov = catalogue.coverage(REPO)
    assert cov['missing'] == set()
    assert cov['covered'] | cov['not_applicable'] == sids
    assert cov['covered'] & cov['not_applicable'] == set()


def test_every_ksp_rule_of_the_spec_is_a_row():
    text = Path(the_spec().files.ksp).read_text(encoding='utf-8')
    spec_ids = set(re.findall(r'\bKSP-\d+\b', text))
    assert len(spec_ids) >= 25
    rules = {r.id: r for r in catalogue.load_catalogue(REPO)}
    assert spec_ids - set(rules) == set()
    assert all(rules[i].option == 'KSP' for i in spec_ids)


def test_error_rules_cover_the_76_error_pairs():
    rules = catalogue.load_catalogue(REPO)
    errors = [r for r in rules if r.is_error_rule]
    from_errors_sections = [r for r in errors if any(s.section == 'ERRORS' for s in r.sources)]
    assert len(errors) >= 76
    assert len(from_errors_sections) >= 76


def test_every_errno_of_every_errors_section_has_a_rule():
    """Each [Exxx] of each function page's ERRORS section is named by a rule of that page
    (the codes come from the full pages, or from spec/posix/errors.tsv derived from them)."""
    rules = catalogue.load_catalogue(REPO)
    assert len(the_spec().errors) == 15                     # the 15 function pages
    for page, codes in sorted(the_spec().errors.items()):
        assert codes, page
        cited = {r.id.split('.', 1)[1].split('-')[0] for r in rules if r.is_error_rule
                 and any(s.stem == page and s.section == 'ERRORS' for s in r.sources)}
        assert set(codes) <= cited, f'{page}: no ERRORS rule for {sorted(set(codes) - cited)}'


def test_rules_of_every_option_and_testable_reasons():
    rules = catalogue.load_catalogue(REPO)
    assert {r.option for r in rules} == set(catalogue.OPTIONS)
    for r in rules:
        assert r.testable or len(r.reason) > 20, r.id


def test_known_rule_ids_and_references():
    ids = catalogue.known_rule_ids(REPO)
    assert {'create.suspended', 'create.EAGAIN', 'timedgetnext.ETIMEDOUT', 'KSP-1'} <= ids
    assert catalogue.check_test_references({'t.ok': ['create.suspended', 'KSP-25']}, REPO) == []


def test_cli_check_and_list():
    out = subprocess.run(CLI + ['check'], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert 'S-IDs: 323 in SHALL_STATEMENTS.tsv' in out.stdout and '0 missing' in out.stdout
    assert 'error rules:' in out.stdout and 'by option:' in out.stdout
    ksp = subprocess.run(CLI + ['list', '--option', 'KSP'], capture_output=True, text=True)
    assert ksp.returncode == 0
    assert ksp.stdout.split() == [f'KSP-{n}' for n in range(1, 26)]
    trc = subprocess.run(CLI + ['list', '--option', 'TRC'], capture_output=True, text=True).stdout.split()
    assert 'create.suspended' in trc and 'KSP-1' not in trc and 'fork.close-for-child' not in trc


# ---- broken copies: each defect must be reported ---------------------------------------------

@pytest.fixture
def copy(tmp_path):
    """A repository root holding copies of the catalogue files and of spec/."""
    (tmp_path / 'conformance').mkdir()
    for f in (catalogue.CATALOGUE, catalogue.NOT_APPLICABLE, catalogue.RULINGS):
        shutil.copy(REPO / f, tmp_path / f)
    shutil.copytree(REPO / 'spec', tmp_path / 'spec')
    assert catalogue.check(tmp_path) == []
    return tmp_path


def rows(root):
    return (root / catalogue.CATALOGUE).read_text(encoding='utf-8').split('\n')


def write(root, lines):
    (root / catalogue.CATALOGUE).write_text('\n'.join(lines), encoding='utf-8')


def edit_row(root, rid, column, value):
    lines = rows(root)
    for i, line in enumerate(lines):
        cols = line.split('\t')
        if cols[0] == rid:
            cols[catalogue.HEADER.index(column)] = value
            lines[i] = '\t'.join(cols)
            write(root, lines)
            return
    raise AssertionError(f'no row {rid}')


def test_missing_sid_is_reported(copy):
    write(copy, [l for l in rows(copy) if 'S0092' not in l])
    problems = catalogue.check(copy)
    assert any(p.startswith('S0092 ') and 'neither cited' in p for p in problems), problems
    out = subprocess.run(CLI + ['--root', str(copy), 'check'], capture_output=True, text=True)
    assert out.returncode == 1 and 'S0092' in out.stderr and '1 missing' in out.stdout


def test_duplicate_id_is_reported(copy):
    lines = rows(copy)
    dup = next(l for l in lines if l.startswith('create.suspended\t'))
    write(copy, lines[:-1] + [dup, ''])
    problems = catalogue.check(copy)
    assert any('duplicate id create.suspended' in p for p in problems), problems


def test_bad_option_is_reported(copy):
    edit_row(copy, 'create.suspended', 'option', 'TRX')
    assert any('option "TRX"' in p for p in catalogue.check(copy))


def test_dangling_test_reference_is_reported(copy):
    problems = catalogue.check_test_references(
        {'create.t1': ['create.suspended', 'create.suspend'], 'attr.t2': ['TRC.attr_init.reinit'],
         'empty.t3': []}, copy)
    assert len(problems) == 3, problems
    assert any('create.t1' in p and '"create.suspend"' in p and 'did you mean create.suspended' in p
               for p in problems)
    assert any('attr.t2' in p and 'TRC.attr_init.reinit' in p for p in problems)
    assert any('empty.t3 names no rule' in p for p in problems)


def test_unknown_sid_and_wrong_file_are_reported(copy):
    edit_row(copy, 'create.suspended', 'sources', 'xsh_posix_trace_create DESCRIPTION S0092 S9999')
    edit_row(copy, 'create.active', 'sources',
             'xsh_posix_trace_create DESCRIPTION S0082 S0090 S0001')
    problems = catalogue.check(copy)
    assert any('S9999 is not in SHALL_STATEMENTS.tsv' in p for p in problems)
    assert any('S0001 comes from xsh_posix_trace_attr_destroy.txt' in p for p in problems)


def test_malformed_fields_are_reported(copy):
    edit_row(copy, 'create.suspended', 'testable', 'maybe')
    edit_row(copy, 'create.active', 'testable', 'no:')
    edit_row(copy, 'create.EAGAIN', 'functions', 'posix_trace_creat')
    edit_row(copy, 'clear.EINVAL', 'id', 'clear EINVAL')
    edit_row(copy, 'KSP-3', 'sources', 'kernel-slot-protocol §4')
    problems = '\n'.join(catalogue.check(copy))
    assert 'create.suspended: testable is "maybe"' in problems
    assert 'create.active: testable is "no:"' in problems
    assert 'posix_trace_creat is not a function of <trace.h> (did you mean posix_trace_create?)' in problems
    assert 'id "clear EINVAL" has characters outside' in problems
    assert 'KSP-3 is in §1' in problems


def test_missing_ksp_rule_and_bad_header_are_reported(copy):
    write(copy, [l for l in rows(copy) if not l.startswith('KSP-7\t')])
    assert any('KSP-7 of kernel-slot-protocol.md has no row' in p for p in catalogue.check(copy))
    lines = rows(copy)
    write(copy, ['id\toption\tsources\tfunctions\ttestable\tsummary'] + lines[1:])
    problems = catalogue.check(copy)
    assert len(problems) == 1 and 'header must be exactly' in problems[0]


def test_not_applicable_list_is_checked(copy):
    na = copy / catalogue.NOT_APPLICABLE
    na.write_text(na.read_text(encoding='utf-8') + 'S0092\talso covered\nS0500\tno such\nS0083\t\n',
                  encoding='utf-8')
    problems = '\n'.join(catalogue.check(copy))
    assert 'S0092 is marked not applicable but rules cite it' in problems
    assert 'S0500 is not in SHALL_STATEMENTS.tsv' in problems
    assert 'non-empty reason' in problems


def test_rulings_and_catalogue_agree(copy):
    edit_row(copy, 'clear.filter', 'summary', 'the filter after clear is not checked (ruling 99)')
    rulings = copy / catalogue.RULINGS
    rulings.write_text(rulings.read_text(encoding='utf-8') + '\n**Rules:** `no.such-rule`\n',
                       encoding='utf-8')
    problems = '\n'.join(catalogue.check(copy))
    assert 'clear.filter cites ruling 99' in problems
    assert 'names rule no.such-rule' in problems
