# SPDX-License-Identifier: MIT
"""The man pages (man/manN/, installed by 'make install' under MANDIR; issue 18
item 1): each renders without a warning from groff (-ww) nor from mandoc's
lint; every installed command has its section 1 page; every function the
extension headers <posixtrace_sim.h> and <posixtrace_slot.h> declare (the
accessor macros of the latter included) has a section 3 page of its name,
which names it."""

import glob
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAN = os.path.join(ROOT, "man")
HEADERS = ("posixtrace_sim.h", "posixtrace_slot.h")


def pages():
    return sorted(p for p in glob.glob(os.path.join(MAN, "man[1-8]", "*.[1-8]"))
                  if not os.path.islink(p))


def links():
    return sorted(p for p in glob.glob(os.path.join(MAN, "man[1-8]", "*.[1-8]"))
                  if os.path.islink(p))


def rel(p):
    return os.path.relpath(p, MAN)


def declared_functions(header):
    """The functions a header declares, and its function-like macros."""
    with open(os.path.join(ROOT, "include", header), encoding="utf-8") as f:
        text = f.read()
    macros = re.findall(r"^#\s*define\s+(\w+)\(", text, re.M)
    code = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    code = re.sub(r"^\s*#.*$", " ", code, flags=re.M)
    protos = []
    for decl in code.split(";"):
        decl = " ".join(decl.split())
        if decl.startswith(("typedef", "static_assert", "_Static_assert")) or "{" in decl:
            decl = decl.rsplit("}", 1)[-1].strip()
        m = re.match(r"^(?:__POSIXTRACE_\w+ )*[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(", decl)
        if m and not decl.startswith(("typedef", "static_assert", "_Static_assert")):
            protos.append(m.group(1))
    return sorted(set(protos + macros))


def name_section(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^\.SH NAME\n(.*?)^\.SH", text, re.M | re.S)
    assert m, "%s: no NAME section" % rel(page)
    return re.sub(r"\\-", "-", m.group(1))


def test_there_are_pages():
    assert [rel(p) for p in pages()] == sorted(
        ["man1/posixtrace-conformance.1", "man1/tracedump.1", "man1/tracesim.1",
         "man3/posixtrace_sim.3", "man3/posixtrace_slot.3", "man7/posixtrace.7"])


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed (make deps)")
@pytest.mark.parametrize("page", pages(), ids=rel)
def test_groff_renders_without_warning(page):
    r = subprocess.run(["groff", "-ww", "-man", "-Tutf8", page], cwd=MAN,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert len(r.stdout.splitlines()) > 20


@pytest.mark.skipif(shutil.which("mandoc") is None, reason="mandoc is not installed (make deps)")
@pytest.mark.parametrize("page", pages() + links(), ids=rel)
def test_mandoc_lint_is_silent(page):
    r = subprocess.run(["mandoc", "-T", "lint", page], cwd=MAN,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.stdout == "" and r.returncode == 0, r.stdout


def test_links_point_to_a_page_of_their_folder():
    for link in links():
        target = os.readlink(link)
        assert "/" not in target and os.path.isfile(os.path.join(os.path.dirname(link), target)), \
            "%s -> %s" % (rel(link), target)


def test_every_command_has_a_section_1_page():
    tools = [os.path.basename(p)[:-2] for p in glob.glob(os.path.join(ROOT, "reference", "tools", "*.c"))]
    for cmd in tools + ["posixtrace-conformance"]:
        assert os.path.isfile(os.path.join(MAN, "man1", cmd + ".1")), "no man page for " + cmd


@pytest.mark.parametrize("header", HEADERS)
def test_every_function_of_the_extension_headers_has_a_page(header):
    funcs = declared_functions(header)
    assert funcs, "no function found in " + header
    missing, unnamed = [], []
    for fn in funcs:
        page = os.path.join(MAN, "man3", fn + ".3")
        if not os.path.exists(page):
            missing.append(fn)
        elif not re.search(r"(^|[\s,])%s([\s,]|$)" % re.escape(fn), name_section(page)):
            unnamed.append(fn)
    assert not missing, "%s: no man3 page for %s" % (header, ", ".join(missing))
    assert not unnamed, "%s: the page of %s does not name it" % (header, ", ".join(unnamed))


def test_the_parser_finds_the_known_declarations():
    assert "posixtrace_sim_now" in declared_functions("posixtrace_sim.h")
    assert len(declared_functions("posixtrace_sim.h")) == 8
    assert "_NTO_TRACE_GETCPU" in declared_functions("posixtrace_slot.h")
