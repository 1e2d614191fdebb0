"""The specification's text, for the reports: the shall-statements S0001...
(SHALL_STATEMENTS.tsv) and the kernel slot protocol rules KSP-1...

The specification lives in the shared folder beside the repository
(../shared/spec/posix from the repository root); the environment variable
POSIXTRACE_SPEC_DIR names another place: the folder holding
SHALL_STATEMENTS.tsv, or a folder above it (spec/ or shared/).
"""

import os
import re

SID_RE = re.compile(r"\bS\d{4}\b")
KSP_RE = re.compile(r"\bKSP-\d+\b")


def spec_dir(repo_root):
    """The folder of SHALL_STATEMENTS.tsv, or None if it cannot be found."""
    candidates = []
    env = os.environ.get("POSIXTRACE_SPEC_DIR")
    if env:
        candidates += [env, os.path.join(env, "posix"), os.path.join(env, "spec", "posix")]
    else:
        candidates.append(os.path.join(repo_root, os.pardir, "shared", "spec", "posix"))
    for c in candidates:
        if os.path.isfile(os.path.join(c, "SHALL_STATEMENTS.tsv")):
            return os.path.normpath(c)
    return None


def load_shall_statements(directory):
    """{"S0001": {"source": ..., "section": ..., "text": ...}} (empty if none)."""
    table = {}
    if not directory:
        return table
    path = os.path.join(directory, "SHALL_STATEMENTS.tsv")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                fields = line.rstrip("\n").split("\t")
                if n == 1 and fields and fields[0] == "id":
                    continue
                if len(fields) >= 4 and SID_RE.fullmatch(fields[0]):
                    table[fields[0]] = {"source": fields[1], "section": fields[2],
                                        "text": "\t".join(fields[3:]).strip()}
    except OSError:
        pass
    return table


def load_ksp_rules(directory):
    """{"KSP-1": text} from kernel-slot-protocol.md next to posix/ (empty if none)."""
    table = {}
    if not directory:
        return table
    path = os.path.join(directory, os.pardir, "kernel-slot-protocol.md")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return table
    current, text = None, []
    for line in lines + [""]:
        m = re.match(r"^\s*[-*]\s+(KSP-\d+)\.\s*(.*)$", line)
        if m or not line.strip() or re.match(r"^\s*[-*#]", line):
            if current:
                table[current] = " ".join(text).strip()
            current, text = (m.group(1), [m.group(2)]) if m else (None, [])
        elif current:
            text.append(line.strip())
    return table


class Spec:
    """Look-up of the spec text behind a rule's sources."""

    def __init__(self, repo_root):
        self.directory = spec_dir(repo_root)
        self.shall = load_shall_statements(self.directory)
        self.ksp = load_ksp_rules(self.directory)

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
                out.append({"id": i, "source": e["source"], "section": e["section"],
                            "text": e["text"]})
            elif i in self.ksp:
                out.append({"id": i, "source": "kernel-slot-protocol.md", "section": "",
                            "text": self.ksp[i]})
            else:
                out.append({"id": i, "source": None, "section": None, "text": None})
        return out
