# SPDX-License-Identifier: MIT
"""tracedump --svg FILE (issue 17, item 3; reference/dump/export_svg.c): a
per-CPU timeline as one self-contained SVG.  rsvg-convert (librsvg2-bin,
'make deps') renders it, and every CPU lane of the picture has coloured
pixels (not only its background); the legend names the classes; the axis
is in seconds; DROPPED and buffer wraps are marked; a larger trace gives a
picture no larger (bucketed, not one element an event).  The pictures are
kept in reports/export/ (timeline-*.png).

The 10-million-event figures (size, time to write and render) are measured
by 'make export-measure' (mk/export.mk), not here: it takes a minute."""

import os
import re
import shutil
import subprocess

import pytest

import export_common as ec
import png_pixels

RSVG = shutil.which("rsvg-convert")

pytestmark = [
    ec.NEEDS_TOOLS,
    pytest.mark.skipif(RSVG is None, reason="rsvg-convert is not installed (librsvg2-bin, "
                       "'make deps' installs it): the SVG is not rendered"),
]

BACKGROUNDS = {(255, 255, 255), (0xf6, 0xf8, 0xfa)}
X0, PLOT_W = 96, 1080


@pytest.fixture(scope="module")
def sims(tmp_path_factory):
    return ec.make_sims(tmp_path_factory.mktemp("sims"))


def svg_of(path, out_dir):
    svg = os.path.join(str(out_dir), os.path.basename(path) + ".svg")
    with open(svg, "wb") as f:
        f.write(ec.tracedump("--svg", path).stdout)
    return svg


def render(svg, png):
    subprocess.run([RSVG, "-o", png, svg], check=True, timeout=120)
    return png_pixels.read(png)


def lanes(svg_text):
    return [(int(c), int(y), int(h)) for c, y, h in
            re.findall(r'<g class="lane" data-cpu="(-?\d+)" data-y="(\d+)" data-h="(\d+)">',
                       svg_text)]


def inked(rows, y, h):
    """Pixels of the lane's plot that are not background."""
    return sum(1 for yy in range(y, y + h) for x in range(X0, X0 + PLOT_W)
               if rows[yy][x] not in BACKGROUNDS)


def check_picture(path, tmp_path, keep_as, least=1):
    svg = svg_of(path, tmp_path)
    text = open(svg).read()
    assert text.startswith("<?xml") and "<script" not in text and "href" not in text
    png = os.path.join(ec.reports_dir(), keep_as)
    w, h, rows = render(svg, png)
    assert w == 1200
    found = lanes(text)
    assert found, "no lane in the picture"
    for cpu, y, lh in found:
        n = inked(rows, y, lh)
        assert n >= least, "CPU %d's lane is empty (%d pixels)" % (cpu, n)
    assert "time since the first event (s)" in text
    return text, found


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.parametrize("name", sorted(ec.SIMS))
def test_kernel_timeline_renders_every_cpu(name, sims, tmp_path):
    text, found = check_picture(sims[name], tmp_path, "timeline-%s.png" % name, least=20 * 40)
    doc = ec.dump_json(sims[name])
    assert sorted(c for c, _, _ in found) == sorted({e["cpu"] for e in doc["events"]})
    for cls in {e["class_name"] for e in doc["events"]}:
        assert re.search(r"<text [^>]*>%s \d+</text>" % cls, text), cls     # the legend
    drops = sum(1 for e in doc["events"] if e["name"] == "DROPPED")
    assert ("DROPPED %d<" % drops) in text
    assert (text.count('class="dropped"') > 0) == (drops > 0)
    if name == "sim-ring.kev":
        assert 'class="wrap"' in text


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.parametrize("log", ec.GOLDEN_LOGS, ids=os.path.basename)
def test_posix_log_timeline_renders(log, tmp_path):
    check_picture(log, tmp_path, "timeline-%s.png" % os.path.basename(log))


def test_more_events_no_larger_picture(tmp_path):
    """Bucketed: however many events, at most 60000 bars (MAX_BARS) and a
    path a lane and class; the file stays well under 2 MB."""
    for n in (20000, 200000):
        kev = str(tmp_path / ("n%d.kev" % n))
        subprocess.run([ec.TRACESIM, "-q", "-o", kev, "--cpus", "4", "--events", str(n),
                        "--buffers", "64"], check=True, timeout=300)
        text = open(svg_of(kev, tmp_path)).read()
        assert text.count("h1v") <= 60000
        assert text.count("<path") < 100 + 4 * 2 * 1024     # a lane and class, marks
        assert len(text) < 2000000


def test_the_lane_check_can_fail(tmp_path):
    """A lane with nothing drawn in it is seen as empty."""
    svg = tmp_path / "empty.svg"
    svg.write_text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1200" '
                   'height="120"><rect width="1200" height="120" fill="#ffffff"/>'
                   '<g class="lane" data-cpu="0" data-y="50" data-h="40"><rect x="96" y="50" '
                   'width="1080" height="40" fill="#f6f8fa"/></g></svg>')
    _, _, rows = render(str(svg), str(tmp_path / "empty.png"))
    assert inked(rows, 50, 40) == 0
