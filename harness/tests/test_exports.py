# SPDX-License-Identifier: MIT
"""The shared library's one way in (issue 15, item 3): build/lib/libposixtrace.so
exports exactly the functions that the public headers (include/*.h, those
'make install' installs) declare, each under the version node of
include/libposixtrace.map, and no data but posix_trace_event's gate.

The exported symbols are read from the library's dynamic symbol table
(readelf, which reads an ELF file of any target); the declarations from the
public headers as the preprocessor gives them (only the lines of include/*.h,
not of the system headers they include).  An extra symbol (an internal
function left visible) or a missing one (a public function hidden, or left
out of the version script) fails, naming it.

The functions of an additional option of XBD <trace.h> (TEF, TRI, TRL,
tagged in the standard) must be exported when the header says the option is
supported (its _POSIX_TRACE_* macro > 0), and must not be when it says it is
not (-1): a library without an option does not offer its functions.  The
reference supports all three.
"""

import glob
import os
import re
import shlex
import subprocess

import pytest

from conftest import REPO

INCLUDE = os.path.join(REPO, "include")
LIB_SO = os.path.join(REPO, "build", "lib", "libposixtrace.so")
MAP = os.path.join(INCLUDE, "libposixtrace.map")
CC = shlex.split(os.environ.get("CC", "cc"))
CFLAGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I" + INCLUDE]

# XBD <trace.h>: the functions of each additional option (CATALOGUE.md
# section 2: TEF 8, TRI 2, TRL 9) and the macro that says it is supported.
OPTION_FUNCTIONS = {
    "_POSIX_TRACE_EVENT_FILTER": (     # TEF
        "posix_trace_eventset_add", "posix_trace_eventset_del", "posix_trace_eventset_empty",
        "posix_trace_eventset_fill", "posix_trace_eventset_ismember",
        "posix_trace_get_filter", "posix_trace_set_filter", "posix_trace_trid_eventid_open"),
    "_POSIX_TRACE_INHERIT": (          # TRI
        "posix_trace_attr_getinherited", "posix_trace_attr_setinherited"),
    "_POSIX_TRACE_LOG": (              # TRL
        "posix_trace_attr_getlogfullpolicy", "posix_trace_attr_getlogsize",
        "posix_trace_attr_setlogfullpolicy", "posix_trace_attr_setlogsize",
        "posix_trace_close", "posix_trace_create_withlog", "posix_trace_flush",
        "posix_trace_open", "posix_trace_rewind"),
}

pytestmark = pytest.mark.skipif(not os.path.exists(LIB_SO),
                                reason="build/lib/libposixtrace.so is not built ('make')")


def public_headers():
    """The installed headers: include/*.h (include/sys/types.h only adds the
    types of <posixtrace_types.h>)."""
    return sorted(os.path.basename(h) for h in glob.glob(os.path.join(INCLUDE, "*.h")))


def preprocess(extra=()):
    src = "".join("#include <%s>\n" % h for h in public_headers())
    p = subprocess.run(CC + CFLAGS + list(extra) + ["-E", "-x", "c", "-"], input=src,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, check=False)
    assert p.returncode == 0, "the public headers do not preprocess:\n" + p.stderr
    return p.stdout


def header_text(pp):
    """The preprocessed lines that come from include/*.h."""
    keep, out = False, []
    for line in pp.splitlines():
        m = re.match(r'#\s*\d+\s+"([^"]*)"', line)
        if m:
            keep = os.path.dirname(os.path.abspath(m.group(1))) == INCLUDE
        elif keep and not line.lstrip().startswith("#"):    # a #pragma
            out.append(line)
    return "\n".join(out)


def top_level_statements(text):
    """Declarations and definitions at file scope: split at ';' and at the
    closing brace of a function body."""
    stmts, cur, depth = [], [], 0
    for ch in text:
        cur.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                s = "".join(cur).strip()
                if not re.match(r"(typedef\s+)?(struct|union|enum)\b", s):
                    stmts.append(s)     # a function definition (static inline)
                    cur = []
        elif ch == ";" and depth == 0:
            stmts.append("".join(cur).strip())
            cur = []
    return [" ".join(s.split()) for s in stmts if s.strip()]


def declared(text):
    """{name: "function"|"data"} of the external functions and objects the
    public headers declare (static inline functions, types and
    static_asserts are not symbols)."""
    names = {}
    for s in top_level_statements(text):
        s = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", s)
        if re.match(r"(typedef|static|_Static_assert|enum)\b", s) or \
                re.match(r"(struct|union) \w+ ?;$", s) or "{" in s:
            continue
        m = re.match(r"extern\b[^(]*\(\s*\*\s*(\w+)\s*\)\s*\(", s)
        if m:                   # a pointer to a function: an object
            names[m.group(1)] = "data"
            continue
        m = re.match(r"[^(]*?\b(\w+)\s*\(", s)
        if m:
            names[m.group(1)] = "function"
            continue
        m = re.match(r"extern\b[^(]*?\b(\w+)\s*(\[[^]]*\])?\s*;$", s)
        assert m, "a declaration of a public header this test cannot read: " + s
        names[m.group(1)] = "data"
    return names


