# SPDX-License-Identifier: MIT
"""reports/index.html: the conformance report a person reads.

One self-contained page (inline CSS and script, nothing fetched): the verdict,
the failing rules with the test's message, the spec text they break and the
commands that rerun them, the implementation profile, the rules by option and
by function, every test.  Every rule and test has an anchor (#rule-ID,
#test-ID) that the other mentions link to.  A filter by verdict, option and
function and a search box (report_page_script.py) hide what does not match;
without the script everything is shown.  The tables wrap long ids and messages
so that the page never overflows its width (checked in headless Chromium by
harness/tests/test_report_page.py).  The markup is well-formed XML too (void
elements closed, numeric character references), so xmllint checks it.
"""

import html
import json
import shlex
from urllib.parse import quote

from runner.protocol import CODES
from reporting.report_page_script import SCRIPT
from reporting.results import spec_note

CSS = """
:root { --pass:#1a7f37; --fail:#cf222e; --unres:#bc4c00; --unsup:#57606a; --untest:#8c959f;
        --line:#d0d7de; --soft:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       color:#1f2328; margin:0; background:#fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 20px 60px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 36px 0 10px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05em; margin: 18px 0 6px; }
.sub { color:#59636e; margin: 0 0 18px; }
.verdict { padding: 14px 18px; border-radius: 8px; font-size: 1.2em; font-weight: 600; color:#fff; }
.verdict.PASS { background: var(--pass); } .verdict.FAIL { background: var(--fail); }
.verdict.NONE { background: var(--unsup); }
.counts { display:flex; gap: 28px; flex-wrap: wrap; margin: 14px 0 0; }
.counts table { border-collapse: collapse; }
.counts td, .counts th { padding: 2px 10px 2px 0; text-align:left; }
[hidden] { display: none !important; }
/* Fixed layout and wrapping anywhere: a long id or message wraps inside its
   column instead of widening the table past the page (at 1280 and 800 px). */
table.t { border-collapse: collapse; width: 100%; margin: 6px 0 12px; font-size: 0.93em;
          table-layout: fixed; }
table.t th, table.t td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left;
                         vertical-align: top; overflow-wrap: anywhere; word-break: break-word; }
table.t col.id { width: 24%; } table.t col.res { width: 8.5em; } table.t col.time { width: 5.5em; }
table.t col.fn { width: 30%; } table.t col.cnt { width: 22%; } table.t col.key { width: 30%; }
main, p, h3, summary, .msg, .failure { overflow-wrap: anywhere; }
table.t th { background: var(--soft); font-weight: 600; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
.b { display:inline-block; min-width: 7em; max-width: 100%; text-align:center; padding: 1px 6px;
     border-radius: 10px;
     font-size: 0.78em; font-weight: 600; color: #fff; letter-spacing: .02em; }
.b.PASS { background: var(--pass); } .b.FAIL { background: var(--fail); }
.b.UNRESOLVED { background: var(--unres); } .b.UNSUPPORTED { background: var(--unsup); }
.b.UNTESTED { background: var(--untest); }
.timeline svg { max-width: 100%; height: auto; display: block; }
.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px;
           padding: 10px 14px; margin: 12px 0; }
.failure.UNRESOLVED { border-left-color: var(--unres); }
.failure h3 { margin-top: 0; }
.spec { background: var(--soft); border-left: 3px solid var(--line); padding: 6px 10px; margin: 6px 0; }
.spec .src { color:#59636e; font-size: 0.85em; }
.msg { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em;
       white-space: pre-wrap; word-break: break-word; }
pre { background: var(--soft); padding: 8px 10px; font-size: 0.85em; max-height: 360px;
      overflow-y: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
details { margin: 6px 0; } summary { cursor: pointer; }
details > summary { font-weight: 600; }
.muted { color:#59636e; }
.kv td:first-child { color:#59636e; padding-right: 18px; }
.bar { display:flex; height: 10px; border-radius: 5px; overflow:hidden; background: var(--soft);
       width: 220px; max-width: 100%; margin-top: 5px; }
.bar span { display:block; height: 100%; }
.bar .PASS { background: var(--pass); } .bar .FAIL { background: var(--fail); }
.bar .UNRESOLVED { background: var(--unres); } .bar .UNSUPPORTED { background: var(--unsup); }
.bar .UNTESTED { background: var(--untest); }
#filters { position: sticky; top: 0; z-index: 1; background: #fff; border: 1px solid var(--line);
           border-radius: 8px; padding: 8px 12px; margin: 16px 0; display: flex; flex-wrap: wrap;
           gap: 6px 16px; align-items: center; }
#filters fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
                    gap: 4px 10px; }
#filters label { white-space: nowrap; }
#filters select { max-width: 16em; }
#filters input[type=search] { width: 18em; max-width: 100%; }
#shown { color:#59636e; font-size: 0.9em; }
.rerun { margin: 6px 0; }
.rerun code { display: inline-block; max-width: 100%; background: var(--soft); padding: 1px 6px;
              border-radius: 4px; overflow-wrap: anywhere; user-select: all; }
button.copy { font-size: 0.75em; margin-left: 4px; }
:target { outline: 2px solid #0969da; outline-offset: -2px; }
"""


