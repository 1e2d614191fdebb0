# SPDX-License-Identifier: MIT
"""tracedump --chrome FILE (issue 17, item 2; reference/dump/export_chrome.c):
the Trace Event Format's JSON Object Format, every event checked against the
format's documented fields (Trace Event Format, the Google document linked
from catapult/docs/trace-event-format.md): "ph" one of its phases; "name",
"cat" strings; "ts" (and "dur") numbers of microseconds; "pid", "tid"
integers; "args" an object; an instant event's scope "s" one of g, p, t; a
metadata event one of the documented names with its args.  And what the
issue asks of the tracks: one per CPU (named by "M" events) and per process
and thread, kernel calls and interrupts as "X" slices, DROPPED and wraps as
global instant events, every event of the file accounted for."""

import decimal
import json
import os

import pytest

import export_common as ec

pytestmark = ec.NEEDS_TOOLS

TOP_KEYS = {"traceEvents", "displayTimeUnit", "systemTraceEvents", "otherData", "stackFrames",
            "samples", "controllerTraceDataKey"}
EVENT_KEYS = {"name", "cat", "ph", "ts", "tts", "pid", "tid", "args", "dur", "tdur", "s", "id",
              "id2", "scope", "bp", "cname", "sf", "stack", "esf", "estack", "bind_id",
              "flow_in", "flow_out"}
PHASES = set("BEXiIPCbnestfMNODcRVv") | {"(", ")"}
METADATA = {"process_name", "process_labels", "process_sort_index", "thread_name",
            "thread_sort_index"}
CPU_PID = 1000000000


def is_num(v):
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)


def validate(doc):
    """Every event against the documented fields; returns the events."""
    assert isinstance(doc, dict) and set(doc) <= TOP_KEYS
    assert doc.get("displayTimeUnit", "ms") in ("ms", "ns")
    events = doc["traceEvents"]
    assert isinstance(events, list)
    for e in events:
        where = repr(e)[:200]
        assert set(e) <= EVENT_KEYS, where
        assert e.get("ph") in PHASES, where
        assert isinstance(e.get("name"), str), where
        assert isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int), where
        assert isinstance(e.get("args", {}), dict), where
        if e["ph"] == "M":
            assert e["name"] in METADATA, where
            if e["name"] in ("process_name", "thread_name"):
                assert isinstance(e["args"].get("name"), str), where
            continue
        assert isinstance(e.get("cat"), str), where
        assert is_num(e.get("ts")) and e["ts"] >= 0, where
        if e["ph"] == "X":
            assert is_num(e.get("dur")) and e["dur"] >= 0, where
        if e["ph"] in ("i", "I"):
            assert e.get("s", "t") in ("g", "p", "t"), where
    return events


@pytest.fixture(scope="module")
def sims(tmp_path_factory):
    return ec.make_sims(tmp_path_factory.mktemp("sims"))


def chrome(path):
    p = ec.tracedump("--chrome", path)
    # Decimals: a kernel trace's microseconds since boot are more digits than a double holds.
    return json.loads(p.stdout, parse_float=decimal.Decimal)


def buffer_wraps(doc):
    """What export_run.c marks as a wrap: a BUFFER whose sequence is not the
    next, or a first one that is not 0."""
    last, n = None, 0
    for e in doc["events"]:
        if e["class_name"] == "CONTROL" and e["name"] == "BUFFER":
            seq = e["args"]["seq"]
            n += seq != 0 if last is None else seq != (last + 1) % 2 ** 32
            last = seq
    return n


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.parametrize("name", sorted(ec.SIMS))
def test_kernel_trace_in_the_trace_event_format(name, sims):
    events = validate(chrome(sims[name]))
    doc = ec.dump_json(sims[name])
    cps = doc["file"]["cycles_per_sec"]
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    procs = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    used = [e for e in events if e["ph"] != "M"]
    assert {(e["pid"], e["tid"]) for e in used} <= named       # every track has its name
    assert {e["pid"] for e in used} <= procs
    cpus = {e["cpu"] for e in doc["events"]}
    assert {(CPU_PID, c) for c in cpus} <= named               # one track per CPU
    assert any(p != CPU_PID for p in procs)                    # and per process/thread
    slices = [e for e in used if e["ph"] == "X"]
    assert any(e["cat"] == "KER_CALL" for e in slices) and any(e["cat"] == "INT" for e in slices)
    # Each slice stands for its entry and exit; one left open at the end for its entry only.
    unfinished = sum(1 for e in slices if e["args"].get("unfinished"))
    ends = len(slices) - unfinished
    assert len(used) == len(doc["events"]) - ends
    drops = [e for e in used if e["cat"] == "drop"]
    assert len(drops) == sum(1 for e in doc["events"] if e["name"] == "DROPPED")
    assert all(e["ph"] == "i" and e["s"] == "g" for e in drops)
    wraps = [e for e in used if e["cat"] == "wrap"]
    assert len(wraps) == buffer_wraps(doc) and all(e["s"] == "g" for e in wraps)
    if name == "sim-linear.kev":
        assert drops
        first = next(e for e in doc["events"] if e["name"] == "DROPPED")
        assert drops[0]["ts"] == decimal.Decimal(first["time"] * 10 ** 9 // cps) / 1000  # us
    else:
        assert wraps


@pytest.mark.parametrize("log", ec.GOLDEN_LOGS, ids=os.path.basename)
def test_posix_log_in_the_trace_event_format(log):
    events = validate(chrome(log))
    doc = ec.dump_json(log)
    used = [e for e in events if e["ph"] != "M"]
    assert len(used) == len(doc["events"])
    for e, j in zip(used, doc["events"]):
        assert (e["name"], e["pid"], e["tid"]) == (j["name"], j["pid"], j["thread"])
        assert e["ts"] == decimal.Decimal(j["timestamp_ns"]) / 1000
        assert e["ph"] == "i" and e["s"] == ("g" if e["cat"] == "drop" else "t")


def test_the_validator_can_fail():
    """The checks above are real: a documented field broken is refused."""
    good = {"traceEvents": [{"name": "a", "cat": "c", "ph": "i", "s": "t", "ts": 1, "pid": 1,
                             "tid": 1, "args": {}}]}
    validate(good)
    for broken in ({"ph": "Q"}, {"s": "x"}, {"ts": "1"}, {"pid": "1"}, {"args": []},
                   {"bogus": 1}):
        doc = {"traceEvents": [dict(good["traceEvents"][0], **broken)]}
        with pytest.raises(AssertionError):
            validate(doc)
