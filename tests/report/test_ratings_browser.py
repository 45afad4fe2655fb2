"""The report's rating and recorded-rank charts in headless chromium (skipped without it): each player's section
draws them with points, and the standings have a rating column."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import analyzer
from analyzer.formats.read import read_tenhou
from analyzer.report import build_report

MAJSOUL = Path(__file__).parents[1] / "data" / "majsoul"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

HARNESS = """<script>(function(){
function drawn(selector){return Array.prototype.map.call(document.querySelectorAll('section.player'),
  function(s){var c=s.querySelectorAll(selector), n=0;
    Array.prototype.forEach.call(c, function(x){ if (x.getBoundingClientRect().height>50 &&
      x.querySelectorAll('circle').length>=1) n++; }); return n;});}
var seen={rating:drawn('svg.chart.rating'), platform:drawn('svg.chart.platform'),
  headers:Array.prototype.map.call(document.querySelectorAll('table.sortable')[0].querySelectorAll('th'),
    function(h){return h.textContent})};
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


def seen(page: str, tmp_path: Path) -> dict:
    path = tmp_path / "report.html"
    path.write_text(page.replace("</body>", HARNESS + "</body>", 1), encoding="utf-8")
    run = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
                          "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120)
    match = re.search(r'<pre id="harness">(.*?)</pre>', run.stdout, re.S)
    assert match, f"no harness output; chromium said: {run.stderr[-2000:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_rating_and_recorded_rank_charts_in_chromium(tmp_path):
    hands, _ = read_tenhou([MAJSOUL])[:2]
    result = analyzer.score(hands)
    shown = seen(build_report(result), tmp_path)
    players = result.players.height
    # every player has a rating chart (four- or three-player games: one each here) and a Mahjong Soul level chart
    assert shown["rating"] == [1] * players
    assert shown["platform"] == [1] * players
    assert "rating" in shown["headers"]