def e(x):
    return html.escape("" if x is None else str(x), quote=True)


def anchor(kind, id_):
    """The page's stable id of a rule or test: rule-ID, test-ID."""
    return "%s-%s" % (kind, id_)


def link(kind, id_):
    """A mention of a rule or test, linked to its anchor."""
    return '<a href="#%s"><code>%s</code></a>' % (quote(anchor(kind, id_), safe=""), e(id_))


def filter_attrs(verdicts, options, functions, texts):
    """What the filter and the search (report_page_script.py) read of an item."""
    return ' data-v="%s" data-o="%s" data-fn="%s" data-s="%s"' % (
        e(" ".join(verdicts)), e(" ".join(o or "-" for o in options)), e(" ".join(functions)),
        e(" ".join(t for t in texts if t).lower()))


def rule_filter(r, functions=None):
    texts = [r["id"], r.get("summary"), r.get("reason"), r.get("option")] + list(r["tests"])
    for f in r.get("failures", []):
        texts += [f["test"], f["message"]]
    return filter_attrs([r["result"]], [r.get("option")],
                        r.get("functions") or [] if functions is None else functions, texts)


def test_filter(t):
    return filter_attrs([t["result"]], t.get("options") or [], t.get("functions") or [],
                        [t["id"], t.get("message")] + list(t.get("rules") or []))


def is_bad(result):
    return result in ("FAIL", "UNRESOLVED")


def rule_rerun(rule_id):
    return "python3 harness/run.py --rule %s" % shlex.quote(rule_id)


def test_reruns(t):
    """The commands that run one test again: through the harness (any program),
    and the test program itself where its place in the build is known."""
    cmds = ["python3 harness/run.py --test %s -v" % shlex.quote(t["id"])]
    exe = t.get("executable") or ""
    if exe == "vecrun":
        cmds.append("build/harness/vecrun --dir vectors --run %s" % shlex.quote(t["id"]))
    elif exe == "kvecrun":
        cmds.append("build/harness/kvecrun --run %s" % shlex.quote(t["id"]))
    elif exe and "." not in exe and "/" not in exe:
        cmds.append("build/conformance/%s --run %s" % (exe, shlex.quote(t["id"])))
    return cmds


def command(cmd_id, cmd):
    """A copy-able command: selected whole on a click; a copy button with the script."""
    return ('<div class="rerun"><code id="%s">%s</code><button type="button" class="copy" '
            'data-for="%s" hidden="hidden">copy</button></div>' % (e(cmd_id), e(cmd), e(cmd_id)))


def badge(result):
    return '<span class="b %s">%s</span>' % (e(result), e(result))


