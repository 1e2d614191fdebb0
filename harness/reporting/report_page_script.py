# SPDX-License-Identifier: MIT
"""The inline script of reports/index.html: the filter, the search and the anchors.

Kept apart from report_html.py, which writes the page's content.  The page must
work without it (everything is shown, every <details> open), so the script only
hides, collapses and wires up what the HTML already holds:

- every element of class "f" is an item of the filter: data-v its verdict(s),
  data-o its option(s), data-fn its function(s) (space-separated), data-s the
  lower-case text the search box looks in;
- an element of class "grp" (a <details> group or a function's row) is hidden
  when none of its items is shown; a group with data-closed is collapsed while
  no filter is active (the all-pass groups, the long list of tests);
- the state lives in the URL: index.html#verdict=FAIL,UNRESOLVED&option=TRC&
  function=posix_trace_clear&q=clear (or the same after '?'), so that a link
  shows a filtered page and a test can drive the page without clicking;
- a fragment without '=' is an anchor (#rule-ID, #test-ID): the script opens
  the <details> around it, and clears a filter that hides it.

No '<' or '&' appear in it, so that the page stays well-formed for xmllint.
"""

SCRIPT = r"""
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  var boxes = form.querySelectorAll("input[name=verdict]");
  var option = form.querySelector("select[name=option]");
  var fn = form.querySelector("select[name=function]");
  var q = form.querySelector("input[name=q]");
  var shown = document.getElementById("shown");
  form.hidden = false;
  /* Open for a reader without the script; folded away with it. */
  Array.prototype.forEach.call(document.querySelectorAll("details.fold"),
                               function (d) { d.open = false; });

  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function has(words, w) { return (" " + words + " ").indexOf(" " + w + " ") !== -1; }
  var AMP = String.fromCharCode(38);       /* the separator of URL parameters */

  function parseUrl() {
    var p = {}, parts = [location.search.slice(1)];
    if (location.hash.indexOf("=") !== -1) { parts.push(location.hash.slice(1)); }
    parts.forEach(function (part) {
      part.split(AMP).forEach(function (kv) {
        var i = kv.indexOf("=");
        if (i === -1) { return; }
        p[decodeURIComponent(kv.slice(0, i))] =
          decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " "));
      });
    });
    return p;
  }

  function setFromUrl() {
    var p = parseUrl();
    var vs = p.verdict ? p.verdict.toUpperCase().split(",") : null;
    each(boxes, function (b) { b.checked = vs === null || vs.indexOf(b.value) !== -1; });
    option.value = p.option || "";
    if (option.value !== (p.option || "")) { option.value = ""; }
    fn.value = p["function"] || "";
    if (fn.value !== (p["function"] || "")) { fn.value = ""; }
    q.value = p.q || "";
  }

  /* Not form.reset(): its event would apply the filter again later, and fold
     what reveal() opens. */
  function clear() {
    each(boxes, function (b) { b.checked = true; });
    option.value = fn.value = q.value = "";
  }

  function state() {
    var st = { v: {}, all: true, o: option.value, fn: fn.value,
               words: q.value.toLowerCase().split(/\s+/).filter(Boolean) };
    each(boxes, function (b) { st.v[b.value] = b.checked; if (!b.checked) { st.all = false; } });
    st.active = !st.all || st.o !== "" || st.fn !== "" || st.words.length > 0;
    return st;
  }

  function matches(el, st) {
    var verdicts = (el.getAttribute("data-v") || "").split(" ");
    if (!verdicts.some(function (v) { return st.v[v]; })) { return false; }
    if (st.o !== "" ? !has(el.getAttribute("data-o") || "", st.o) : false) { return false; }
    if (st.fn !== "" ? !has(el.getAttribute("data-fn") || "", st.fn) : false) { return false; }
    var text = el.getAttribute("data-s") || "";
    return st.words.every(function (w) { return text.indexOf(w) !== -1; });
  }

  function toUrl(st) {
    var p = [];
    if (!st.all) {
      p.push("verdict=" + Object.keys(st.v).filter(function (v) { return st.v[v]; }).join(","));
    }
    if (st.o) { p.push("option=" + encodeURIComponent(st.o)); }
    if (st.fn) { p.push("function=" + encodeURIComponent(st.fn)); }
    if (q.value.trim()) { p.push("q=" + encodeURIComponent(q.value.trim())); }
    return p.join(AMP);
  }

  function apply(updateUrl) {
    var st = state();
    each(document.querySelectorAll(".f"), function (el) { el.hidden = !matches(el, st); });
    each(document.querySelectorAll(".grp"), function (g) {
      var n = g.querySelectorAll(".f:not([hidden])").length;
      g.hidden = n === 0 ? st.active : false;
      if (g.tagName === "DETAILS") {
        g.open = st.active ? n > 0 : !g.hasAttribute("data-closed");
      }
    });
    var rules = document.querySelectorAll("tr.rule-row:not([hidden])").length;
    var tests = document.querySelectorAll("tr.test-row:not([hidden])").length;
    shown.setAttribute("data-rules", rules);
    shown.setAttribute("data-tests", tests);
    shown.textContent = "Shown: " + rules + " of " + shown.getAttribute("data-rules-total") +
      " rules, " + tests + " of " + shown.getAttribute("data-tests-total") + " tests";
    if (updateUrl) {
      var frag = toUrl(st);
      history.replaceState(null, "", location.pathname + (frag ? "#" + frag : ""));
    }
  }

  /* An anchor (#rule-ID, #test-ID): show it even if the filter hid it. */
  function reveal() {
    if (location.hash.length === 0 || location.hash.indexOf("=") !== -1) { return; }
    var el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!el) { return; }
    for (var p = el; p; p = p.parentElement) {
      if (p.hidden) { clear(); apply(false); break; }
    }
    for (p = el; p; p = p.parentElement) { if (p.tagName === "DETAILS") { p.open = true; } }
    el.scrollIntoView();
  }

  form.addEventListener("input", function () { apply(true); });
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(function () { apply(true); }, 0); });
  window.addEventListener("hashchange", function () {
    if (location.hash.indexOf("=") !== -1) { setFromUrl(); apply(false); } else { reveal(); }
  });

  each(document.querySelectorAll("button.copy"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var code = document.getElementById(b.getAttribute("data-for"));
      var done = function () { b.textContent = "copied"; };
      /* Where the clipboard API is missing or refused (a file:// page, a
         document without focus): select the command and copy the old way. */
      var selectAndCopy = function () {
        var r = document.createRange();
        r.selectNodeContents(code);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(r);
        document.execCommand("copy");
        done();
      };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(code.textContent).then(done, selectAndCopy);
      } else {
        selectAndCopy();
      }
    });
  });

  setFromUrl();
  apply(false);
  reveal();
  document.documentElement.setAttribute("data-filter-ready", "yes");
})();
"""
