"""The parts of the command line's messages say what they name: the kinds of note of a sheet (not their
values), the rows of a wide sheet counted alike by ``score`` and ``check``, a reason of a wide row said once
however many of its seat columns it rejects, and a ``--ratings-from`` table without ratings."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from click.testing import CliRunner

import analyzer
from analyzer.cli import main

DATA = Path(__file__).parents[1] / "data"
WIDE = DATA / "sheet_wide.csv"  # 16 rows, one per table
# a wide sheet of three tables: one settled, one with a player twice, one with three players at four seats
WIDE_REJECTS = """\
session,table,game_id,player_0,final_score_0,player_1,final_score_1,player_2,final_score_2,player_3,final_score_3
1,1,T1,Ana,41200,Ben,28900,Cho,19800,Dai,30100
1,2,T2,Eve,30000,Fay,30000,Eve,30000,Gus,30000
2,1,T3,Ana,30000,Ben,30000,Cho,30000,,
"""


def test_the_notes_of_a_sheet_are_counted_by_their_kind():
    result = analyzer.check(str(DATA / "sheet_check.csv"), "ema")
    assert result.notes_text() == "1 note: missed_session 1"  # Fay plays no game in session 2
    out = CliRunner().invoke(main, ["check", str(DATA / "sheet_check.csv"), "--rules", "ema", "--show", "0"])
    assert "1 note: missed_session 1 — --notes to list them" in out.output


def test_a_wide_sheet_counts_its_rows_alike_in_score_and_check(tmp_path):
    scored = CliRunner().invoke(main, ["score", str(WIDE), "-o", str(tmp_path / "out"), "--top", "0"])
    checked = CliRunner().invoke(main, ["check", str(WIDE), "--show", "0"])
    assert "rows read: 16 = scored 16 + rejected 0" in scored.output
    assert "16 rows, 16 games:" in checked.output
    sheet = tmp_path / "wide.csv"
    sheet.write_text(WIDE_REJECTS, encoding="utf-8")
    assert analyzer.check(str(sheet), "ema").rows_read == analyzer.score(str(sheet), "ema").rows_read == 3


def test_a_reason_of_a_wide_row_is_said_once_with_its_count(tmp_path):
    sheet = tmp_path / "wide.csv"
    sheet.write_text(WIDE_REJECTS, encoding="utf-8")
    out = CliRunner().invoke(main, ["score", str(sheet), "--rules", "ema", "-o", str(tmp_path / "out")])
    line = next(line for line in out.output.splitlines() if "rejected —" in line)
    assert line.count("at the table twice") == 1 and line.count("another number of players") == 1, line
    assert "1× player: a player is at the table twice (Eve)" in line and "more reason" not in line
    reasons = analyzer.score(str(sheet), "ema").reject_reasons  # under the column of the long form, as its rows
    assert reasons.select("column", "rows").rows() == [("player", 1), ("player", 1)]


def test_a_ratings_table_without_ratings_says_so(tmp_path):
    mine = tmp_path / "mine.csv"
    pl.DataFrame({"player": ["Ana"], "games": [3]}).write_csv(mine)
    out = CliRunner().invoke(main, ["score", "sample_logs/csv", "-o", str(tmp_path / "out"),
                                    "--ratings-from", str(mine)])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert out.output == ("error: --ratings-from: the table holds no ratings: give the players table of a run"
                          " with --ratings tenhou\n")
