#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The specification the harness checks against: the one place that finds and reads it.

What the repository carries (spec/, see spec/README.md):
    spec/posix/SHALL_STATEMENTS.tsv   the "shall" sentences S0001... (id, source, section, text)
    spec/kernel-slot-protocol.md      the project's kernel slot protocol, rules KSP-n
    spec/posix/pages.txt, functions.txt, errors.tsv
                                      small facts taken from the full pages (DERIVED below):
                                      the page stems, the posix_trace_* functions of <trace.h>,
                                      the [Exxx] codes of each function page's ERRORS section

The full specification pages (posix/issue7-2016/*.txt) are not in the repository.  The
environment variable POSIXTRACE_SPEC_DIR names a folder that has them: the folder holding
SHALL_STATEMENTS.tsv and issue7-2016/, or a folder above it (X/posix or X/spec/posix).  The
pages are then read instead of the derived files, and a SHALL_STATEMENTS.tsv or
kernel-slot-protocol.md found there replaces the repository's copy.

    /usr/bin/python3 harness/rules/spec.py where     which files are used
    /usr/bin/python3 harness/rules/spec.py derive    rewrite the derived files from the full pages
                                               (needs POSIXTRACE_SPEC_DIR)
Standard library only.
"""

import os
import re
import sys
from collections import namedtuple

ENV = "POSIXTRACE_SPEC_DIR"
IN_REPO = "spec"                       # relative to the repository root
STATEMENTS = "SHALL_STATEMENTS.tsv"    # in a posix folder
PAGES = "issue7-2016"                  # in a posix folder
KSP_FILE = "kernel-slot-protocol.md"   # beside a posix folder
TRACE_H_PAGE = "xbd_trace.h"
# The derived files, in the repository's spec/posix.
DERIVED_STEMS, DERIVED_FUNCTIONS, DERIVED_ERRORS = "pages.txt", "functions.txt", "errors.tsv"

SID_RE = re.compile(r"\bS\d{4}\b")
KSP_RE = re.compile(r"\bKSP-\d+\b")

Statement = namedtuple("Statement", "source section text")


class SpecError(Exception):
    """The specification cannot be found or read; the message names the paths tried."""


def repo_spec_dir(repo_root):
    return os.path.join(os.path.abspath(repo_root), IN_REPO)  # abspath: also normalises


def _env_posix_dir(env):
    """The folder named by POSIXTRACE_SPEC_DIR that holds SHALL_STATEMENTS.tsv or the pages."""
    tried = [env, os.path.join(env, "posix"), os.path.join(env, "spec", "posix")]
    for d in tried:
        if os.path.isfile(os.path.join(d, STATEMENTS)) or os.path.isdir(os.path.join(d, PAGES)):
            return os.path.normpath(d)
    raise SpecError("%s=%s: none of %s holds %s or %s/" % (
        ENV, env, ", ".join(os.path.normpath(d) for d in tried), STATEMENTS, PAGES))


class Files:
    """Where each part of the specification is read from (absolute paths; pages None when
    the full pages are not there)."""

    def __init__(self, repo_root, env=None):
        env = os.environ.get(ENV) if env is None else env
        repo = repo_spec_dir(repo_root)
        self.statements = os.path.join(repo, "posix", STATEMENTS)
        self.ksp = os.path.join(repo, KSP_FILE)
        self.derived = os.path.join(repo, "posix")
        self.pages = None
        self.env = env or None
        if env:
            posix = _env_posix_dir(env)
            for attr, path in (("statements", os.path.join(posix, STATEMENTS)),
                               ("ksp", os.path.join(os.path.dirname(posix), KSP_FILE)),
                               ("pages", os.path.join(posix, PAGES))):
                if os.path.exists(path):
                    setattr(self, attr, path)


def read_statements(path):
    """{"S0001": Statement(source, section, text)} from SHALL_STATEMENTS.tsv."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise SpecError("%s: cannot read the shall sentences (%s); %s names another "
                        "folder" % (path, e.strerror, ENV)) from None
    table = {}
    for line in lines:
        fields = line.split("\t")
        if len(fields) >= 2 and SID_RE.fullmatch(fields[0]):
            table[fields[0]] = Statement(fields[1], fields[2] if len(fields) > 2 else "",
                                         "\t".join(fields[3:]).strip())
    return table


def read_ksp(path):
    """({"KSP-1": text}, {1: "1"}): each rule's text and the § number it is under.
    Empty when the file is missing."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}, {}
    texts, sections = {}, {}
    section, current, text = None, None, []
    for line in lines + [""]:
        h = re.match(r"^## ([0-9]+)\.", line)
        if h:
            section = h.group(1)
        m = re.match(r"^\s*[-*]\s+(KSP-(\d+))\.\s*(.*)$", line)
        if m or not line.strip() or re.match(r"^\s*[-*#]", line):
            if current:
                texts[current] = " ".join(text).strip()
            current, text = (m.group(1), [m.group(3)]) if m else (None, [])
            if m:
                sections[int(m.group(2))] = section
        elif current:
            text.append(line.strip())
    return texts, sections


# ---- facts taken from the full pages, or from the files derived from them -------------------

def facts_from_pages(pages):
    """(stems, functions, errors) read from the full pages: the stems of issue7-2016/*.txt, the
    posix_trace_* functions declared in <trace.h>, and {page stem: [Exxx codes]} of the ERRORS
    section of each xsh_posix_trace_* page."""
    names = sorted(n for n in os.listdir(pages) if n.endswith(".txt"))
    stems = [n[:-4] for n in names]
    functions = set()
    errors = {}
    for n in names:
        with open(os.path.join(pages, n), encoding="utf-8") as f:
            text = f.read()
        if n[:-4] == TRACE_H_PAGE:
            functions = set(re.findall(r"\b(posix_trace_\w+)\(", text))
        if n.startswith("xsh_posix_trace_") and "\nERRORS\n" in text:
            part = text.split("\nERRORS\n", 1)[1].split("The following sections are informative")[0]
            errors[n[:-4]] = sorted(set(re.findall(r"\[(E[A-Z]+)\]", part)))
    return set(stems), functions, errors


def _lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [l for l in f.read().splitlines() if l.strip() and not l.startswith("#")]
    except OSError as e:
        raise SpecError("%s: cannot read (%s); 'harness/rules/spec.py derive' writes it from the full "
                        "pages" % (path, e.strerror)) from None


def facts_from_derived(folder):
    """(stems, functions, errors) from the derived files in folder (spec/posix)."""
    stems = set(_lines(os.path.join(folder, DERIVED_STEMS)))
    functions = set(_lines(os.path.join(folder, DERIVED_FUNCTIONS)))
    errors = {}
    for line in _lines(os.path.join(folder, DERIVED_ERRORS)):
        page, _, codes = line.partition("\t")
        errors[page] = codes.split()
    return stems, functions, errors


def write_derived(pages, folder):
    """Writes the derived files into folder from the full pages; returns their paths."""
    stems, functions, errors = facts_from_pages(pages)
    head = "# derived from the full specification pages by 'harness/rules/spec.py derive'; do not edit\n"
    out = {DERIVED_STEMS: "".join(s + "\n" for s in sorted(stems)),
           DERIVED_FUNCTIONS: "".join(f + "\n" for f in sorted(functions)),
           DERIVED_ERRORS: "".join("%s\t%s\n" % (p, " ".join(errors[p])) for p in sorted(errors))}
    paths = []
    for name, body in out.items():
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(head + body)
        paths.append(path)
    return paths


# ---- the specification as the harness uses it --------------------------------------------

class Spec:
    """The shall sentences, the KSP rules and the facts of the pages.

    Spec(root) raises SpecError when the sentences cannot be read; Spec.tolerant(root) never
    raises (for the reports) and says what went wrong in .problems."""

    def __init__(self, repo_root, env=None):
        self.files = Files(repo_root, env)
        self.shall = read_statements(self.files.statements)
        self.ksp, self.ksp_sections = read_ksp(self.files.ksp)
        self.problems = []
        self._facts = None

    def _fact(self, n):
        """The facts of the pages, read when first asked for (only the catalogue check needs
        them): from the full pages when they are there, else from the derived files."""
        if self._facts is None:
            f = self.files
            self._facts = facts_from_pages(f.pages) if f.pages else facts_from_derived(f.derived)
        return self._facts[n]

    stems = property(lambda self: self._fact(0), doc="the stems of the pages (set)")
    functions = property(lambda self: self._fact(1), doc="the posix_trace_* of <trace.h> (set)")
    errors = property(lambda self: self._fact(2), doc="{page stem: [Exxx] of its ERRORS}")

    @classmethod
    def tolerant(cls, repo_root):
        """A Spec that never raises: the environment's folder if it can be used, else the
        repository's, else an empty one; .problems says which failed and why."""
        problems = []
        for env in (None, ""):                      # "" : ignore POSIXTRACE_SPEC_DIR
            try:
                spec = cls(repo_root, env)
                spec.problems = problems
                return spec
            except SpecError as e:
                problems.append(str(e))
        spec = cls.__new__(cls)
        spec.files = None
        spec.shall, spec.ksp, spec.ksp_sections = {}, {}, {}
        spec._facts = (set(), set(), {})
        spec.problems = problems
        return spec

    @property
    def directory(self):
        """The folder of the shall sentences used (None if none)."""
        return os.path.dirname(self.files.statements) if self.files else None

    def describe(self):
        """What the reports say about the specification used."""
        f = self.files
        return {"statements": f.statements if f else None, "sentences": len(self.shall),
                "kernel_slot_protocol": f.ksp if f else None, "ksp_rules": len(self.ksp),
                "full_pages": f.pages if f else None}

    def source_ids(self, sources):
        """The S-IDs and KSP ids named in a rule's sources (a list of strings)."""
        ids = []
        for s in sources:
            for m in SID_RE.findall(s) + KSP_RE.findall(s):
                if m not in ids:
                    ids.append(m)
        return ids

    def text_of(self, sources):
        """[{"id", "source", "section", "text"}] for the ids in sources; an id
        whose text is not known comes with text null."""
        out = []
        for i in self.source_ids(sources):
            if i in self.shall:
                e = self.shall[i]
                out.append({"id": i, "source": e.source, "section": e.section, "text": e.text})
            elif i in self.ksp:
                out.append({"id": i, "source": KSP_FILE, "section": "", "text": self.ksp[i]})
            else:
                out.append({"id": i, "source": None, "section": None, "text": None})
        return out


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        if argv == ["where"]:
            spec = Spec(root)
            for k, v in spec.describe().items():
                print("%-20s %s" % (k, "(not there; set %s)" % ENV if v is None else v))
            return 0
        if argv == ["derive"]:
            files = Files(root)
            if not files.pages:
                print("derive: no full pages: set %s to a folder holding posix/%s/"
                      % (ENV, PAGES), file=sys.stderr)
                return 1
            for p in write_derived(files.pages, files.derived):
                print("wrote %s" % os.path.relpath(p, root))
            return 0
    except SpecError as e:
        print(e, file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
