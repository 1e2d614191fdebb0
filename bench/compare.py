#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make bench-compare: the reference and LTTng-UST side by side (issue 19 item 5).

The same workloads, in the same run, on the same machine: the reference's
side is build/bench/bench_compare (reference/bench/bench_compare.c), LTTng-UST's
is bench/lttng/bench_lttng.c, built here against Debian's liblttng-ust-dev, with
one session of lttng(1) (a user-space channel of 8 x 1 MiB sub-buffers, discard
mode) and an lttng-sessiond of its own in a temporary LTTNG_HOME.  Runs of the
two tracers alternate (which goes first alternates too), and each figure is the
median of --runs runs.  Prints the ratio table of issue 19, writes --json
(reports/bench.json) and --svg (reports/bench.svg: ns per event against the
number of threads, hand-written SVG).

Without LTTng-UST (its header, lttng, lttng-sessiond) or babeltrace2 it says how
to get them ('make bench-deps') and exits 0.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
LTTNG_SRC = os.path.join(HERE, "lttng")
STD_CFLAGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L"]       # mk/std.mk
SUBBUF, NUM_SUBBUF = "1M", 8


def missing_tools(cc):
    need = {"lttng": "lttng-tools", "lttng-sessiond": "lttng-tools", "babeltrace2": "babeltrace2"}
    miss = sorted({pkg for tool, pkg in need.items() if not shutil.which(tool)})
    # The header, wherever the compiler finds it (Debian: a multiarch folder).
    try:
        found = subprocess.run([cc, "-E", "-x", "c", "-"], input="#include <lttng/tracepoint.h>\n",
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               universal_newlines=True).returncode == 0
    except OSError:                               # no compiler: no way to build the provider
        found = False
    if not found:
        miss.insert(0, "liblttng-ust-dev")
    return miss


def build_lttng_bench(cc, out):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    argv = [cc, *STD_CFLAGS, "-O2", "-Wall", "-Wextra", "-pthread", "-I" + LTTNG_SRC, "-o", out,
            os.path.join(LTTNG_SRC, "bench_lttng.c"), os.path.join(LTTNG_SRC, "bench_tp.c"),
            "-llttng-ust", "-ldl"]
    subprocess.run(argv, check=True)
    return out


