# SPDX-License-Identifier: MIT
"""triage.py -- the judgements of the random mutants that survive the suite
(harness/mutants/triage.tsv), read for harness/mutants/sample.py.

The file is tab-separated, one survivor a line, '#' lines are comments:

    key  verdict  where  mutation  reason

  key       the mutant's key (sites.py: file and a hash of its line; the
            line number is not part of it, so a judgement stays with its
            mutant when lines move)
  verdict   equivalent  no program can tell it from the reference (the same
                        behaviour by another road)
            invisible   different inside, the same through <trace.h>: a
                        speed path, unreachable defensive code, a different
                        but allowed choice, a cost only
            observable  a program using only <trace.h> sees it: the reason
                        is the API sequence that shows it
  where     file:line when it was judged (for the reader; not checked)
  mutation  what the mutant changes, as sample.py prints it
  reason    why (equivalent, invisible), or the API sequence (observable)
"""

import os

VERDICTS = ("equivalent", "invisible", "observable")
HARMLESS = ("equivalent", "invisible")


class TriageError(Exception):
    pass


class Judgement:
    __slots__ = ("key", "verdict", "where", "mutation", "reason")

    def __init__(self, key, verdict, where, mutation, reason):
        self.key, self.verdict, self.where = key, verdict, where
        self.mutation, self.reason = mutation, reason


class Book(dict):
    """key -> Judgement, with the file's path."""

    def __init__(self, path):
        super().__init__()
        self.path = path


def load(path):
    """The judgements of path (an empty book if it does not exist).  Raises
    TriageError on a malformed line, an unknown verdict, an empty reason or
    a key judged twice."""
    book = Book(path)
    if not os.path.exists(path):
        return book
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 5:
                raise TriageError("%s:%d: %d columns, expected 5 (key, verdict, where, "
                                  "mutation, reason)" % (path, n, len(cols)))
            key, verdict, where, mutation, reason = (c.strip() for c in cols)
            if verdict not in VERDICTS:
                raise TriageError("%s:%d: verdict %r is none of %s"
                                  % (path, n, verdict, ", ".join(VERDICTS)))
            if not reason:
                raise TriageError("%s:%d: %s has no reason" % (path, n, key))
            if key in book:
                raise TriageError("%s:%d: %s is judged twice" % (path, n, key))
            book[key] = Judgement(key, verdict, where, mutation, reason)
    return book