def bar(counts):
    total = sum(counts.get(k, 0) for k in CODES)
    if not total:
        return ""
    parts = "".join('<span class="%s" style="width:%.2f%%"></span>' % (k, 100.0 * counts[k] / total)
                    for k in CODES if counts.get(k))
    return '<div class="bar" title="%s">%s</div>' % (
        e(", ".join("%s %d" % (k, counts[k]) for k in CODES if counts.get(k))), parts)


def counts_of(results):
    c = {k: 0 for k in CODES}
    for r in results:
        c[r] += 1
    return c


def counts_line(c):
    return " &#183; ".join("%s %d" % (e(k), c[k]) for k in CODES if c.get(k))


def spec_block(spec_entries):
    out = []
    for s in spec_entries:
        if s.get("text"):
            out.append('<div class="spec"><span class="mono">%s</span> %s<div class="src">%s%s'
                       '</div></div>' % (e(s["id"]), e(s["text"]), e(s["source"]),
                                         (" &#183; " + e(s["section"])) if s.get("section")
                                         else ""))
        else:
            out.append('<div class="spec"><span class="mono">%s</span> <span class="muted">'
                       '(text not found in the specification folder)</span></div>' % e(s["id"]))
    return "\n".join(out)


def timeline_block(svg):
    """A failing kernel vector's trace drawn by tracedump --svg (kvec_timelines.py),
    inline: the page stays one self-contained file."""
    return ('<div>Timeline of the vector&#8217;s trace (<code>tracedump --svg</code>):</div>'
            '<div class="timeline">%s</div>' % svg)


def failures_section(doc, tests_by_id, timelines=None):
    bad = [r for r in doc["rules"] if r["result"] in ("FAIL", "UNRESOLVED")]
    out = ['<h2 id="failures">Failing rules (%d)</h2>' % len(bad)]
    if not bad:
        out.append('<p class="muted">No rule fails or is unresolved.</p>')
    for r in bad:
        out.append('<div class="failure %s f" id="%s"%s>' % (
            e(r["result"]), e(anchor("failure", r["id"])), rule_filter(r)))
        out.append('<h3>%s %s</h3>' % (badge(r["result"]), link("rule", r["id"])))
        meta = []
        if r.get("summary"):
            meta.append(e(r["summary"]))
        meta.append("option %s" % e(r["option"] or "?"))
        if r.get("functions"):
            meta.append("functions: " + ", ".join("<code>%s</code>" % e(f) for f in r["functions"]))
        out.append("<p>%s</p>" % " &#183; ".join(meta))
        out.append("<div>Rerun the rule:</div>" + command("cmd-f-" + r["id"], rule_rerun(r["id"])))
        if "known_gap" in r:
            out.append('<p class="muted">Known gap of the reference: %s</p>' % e(r["known_gap"]))
        if r.get("spec"):
            out.append("<div><b>The specification says:</b></div>" + spec_block(r["spec"]))
        for f in r.get("failures", []):
            t = tests_by_id.get(f["test"], {})
            out.append('<p>%s test %s:</p><div class="msg">%s</div>' % (
                badge(f["result"]), link("test", f["test"]), e(f["message"])))
            if t:
                out.append("<div>Rerun the test:</div>" + "".join(
                    command("cmd-f%d-%s-%s" % (i, r["id"], f["test"]), c)
                    for i, c in enumerate(test_reruns(t))))
            if t.get("output"):
                out.append('<details class="fold" open="open"><summary>output of the test</summary>'
                           '<pre>%s</pre></details>' % e(t["output"]))
            if timelines and f["test"] in timelines:
                out.append(timeline_block(timelines[f["test"]]))
        out.append("</div>")
    return "\n".join(out)


def _kv_table(pairs):
    rows = "".join("<tr><td>%s</td><td class=\"mono\">%s</td></tr>" % (e(k), e(v))
                   for k, v in pairs)
    return ('<table class="t kv"><colgroup><col class="key"/><col/></colgroup>%s</table>'
            % rows)


