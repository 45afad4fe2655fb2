"""The tournament report in a real browser (headless Debian chromium): the 48-player, 8-session sheet with its
planted mistakes (tests/tournament_sheet.py) — standings by session in rank order, one line per player in the
rank chart, the team standings, every finding, the who-met-whom square, sorting on click, no errors.

The page is wrapped as tests/report/test_report_browser.py does it: a script first records errors, a script
last reads the page and writes what it saw as JSON into the DOM, which ``--dump-dom`` prints.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.report import build_report

sys.path.insert(0, str(Path(__file__).parents[1]))
from tournament_sheet import generate, plant  # noqa: E402  (a helper of the tests, beside them)
from report.test_report_browser import CHROMIUM, _seen_in_browser  # noqa: E402

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

LAST = """<script>(function(){
function cells(sel, i){return Array.prototype.map.call(document.querySelectorAll(sel+' tbody tr'),
  function(r){return r.cells[i].textContent})}
var seen={};
seen.standings=cells('#session-standings', 1);
seen.rank_lines=document.querySelectorAll('svg.ranks polyline.rank-line').length;
seen.teams=cells('#team-standings', 1);
seen.findings=cells('#findings', 0);
seen.matrix_rows=document.querySelectorAll('#who-met-whom tbody tr').length;
seen.matrix_cells=document.querySelectorAll('#who-met-whom td.met').length;
var heads=document.querySelectorAll('#session-standings th');
heads[heads.length-1].click(); seen.points_down=cells('#session-standings', heads.length-1);
seen.errors=window.__errors;
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    sheet, *_ = plant(generate())
    path = tmp_path_factory.mktemp("tournament") / "sheet.csv"
    sheet.write_csv(path)
    return analyzer.check(str(path), "ema")


def test_the_tournament_report_in_chromium(checked, tmp_path, monkeypatch):
    import report.test_report_browser as harness

    monkeypatch.setattr(harness, "LAST", LAST)
    page = build_report(checked.scored, findings=checked.findings)
    seen, _ = _seen_in_browser(page, tmp_path)
    players = checked.scored.players.sort("rank", "player")
    assert seen["standings"] == players["player"].to_list()
    assert seen["rank_lines"] == 48
    assert seen["teams"] == checked.scored.teams["team"].to_list() and len(seen["teams"]) == 12
    assert seen["findings"] == checked.findings["kind"].to_list() and len(seen["findings"]) == 12
    assert seen["matrix_rows"] == 48 and seen["matrix_cells"] == 48 * 47
    points = [float(p) for p in seen["points_down"]]
    assert points == sorted(points, reverse=True)
    assert seen["errors"] == []


def test_the_report_of_hand_records_has_no_tournament_sections():
    page = build_report(analyzer.score("sample_logs/csv"))
    assert 'id="session-standings"' not in page and 'id="who-met-whom"' not in page


def test_the_command_line_writes_the_tournament_report(checked, tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    sheet = tmp_path / "sheet.csv"
    plant(generate())[0].write_csv(sheet)
    out = tmp_path / "report.html"
    run = CliRunner().invoke(main, ["report", str(sheet), "--rules", "ema", "-o", str(out)])
    assert run.exit_code == 1, run.output  # the two tables that cannot be settled: rejected rows
    page = out.read_text(encoding="utf-8")
    assert 'id="session-standings"' in page and 'id="findings"' in page and "P19 is at this table twice" in page
    run = CliRunner().invoke(main, ["score", str(sheet), "--rules", "ema", "-o", str(tmp_path / "out"),
                                    "--report", str(tmp_path / "score.html")])
    assert "P19 is at this table twice" in (tmp_path / "score.html").read_text(encoding="utf-8")
    assert pl.read_parquet(tmp_path / "out" / "sessions.parquet").height == 48 * 8
