"""``check`` on a game-level sheet: every finding the issue lists, on tests/data/sheet_check.csv (EMA rules).

The sheet, worked by hand:

* S1-T1 (the issue's table): Dai 30100 is 2nd: 0.1 + 5 uma - 2 penalty = 3.1, the sheet says 2.1; the other
  recorded points (26.2, -6.1, -45.2) and every recorded place are right;
* S1-T2: 30000 + 30000 + 31000 + 30000 = 121000, not 4 x 30000; Ana also plays here, in session 1 (she is at
  S1-T1 too);
* S2-T1: three players at a four-player table, Ana among them in Blue Winds (Red Dragons before);
* S2-T2: Dai twice (rows 12 and 14);
* Fay plays in session 1 only: a note for session 2.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer

SHEET = Path(__file__).parents[1] / "data" / "sheet_check.csv"

EXPECTED = [  # (game, player, field, kind, recorded, computed, source row)
    ("S1-T2", None, "final_score_sum", "money", "121000", "120000", 5),
    ("S1-T1", "Dai", "game_points", "game_end", "2.1", "3.1", 4),
    ("S1-T2", "Ana", "session", "table", "1", None, 8),
    ("S2-T1", None, "players", "table", None, None, 9),
    ("S2-T2", "Dai", "player", "table", "Dai", None, 14),
    ("S2-T1", "Ana", "team", "table", "Red Dragons, Blue Winds", None, 9),  # where Blue Winds first appears
    (None, "Fay", "session", "note", "2", None, None),
]
EXPLANATIONS = {
    "final_score_sum": "30000 + 30000 + 31000 + 30000 = 121000; 4 players x 30000 start = 120000",
    "game_points": "(30100 - 30000)/1000 + 5 uma (2nd) - 2 penalty = 3.1",
    "players": "the table has 3 players (Ana, Ben, Cho); the rules (ema) play 4",
    "player": "Dai is at this table twice (rows 12, 14)",
    "team": "Ana is in 2 teams on the sheet: Red Dragons, Blue Winds; the first is used",
}


@pytest.fixture(scope="module")
def result():
    return analyzer.check(SHEET, "ema")


def test_every_finding_and_nothing_else(result):
    found = result.findings.select("game_id", "player", "field", "kind", "recorded", "computed", "source_row")
    assert sorted(found.iter_rows(), key=str) == sorted(EXPECTED, key=str)
    assert set(result.findings["source_file"].drop_nulls()) == {str(SHEET)}


@pytest.mark.parametrize("field", list(EXPLANATIONS))
def test_the_explanation_shows_the_arithmetic(result, field):
    assert result.findings.filter(pl.col("field") == field)["explanation"].to_list() == [EXPLANATIONS[field]]


def test_two_tables_in_one_session_names_both_games(result):
    text = result.findings.filter(pl.col("field") == "session", pl.col("kind") == "table")["explanation"].item()
    assert text == "Ana plays 2 games in session 1: S1-T1 (table 1) and S1-T2 (table 2)"


def test_the_missing_player_is_a_note_not_a_mismatch(result):
    assert result.notes["player"].to_list() == ["Fay"]
    assert not result.ok and result.mismatches.height == 6
    assert result.headline() == "15 rows, 4 games: 6 mismatches in 4 games (1 note)"


def test_rows_of_a_game_that_cannot_be_settled_are_not_listed_again(result):
    assert result.findings.filter(pl.col("kind") == "reject").height == 0
    assert result.scored.rejects.height == 7  # S2-T1's three rows and S2-T2's four


def test_a_recorded_place_that_differs():
    rows = pl.read_csv(SHEET, infer_schema=False).with_columns(
        pl.when(pl.col("player") == "Ben", pl.col("game_id") == "S1-T1").then(pl.lit("2"))
        .otherwise(pl.col("recorded_place")).alias("recorded_place"))
    found = analyzer.check(rows, "ema").findings.filter(pl.col("field") == "place")
    assert found.select("game_id", "player", "recorded", "computed").rows() == [("S1-T1", "Ben", "2", "3")]
    assert found["explanation"].item() == "28900 is 3rd of the final scores 41200, 30100, 28900, 19800"


def test_leftover_sticks_that_differ_between_rows():
    rows = pl.DataFrame({"game_id": ["G"] * 4, "player": list("ABCD"), "final_score": [30000, 30000, 29000, 29000],
                         "leftover_sticks": [2, None, 1, None]})
    found = analyzer.check(rows, "ema").findings
    assert found.select("field", "recorded", "computed").rows() == [("leftover_sticks", "1 and 2", "2")]


def test_a_clean_sheet_agrees():
    result = analyzer.check(Path(__file__).parents[1] / "data" / "sheet_sessions.csv", "ema")
    assert result.ok and result.findings.height == 0


def test_a_bad_cell_is_a_reject_finding_and_its_game_is_not_repeated():
    rows = pl.read_csv(SHEET, infer_schema=False).filter(pl.col("game_id") == "S1-T1").with_columns(
        pl.when(pl.col("player") == "Ben").then(pl.lit("28,900")).otherwise(pl.col("final_score")).alias("final_score"))
    found = analyzer.check(rows, "ema").findings
    # the other rows of the game are rejected too (the rejects table says why); the bad cell is the finding
    assert found.select("field", "kind", "source_row").rows() == [("final_score", "reject", 2)]


def test_an_unreadable_compare_only_value_is_a_finding_and_its_game_is_still_scored(tmp_path):
    """recorded_points and recorded_place are only compared: a value that cannot be read is a finding of its
    own, not a reject that takes the game out of the standings."""
    rows = pl.read_csv(SHEET, infer_schema=False).filter(pl.col("game_id") == "S1-T1").with_columns(
        pl.when(pl.col("player") == "Ben").then(pl.lit("n/a")).otherwise(pl.col("recorded_points"))
        .alias("recorded_points"),
        pl.when(pl.col("player") == "Cho").then(pl.lit("last")).otherwise(pl.col("recorded_place"))
        .alias("recorded_place"))
    sheet = tmp_path / "sheet.csv"
    rows.write_csv(sheet)
    scored = analyzer.score(str(sheet), "ema")
    assert scored.rejects.height == 0
    assert sorted(scored.games["player"].to_list()) == ["Ana", "Ben", "Cho", "Dai"]
    assert scored.players.filter(pl.col("player") == "Ben")["games"].item() == 1
    found = analyzer.check(str(sheet), "ema").findings
    assert sorted(found.select("player", "field", "kind", "recorded", "computed", "source_row").iter_rows(),
                  key=str) == sorted([("Ben", "game_points", "game_end", "n/a", "-6.1", 2),
                                      ("Cho", "place", "game_end", "last", "4", 3),
                                      ("Dai", "game_points", "game_end", "2.1", "3.1", 4)], key=str)
    explained = dict(found.select("player", "explanation").iter_rows())
    assert explained["Ben"] == ("recorded_points must be a number, so it cannot be compared: "
                                "(28900 - 30000)/1000 - 5 uma (3rd) = -6.1")
    assert explained["Cho"] == ("recorded_place must be a whole number from 1 to 4, so it cannot be compared: "
                                "19800 is 4th of the final scores 41200, 30100, 28900, 19800")
