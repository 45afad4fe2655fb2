"""A 48-player, 8-session tournament sheet (tests/tournament_sheet.py, EMA rules) with planted mistakes:
``check`` names exactly the games and players that hold them, and nothing else; the standings and the team
totals equal a hand count. The sheet is checked in partitions of 40 rows, so a session's tables lie in
different partitions.

The mistakes (planted by tests/tournament_sheet.py's ``plant``), one or two per session:

1. S2-T03: the top player's final score written 1000 too high — the table adds up to 121000, and that
   player's recorded points no longer follow;
2. S3-T05: a recorded game points value 1.0 off;
3. S4-T01: a recorded place wrong;
4. S5-T07: a row left out — a table of three, and its player misses session 5 (a note);
5. S6-T02: the player of seat 0 written as the player of S6-T09's seat 0 — who then plays two tables in
   session 6, while the one left out misses it (a note);
6. S7-T04: the player of seat 1 written as the player of seat 2 — a player twice at one table, and the one left
   out misses session 7 (a note);
7. S8-T06: a chombo written in after the points were worked out without it;
8. S8-T10: the player of seat 0 written into another team.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer

from tournament_sheet import generate, hand_count, plant


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    sheet, mismatches, notes, unsettled = plant(generate())
    path = tmp_path_factory.mktemp("tournament") / "sheet.csv"
    sheet.write_csv(path)
    return sheet, path, mismatches, notes, unsettled


def test_the_generated_sheet_is_clean():
    result = analyzer.check(generate(), "ema")
    assert result.findings.height == 0 and result.games == 96


def test_check_names_exactly_the_planted_mistakes(planted):
    _, path, mismatches, notes, _ = planted
    result = analyzer.check(str(path), "ema", partition_rows=40)
    assert result.run.partitions > 1
    found = set(result.mismatches.select("game_id", "player", "field").iter_rows())
    assert found == mismatches
    assert set(result.notes.select("game_id", "player", "recorded").iter_rows()) == notes
    assert result.findings.filter(pl.col("game_id").is_not_null())["source_file"].unique().to_list() == [str(path)]


def test_the_standings_and_team_totals_equal_a_hand_count(planted):
    sheet, path, _, _, unsettled = planted
    players, teams = hand_count(sheet, unsettled)
    result = analyzer.score(str(path), "ema", partition_rows=40)
    assert dict(result.players.select("player", "total_points").iter_rows()) == pytest.approx(players)
    assert dict(result.teams.select("team", "total_points").iter_rows()) == pytest.approx(teams)
    assert result.players["games"].sum() == sheet.height - 7  # the two tables that cannot be settled
    last = result.sessions.filter(pl.col("session") == "8")
    assert dict(last.select("player", "total_points").iter_rows()) == pytest.approx(players)


def test_the_command_line_exits_1_and_writes_the_findings(planted, tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    _, path, mismatches, _, _ = planted
    out = tmp_path / "findings.csv"
    run = CliRunner().invoke(main, ["check", str(path), "--rules", "ema", "-o", str(out)])
    assert run.exit_code == 1, run.output
    assert "9 mismatches in 8 games (3 notes)" in run.output  # the team finding names the game of the second team
    assert pl.read_csv(out).height == len(mismatches) + 3
