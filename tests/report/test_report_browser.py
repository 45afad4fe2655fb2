"""The report page in a real browser (headless Debian chromium): what it shows, sorting on click, no errors.

The page is loaded with two small scripts around it: one first, recording uncaught errors and console
errors; one last, reading the standings, counting the charts, clicking headers, and writing what it saw as
JSON into the DOM, which ``--dump-dom`` prints. Skipped when chromium is not installed (``make test``
installs it where it can).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.report import build_report

DATA = Path(__file__).parents[1] / "data" / "stats_game.csv"
SAMPLE = Path(__file__).parents[2] / "sample_logs" / "csv"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

FIRST = """<script>window.__errors=[];
window.addEventListener('error',function(e){__errors.push('error: '+e.message)});
var __ce=console.error;console.error=function(){__errors.push('console: '+[].join.call(arguments,' '));
__ce.apply(console,arguments)};</script>"""
LAST = """<script>(function(){
function names(){return Array.prototype.map.call(document.querySelectorAll('#standings tbody tr'),
  function(r){return r.cells[1].textContent})}
function column(i){return Array.prototype.map.call(document.querySelectorAll('#standings tbody tr'),
  function(r){return r.cells[i].textContent})}
var heads=document.querySelectorAll('#standings th'), seen={};
seen.initial=names();
seen.sections=document.querySelectorAll('section.player').length;
seen.players_with_charts=Array.prototype.filter.call(document.querySelectorAll('section.player'),
  function(s){return s.querySelectorAll('svg.chart:not(.rating)').length===2 && s.querySelector('svg rect')}).length;
seen.players_with_rating_charts=Array.prototype.filter.call(document.querySelectorAll('section.player'),
  function(s){var c=s.querySelector('svg.chart.rating');
    return c && c.getBoundingClientRect().height>50 && c.querySelectorAll('circle').length>1}).length;
seen.rating_column=Array.prototype.map.call(document.querySelectorAll('#standings thead th'),
  function(h){return h.textContent}).indexOf('rating');
seen.game_charts=document.querySelectorAll('section.game svg.chart.line polyline').length;
heads[1].click(); seen.by_name_down=names();
heads[1].click(); seen.by_name_up=names();
heads[3].click(); seen.points_down=column(3);
seen.chart_height=document.querySelector('section.player svg.chart').getBoundingClientRect().height;
seen.errors=window.__errors;
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


def _seen_in_browser(page: str, tmp_path: Path) -> tuple[dict, str]:
    wrapped = page.replace("<head>", "<head>" + FIRST, 1).replace("</body>", LAST + "</body>", 1)
    path = tmp_path / "report.html"
    path.write_text(wrapped, encoding="utf-8")
    run = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000", "--dump-dom", path.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    match = re.search(r'<pre id="harness">(.*?)</pre>', run.stdout, re.S)
    assert match, f"no harness output; chromium said: {run.stderr[-2000:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">")), run.stderr


@pytest.fixture(scope="module")
def sample():
    return analyzer.score(str(SAMPLE))


def test_the_sample_report_in_chromium(sample, tmp_path):
    seen, log = _seen_in_browser(build_report(sample), tmp_path)
    players = sample.players
    assert seen["initial"] == players.sort("rank")["player"].to_list()
    assert seen["sections"] == seen["players_with_charts"] == players.height
    # the rating: a chart per player (a point per game and the start), a column of the standings
    assert seen["players_with_rating_charts"] == players.height
    assert seen["rating_column"] > 0
    assert seen["game_charts"] == 4 * sample.games["game_id"].n_unique()
    assert seen["by_name_down"] == sorted(players["player"], reverse=True)
    assert seen["by_name_up"] == sorted(players["player"])
    points = [float(p) for p in seen["points_down"]]
    assert points == sorted(points, reverse=True)
    assert seen["chart_height"] > 50
    assert seen["errors"] == []
    assert not re.search(r"Uncaught|CONSOLE.*error", log, re.I)


def test_escaped_names_stay_text_in_chromium(tmp_path):
    evil = "<img src=x onerror=alert(1)>"
    rows = pl.read_csv(DATA, infer_schema=False).with_columns(
        pl.col(c).str.replace("Baba", evil, literal=True) for c in ("player_1", "winner", "loser", "riichi", "tenpai")
    )
    seen, _ = _seen_in_browser(build_report(analyzer.score(rows, "tenhou")), tmp_path)
    assert evil in seen["initial"]
    assert seen["errors"] == []