def _fmt(v):
    if isinstance(v, dict):
        if set(v) == {"error"}:
            return "error: %s" % v["error"]
        if set(v) == {"tv_sec", "tv_nsec"}:
            return "%d s %d ns" % (v["tv_sec"], v["tv_nsec"])
        return json.dumps(v, sort_keys=True)
    if v is None:
        return "not available"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def profile_section(impl):
    p = impl.get("profile") or {}
    out = ['<h2 id="profile">Implementation profile</h2>']
    build = impl.get("build") or {}
    pairs = [("name", impl.get("name")), ("kind", impl.get("impl"))]
    for k in ("trace_cflags", "trace_libs"):
        if build.get(k):
            pairs.append((k.upper(), build[k]))
    pairs.append(("options taken from", impl.get("options_source")))
    out.append(_kv_table(pairs))
    if "error" in p and len(p) == 1:
        out.append('<p class="muted">The profile program failed: %s</p>' % e(p["error"]))
        return "\n".join(out)

    opts = p.get("options") or {}
    out.append("<h3>Options</h3>")
    rows = []
    for name in ("TRC", "TEF", "TRI", "TRL"):
        o = opts.get(name) or {}
        rows.append("<tr><td>%s</td><td class=\"mono\">%s</td><td class=\"mono\">%s</td>"
                    "<td>%s</td><td>%s</td></tr>" % (
                        e(name), e(_fmt(o.get("macro"))), e(_fmt(o.get("sysconf"))),
                        e(_fmt(o.get("supported"))),
                        badge("PASS") if impl["options"].get(name) else badge("UNSUPPORTED")))
    out.append('<table class="t"><tr><th>option</th><th>macro</th><th>sysconf</th>'
               '<th>profile says</th><th>tested as</th></tr>%s</table>' % "".join(rows))

    if p.get("limits"):
        out.append("<h3>Limits</h3>")
        pairs = []
        for k, v in p["limits"].items():
            if isinstance(v, dict):
                pairs.append((k, "macro %s, sysconf %s" % (_fmt(v.get("macro")),
                                                            _fmt(v.get("sysconf")))))
            else:
                pairs.append((k, _fmt(v)))
        out.append(_kv_table(pairs))
    if p.get("attr_defaults"):
        out.append("<h3>Attribute defaults (posix_trace_attr_init)</h3>")
        d = p["attr_defaults"]
        out.append(_kv_table((k, _fmt(v)) for k, v in d.items()) if isinstance(d, dict)
                   else "<p>%s</p>" % e(_fmt(d)))
    if p.get("event_sizes"):
        out.append("<h3>Event sizes</h3>")
        out.append(_kv_table((k, _fmt(v)) for k, v in p["event_sizes"].items()))
    st = p.get("stream")
    if st:
        out.append("<h3>A stream with default attributes</h3>")
        pairs = [(k, _fmt(v)) for k, v in st.items() if k != "event_types"]
        out.append(_kv_table(pairs))
        if st.get("event_types"):
            out.append('<table class="t"><tr><th>event type id (bytes)</th><th>name</th></tr>%s'
                       '</table>' % "".join("<tr><td class=\"mono\">%s</td><td class=\"mono\">"
                                            "%s</td></tr>" % (e(x.get("id")), e(x.get("name")))
                                            for x in st["event_types"]))
    more = [(k, p[k]) for k in ("type_sizes", "constants", "event_ids", "compiled_options")
            if p.get(k)]
    if more:
        out.append('<details class="fold" open="open"><summary>Type sizes and constant values'
                   '</summary>')
        for k, v in more:
            out.append("<h3>%s</h3>" % e(k.replace("_", " ")))
            out.append(_kv_table((kk, _fmt(vv)) for kk, vv in v.items()))
        out.append("</details>")
    return "\n".join(out)


