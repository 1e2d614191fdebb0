# SPDX-License-Identifier: MIT
"""The options the implementation under test supports, from its headers'
macros, for a run without the implementation profile (harness/profile/profile.c did
not build against it): the preprocessor's view of _POSIX_TRACE,
_POSIX_TRACE_EVENT_FILTER, _POSIX_TRACE_INHERIT and _POSIX_TRACE_LOG in
<unistd.h> and <trace.h>, compiled as the tests are (CC and TRACE_CFLAGS of
config.mk).

XBD <unistd.h>: a macro of -1 means unsupported, greater than 0 supported,
0 or undefined "ask sysconf()" -- which only a compiled program can do; here
the tracing option itself (TRC, the suite's premise) is then taken as
supported and the others as not.
"""

import re
import shlex
import subprocess

from std_cflags import STD_CFLAGS

MACROS = (("TRC", "_POSIX_TRACE"), ("TEF", "_POSIX_TRACE_EVENT_FILTER"),
          ("TRI", "_POSIX_TRACE_INHERIT"), ("TRL", "_POSIX_TRACE_LOG"))

_DEFINE_RE = re.compile(r"^#define\s+(_POSIX_TRACE\w*)\s+\(?\s*(-?\s*\d+)L?\s*\)?\s*$", re.M)


def macros(conf, timeout=30.0):
    """{macro: integer value} of the option macros the headers define, or
    raises OSError/ValueError saying why they could not be read."""
    try:
        argv = (shlex.split(conf.get("CC") or "cc") +
                STD_CFLAGS +
                shlex.split(conf.get("TRACE_CFLAGS") or "") + ["-E", "-dM", "-x", "c", "-"])
    except ValueError as e:
        raise ValueError("config.mk's CC or TRACE_CFLAGS cannot be split: %s" % e)
    for includes in ("<unistd.h>", "<trace.h>"), ("<unistd.h>",):
        src = "".join("#include %s\n" % h for h in includes)
        try:
            p = subprocess.run(argv, input=src, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            raise OSError("the preprocessor timed out")
        if p.returncode == 0:
            return {m.group(1): int(m.group(2).replace(" ", ""))
                    for m in _DEFINE_RE.finditer(p.stdout)}
    raise OSError("the preprocessor failed on <unistd.h>: %s"
                  % (p.stderr.strip().splitlines() or ["?"])[0])


def options(conf):
    """({option: supported}, source) from the headers' macros; or None and
    why they could not be read."""
    try:
        values = macros(conf)
    except (OSError, ValueError) as e:
        return None, str(e)
    opts = {}
    for opt, macro in MACROS:
        v = values.get(macro)
        opts[opt] = v > 0 if v not in (None, 0) else opt == "TRC"
    shown = ", ".join("%s=%s" % (m, values[m]) if m in values else "%s undefined" % m
                      for _, m in MACROS)
    return opts, ("header macros (no profile: %s; 0 or undefined taken as supported for "
                  "TRC only)" % shown)
