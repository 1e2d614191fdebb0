#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs of the fuzz targets that read the project's own files
(fuzz/README.md): 'make fuzz-seed-corpora' writes them into a folder, then
minimises them into fuzz/corpus/NAME/ with libFuzzer's -merge=1.

  exporters    the decoder's traces and three POSIX logs of the log reader's
               corpus, behind the byte that chooses the output and options
               (fuzz_exporters.c): each format, ticks, delta, a filter
  vec_parser   the golden vectors (vectors/**/*.vec)
  kvec_parser  the kernel vectors (vectors/ksp/**/*.kvec) and tracedump's JSON
               documents of a few traces (kvecrun reads another decoder's)
  tool_args    command lines of tracedump and tracesim (fuzz_tool_args.c:
               byte 0 the tool, then NUL-separated arguments)

Usage: make_seeds.py OUT_DIR   (run from the top of the tree, after make)"""

import glob
import os
import subprocess
import sys

EXPORT_SELECTORS = [0, 1, 2, 3, 4, 8 | 16, 1 | 32 | 64, 0x80 | 2, 0x80 | 1 | 8, 0x48]

TRACEDUMP_LINES = [
    ["f.kev"], ["--json", "f.kev"], ["--summary", "--slots", "f.kev"],
    ["--ticks", "--delta", "--no-totals", "-"], ["--cpu", "0,1,63", "f"], ["--cpu", ","],
    ["--class", "USER,ker_call,int", "--event", "enter:11,BUFFER", "f"], ["--class", "NOPE", "f"],
    ["--pid", "4294967295", "f"], ["--pid", "-1", "f"], ["--from", "0.5", "--to", "1e3", "f"],
    ["--from", "nan", "f"], ["--ctf", "dir", "f"], ["--ctf", "", "f"], ["--chrome", "f"],
    ["--svg", "f"], ["--help"], ["--version"], ["-x"], ["a", "b"], [], ["--cpu"],
]
TRACESIM_LINES = [
    ["-o", "f.kev"], ["--cpus", "4", "--events", "1000000", "--seed", "7", "--mode", "linear",
                      "-o", "out.kev"],
    ["-c", "64", "-n", "0", "-s", "18446744073709551615", "-m", "ring", "-b", "4096", "-o", "-"],
    ["--logger-every", "700", "--logger-lanes", "2", "--logger-jitter", "80", "--wrap-early",
     "-o", "f"],
    ["--cycles-per-sec", "1", "--gap-ns", "1", "--syspage-len", "65536", "-o", "f"],
    ["--file-name", "x", "--date", "d", "--nodename", "n", "--verify", "-q", "-o", "f"],
    ["--verify", "-o", "-"], ["-c", "65", "-o", "f"], ["-b", "1", "-o", "f"], ["--mode", "x"],
    ["--help"], ["--version"], ["-n"], [],
]


def write(folder, name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def command_line(tool, args):
    return bytes([tool]) + b"\0".join(a.encode() for a in args)


def main():
    out = sys.argv[1]
    for sub in ("exporters", "vec_parser", "kvec_parser", "tool_args"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        for old in glob.glob(os.path.join(out, sub, "*")):
            os.remove(old)

    # Every format and option on the kernel traces; the formats alone on
    # three POSIX logs (the others are larger and add little).
    traces = [(p, EXPORT_SELECTORS) for p in sorted(glob.glob("fuzz/corpus/slot_decoder/*"))]
    traces += [("fuzz/corpus/log_reader/" + n, EXPORT_SELECTORS[:5])
               for n in ("empty.log", "big_data.log", "until_full.log")]
    for path, selectors in traces:
        data = open(path, "rb").read()
        if len(data) > 20000:          # the corpus stays small; the fuzzer grows them
            continue
        for sel in selectors:
            write(os.path.join(out, "exporters"), "%02x_%s" % (sel, os.path.basename(path)),
                  bytes([sel]) + data)

    for path in sorted(glob.glob("vectors/**/*.vec", recursive=True)):
        write(os.path.join(out, "vec_parser"), path.replace("/", "_"), open(path, "rb").read())

    kv = os.path.join(out, "kvec_parser")
    for path in sorted(glob.glob("vectors/ksp/**/*.kvec", recursive=True)):
        write(kv, path.replace("/", "_"), open(path, "rb").read())
    for name in ("handmade_le.kev", "cut_slot.kev", "bad_version.kev"):
        p = subprocess.run(["build/bin/tracedump", "--json", "fuzz/corpus/slot_decoder/" + name],
                           stdout=subprocess.PIPE, check=False)
        write(kv, name + ".json", p.stdout)

    ta = os.path.join(out, "tool_args")
    for i, args in enumerate(TRACEDUMP_LINES):
        write(ta, "tracedump_%02d" % i, command_line(0, args))
    for i, args in enumerate(TRACESIM_LINES):
        write(ta, "tracesim_%02d" % i, command_line(1, args))


if __name__ == "__main__":
    main()
