#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""catalogue.py -- load, validate and measure the conformance rule catalogue.

The catalogue (conformance/catalogue.tsv) has one row per rule of the specification;
conformance/sids_not_applicable.tsv lists the "shall" sentences (S-IDs) that no rule covers,
each with its reason.  This module checks both files against the specification (spec/ in the
repository, read through harness/rules/spec.py; $POSIXTRACE_SPEC_DIR adds the full pages) and
computes the S-ID coverage.  Standard library only.

    /usr/bin/python3 harness/rules/catalogue.py check              summary; exit 1 on any problem
    /usr/bin/python3 harness/rules/catalogue.py list [--option TRC] [--testable yes|no] [--errors]
    /usr/bin/python3 harness/rules/catalogue.py coverage            each S-ID and the rules citing it

For the runner: load_catalogue(), check(), known_rule_ids(), check_test_references().
"""

import argparse
import difflib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # harness/
from rules import spec as speclib  # noqa: E402  (harness/rules/spec.py: the one lookup of the specification)

CATALOGUE = Path('conformance/catalogue.tsv')
NOT_APPLICABLE = Path('conformance/sids_not_applicable.tsv')
RULINGS = Path('conformance/rulings.md')
HEADER = ['id', 'option', 'functions', 'sources', 'testable', 'summary']
NA_HEADER = ['sid', 'reason']
OPTIONS = ('TRC', 'TEF', 'TRI', 'TRL', 'KSP')
KSP_STEM = speclib.KSP_FILE.rsplit('.', 1)[0]   # as a source stem of the catalogue

ID_RE = re.compile(r'^[A-Za-z0-9_.-]+$')
KSP_ID_RE = re.compile(r'^KSP-([1-9][0-9]*)$')
SID_RE = re.compile(r'^S[0-9]{4}$')
FUNC_RE = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
# An error rule names an errno right after the area: create.EAGAIN, timedgetnext.EINVAL-abstime.
ERROR_SLUG_RE = re.compile(r'^E[A-Z0-9]+(?:-.+)?$')


class CatalogueError(Exception):
    """A catalogue file is missing or has the wrong header: nothing else can be checked."""


@dataclass
class Source:
    stem: str            # spec file name without .txt, or kernel-slot-protocol
    section: str         # DESCRIPTION, ERRORS, 2.11.1.1, §3 ...
    sids: list           # S-IDs cited in this group, in order


@dataclass
class Rule:
    id: str
    option: str
    functions: list      # [] for '-'
    sources: list        # of Source
    testable: bool
    reason: str          # why not testable ('' when testable)
    summary: str
    line: int            # line number in catalogue.tsv

    @property
    def sids(self):
        return [s for src in self.sources for s in src.sids]

    @property
    def is_error_rule(self):
        area, _, slug = self.id.partition('.')
        return bool(slug) and ERROR_SLUG_RE.match(slug) is not None

    def to_dict(self):
        """The shape reports/conformance.json uses for a rule (without result and tests)."""
        return {'id': self.id, 'option': self.option, 'functions': self.functions,
                'sources': self.sids, 'testable': self.testable, 'summary': self.summary}


def default_repo_root():
    return Path(__file__).resolve().parent.parent.parent


def load_spec(repo_root):
    """The specification (harness/rules/spec.py): the shall sentences, the KSP sections, the page
    stems and the functions of <trace.h>.  CatalogueError if it cannot be read."""
    try:
        s = speclib.Spec(repo_root)
        s.stems, s.functions               # the facts of the pages: read now, fail now
    except speclib.SpecError as e:
        raise CatalogueError(str(e)) from None
    return s


def _read_tsv(path, header):
    try:
        text = Path(path).read_text(encoding='utf-8')
    except OSError as e:
        raise CatalogueError(f'{path}: cannot read ({e.strerror})') from None
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if not lines or lines[0].split('\t') != header:
        raise CatalogueError(f'{path}:1: the header must be exactly: ' + '<TAB>'.join(header))
    return [(n, line.split('\t')) for n, line in enumerate(lines[1:], start=2)]


def _parse_sources(text, where, problems):
    sources = []
    for group in text.split(';'):
        words = group.split()
        if not words:
            problems.append(f'{where}: sources: empty group in "{text}"')
            continue
        first_sid = next((i for i, w in enumerate(words) if SID_RE.match(w)), len(words))
        stem, section, sids = words[0], ' '.join(words[1:first_sid]), words[first_sid:]
        for w in sids:
            if not SID_RE.match(w):
                problems.append(f'{where}: sources: "{w}" after the S-IDs of "{group.strip()}" '
                                'is not an S-ID (write: <file stem> <section> S0001 S0002; ...)')
        sources.append(Source(stem, section, [w for w in sids if SID_RE.match(w)]))
    return sources


def _parse(repo_root):
    """Parse catalogue.tsv into rules; collect the problems found on the way."""
    root = Path(repo_root)
    rows = _read_tsv(root / CATALOGUE, HEADER)
    rules, problems = [], []
    for n, cols in rows:
        where = f'{CATALOGUE}:{n}'
        if len(cols) != len(HEADER):
            problems.append(f'{where}: {len(cols)} tab-separated fields, expected {len(HEADER)}')
            continue
        rid, option, functions, sources, testable, summary = (c.strip() for c in cols)
        if any(c != c.strip() for c in cols):
            problems.append(f'{where}: {rid}: a field has leading or trailing blanks')
        for name, value in zip(HEADER, (rid, option, functions, sources, testable, summary)):
            if not value:
                problems.append(f'{where}: {rid or "(no id)"}: empty {name}')
        is_testable = testable == 'yes'
        reason = ''
        if not is_testable:
            if testable.startswith('no:') and testable[3:].strip():
                reason = testable[3:].strip()
            else:
                problems.append(f'{where}: {rid}: testable is "{testable}"; it must be "yes" or "no: <reason>"')
        funcs = [] if functions == '-' else [f.strip() for f in functions.split(',')]
        rules.append(Rule(rid, option, funcs, _parse_sources(sources, f'{where}: {rid}', problems),
                          is_testable, reason, summary, n))
    return rules, problems


def load_catalogue(repo_root=None):
    """The rules of conformance/catalogue.tsv, in file order (list of Rule).

    Raises CatalogueError if the file cannot be read or its header is wrong; malformed rows
    are still returned as well as they parse -- check() says what is wrong with them."""
    return _parse(repo_root or default_repo_root())[0]


def load_not_applicable(repo_root=None):
    """S-ID -> reason, from conformance/sids_not_applicable.tsv."""
    root = Path(repo_root or default_repo_root())
    return {cols[0].strip(): (cols[1].strip() if len(cols) > 1 else '')
            for _, cols in _read_tsv(root / NOT_APPLICABLE, NA_HEADER)}


def known_rule_ids(repo_root=None):
    return {r.id for r in load_catalogue(repo_root)}


def coverage(repo_root=None, rules=None, not_applicable=None, spec=None):
    """{'all', 'covered', 'not_applicable', 'missing'}: sets of S-IDs, plus 'by_sid': S-ID -> rule ids."""
    root = repo_root or default_repo_root()
    spec = spec or load_spec(root)
    rules = load_catalogue(root) if rules is None else rules
    na = load_not_applicable(root) if not_applicable is None else not_applicable
    by_sid = {}
    for r in rules:
        for s in r.sids:
            by_sid.setdefault(s, []).append(r.id)
    every = set(spec.shall)
    covered = every & set(by_sid)
    not_app = every & set(na)
    return {'all': every, 'covered': covered, 'not_applicable': not_app,
            'missing': every - covered - not_app, 'by_sid': by_sid}


def _check_rule(rule, spec, where, problems):
    rid = rule.id
    if not ID_RE.match(rid):
        problems.append(f'{where}: id "{rid}" has characters outside [A-Za-z0-9_.-]')
    if rule.option not in OPTIONS:
        problems.append(f'{where}: {rid}: option "{rule.option}" is not one of {", ".join(OPTIONS)}')
    ksp = KSP_ID_RE.match(rid)
    if rule.option == 'KSP' and not ksp:
        problems.append(f'{where}: {rid}: a KSP rule keeps the id of the slot protocol (KSP-<n>)')
    if rule.option != 'KSP' and ID_RE.match(rid):
        area, dot, slug = rid.partition('.')
        if ksp:
            problems.append(f'{where}: {rid}: KSP ids are for option KSP, not {rule.option}')
        elif not (dot and area and slug) or rid.endswith('.'):
            problems.append(f'{where}: id "{rid}" is not of the form <area>.<slug>')
    seen = set()
    for f in rule.functions:
        if f in seen:
            problems.append(f'{where}: {rid}: function {f} listed twice')
        seen.add(f)
        if not FUNC_RE.match(f):
            problems.append(f'{where}: {rid}: "{f}" is not a function name (use - for none)')
        elif f.startswith('posix_trace_') and spec.functions and f not in spec.functions:
            close = difflib.get_close_matches(f, sorted(spec.functions), 1)
            hint = f' (did you mean {close[0]}?)' if close else ''
            problems.append(f'{where}: {rid}: {f} is not a function of <trace.h>{hint}')
    for src in rule.sources:
        if src.stem == KSP_STEM:
            m = re.match(r'^§([0-9]+)$', src.section)
            if not m:
                problems.append(f'{where}: {rid}: a {KSP_STEM} source names its section as §<n>, not "{src.section}"')
            elif ksp and spec.ksp_sections.get(int(ksp.group(1))) not in (None, m.group(1)):
                problems.append(f'{where}: {rid}: {rid} is in §{spec.ksp_sections[int(ksp.group(1))]} '
                                f'of {KSP_STEM}.md, not §{m.group(1)}')
            if src.sids:
                problems.append(f'{where}: {rid}: S-IDs belong to the POSIX text, not to {KSP_STEM}')
            continue
        if src.stem not in spec.stems:
            close = difflib.get_close_matches(src.stem, sorted(spec.stems | {KSP_STEM}), 1)
            hint = f' (did you mean {close[0]}?)' if close else ''
            problems.append(f'{where}: {rid}: sources: no spec file "{src.stem}"{hint}')
        if not src.section:
            problems.append(f'{where}: {rid}: sources: "{src.stem}" needs a section (DESCRIPTION, ERRORS, 2.11.1.1, ...)')
        for sid in src.sids:
            if sid not in spec.shall:
                problems.append(f'{where}: {rid}: {sid} is not in SHALL_STATEMENTS.tsv')
            elif spec.shall[sid][0] != src.stem + '.txt':
                problems.append(f'{where}: {rid}: {sid} comes from {spec.shall[sid][0]}, '
                                f'not from {src.stem} (group the S-IDs by their file)')
        if len(set(src.sids)) != len(src.sids):
            problems.append(f'{where}: {rid}: an S-ID is cited twice in "{src.stem}"')


def _check_rulings(root, rules):
    """Rulings cited by rules exist in rulings.md, and rule ids listed there exist."""
    path = root / RULINGS
    if not path.exists():
        return [f'{RULINGS}: missing (rules cite rulings)'] if any(
            re.search(r'\bruling [0-9]+', r.summary + r.reason) for r in rules) else []
    text = path.read_text(encoding='utf-8')
    numbers = set(re.findall(r'^## ([0-9]+)\.', text, re.M))
    ids = {r.id for r in rules}
    problems = []
    for r in rules:
        for n in re.findall(r'\bruling ([0-9]+)', r.summary + ' ' + r.reason):
            if n not in numbers:
                problems.append(f'{CATALOGUE}:{r.line}: {r.id} cites ruling {n}, which {RULINGS} does not have')
    paragraph, start = [], 0
    for n, line in enumerate(text.splitlines() + [''], start=1):
        if line.strip():
            start = start or n
            paragraph.append(line)
            continue
        if paragraph and paragraph[0].startswith('**Rules:**'):
            for rid in re.findall(r'`([^`]+)`', ' '.join(paragraph)):
                if '*' not in rid and rid not in ids:
                    problems.append(f'{RULINGS}:{start}: names rule {rid}, which is not in {CATALOGUE}')
        paragraph, start = [], 0
    return problems


def check(repo_root=None):
    """Every problem of the catalogue and the N/A list, one line each; [] when all is well."""
    root = Path(repo_root or default_repo_root())
    try:
        spec = load_spec(root)
        rules, problems = _parse(root)
        na_rows = _read_tsv(root / NOT_APPLICABLE, NA_HEADER)
    except CatalogueError as e:
        return [str(e)]
    first = {}
    for r in rules:
        where = f'{CATALOGUE}:{r.line}'
        if r.id in first:
            problems.append(f'{where}: duplicate id {r.id} (first on line {first[r.id]})')
        else:
            first[r.id] = r.line
        _check_rule(r, spec, where, problems)
    for n in sorted(spec.ksp_sections):
        if f'KSP-{n}' not in first:
            problems.append(f'{CATALOGUE}: KSP-{n} of {KSP_STEM}.md has no row')
    for r in rules:
        m = KSP_ID_RE.match(r.id)
        if m and spec.ksp_sections and int(m.group(1)) not in spec.ksp_sections:
            problems.append(f'{CATALOGUE}:{r.line}: {r.id} is not a rule of {KSP_STEM}.md')

    na = {}
    for n, cols in na_rows:
        where = f'{NOT_APPLICABLE}:{n}'
        if len(cols) != 2 or not cols[0].strip() or not cols[1].strip():
            problems.append(f'{where}: expected "<sid><TAB><reason>" with a non-empty reason')
            continue
        sid = cols[0].strip()
        if sid not in spec.shall:
            problems.append(f'{where}: {sid} is not in SHALL_STATEMENTS.tsv')
        elif sid in na:
            problems.append(f'{where}: {sid} listed twice')
        na[sid] = cols[1].strip()

    problems += _check_rulings(root, rules)
    cov = coverage(root, rules, na, spec)
    for sid in sorted(cov['covered'] & set(na)):
        problems.append(f'{NOT_APPLICABLE}: {sid} is marked not applicable but rules cite it: '
                        + ', '.join(cov['by_sid'][sid]))
    for sid in sorted(cov['missing']):
        src, section, text = spec.shall[sid]
        problems.append(f'{sid} ({src} {section}) is neither cited by a rule nor listed in '
                        f'{NOT_APPLICABLE}: "{text[:70]}..."')
    return problems


def check_test_references(rule_ids_named_by_tests, repo_root=None, known=None):
    """Problems for every test naming a rule the catalogue does not have.

    rule_ids_named_by_tests: test id -> list of rule ids it names."""
    known = known_rule_ids(repo_root) if known is None else set(known)
    problems = []
    for test in sorted(rule_ids_named_by_tests):
        rules = rule_ids_named_by_tests[test]
        if not rules:
            problems.append(f'test {test} names no rule')
        for rid in rules:
            if rid not in known:
                close = difflib.get_close_matches(rid, sorted(known), 1)
                hint = f' (did you mean {close[0]}?)' if close else ''
                problems.append(f'test {test} names rule "{rid}", which is not in {CATALOGUE}{hint}')
    return problems


def summary_lines(repo_root=None):
    root = repo_root or default_repo_root()
    rules = load_catalogue(root)
    cov = coverage(root, rules)
    per_option = {o: sum(r.option == o for r in rules) for o in OPTIONS}
    testable = sum(r.testable for r in rules)
    errors = [r for r in rules if r.is_error_rule]
    from_errors = sum(any(s.section == 'ERRORS' for s in r.sources) for r in errors)
    return [
        f'{CATALOGUE}: {len(rules)} rules',
        '  by option: ' + ', '.join(f'{o} {n}' for o, n in per_option.items()),
        f'  testable: yes {testable}, no {len(rules) - testable}',
        f'  error rules: {len(errors)} ({from_errors} from ERRORS sections, '
        f'{len(errors) - from_errors} from DESCRIPTION text; testable {sum(r.testable for r in errors)})',
        f'  S-IDs: {len(cov["all"])} in SHALL_STATEMENTS.tsv: {len(cov["covered"])} covered, '
        f'{len(cov["not_applicable"])} not applicable, {len(cov["missing"])} missing',
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(prog='catalogue.py', description=__doc__.split('\n\n')[0])
    ap.add_argument('--root', default=None, help='repository root (default: the one holding this file)')
    sub = ap.add_subparsers(dest='cmd', required=True)
    sub.add_parser('check', help='validate the catalogue and print a summary; exit 1 on problems')
    ls = sub.add_parser('list', help='print rule ids')
    ls.add_argument('--option', choices=OPTIONS)
    ls.add_argument('--testable', choices=('yes', 'no'))
    ls.add_argument('--errors', action='store_true', help='error rules only')
    sub.add_parser('coverage', help='print each S-ID with the rules citing it')
    args = ap.parse_args(argv)
    root = Path(args.root) if args.root else default_repo_root()

    try:
        if args.cmd == 'check':
            problems = check(root)
            try:
                print('\n'.join(summary_lines(root)))
            except CatalogueError:
                pass                      # the problem list says why
            if problems:
                print(f'{len(problems)} problem(s):', file=sys.stderr)
                for p in problems:
                    print(p, file=sys.stderr)
                return 1
            print('catalogue OK')
            return 0
        rules = load_catalogue(root)
        if args.cmd == 'list':
            for r in rules:
                if args.option and r.option != args.option:
                    continue
                if args.testable and r.testable != (args.testable == 'yes'):
                    continue
                if args.errors and not r.is_error_rule:
                    continue
                print(r.id)
            return 0
        if args.cmd == 'coverage':
            cov = coverage(root, rules)
            na = load_not_applicable(root)
            for sid in sorted(cov['all']):
                if sid in cov['by_sid']:
                    print(f'{sid}\t' + ' '.join(cov['by_sid'][sid]))
                elif sid in na:
                    print(f'{sid}\tN/A: {na[sid]}')
                else:
                    print(f'{sid}\tMISSING')
            return 0
    except CatalogueError as e:
        print(e, file=sys.stderr)
        return 1
    return 2


if __name__ == '__main__':
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)     # "list | head" ends quietly
    sys.exit(main())
