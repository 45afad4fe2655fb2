"""The report's play parts in a real browser (headless Debian chromium), on the shared real logs: the table's
shanten by turn drawn, with its legend and a tooltip per piece, and each player's play block, all inside the
window at a desktop and a narrow width; no errors. The page is loaded with a script that records errors first
and one that writes what it saw as JSON last (``--dump-dom``), as in test_report_browser.py."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.report import build_report
from analyzer.report.glossary import PLAY_GROUPS
from analyzer.report.play import BANDS
from tests.report.play_runs import real_events, shared_run  # noqa: F401  (fixtures)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

FIRST = """<script>window.__errors=[];
window.addEventListener('error',function(e){__errors.push('error: '+e.message)});
var __ce=console.error;console.error=function(){__errors.push('console: '+[].join.call(arguments,' '));
__ce.apply(console,arguments)};</script>"""
LAST = """<script>(function(){
function all(q, root, f){return Array.prototype.map.call((root||document).querySelectorAll(q), f)}
function box(e){var r=e.getBoundingClientRect();return {left:r.left,right:r.right,width:r.width,height:r.height}}
var seen={width:document.documentElement.clientWidth}, play=document.getElementById('play');
seen.nav=all('nav a', null, function(a){return a.getAttribute('href')});
seen.figures=play ? all('figure', play.nextElementSibling.nextElementSibling, function(f){return {
  box: box(f), chart: box(f.querySelector('svg')), pieces: f.querySelectorAll('rect > title').length,
  points: f.querySelectorAll('circle > title').length,
  keys: all('.legend .key', f, function(k){return k.textContent})}}) : [];
seen.blocks=all('section.player', null, function(s){var b=s.querySelector('.play');
  return b ? {box: box(b), groups: all('.group h4', b, function(h){return h.textContent}),
    untitled: all('.stat', b, function(d){return d.getAttribute('title')}).filter(function(t){return !t}).length,
    deal_in_chart: (function(c){return c ? box(c) : null})(b.querySelector('.deal-in-shanten svg')),
    widest: Math.max.apply(null, all('.group, svg', b, function(e){return e.getBoundingClientRect().right}))}
    : null});
seen.errors=window.__errors;
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


def seen_in_browser(page: str, tmp_path: Path, width: int) -> dict:
    wrapped = page.replace("<head>", "<head>" + FIRST, 1).replace("</body>", LAST + "</body>", 1)
    path = tmp_path / f"play-{width}.html"
    path.write_text(wrapped, encoding="utf-8")
    run = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},900",
         "--virtual-time-budget=5000", "--dump-dom", path.as_uri()],
        capture_output=True, text=True, timeout=180,
    )
    match = re.search(r'<pre id="harness">(.*?)</pre>', run.stdout, re.S)
    assert match, f"no harness output; chromium said: {run.stderr[-2000:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))


def test_the_play_parts_of_the_shared_logs_report_in_chromium(shared_run, tmp_path):
    result, events = shared_run
    seen = seen_in_browser(build_report(result, events=events.lazy()), tmp_path, 1100)
    assert seen["errors"] == []
    assert "#play" in seen["nav"]
    shares, mean = seen["figures"]
    assert shares["keys"] == list(BANDS) and shares["pieces"] % len(BANDS) == 0 and shares["pieces"] >= 90
    assert mean["points"] >= 18  # a point with its tooltip per turn drawn
    for figure in (shares, mean):
        assert figure["chart"]["height"] > 150 and figure["chart"]["width"] > 400
        assert figure["box"]["right"] <= seen["width"]
    assert shares["box"]["right"] <= mean["box"]["left"]  # side by side at a desktop width
    blocks = seen["blocks"]
    assert len(blocks) == result.players.height and all(blocks)
    groups = [name for name, _ in PLAY_GROUPS] + ["deal-ins by shanten"]
    for block in blocks:
        assert block["groups"] == groups and block["untitled"] == 0
        assert block["box"]["height"] > 150 and block["widest"] <= seen["width"]
    charts = [b["deal_in_chart"] for b in blocks if b["deal_in_chart"]]
    assert len(charts) > 20 and all(c["height"] > 100 for c in charts)


def test_the_play_parts_fit_a_narrow_window(shared_run, tmp_path):
    result, events = shared_run
    player = result.players.sort("games", descending=True)["player"][0]
    seen = seen_in_browser(build_report(result, players=[player], events=events.lazy()), tmp_path, 600)
    assert seen["errors"] == []
    shares, mean = seen["figures"]
    for figure in (shares, mean):  # scaled down to the window, one under the other
        assert 0 < figure["box"]["right"] <= seen["width"] and figure["chart"]["height"] > 100
    assert mean["box"]["left"] < shares["box"]["right"]
    (block,) = seen["blocks"]
    assert block["widest"] <= seen["width"] and block["deal_in_chart"]["height"] > 80
