# SPDX-License-Identifier: MIT
"""reports/index.html as a person uses it (issue 16, item 2): one self-contained,
well-formed page whose filter by verdict, option and function and whose search
box show what they should, with an anchor for every rule and test, rerun
commands for a failure, and tables that fit the page at 1280 and 800 px.

The page comes from a real run of the fake test program (conftest.py), with a
message and a rule summary made long and unbreakable to try the wrapping.  The
browser checks run in Debian's headless chromium ('make deps' installs it) and
are skipped without it; they also screenshot reports/index.html, when a run
left one, into reports/index.png (CI keeps reports/ as its artifact).
"""

import html.parser
import json
import os
import re
import shutil
import subprocess

import pytest

import headless_chromium
from reporting import report_html
from conftest import REPO, fake_tree, load, run_runner

# The slow tier ('make check-full'; conftest.py): headless Chromium loads the report page.
pytestmark = pytest.mark.slow

CHROMIUM = headless_chromium.find()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed ('make deps' installs it): "
    "the report page is not loaded in a browser")

LONG_TOKEN = "/a/very/long/path/" + "without_any_space_" * 30 + "end"
VOID = {"meta", "br", "input", "col", "img", "hr", "link"}


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    env = fake_tree(tmp_path_factory.mktemp("page"))
    run_runner(env, "--timeout", "2", "-j", "2")
    d = load(env)
    for t in d["tests"]:
        if t["id"] == "fake.fail":
            t["message"] += " " + LONG_TOKEN
    for r in d["rules"]:
        if r["id"] == "r.fail":
            r["summary"] += " " + LONG_TOKEN
            for f in r["failures"]:
                f["message"] += " " + LONG_TOKEN
    return d


@pytest.fixture(scope="module")
def page(doc, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("html") / "index.html")
    report_html.write(doc, path)
    with open(path, encoding="utf-8") as f:
        return path, f.read()


class _Tree(html.parser.HTMLParser):
    """Every element closed, in order; the ids and the links to them."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.ids, self.hrefs = [], [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if "href" in a:
            self.hrefs.append(a["href"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else ""))
        else:
            self.stack.pop()


def tree(text):
    t = _Tree()
    t.feed(text)
    t.close()
    return t


def test_page_is_well_formed(page):
    path, text = page
    t = tree(text)
    assert t.errors == [] and t.stack == []
    if shutil.which("xmllint"):
        # As XML: every element closed, attributes quoted, no named entity.
        p = subprocess.run(["xmllint", "--noout", path], stderr=subprocess.PIPE,
                           universal_newlines=True)
        assert p.returncode == 0, p.stderr
        # As HTML: libxml2 knows HTML 4 only, so its one complaint may be the
        # HTML5 elements' names.
        p = subprocess.run(["xmllint", "--html", "--noout", path], stderr=subprocess.PIPE,
                           universal_newlines=True)
        errors = [ln for ln in p.stderr.splitlines() if "error" in ln]
        assert [ln for ln in errors
                if not re.search(r"Tag (main|details|summary|output) invalid", ln)] == []


def test_page_is_self_contained(page):
    _, text = page
    assert not re.search(r"<(script|img|link|iframe)[^>]*\s(src|href)=", text)
    assert not re.search(r"https?://|@import|url\(", text)


def test_every_rule_and_test_has_an_anchor_that_mentions_link_to(doc, page):
    _, text = page
    t = tree(text)
    assert len(t.ids) == len(set(t.ids)), "duplicate ids"
    ids = set(t.ids)
    for r in doc["rules"]:
        assert "rule-" + r["id"] in ids
    for x in doc["tests"]:
        assert "test-" + x["id"] in ids
    local = [h[1:] for h in t.hrefs if h.startswith("#")]
    assert set(local) <= ids
    assert "rule-r.fail" in local and "test-fake.fail" in local


def test_failures_carry_rerun_commands(page):
    _, text = page
    assert "python3 harness/run.py --rule r.fail" in text
    assert "python3 harness/run.py --test fake.fail -v" in text
    assert "python3 harness/run.py --rule r.pass<" not in text      # only for a failure


# --- in the browser ---------------------------------------------------------

# Shown: neither hidden (by the filter) nor inside a folded <details>.  (Chrome
# lays out a folded <details>' content all the same, so its boxes do not tell.)
SHOWN = """(function () {
  function shown(el) {
    for (var p = el; p; p = p.parentElement) {
      if (p.hidden || getComputedStyle(p).display === "none") { return false; }
      if (p !== el && p.tagName === "DETAILS" && !p.open) { return false; }
    }
    return true;
  }
  function ids(sel) {
    return Array.prototype.filter.call(document.querySelectorAll(sel), shown)
      .map(function (el) { return el.id; });
  }
  return { rules: ids("tr.rule-row"), tests: ids("tr.test-row"),
           failures: ids("div.failure"), functions: ids("tr[id^=function-]"),
           shown: document.getElementById("shown").textContent,
           ready: document.documentElement.getAttribute("data-filter-ready"),
           hash: location.hash };
})()"""

# What sticks out: past the page's width, or out of its table cell.
OVERFLOW = """(function () {
  Array.prototype.forEach.call(document.querySelectorAll("details"),
                               function (d) { d.open = true; });
  var root = document.documentElement, width = root.clientWidth, bad = [];
  function name(el) { return el.tagName + (el.id ? "#" + el.id : "") +
                      (el.className ? "." + el.className : ""); }
  Array.prototype.forEach.call(document.body.querySelectorAll("*"), function (el) {
    var r = el.getBoundingClientRect();
    if (r.width === 0) { return; }
    if (r.right > width + 0.5) { bad.push(name(el) + " ends at " + r.right); }
    /* Text sticking out of its box (a cell, a paragraph) leaves the box's
       rectangle as it is: its scrollWidth tells. */
    if (el.clientWidth > 0 ? el.scrollWidth > el.clientWidth + 1 : false) {
      bad.push(name(el) + " holds " + el.scrollWidth + " px in " + el.clientWidth);
    }
  });
  return { width: width, scrollWidth: root.scrollWidth, bad: bad.slice(0, 20) };
})()"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed ('make deps' installs it)")
    b = headless_chromium.Browser(CHROMIUM, str(tmp_path_factory.mktemp("chromium-profile")))
    b.size(1280, 2000)
    yield b
    b.close()