def figure(argv, env=None):
    """Runs one workload; its lines 'CASE VALUE UNIT [VALUE UNIT]' as {CASE: VALUE}."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, universal_newlines=True, env=env, check=True)
    out = {}
    for line in p.stdout.splitlines():
        f = line.split()
        out[f[0]] = float(f[1])
        if len(f) >= 5:                           # threadsN RATE events/s NS ns
            out[f[0] + "-ns"] = float(f[3])
    return out


class Lttng:
    """An lttng-sessiond of our own (in a temporary LTTNG_HOME) and lttng(1) commands."""

    def __init__(self, home):
        self.home = home
        os.makedirs(home, exist_ok=True)
        self.env = dict(os.environ, LTTNG_HOME=home, LTTNG_UST_REGISTER_TIMEOUT="-1")
        self.daemon = subprocess.Popen(["lttng-sessiond", "--no-kernel"], env=self.env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):                      # ready when lttng can list its sessions
            if subprocess.run(["lttng", "list"], env=self.env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                return
            time.sleep(0.1)
        self.close()
        raise RuntimeError("lttng-sessiond did not start")

    def __call__(self, *args):
        subprocess.run(["lttng", *args], env=self.env, check=True, stdout=subprocess.DEVNULL)

    def session(self, name, output):
        self("create", name, "--output=" + output)
        self("enable-channel", "-u", "-s", name, "ch", "--subbuf-size=" + SUBBUF,
             "--num-subbuf=%d" % NUM_SUBBUF)
        self("enable-event", "-u", "-s", name, "-c", "ch", "bench:ev8")
        self("start", name)

    def close(self):
        self.daemon.terminate()
        try:
            self.daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.daemon.kill()
            self.daemon.wait()


def babeltrace_events(trace):
    """The events in an LTTng trace (babeltrace2's counter sink) and the time a
    read of it with a dummy sink takes."""
    p = subprocess.run(["babeltrace2", trace, "-c", "sink.utils.counter"], check=True,
                       stdout=subprocess.PIPE, universal_newlines=True)
    events = discarded = 0
    for line in p.stdout.splitlines():
        f = line.split()
        if f[1:3] == ["Event", "messages"]:
            events = int(f[0])
        if f[1:4] == ["Discarded", "event", "messages"]:
            discarded = int(f[0])
    t0 = time.monotonic()
    subprocess.run(["babeltrace2", trace, "-c", "sink.utils.dummy"], check=True)
    return events, discarded, time.monotonic() - t0


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def median_of(samples):
    return statistics.median(samples) if samples else None


def measure(args, ref, lt, work):
    """Every case, --runs runs each, the tracers alternating: {case: {tracer: [samples]}}."""
    s = {}

    def add(case, tracer, value):
        s.setdefault(case, {}).setdefault(tracer, []).append(value)

    def alternate(i, ref_fn, lt_fn):
        for fn in ((ref_fn, lt_fn) if i % 2 == 0 else (lt_fn, ref_fn)):
            fn()

    n = str(args.events)
    env = lt.env

    def settled():
        """After an LTTng-UST run its consumer daemon still writes the
        sub-buffers out: 'lttng stop' waits for that, so that the next run,
        either tracer's, has the two cores to itself."""
        lt("stop", "rec")
        lt("start", "rec")

    # 1. Recording, the event enabled in a running session.
    lt.session("rec", os.path.join(work, "rec"))
    for i in range(args.runs):
        alternate(i, lambda: (add("record-sim", "reference", figure([ref, "record-sim", n])["record-sim"]),
                              add("record-real", "reference", figure([ref, "record-real", n])["record-real"])),
                  lambda: (add("record", "lttng", figure([args.lttng_bin, "record", n], env)["record"]),
                           settled()))
        for t in args.threads:
            def one(tracer, argv, e=None, t=t):
                f = figure(argv + ["threads", str(t), n], e)
                add("threads%d" % t, tracer, f["threads%d" % t])
                if tracer == "lttng":
                    settled()
            alternate(i, lambda: one("reference", [ref]), lambda: one("lttng", [args.lttng_bin], env))
    # 2. The event not enabled (the reference: filtered out by the stream).
    lt("disable-event", "-u", "-s", "rec", "-c", "ch", "bench:ev8")
    for i in range(args.runs):
        alternate(i, lambda: add("filtered", "reference", figure([ref, "filtered", n])["filtered"]),
                  lambda: add("filtered", "lttng", figure([args.lttng_bin, "record", n], env)["record"]))
    lt("destroy", "rec")
    # 3. No session (the reference: no stream in the process).
    for i in range(args.runs):
        alternate(i, lambda: add("nostream", "reference", figure([ref, "nostream", n])["nostream"]),
                  lambda: add("nostream", "lttng", figure([args.lttng_bin, "record", n], env)["record"]))
    # 4. A log: --flush-events at full speed; what reaches it, its size, the read back.
    fe = str(args.flush_events)
    for i in range(args.log_runs):
        # Each log run starts with no dirty pages behind it (the last run's
        # hundreds of MB being written back would slow this one's writes).
        def ref_log():
            os.sync()
            f = figure([ref, "log", fe, work])
            add("log-kept", "reference", f["log-kept"])
            add("log-bytes", "reference", f["log-bytes-per-event"])
            add("readback", "reference", f["readback"])

        def lt_log(i=i):
            out = os.path.join(work, "log%d" % i)
            os.sync()
            lt.session("log%d" % i, out)
            figure([args.lttng_bin, "burst", fe], env)
            lt("stop", "log%d" % i)
            lt("destroy", "log%d" % i)
            events, discarded, secs = babeltrace_events(out)
            add("log-kept", "lttng", events / args.flush_events)
            add("log-bytes", "lttng", dir_bytes(out) / max(events, 1))
            add("readback", "lttng", events / max(secs, 1e-9))
            add("log-discarded", "lttng", discarded)
            shutil.rmtree(out, ignore_errors=True)
        alternate(i, ref_log, lt_log)
    return s


# The table of issue 19: (label, reference case, LTTng case, unit, lower is better, LTTng's note)
ROWS = [
    ("record 8 bytes, 1 thread, simulated clock", "record-sim", "record", "ns", True, ""),
    ("same, real clock", "record-real", "record", "ns", True, ""),
    ("filtered-out event", "filtered", "filtered", "ns", True, "event not enabled"),
    ("process with no stream", "nostream", "nostream", "ns", True, "no session"),
    ("bytes on disk per 8-byte event", "log-bytes", "log-bytes", "B", True, ""),
    ("FLUSH stream of 1 MiB, N events at full speed: events that reach the log",
     "log-kept", "log-kept", "%", False, ""),
    ("read back: posix_trace_getnext_event vs babeltrace2 (dummy sink)",
     "readback", "readback", "M/s", False, ""),
]


def fmt(v, unit):
    if v is None:
        return "-"
    if unit == "%":
        return "%.0f%%" % (100 * v)
    if unit == "M/s":
        return "%.2f M/s" % (v / 1e6)
    if unit == "M":
        return "%.2f M" % (v / 1e6)
    return "%.1f %s" % (v, unit)


def ratio_text(ref, lt, lower_better, unit):
    if not ref or not lt:
        return "-", None
    if unit == "%":
        return "-", ref / lt
    r = ref / lt
    if unit == "B":
        return ("%.1f× larger" % r if r >= 1 else "%.1f× smaller" % (1 / r)), r
    faster = lt / ref if lower_better else ref / lt
    return ("%.1f× faster" % faster if faster >= 1 else "%.1f× slower" % (1 / faster)), r


def summarise(samples, args):
    med = {case: {tr: median_of(v) for tr, v in by.items()} for case, by in samples.items()}
    rows = []
    for label, rc, lc, unit, lower, note in ROWS:
        r = med.get(rc, {}).get("reference")
        lv = med.get(lc, {}).get("lttng")
        text, ratio = ratio_text(r, lv, lower, unit)
        rows.append({"case": label, "reference_case": rc, "lttng_case": lc, "unit": unit,
                     "reference": r, "lttng": lv, "ratio": ratio, "ratio_text": text,
                     "lttng_note": note})
    # Threads: total events/s, the row of the issue for 2 threads, and ns per event.
    threads = []
    for t in args.threads:
        r = med.get("threads%d" % t, {}).get("reference")
        lv = med.get("threads%d" % t, {}).get("lttng")
        threads.append({"threads": t, "reference_events_per_s": r, "lttng_events_per_s": lv,
                        "reference_ns_per_event": 1e9 / r if r else None,
                        "lttng_ns_per_event": 1e9 / lv if lv else None})
    return med, rows, threads


def print_table(rows, threads, args):
    lines = ["| case | reference | LTTng-UST | ratio |", "|---|---|---|---|"]
    by_t = {t["threads"]: t for t in threads}
    for row in rows:
        label = row["case"].replace(" N ", " %s " % human(args.flush_events))
        lt = fmt(row["lttng"], row["unit"]) + (" (%s)" % row["lttng_note"] if row["lttng_note"] else "")
        lines.append("| %s | %s | %s | %s |" % (label, fmt(row["reference"], row["unit"]), lt,
                                                row["ratio_text"]))
        if row["reference_case"] == "record-real" and 2 in by_t and 1 in by_t:
            t1, t2 = by_t[1], by_t[2]
            r = (t2["reference_events_per_s"] or 0) / (t2["lttng_events_per_s"] or 1)
            lines.append("| 2 threads on 2 cores, one stream: total events/s | %s (1 thread: %s) | "
                         "%s (1 thread: %s) | %.2f× |" % (
                             fmt(t2["reference_events_per_s"], "M"), fmt(t1["reference_events_per_s"], "M"),
                             fmt(t2["lttng_events_per_s"], "M"), fmt(t1["lttng_events_per_s"], "M"), r))
    return "\n".join(lines)


def human(n):
    return "%d M" % (n // 1000000) if n % 1000000 == 0 else str(n)


def svg(threads, path):
    """ns per event (wall time / events in all) against the number of threads, both tracers."""
    W, H, L, B, T, R = 520, 340, 70, 50, 40, 130
    pts = {"reference": [], "lttng": []}
    for t in threads:
        for tr in pts:
            v = t[tr + "_ns_per_event"]
            if v:
                pts[tr].append((t["threads"], v))
    ymax = max([v for p in pts.values() for _, v in p] + [1.0]) * 1.15
    xs = [t["threads"] for t in threads] or [1]
    xmin, xmax = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1

    def X(x):
        return L + (x - xmin) / (xmax - xmin) * (W - L - R)

    def Y(y):
        return H - B - y / ymax * (H - B - T)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="12">' % (W, H, W, H),
           '<title>ns per event against threads: reference and LTTng-UST</title>',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="14">ns per event (wall time / events, all threads)</text>' % L,
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, L, T)]
    for x in xs:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (X(x), H - B + 18, x))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">threads</text>' % ((L + W - R) / 2, H - 10))
    for k in range(5):
        y = ymax * k / 4
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>' % (L - 6, Y(y) + 4, y))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(y), W - R, Y(y)))
    colours = {"reference": "#1f77b4", "lttng": "#d62728"}
    names = {"reference": "reference", "lttng": "LTTng-UST"}
    for i, (tr, p) in enumerate(pts.items()):
        if p:
            out.append('<polyline class="%s" fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
                tr, colours[tr], " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y in p)))
            out += ['<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (X(x), Y(y), colours[tr]) for x, y in p]
        ly = T + 20 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (
            W - R + 10, ly, W - R + 30, ly, colours[tr]))
        out.append('<text x="%d" y="%d">%s</text>' % (W - R + 35, ly + 4, names[tr]))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default=os.path.join(REPO, "build", "bench", "bench_compare"))
    ap.add_argument("--lttng-bin", default=os.path.join(REPO, "build", "bench", "lttng", "bench_lttng"))
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--runs", type=int, default=9, help="runs of each case (the median is kept)")
    ap.add_argument("--log-runs", type=int, default=3, help="runs of the log cases")
    ap.add_argument("--events", type=int, default=20000000,
                    help="events a recording run (long enough that the first touch of new "
                         "per-thread or per-CPU buffers is not most of the figure)")
    ap.add_argument("--flush-events", type=int, default=10000000, help="events of the log cases")
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--json", default=os.path.join(REPO, "reports", "bench.json"))
    ap.add_argument("--svg", default=os.path.join(REPO, "reports", "bench.svg"))
    args = ap.parse_args()
    args.threads = [int(t) for t in args.threads.split(",")]

    miss = missing_tools(args.cc)
    if miss:
        print("bench-compare: LTTng-UST is not installed (missing: %s): nothing compared.\n"
              "Install it with 'make bench-deps' (apt-get install liblttng-ust-dev lttng-tools "
              "babeltrace2), then run 'make bench-compare' again." % " ".join(miss))
        return 0
    build_lttng_bench(args.cc, args.lttng_bin)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as work:
        lt = Lttng(os.path.join(work, "home"))
        try:
            samples = measure(args, args.ref, lt, work)
        finally:
            lt.close()
    med, rows, threads = summarise(samples, args)
    table = print_table(rows, threads, args)
    print(table)
    doc = {"machine": {"processors": os.cpu_count(), "platform": platform.platform(),
                       "load_average": os.getloadavg()},
           "setup": {"runs": args.runs, "log_runs": args.log_runs, "events": args.events,
                     "flush_events": args.flush_events, "threads": args.threads,
                     "lttng_channel": "%d x %s sub-buffers, discard mode, per-UID buffers" % (
                         NUM_SUBBUF, SUBBUF),
                     "reference_stream": "8 MiB LOOP (log cases: 1 MiB FLUSH into an APPEND log)"},
           "seconds": round(time.monotonic() - t0, 1),
           "rows": rows, "threads": threads, "medians": med, "samples": samples,
           "table": table}
    for path in (args.json, args.svg):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(doc, f, indent=1)
    svg(threads, args.svg)
    print("bench-compare: %s and %s written (%.0f s)" % (args.json, args.svg, doc["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
