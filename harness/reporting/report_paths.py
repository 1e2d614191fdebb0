# SPDX-License-Identifier: MIT
"""Paths in the reports are relative to the source tree.

A report is read on other machines (a CI artifact, a ticket): the absolute
paths of the machine that ran it (/home/ci/build-42/posixtrace/...) mean
nothing there and differ from run to run.  run.py passes the report document
through relative() once, before any report is written, so that the JSON, the
JUnit, the text and the HTML reports all show ROOT/x/y as x/y and ROOT
itself as ".".
"""

import os
import re


def _pattern(root):
    root = os.path.abspath(root).rstrip("/")
    # ROOT followed by "/" (ROOT/x -> x), or ROOT alone, not the start of a
    # longer name (ROOT2/x stays).
    return re.compile(re.escape(root) + r"(?:/|(?![\w-]|\.[\w-]))")


def relative(doc, root):
    """doc (a report document: dicts, lists, strings) with every ROOT/x in its
    strings written x, and ROOT alone written "."."""
    pat = _pattern(root)

    def fix(s):
        return pat.sub(lambda m: "" if m.group(0).endswith("/") else ".", s)

    def walk(v):
        if isinstance(v, str):
            return fix(v)
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    return walk(doc)