def look(browser, page, suffix=""):
    browser.open("file://" + page[0] + suffix)
    return browser.eval(SHOWN)


def rule_ids(shown):
    return {x[len("rule-"):] for x in shown["rules"]}


def shown_tests(shown):
    return {x[len("test-"):] for x in shown["tests"]}


def unfolded_rules(doc):
    """Without a filter, the options' groups of rules that hold a failure are
    open, the others folded (and everything is open without the script)."""
    bad = {r["option"] for r in doc["rules"] if r["result"] in ("FAIL", "UNRESOLVED")}
    return {r["id"] for r in doc["rules"] if r["option"] in bad}


def results(items, *verdicts):
    return {x["id"] for x in items if x["result"] in verdicts}


@needs_chromium
def test_without_a_filter_everything_is_listed(browser, page, doc):
    shown = look(browser, page)
    assert shown["ready"] == "yes"
    assert rule_ids(shown) == unfolded_rules(doc) != {r["id"] for r in doc["rules"]}
    assert shown["tests"] == []                  # the list of tests starts folded
    assert shown["shown"] == "Shown: %d of %d rules, %d of %d tests" % (
        (len(doc["rules"]), len(doc["rules"]), len(doc["tests"]), len(doc["tests"])))


@needs_chromium
def test_filter_by_verdict_through_the_url(browser, page, doc):
    shown = look(browser, page, "#verdict=FAIL")
    assert rule_ids(shown) == results(doc["rules"], "FAIL") != set()
    assert shown_tests(shown) == results(doc["tests"], "FAIL") != set()
    assert set(shown["failures"]) == {"failure-" + r for r in results(doc["rules"], "FAIL")}
    shown = look(browser, page, "?verdict=UNRESOLVED,UNSUPPORTED")
    assert rule_ids(shown) == results(doc["rules"], "UNRESOLVED", "UNSUPPORTED")
    assert shown_tests(shown) == results(doc["tests"], "UNRESOLVED", "UNSUPPORTED")


@needs_chromium
def test_filter_by_option_and_function(browser, page, doc):
    shown = look(browser, page, "#option=TEF")
    assert rule_ids(shown) == {"r.tef"}
    assert shown_tests(shown) == {"fake.needs_tef"}
    shown = look(browser, page, "#function=posix_trace_start")
    assert rule_ids(shown) == {r["id"] for r in doc["rules"]
                               if "posix_trace_start" in r["functions"]} >= {"r.shared", "r.fail"}
    assert shown_tests(shown) == {"fake.pass2", "fake.fail"}
    assert shown["functions"] == ["function-posix_trace_start"]


