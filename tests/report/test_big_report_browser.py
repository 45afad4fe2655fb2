"""The page of a big input in a real browser (headless Debian chromium): sections for the top players and the
chosen games only, every in-page link finds its section, the standings still sort on a click, the long
charts (hundreds of games a player) are drawn through a bounded number of points, and no errors. Skipped when
chromium is not installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import analyzer
from analyzer.report import ReportOptions, build_report
from analyzer.report.svg import CHART_POINTS, TOOLTIP_POINTS
from benchmarks.gamegen import generate

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

FIRST = """<script>window.__errors=[];
window.addEventListener('error',function(e){__errors.push('error: '+e.message)});
var __ce=console.error;console.error=function(){__errors.push('console: '+[].join.call(arguments,' '));
__ce.apply(console,arguments)};</script>"""
LAST = """<script>(function(){
function all(q, f){return Array.prototype.map.call(document.querySelectorAll(q), f)}
var seen={};
seen.players=all('section.player', function(s){return s.id});
seen.games=all('section.game', function(s){return s.id});
seen.dead=all('a[href^="#"]', function(a){return a.getAttribute('href').slice(1)})
  .filter(function(id){return !document.getElementById(id)});
seen.unlisted=document.querySelectorAll('.unlisted').length;
seen.summarised=document.querySelector('p.summarised') ? document.querySelector('p.summarised').textContent : '';
seen.standings=document.querySelectorAll('#standings tbody tr').length;
document.querySelectorAll('#standings th')[2].click();
seen.games_down=all('#standings tbody tr', function(r){return parseInt(r.cells[2].textContent)});
seen.lines=all('section.player svg.chart.line', function(svg){
  var line=svg.querySelector('polyline'); return {points: line.points.numberOfItems,
    tips: svg.querySelectorAll('circle').length, height: svg.getBoundingClientRect().height}});
seen.errors=window.__errors;
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


def seen_in_browser(page: str, tmp_path: Path) -> dict:
    path = tmp_path / "report.html"
    path.write_text(page.replace("<head>", "<head>" + FIRST, 1).replace("</body>", LAST + "</body>", 1),
                    encoding="utf-8")
    run = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000", "--dump-dom",
         path.as_uri()], capture_output=True, text=True, timeout=120)
    match = re.search(r'<pre id="harness">(.*?)</pre>', run.stdout, re.S)
    assert match, f"no harness output; chromium said: {run.stderr[-2000:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))


def test_a_limited_page_in_chromium(tmp_path):
    result = analyzer.score(generate(5000, seed=5, players=6), "tenhou")  # hundreds of games a player
    games = result.games["game_id"].n_unique()
    assert result.players["games"].min() > CHART_POINTS  # every player's charts are thinned
    seen = seen_in_browser(build_report(result, options=ReportOptions(max_players=2, max_games=10)), tmp_path)
    assert seen["players"] == [f"player-{p}" for p in result.players.sort("rank")["player"].head(2)]
    assert len(seen["games"]) == 10
    assert seen["dead"] == [] and seen["unlisted"] > 0
    assert "2 of 6 players" in seen["summarised"] and f"10 of {games:,} games" in seen["summarised"]
    assert seen["standings"] == 6 and seen["games_down"] == sorted(seen["games_down"], reverse=True)
    assert len(seen["lines"]) == 2 * 2  # cumulative points and rating of each player shown
    for line in seen["lines"]:
        assert 2 < line["points"] <= CHART_POINTS + TOOLTIP_POINTS + 2
        assert 2 < line["tips"] <= TOOLTIP_POINTS + 2 and line["height"] > 50
    assert seen["errors"] == []
