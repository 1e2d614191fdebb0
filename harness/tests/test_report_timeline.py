# SPDX-License-Identifier: MIT
"""The report page shows the timeline of each failing kernel vector (issue
17, item 3): a KSP vector made to FAIL (vectors/ksp/sim/small.kvec with a
wrong expected count, in a folder of its own through KSP_VECTORS) has its
trace built by 'kvecrun --run ID --trace-out', drawn by 'tracedump --svg'
(harness/reporting/kvec_timelines.py) and shown inline under its failure
(report_html.py); a vector that passes has none.  The page stays
well-formed XML; headless Chromium draws the picture, screenshot into
reports/export/report-timeline.png (and the timeline alone into
reports/export/report-timeline-svg.png)."""

import copy
import os
import shutil
import subprocess

import pytest

import headless_chromium
import png_pixels
from conftest import REPO, fake_tree, load, run_runner
from reporting import kvec_timelines, report_html

BUILD = os.path.join(REPO, "build")
KVECRUN = os.path.join(BUILD, "harness", "kvecrun")
TRACEDUMP = os.path.join(BUILD, "bin", "tracedump")
CHROMIUM = headless_chromium.find()
VECTOR = "ksp.sim.small"

# The slow tier ('make check-full'; conftest.py): runs kvecrun and headless Chromium.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (os.access(KVECRUN, os.X_OK) and os.access(TRACEDUMP, os.X_OK)),
    reason="build/harness/kvecrun and build/bin/tracedump are not built ('make kvecrun')")]


@pytest.fixture(scope="module")
def failing_vectors(tmp_path_factory):
    """A vectors folder whose ksp.sim.small FAILs (one expected figure wrong)."""
    folder = tmp_path_factory.mktemp("ksp") / "sim"
    folder.mkdir()
    src = os.path.join(REPO, "vectors", "ksp", "sim")
    shutil.copy(os.path.join(src, "small.dump"), str(folder))
    text = open(os.path.join(src, "small.kvec")).read()
    assert "expect summary dropped_events 213" in text
    (folder / "small.kvec").write_text(text.replace("expect summary dropped_events 213",
                                                    "expect summary dropped_events 214"))
    return str(folder.parent)


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    """A report of the fake tests, with the kernel vector's result added to a failing rule."""
    env = fake_tree(tmp_path_factory.mktemp("page"))
    run_runner(env, "--timeout", "2", "-j", "2")
    return load(env)


def with_vector(doc, result, message):
    d = copy.deepcopy(doc)
    fail = next(t for t in d["tests"] if t["id"] == "fake.fail")
    d["tests"].append(dict(fail, id=VECTOR, executable="kvecrun", result=result,
                           message=message))
    rule = next(r for r in d["rules"] if r["id"] == "r.fail")
    rule["failures"].append({"test": VECTOR, "result": result, "message": message})
    return d


def run_vector(vectors):
    p = subprocess.run([KVECRUN, "--run", VECTOR], stdout=subprocess.PIPE,
                       env=dict(os.environ, KSP_VECTORS=vectors), universal_newlines=True,
                       timeout=120)
    return p.stdout.strip().splitlines()[-1]


def test_a_failing_vector_gets_its_timeline(doc, failing_vectors, monkeypatch, tmp_path):
    last = run_vector(failing_vectors)
    assert last.startswith("RESULT FAIL"), last
    monkeypatch.setenv("KSP_VECTORS", failing_vectors)
    d = with_vector(doc, "FAIL", last[len("RESULT FAIL "):])
    pictures = kvec_timelines.timelines(d, BUILD)
    assert list(pictures) == [VECTOR]
    svg = pictures[VECTOR]
    assert svg.startswith("<svg") and 'class="dropped"' in svg
    assert svg.count('<g class="lane"') == 2                 # the vector's 2 CPUs
    path = str(tmp_path / "index.html")
    report_html.write(d, path, pictures)
    page = open(path, encoding="utf-8").read()
    failure = page[page.index('id="failure-r.fail"'):]
    assert failure.index(VECTOR) < failure.index('<div class="timeline"><svg')
    assert page.count("<svg") == 1
    if shutil.which("xmllint"):
        p = subprocess.run(["xmllint", "--noout", path], stderr=subprocess.PIPE)
        assert p.returncode == 0, p.stderr
    shutil.copy(path, os.path.join(reports_export(), "report-timeline.html"))
    if CHROMIUM is not None:
        look_in_chromium(path, tmp_path)


def test_a_passing_vector_gets_none(doc, monkeypatch):
    monkeypatch.delenv("KSP_VECTORS", raising=False)
    d = with_vector(doc, "PASS", "12 checks")
    d["rules"] = [r for r in d["rules"]]
    assert kvec_timelines.timelines(d, BUILD) == {}
    d = with_vector(doc, "FAIL", "no such build")
    assert kvec_timelines.timelines(d, "/nonexistent/build") == {}


def reports_export():
    folder = os.path.join(REPO, "reports", "export")
    os.makedirs(folder, exist_ok=True)
    return folder


def look_in_chromium(path, tmp_path):
    """Chromium lays the picture out at the page's width and paints it: the
    screenshot of the timeline has ink in each CPU lane."""
    b = headless_chromium.Browser(CHROMIUM, str(tmp_path / "profile"))
    try:
        b.size(1280, 1000)
        b.open("file://" + path)
        box = b.eval("""(() => {
          const f = document.getElementById('failure-r.fail');
          const s = f.querySelector('.timeline svg');
          const fr = f.getBoundingClientRect(), sr = s.getBoundingClientRect();
          return { fx: fr.left + scrollX, fy: fr.top + scrollY, fw: fr.width, fh: fr.height,
                   sx: sr.left + scrollX, sy: sr.top + scrollY, sw: sr.width, sh: sr.height };
        })()""")
        assert box["sw"] > 600 and box["sh"] > 100, box
        import base64
        for name, (x, y, w, h) in (("report-timeline.png", ("fx", "fy", "fw", "fh")),
                                   ("report-timeline-svg.png", ("sx", "sy", "sw", "sh"))):
            shot = b.page("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": box[x], "y": box[y], "width": box[w], "height": box[h],
                         "scale": 1}})
            out = os.path.join(reports_export(), name)
            with open(out, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        width, height, rows = png_pixels.read(out)
        inked = sum(1 for row in rows for px in row
                    if px not in ((255, 255, 255), (0xf6, 0xf8, 0xfa)))
        assert inked > width * height // 20, (inked, width, height)
    finally:
        b.close()
