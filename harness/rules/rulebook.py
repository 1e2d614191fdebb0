# SPDX-License-Identifier: MIT
"""The rules the runner reports on, from the rule catalogue.

The catalogue is conformance/catalogue.tsv (columns id, option, functions,
sources, testable, summary), read through harness/rules/catalogue.py's
load_catalogue(repo_root) when that module is there, else read here directly
(same columns).  This module turns either into Rule objects and checks the
rule ids the tests name against it.
"""

import csv
import importlib.util
import os
import re
import sys



class CatalogueError(Exception):
    pass


class Rule:
    def __init__(self, id, option="", functions=(), sources=(), testable=True,
                 untestable_reason="", summary=""):
        self.id = id
        self.option = option
        self.functions = list(functions)
        self.sources = list(sources)
        self.testable = testable
        self.untestable_reason = untestable_reason
        self.summary = summary

    def options(self):
        """The options the rule needs: "TRC", "TRC TRL", "TRC+TRL", "TRL" ..."""
        return [o for o in re.split(r"[\s,+|/]+", self.option or "") if o]


def _split(value):
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        out = []
        for v in value:
            out += _split(v)
        return out
    return [x for x in re.split(r"[\s,;]+", str(value)) if x and x != "-"]


def _source_text(v):
    """A source as text: catalogue.py's Source objects (stem, section, sids)
    become "stem section S0001 S0002"."""
    if hasattr(v, "stem") and hasattr(v, "sids"):
        return " ".join(x for x in [v.stem, getattr(v, "section", "")] + list(v.sids) if x)
    return str(v)


def _sources(value):
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [_source_text(v) for v in value if _source_text(v).strip()]
    return [x.strip() for x in re.split(r"[;,]", str(value)) if x.strip()]


def _testable(value):
    """(testable, reason) from a catalogue cell: yes/no/true/false/1/0, or
    "no: reason", "no (reason)", or a bool."""
    if isinstance(value, bool):
        return value, ""
    text = str(value if value is not None else "").strip()
    low = text.lower()
    for yes in ("yes", "true", "y", "1", "testable"):
        if low == yes or low.startswith(yes + ":") or low.startswith(yes + " "):
            return True, ""
    if low == "":
        return True, ""
    m = re.match(r"^(no|false|n|0|untestable|not testable)\b[\s:;,(\-]*(.*?)\)?$", text,
                 re.I)
    if m:
        return False, m.group(2).strip()
    return False, text


def _field(row, name, default=None):
    if isinstance(row, dict):
        return row.get(name, default)
    return getattr(row, name, default)


def _to_rule(row):
    rid = _field(row, "id")
    if not rid:
        raise CatalogueError("a catalogue row has no id: %r" % (row,))
    testable_val = _field(row, "testable", True)
    testable, reason = _testable(testable_val)
    explicit_reason = _field(row, "untestable_reason") or _field(row, "reason")
    if not testable and explicit_reason:
        reason = str(explicit_reason)
    return Rule(str(rid).strip(), str(_field(row, "option", "") or "").strip(),
                _split(_field(row, "functions")), _sources(_field(row, "sources")),
                testable, reason, str(_field(row, "summary", "") or "").strip())


def read_tsv(path):
    """The catalogue TSV as a list of dicts (header id, option, functions,
    sources, testable, summary)."""
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = None
        for n, fields in enumerate(reader, 1):
            if not fields or (fields[0].startswith("#")):
                continue
            if header is None:
                header = [h.strip() for h in fields]
                if "id" not in header:
                    raise CatalogueError("%s:%d: the header has no 'id' column" % (path, n))
                continue
            if len(fields) > len(header):
                raise CatalogueError("%s:%d: %d fields, the header has %d" % (
                    path, n, len(fields), len(header)))
            rows.append(dict(zip(header, fields)))
    return rows


def _catalogue_module(repo_root):
    """harness/rules/catalogue.py of repo_root, or None if there is none."""
    path = os.path.join(repo_root, "harness", "rules", "catalogue.py")
    if not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location("posixtrace_catalogue", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("posixtrace_catalogue", mod)
    spec.loader.exec_module(mod)
    return mod


class Rulebook:
    """The catalogue's rules by id, in catalogue order."""

    def __init__(self, rules, origin, module=None):
        self.rules = {}
        self.origin = origin            # what they were read from
        self.module = module
        for r in rules:
            if r.id in self.rules:
                raise CatalogueError("rule %s appears twice in %s" % (r.id, origin))
            self.rules[r.id] = r

    def __contains__(self, rid):
        return rid in self.rules

    def get(self, rid):
        return self.rules.get(rid)

    def ids(self):
        return list(self.rules)

    def check_references(self, refs):
        """refs: {test id: [rule ids]}.  Returns a list of error lines."""
        errors = []
        for tid in sorted(refs):
            unknown = [r for r in refs[tid] if r not in self.rules]
            if unknown:
                errors.append("test %s names rule%s not in the catalogue: %s" % (
                    tid, "s" if len(unknown) > 1 else "", ", ".join(unknown)))
        check = getattr(self.module, "check_test_references", None) if self.module else None
        if check is not None and not errors:
            errors += _call_check(check, refs)
        return errors


def _call_check(check, refs):
    """Calls catalogue.check_test_references(refs); what it returns or raises
    becomes error lines (None, True, or an empty list mean no error)."""
    try:
        out = check(refs)
    except (ValueError, KeyError, LookupError) as e:
        return [str(e)]
    if out is None or out is True:
        return []
    if out is False:
        return ["catalogue.check_test_references rejected the tests' rule references"]
    if isinstance(out, str):
        return [out] if out.strip() else []
    if isinstance(out, dict):
        out = [("%s: %s" % (k, v)) for k, v in sorted(out.items()) if v]
    return [str(x) for x in out if x]


def load(repo_root, catalogue_path=None):
    """The Rulebook of repo_root (or of the TSV catalogue_path), or None if
    the project has no catalogue yet.  Raises CatalogueError if it is bad."""
    if catalogue_path:
        if not os.path.isfile(catalogue_path):
            raise CatalogueError("no catalogue at %s" % catalogue_path)
        return Rulebook([_to_rule(r) for r in read_tsv(catalogue_path)], catalogue_path)
    try:
        mod = _catalogue_module(repo_root)
    except Exception as e:          # its own bug: say so, then fall back to the TSV
        mod = None
        sys.stderr.write("warning: harness/rules/catalogue.py cannot be loaded (%s: %s); reading"
                         " conformance/catalogue.tsv directly\n" % (type(e).__name__, e))
    tsv = os.path.join(repo_root, "conformance", "catalogue.tsv")
    if mod is not None and hasattr(mod, "load_catalogue"):
        try:
            rows = mod.load_catalogue(repo_root)
        except Exception as e:
            raise CatalogueError("harness/rules/catalogue.py: load_catalogue failed: %s: %s" % (
                type(e).__name__, e))
        if isinstance(rows, dict):
            rows = [dict(v, id=k) if isinstance(v, dict) and "id" not in v else v
                    for k, v in rows.items()]
        return Rulebook([_to_rule(r) for r in rows], "harness/rules/catalogue.py", mod)
    if os.path.isfile(tsv):
        return Rulebook([_to_rule(r) for r in read_tsv(tsv)], "conformance/catalogue.tsv")
    return None
