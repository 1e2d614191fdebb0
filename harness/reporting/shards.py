# SPDX-License-Identifier: MIT
"""Running a part of the suite and putting parts together.

- shard(tests, k, n): the Kth of N shards of the selected tests: round robin
  over the tests sorted by id, so that every machine given the same source
  tree and selection cuts the same shards, and slow programs' tests spread
  over all shards.
- failed_ids(report): the tests a report says FAIL or are UNRESOLVED
  (run.py --rerun-failed).
- merge(shard docs, ...): the report document a single run of the whole
  selection would have written (the same results.build of the same tests'
  results); only the timing fields differ: "generated", the run's
  duration_s (the longest shard's) and each test's duration_ms as measured.
"""

import re

from reporting import report_paths
from reporting import results
from runner.protocol import Executable, TestCase


class ShardError(Exception):
    """Bad --shard, or shard reports that do not make one run."""


def parse(text):
    """'K/N' -> (K, N), 1 <= K <= N."""
    m = re.match(r"^\s*(\d+)\s*/\s*(\d+)\s*$", text or "")
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise ShardError("--shard %s: expected K/N with 1 <= K <= N (e.g. 2/3)" % text)
    return int(m.group(1)), int(m.group(2))


def shard(tests, k, n):
    """The tests of shard k of n (tests: objects with an id)."""
    ordered = sorted(tests, key=lambda t: t.id)
    return [t for i, t in enumerate(ordered) if i % n == k - 1]


def note(doc, k, n, partial, selection):
    """Marks doc as shard k of n of a run whose own selection was (partial,
    selection): its summary says it is a part, and merge() finds the whole."""
    doc["summary"]["shard"] = {"index": k, "count": n, "partial": partial,
                               "selection": selection}


def failed_ids(report_doc):
    return [t["id"] for t in report_doc["tests"] if t["result"] in ("FAIL", "UNRESOLVED")]


def _check(docs, paths):
    """The shard reports make exactly one run: same N, each K once, the same
    implementation and rules, no test twice."""
    infos = [d["summary"].get("shard") for d in docs]
    if len(docs) == 1 and infos[0] is None:
        return                          # one whole report: merged, it is itself
    missing = [p for p, i in zip(paths, infos) if i is None]
    if missing:
        raise ShardError("not a shard report (run.py --shard K/N writes them): %s"
                         % ", ".join(missing))
    n = infos[0]["count"]
    got = sorted(i["index"] for i in infos)
    if any(i["count"] != n for i in infos) or got != list(range(1, n + 1)):
        raise ShardError("the shard reports are %s: expected each of 1/%d .. %d/%d once"
                         % (", ".join("%d/%d" % (i["index"], i["count"]) for i in infos),
                            n, n, n))
    for d, p in zip(docs[1:], paths[1:]):
        if d["implementation"] != docs[0]["implementation"]:
            raise ShardError("%s and %s are runs of different implementations (or "
                             "configurations)" % (paths[0], p))
        if [r["id"] for r in d["rules"]] != [r["id"] for r in docs[0]["rules"]]:
            raise ShardError("%s and %s report different rules (not the same selection or "
                             "catalogue)" % (paths[0], p))
    seen = {}
    for d, p in zip(docs, paths):
        for t in d["tests"]:
            if t["id"] in seen:
                raise ShardError("test %s is in both %s and %s" % (t["id"], seen[t["id"]], p))
            seen[t["id"]] = p


def merge(docs, paths, book, spec, root):
    """The report document of the whole run of the shard reports docs (read
    from paths).  book: the rule catalogue (rulebook.Rulebook) the shards were
    run with, spec: the specification (spec.Spec), root: the source tree."""
    _check(docs, paths)
    first = docs[0]
    info = first["summary"].get("shard") or {"partial": first["summary"]["partial"],
                                             "selection": first["summary"]["selection"]}
    tests, runs = [], {}
    for d in docs:
        for t in d["tests"]:
            exe = Executable(t["executable"], name=t["executable"])
            tests.append(TestCase(t["id"], t["rules"], t["options"], t["functions"], exe, 0))
            runs[t["id"]] = t
    unknown = sorted({r["id"] for r in first["rules"]} - set(book.ids()))
    if unknown:
        raise ShardError("the shard reports name rules the catalogue (%s) does not have: %s"
                         % (book.origin, ", ".join(unknown[:10])))
    # The run's warnings, each once, in the order met; the specification's
    # problems are results.build's to add.
    problems = report_paths.relative(list(spec.problems), root)
    warnings = []
    for d in docs:
        for w in d["summary"].get("warnings", []):
            if w not in warnings and w not in problems:
                warnings.append(w)
    return results.build(
        implementation=first["implementation"], rules=book.rules,
        rule_order=[r["id"] for r in first["rules"]], tests=tests, test_results=runs,
        spec=spec, partial=info["partial"], selection=info["selection"],
        duration_s=max(d["summary"]["duration_s"] for d in docs),
        jobs=first["summary"]["jobs"], timeout=first["summary"]["timeout_s"],
        known_gaps={r["id"]: r["known_gap"] for r in first["rules"] if "known_gap" in r},
        warnings=warnings)
