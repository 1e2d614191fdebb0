#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bless.py -- regenerate the exact expectations of the golden vectors from the reference.

Each vector is run by the reference build of the interpreter
(build/harness/vecrun --bless FILE), which prints the vector with the value of
every "@key value" annotation replaced by what the reference gave ("@key ?"
is filled in; a value that still matches keeps its spelling).  This script
shows the differences as a unified diff, and writes them back only with
--write.  Portable expectations and "exact:" steps are never rewritten: a
vector whose portable checks fail is reported, not blessed.

    harness/tools/bless.py [--vecrun PATH] [--dir vectors] [--write | --check] [FILE...]

Exit status: 0 done (or, with --check, nothing to change); 1 some file would
change (--check) or could not be blessed; 2 usage error.
"""

import argparse
import difflib
import os
import subprocess
import sys


def vector_files(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".vec"):
                out.append(os.path.join(dirpath, name))
    return sorted(out)


def bless_one(vecrun, path, timeout):
    """The blessed text of path, or raises RuntimeError with the reason."""
    try:
        proc = subprocess.run([vecrun, "--bless", path], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("%s: vecrun --bless did not finish within %g s" % (path, timeout))
    if proc.returncode in (3, 4):           # UNSUPPORTED, UNTESTED: nothing ran
        return None
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError("%s: not blessed: %s" % (path, why[-1] if why else
                                                      "vecrun exited %d" % proc.returncode))
    return proc.stdout.decode("utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vecrun", default="build/harness/vecrun",
                    help="the interpreter built against the reference")
    ap.add_argument("--dir", default="vectors", help="the vectors folder")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the blessed files back")
    mode.add_argument("--check", action="store_true",
                      help="change nothing; exit 1 if some file would change")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("files", nargs="*", help="vectors (default: every .vec under --dir)")
    args = ap.parse_args(argv)

    if not os.access(args.vecrun, os.X_OK):
        print("bless: %s not found: build it with 'make vecrun' (reference build)" % args.vecrun,
              file=sys.stderr)
        return 2
    files = args.files or vector_files(args.dir)
    if not files:
        print("bless: no vectors under %s" % args.dir, file=sys.stderr)
        return 2

    changed, errors, skipped = [], [], []
    for path in files:
        try:
            new = bless_one(args.vecrun, path, args.timeout)
        except RuntimeError as e:
            errors.append(str(e))
            continue
        if new is None:
            skipped.append(path)
            continue
        with open(path, encoding="utf-8") as f:
            old = f.read()
        if new == old:
            continue
        changed.append(path)
        if args.write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
        else:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), path, path + " (blessed)"))

    for e in errors:
        print("bless: " + e, file=sys.stderr)
    verb = "written" if args.write else "would change"
    print("bless: %d vectors, %d %s, %d not blessed, %d not run by the reference "
          "(UNSUPPORTED or UNTESTED)" % (len(files), len(changed), verb, len(errors),
                                         len(skipped)), file=sys.stderr)
    if errors:
        return 1
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:             # the diff was piped into head or a pager
        sys.exit(1)