def option_macros():
    out = subprocess.run(CC + CFLAGS + ["-E", "-dM", "-x", "c", "-"],
                         input="#include <trace.h>\n", stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    vals = {}
    for name in OPTION_FUNCTIONS:
        m = re.search(r"^#define %s\s+\(?\s*(-?\d+)L?\s*\)?\s*$" % name, out, re.M)
        vals[name] = int(m.group(1)) if m else 0
    return vals


def version_node():
    text = re.sub(r"/\*.*?\*/", "", open(MAP).read(), flags=re.S)
    nodes = re.findall(r"^\s*(\w+)\s*\{", text, re.M)
    assert len(nodes) == 1, "include/libposixtrace.map: one version node expected, got %s" % nodes
    return nodes[0]


def exported(path):
    """{name: (type, version)} of the symbols the library defines in its
    dynamic symbol table."""
    out = subprocess.run(["readelf", "--dyn-syms", "--wide", path], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) < 8 or not f[0][:-1].isdigit() or f[6] == "UND" or f[4] == "LOCAL":
            continue
        name, _, version = f[7].partition("@")
        syms[name] = (f[3], version.lstrip("@"))
    return syms


def test_the_library_exports_exactly_the_public_headers_functions():
    decl = declared(header_text(preprocess()))
    syms = exported(LIB_SO)
    node = version_node()
    syms.pop(node, None)        # the version node's own (ABS) symbol
    assert "posix_trace_create" in decl and "posixtrace_sim_advance" in decl, \
        "the header reader found no declaration: %s" % sorted(decl)

    extra = sorted(n for n in syms if n not in decl)
    missing = sorted(n for n in decl if n not in syms)
    assert not extra, ("exported but declared in no public header (include/*.h): %s -- "
                       "make it hidden (declare it in an internal header) or public "
                       "(a public header and include/libposixtrace.map)" % ", ".join(extra))
    assert not missing, ("declared in a public header but not exported: %s -- add it to "
                         "include/libposixtrace.map, and define it" % ", ".join(missing))
    for name, (typ, version) in sorted(syms.items()):
        assert version == node, "%s is exported as version '%s', not %s" % (name, version, node)
        kind = "data" if typ in ("OBJECT", "TLS", "COMMON") else "function"
        assert kind == decl[name], "%s is exported as %s (%s) but declared as %s" % (
            name, kind, typ, decl[name])


# The one object of the interface: posix_trace_event's first test, inline in
# the caller (<trace.h>), reads it.  It ties programs to its size (copy
# relocations), so its layout is part of the version node; nothing else may.
GATE = "__posixtrace_gate"        # {pointer, unsigned int, pointer}: 3 pointers


def test_no_data_is_exported_but_the_gate():
    """The interface is functions and the gate: other data would tie
    programs to its size too (copy relocations)."""
    data = sorted(n for n, (t, _) in exported(LIB_SO).items()
                  if t in ("OBJECT", "TLS", "COMMON") and n != version_node())
    assert data == [GATE], "data symbols exported: %s (only %s may be)" % (
        ", ".join(data), GATE)


def test_the_gate_keeps_its_size():
    out = subprocess.run(["readelf", "--dyn-syms", "--wide", LIB_SO], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    sizes = [int(f[2], 0) for f in (line.split() for line in out.splitlines())
             if len(f) >= 8 and f[7].partition("@")[0] == GATE]
    ptr = 8 if "64" in subprocess.run(["readelf", "-h", LIB_SO], stdout=subprocess.PIPE,
                                      universal_newlines=True, check=True).stdout.split(
                                          "Class:")[1].split()[0] else 4
    assert sizes == [3 * ptr], "%s is %s bytes, its layout fixes %d" % (GATE, sizes, 3 * ptr)


def test_an_options_functions_are_exported_when_the_header_supports_it():
    syms = exported(LIB_SO)
    for macro, value in sorted(option_macros().items()):
        for name in OPTION_FUNCTIONS[macro]:
            if value > 0:
                assert name in syms, "%s is %d (supported), but %s is not exported" % (
                    macro, value, name)
            elif value == -1:
                assert name not in syms, "%s is -1 (not supported), but %s is exported" % (
                    macro, name)


def test_the_header_reader_finds_what_it_should():
    """The reader itself: functions, data, and what is neither."""
    text = """
int f(int a, void (*cb)(void *));
void *g(void);
extern const struct s d;
extern int arr[4];
typedef int (*fp)(int);
struct t { int (*m)(void); };
static inline int h(int x) { return x + 1; }
enum e { A, B };
struct s;
extern void (*hook)(int);
"""
    assert declared(text) == {"f": "function", "g": "function", "d": "data",
                              "arr": "data", "hook": "data"}


def config_cc():
    """The compiler of config.mk (a cross build's too), else $CC or cc."""
    try:
        with open(os.path.join(REPO, "config.mk")) as f:
            for line in f:
                m = re.match(r"CC\s*=\s*(.+)$", line)
                if m:
                    return shlex.split(m.group(1))
    except OSError:
        pass
    return CC


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.parametrize("program", ["tracedump", "tracesim", "kvecrun"])
def test_the_tools_need_nothing_but_the_public_headers_and_the_shared_library(tmp_path, program):
    """The tools and the kernel vector runner are users of the library: each
    compiles against include/ alone (no -Ireference) and links with the shared
    library, so what they use is public and exported."""
    if program == "kvecrun":
        srcs = sorted(glob.glob(os.path.join(REPO, "harness", "kvec", "*.c"))) + \
            sorted(glob.glob(os.path.join(REPO, "harness", "common", "*.c")))
    else:
        srcs = [os.path.join(REPO, "reference", "tools", program + ".c")]
    p = subprocess.run(config_cc() + CFLAGS + [
        "-D_FILE_OFFSET_BITS=64", "-I" + os.path.join(REPO, "harness"), "-Wall", "-Wextra",
        "-Werror", "-o", str(tmp_path / program)] + srcs + [
        "-L" + os.path.dirname(LIB_SO), "-lposixtrace", "-pthread"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, check=False)
    assert p.returncode == 0, "%s does not build on the public interface alone:\n%s" % (
        program, p.stdout[-3000:])