def _rule_rows(rules):
    rows = []
    for r in rules:
        tests = ", ".join(link("test", t) for t in r["tests"]) or \
            '<span class="muted">none</span>'
        rerun = command("cmd-r-" + r["id"], rule_rerun(r["id"])) if is_bad(r["result"]) else ""
        rows.append('<tr class="rule-row f" id="%s"%s><td><code>%s</code></td><td>%s</td>'
                    '<td>%s<div class="muted">%s</div>%s</td><td>%s</td></tr>' % (
                        e(anchor("rule", r["id"])), rule_filter(r), e(r["id"]),
                        badge(r["result"]), e(r["summary"]), e(r["reason"]), rerun, tests))
    return ('<table class="t"><colgroup><col class="id"/><col class="res"/><col/>'
            '<col class="id"/></colgroup><tr><th>rule</th><th>result</th><th>summary</th>'
            '<th>tests</th></tr>%s</table>' % "".join(rows))


def by_option_section(doc):
    groups = {}
    for r in doc["rules"]:
        groups.setdefault(r["option"] or "(no option)", []).append(r)
    order = [o for o in ("TRC", "TEF", "TRI", "TRL", "KSP") if o in groups] + \
        sorted(o for o in groups if o not in ("TRC", "TEF", "TRI", "TRL", "KSP"))
    out = ['<h2 id="options">Rules by option</h2>']
    for o in order:
        rs = groups[o]
        c = counts_of(r["result"] for r in rs)
        supported = doc["implementation"]["options"].get(o)
        note = "" if supported is None else (" (supported)" if supported else " (not supported)")
        bad = c["FAIL"] + c["UNRESOLVED"]
        # Open without the script; the script collapses the groups without a failure.
        out.append('<details class="grp" open="open"%s><summary>%s%s &#8212; %d rules: %s'
                   '</summary>%s%s</details>' % (
            "" if bad else ' data-closed="yes"', e(o), e(note), len(rs), counts_line(c), bar(c),
            _rule_rows(rs)))
    return "\n".join(out)


def by_function_section(doc):
    groups = {}
    for r in doc["rules"]:
        for f in r.get("functions") or ["(no function)"]:
            groups.setdefault(f, []).append(r)
    out = ['<h2 id="functions">Rules by function</h2>']
    if not groups:
        out.append('<p class="muted">No rule names a function.</p>')
    rows = []
    for f in sorted(groups):
        rs = groups[f]
        c = counts_of(r["result"] for r in rs)
        # Each rule is an item of this function only, so that the function filter
        # keeps this row alone.
        rows.append('<tr class="grp" id="%s"><td><code>%s</code>%s</td><td>%s</td><td>%s</td>'
                    '</tr>' % (
                        e(anchor("function", f)), e(f), bar(c), counts_line(c),
                        "".join('<div class="f" title="%s"%s>%s&#160;%s</div>' % (
                            e(r["summary"]), rule_filter(r, [f]), badge(r["result"]),
                            link("rule", r["id"])) for r in rs)))
    if rows:
        out.append('<table class="t"><colgroup><col class="fn"/><col class="cnt"/><col/>'
                   '</colgroup><tr><th>function</th><th>results</th><th>rules</th></tr>'
                   '%s</table>' % "".join(rows))
    return "\n".join(out)


def _test_row(t):
    reruns = "".join(command("cmd-t%d-%s" % (i, t["id"]), c)
                     for i, c in enumerate(test_reruns(t))) if is_bad(t["result"]) else ""
    return ('<tr class="test-row f" id="%s"%s><td><code>%s</code></td><td>%s</td><td>%s</td>'
            '<td><div class="msg">%s</div>%s</td><td>%d&#160;ms</td></tr>' % (
                e(anchor("test", t["id"])), test_filter(t), e(t["id"]), badge(t["result"]),
                ", ".join(link("rule", r) for r in t["rules"]), e(t["message"]), reruns,
                t["duration_ms"]))


def tests_section(doc):
    rows = "".join(_test_row(t) for t in doc["tests"])
    return ('<h2 id="tests">Tests</h2><details class="grp" open="open" data-closed="yes">'
            '<summary>All %d tests</summary><table class="t"><colgroup><col class="id"/>'
            '<col class="res"/><col class="id"/><col/><col class="time"/></colgroup>'
            '<tr><th>test</th><th>result</th><th>rules</th><th>message</th><th>time</th></tr>'
            '%s</table></details>' % (len(doc["tests"]), rows))