@needs_chromium
def test_search_with_a_verdict(browser, page, doc):
    shown = look(browser, page, "#verdict=FAIL,UNRESOLVED&q=SIGSEGV")
    assert rule_ids(shown) == {"r.crash"}
    assert shown_tests(shown) == {"fake.crash"}
    shown = look(browser, page, "#q=fake.fail")            # a test's id finds its rules
    assert rule_ids(shown) == {"r.fail", "r.shared"}
    assert shown_tests(shown) == {"fake.fail"}


@needs_chromium
def test_typing_in_the_form_filters_and_updates_the_url(browser, page, doc):
    look(browser, page)
    browser.eval("""(function () {
      var f = document.getElementById("filters");
      f.querySelector("input[value=PASS]").checked = false;
      f.querySelector("input[name=q]").value = "start";
      f.querySelector("input[name=q]").dispatchEvent(new Event("input", {bubbles: true}));
    })()""")
    shown = browser.eval(SHOWN)
    assert rule_ids(shown) == {"r.fail", "r.shared"}
    assert shown["hash"] == "#verdict=FAIL,UNRESOLVED,UNSUPPORTED,UNTESTED&q=start"
    browser.eval("document.querySelector('#filters button[type=reset]').click()")
    assert rule_ids(browser.eval(SHOWN)) == unfolded_rules(doc)


@needs_chromium
def test_an_anchor_shows_its_target_through_folds_and_filters(browser, page, doc):
    shown = look(browser, page, "#test-fake.pass")
    assert "test-fake.pass" in shown["tests"]               # in the folded list of tests
    look(browser, page, "#verdict=FAIL")
    browser.eval("""new Promise(function (done) {         // hidden by the filter
      window.addEventListener("hashchange", function () { setTimeout(done, 0); });
      location.hash = "test-fake.pass";
    })""")
    shown = browser.eval(SHOWN)
    assert "test-fake.pass" in shown["tests"]
    assert rule_ids(shown) == unfolded_rules(doc)           # the filter was cleared


@pytest.fixture(scope="module")
def real_page(tmp_path_factory):
    """The page of the last run of the suite in this tree (its profile's tables
    and the catalogue's long summaries), rendered by the code under test."""
    src = os.path.join(REPO, "reports", "conformance.json")
    if not os.path.isfile(src):
        pytest.skip("no reports/conformance.json: 'make conformance' writes it")
    with open(src) as f:
        d = json.load(f)
    path = str(tmp_path_factory.mktemp("real") / "index.html")
    report_html.write(d, path)
    return path, None


@needs_chromium
def test_a_rerun_command_copies_with_one_click(browser, page):
    look(browser, page, "#verdict=FAIL")
    got = browser.eval("""new Promise(function (answer) {
      var b = document.querySelector("button.copy[data-for='cmd-f-r.fail']");
      b.click();
      setTimeout(function () {
        answer([b.hidden, b.textContent, String(window.getSelection())]);
      }, 500);
    })""")
    assert got[:2] == [False, "copied"]
    # Copied through the clipboard API, or selected (headless: refused, no focus).
    assert got[2] in ("", "python3 harness/run.py --rule r.fail")


@needs_chromium
@pytest.mark.parametrize("width", [1280, 800])
@pytest.mark.parametrize("which", ["page", "real_page"])
def test_nothing_overflows_the_page(browser, request, which, width):
    page = request.getfixturevalue(which)
    browser.size(width, 2000)
    try:
        browser.open("file://" + page[0])
        o = browser.eval(OVERFLOW)
    finally:
        browser.size(1280, 2000)
    assert o["width"] == width
    assert o["bad"] == [] and o["scrollWidth"] <= o["width"]


@needs_chromium
def test_screenshots(browser, page, tmp_path):
    """A picture of a filtered page, and the CI artifact reports/index.png of
    the report a run left in reports/ (make check runs the conformance gate
    before pytest)."""
    shots = [("file://" + page[0] + "#verdict=FAIL,UNRESOLVED", str(tmp_path / "fail.png"))]
    real = os.path.join(REPO, "reports", "index.html")
    if os.path.isfile(real):
        shots.append(("file://" + real, os.path.join(REPO, "reports", "index.png")))
    for url, png in shots:
        browser.open(url)
        browser.screenshot(png)
        with open(png, "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(head[16:20], "big") == 1280