def filter_form(doc):
    """The filter bar: hidden without the script, which alone can apply it."""
    s = doc["summary"]
    boxes = "".join('<label><input type="checkbox" name="verdict" value="%s" checked="checked"/>'
                    ' %s</label>' % (e(k), badge(k)) for k in CODES)
    options = sorted({r.get("option") or "-" for r in doc["rules"]})
    functions = sorted({f for r in doc["rules"] for f in r.get("functions") or []} |
                       {f for t in doc["tests"] for f in t.get("functions") or []})
    opt = "".join('<option value="%s">%s</option>' % (e(o), e(o)) for o in options)
    fns = "".join('<option value="%s">%s</option>' % (e(f), e(f)) for f in functions)
    return ('<form id="filters" hidden="hidden"><fieldset>%s</fieldset>'
            '<label>option <select name="option"><option value="">all</option>%s</select></label>'
            '<label>function <select name="function"><option value="">all</option>%s</select>'
            '</label><input type="search" name="q" placeholder="search: rule, test, message"'
            ' aria-label="search"/><button type="reset">show all</button>'
            '<output id="shown" data-rules-total="%d" data-tests-total="%d"></output></form>' % (
                boxes, opt, fns, s["rules"]["total"], s["tests"]["total"]))


def render(doc, timelines=None):
    s = doc["summary"]
    impl = doc["implementation"]
    v = s["verdict"]
    tests_by_id = {t["id"]: t for t in doc["tests"]}
    head = []
    head.append('<h1>POSIX Tracing conformance</h1>')
    head.append('<p class="sub">%s &#183; %s &#183; %.1f s</p>' % (
        e(impl["name"]), e(doc.get("generated", "")), s["duration_s"]))
    head.append('<div class="verdict %s">%s</div>' % (e(v["status"]), e(v["text"])))
    head.append('<div class="counts">')
    for label, key in (("Rules", "rules"), ("Tests", "tests")):
        c = s[key]
        head.append('<table><tr><th colspan="2">%s: %d</th></tr>%s<tr><td colspan="2">%s</td>'
                    '</tr></table>' % (label, c["total"], "".join(
                        "<tr><td>%s</td><td>%d</td></tr>" % (badge(k), c[k]) for k in CODES),
                        bar(c)))
    head.append("</div>")
    if s.get("partial"):
        head.append('<p class="muted">Partial run: %s</p>' % e(s.get("selection")))
    for w in s.get("warnings", []):
        head.append('<p class="muted">Warning: %s</p>' % e(w))
    head.append('<p class="muted">%s</p>' % e(spec_note(doc)))
    head.append('<p class="muted">Results: PASS the rule holds; FAIL it is broken; UNRESOLVED a '
                'test could not decide (setup failed, crash, hang); UNSUPPORTED an option the '
                'implementation does not provide; UNTESTED no test, or not testable. '
                'A rule&#8217;s result is the worst of its tests&#8217;.</p>')
    head.append('<p><a href="#failures">Failing rules</a> &#183; <a href="#profile">Profile</a>'
                ' &#183; <a href="#options">By option</a> &#183; <a href="#functions">By '
                'function</a> &#183; <a href="#tests">Tests</a></p>')
    head.append(filter_form(doc))
    body = "\n".join(head + [failures_section(doc, tests_by_id, timelines),
                             profile_section(impl), by_option_section(doc),
                             by_function_section(doc),
                             tests_section(doc)])
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
            '<meta name="viewport" content="width=device-width, initial-scale=1"/>'
            '<title>POSIX Tracing conformance: %s</title><style>%s</style></head>'
            '<body><main>\n%s\n</main><script>%s</script></body></html>\n' % (
                e(impl["name"]), CSS, body, SCRIPT))


def write(doc, path, timelines=None):
    """timelines: {test id: SVG} of the failing kernel vectors (kvec_timelines.py)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(doc, timelines))
