"""Game-level sheets settled under each preset, worked by hand (places, ties, uma, oka, leftover sticks,
chombo, penalties, three players), and the rows a sheet's game cannot be settled from.

Each case is one table: (ruleset, rows of (player, final_score, chombo, penalty), leftover sticks, expected
(place, game points) per player). The arithmetic is in the comment beside each case.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer

DATA = Path(__file__).parents[1] / "data"


def sheet(rows: list[tuple], game: str = "G1", sticks: int | None = None, **columns) -> pl.DataFrame:
    """A sheet of one game: rows of (player, final_score[, chombo[, penalty]])."""
    full = [(r + (0, 0.0))[:4] for r in rows]
    frame = pl.DataFrame({
        "game_id": [game] * len(rows), "player": [r[0] for r in full], "final_score": [r[1] for r in full],
        "chombo": [r[2] for r in full], "penalty": [r[3] for r in full],
    })
    if sticks is not None:
        frame = frame.with_columns(pl.lit(sticks).alias("leftover_sticks"))
    return frame.with_columns(pl.lit(v).alias(k) for k, v in columns.items())


CASES = {
    # EMA, the issue's table: (41200-30000)/1000 + 15 = 26.2; 28900: -1.1 - 5 = -6.1 (3rd);
    # 19800: -10.2 - 15 - 20 (one chombo) = -45.2; 30100: 0.1 + 5 - 2 (penalty) = 3.1
    "ema": ("ema", [("Ana", 41200), ("Ben", 28900), ("Cho", 19800, 1), ("Dai", 30100, 0, 2.0)], None,
            {"Ana": (1, 26.2), "Dai": (2, 3.1), "Ben": (3, -6.1), "Cho": (4, -45.2)}),
    # EMA, two tied for first with one stick left: they share place 1, uma (15 + 5) / 2 = 10 and the stick
    # (1000 / 2 = 500 each): 5.5 + 10 = 15.5; 25000: -5 - 5; 24000: -6 - 15
    "ema tie and stick": ("ema", [("A", 35000), ("B", 35000), ("C", 25000), ("D", 24000)], 1,
                          {"A": (1, 15.5), "B": (1, 15.5), "C": (3, -10.0), "D": (4, -21.0)}),
    # WRC, three tied: uma (15 + 5 - 5) / 3 = 5 each: 10 + 5 = 15; last: -30 - 15 - 2 chombo x 20 = -85
    "wrc three tied": ("wrc", [("A", 40000), ("B", 40000), ("C", 40000), ("D", 0, 2)], None,
                       {"A": (1, 15.0), "B": (1, 15.0), "C": (1, 15.0), "D": (4, -85.0)}),
    # M.League: 25000 start, 30000 return, oka 20 to first, uma 30/10/-10/-30: 15.3 + 30 + 20 = 65.3;
    # 0.2 + 10 = 10.2; -14.5 - 10 = -24.5; -21 - 30 = -51 (a chombo was paid at the table: no penalty after)
    "mleague": ("mleague", [("A", 45300), ("B", 30200), ("C", 15500, 1), ("D", 9000)], None,
                {"A": (1, 65.3), "B": (2, 10.2), "C": (3, -24.5), "D": (4, -51.0)}),
    # M.League ties: first two share uma (30 + 10) / 2 and oka 20 / 2: 10 + 20 + 10 = 40; last two
    # (-10 - 30) / 2: -20 - 20 = -40
    "mleague ties": ("mleague", [("A", 40000), ("B", 40000), ("C", 10000), ("D", 10000)], None,
                     {"A": (1, 40.0), "B": (1, 40.0), "C": (3, -40.0), "D": (3, -40.0)}),
    # Tenhou: the stick goes to first (33400); places 2-4 to the thousand, 500 away from zero: 28600 -> 29:
    # 29 - 30 + 10 = 9; 24500 -> 25: -5 - 10 = -15; 13500 -> 14: -16 - 20 = -36; first takes the rest: 42
    "tenhou": ("tenhou", [("A", 32400), ("B", 28600), ("C", 24500), ("D", 13500)], 1,
               {"A": (1, 42.0), "B": (2, 9.0), "C": (3, -15.0), "D": (4, -36.0)}),
    # Tenhou, equal scores by seat (East first): B 30000 is second: 0 + 10; C: -10 - 10; D: -10 - 20; A: 40
    "tenhou seat ties": ("tenhou", [("A", 30000), ("B", 30000), ("C", 20000), ("D", 20000)], None,
                         {"A": (1, 40.0), "B": (2, 10.0), "C": (3, -20.0), "D": (4, -30.0)}),
    # Mahjong Soul: 25000 start and return (no oka), uma 15/5/-5/-15, tenths: 17.1 + 15 = 32.1; 6 + 5 = 11;
    # -6.7 - 5 - 1.5 (penalty) = -13.2; -16.4 - 15 = -31.4
    "majsoul": ("majsoul", [("A", 42100), ("B", 31000), ("C", 18300, 0, 1.5), ("D", 8600)], None,
                {"A": (1, 32.1), "B": (2, 11.0), "C": (3, -13.2), "D": (4, -31.4)}),
    # Tenhou sanma (the Phoenix log of the preset): 35000 start, 40000 return (oka 15), uma 20/0/-20:
    # 27400 -> 27: -13; -5500 -> -6: -66; first 79
    "tenhou sanma": ("tenhou_sanma", [("A", 27400), ("B", 83100), ("C", -5500)], None,
                     {"B": (1, 79.0), "A": (2, -13.0), "C": (3, -66.0)}),
    # Mahjong Soul sanma: 35000 start and return, uma 15/0/-15: 15 + 15 = 30; 0; -15 - 15 = -30
    "majsoul sanma": ("majsoul_sanma", [("A", 50000), ("B", 35000), ("C", 20000)], None,
                      {"A": (1, 30.0), "B": (2, 0.0), "C": (3, -30.0)}),
    # EMA with the sticks lost instead: the stick is no one's: 35000: 5 + 15; 24000: -6 - 15 ...
    "sticks lost": ("ema;leftover_sticks=lost", [("A", 35000), ("B", 31000), ("C", 29000), ("D", 24000)], 1,
                    {"A": (1, 20.0), "B": (2, 6.0), "C": (3, -6.0), "D": (4, -21.0)}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_settlement_worked_by_hand(case):
    rules, rows, sticks, expected = CASES[case]
    result = analyzer.score(sheet(rows, sticks=sticks), rules)
    assert result.rejects.height == 0
    got = {r["player"]: (r["place"], r["game_points"]) for r in result.games.iter_rows(named=True)}
    assert {p: v[0] for p, v in got.items()} == {p: v[0] for p, v in expected.items()}
    assert {p: v[1] for p, v in got.items()} == pytest.approx({p: v[1] for p, v in expected.items()})
    assert result.games["game_points"].sum() == pytest.approx(
        -result.games["penalty"].sum() - (sticks or 0) * (rules == "ema;leftover_sticks=lost"))
    assert result.games["rules"].unique().to_list() == [rules]


def test_the_issue_sheet_as_a_file():
    result = analyzer.score(DATA / "sheet_ema.csv", "ema")
    players = {r["player"]: r for r in result.players.iter_rows(named=True)}
    assert players["Cho"]["total_points"] == pytest.approx(-45.2) and players["Cho"]["chombo"] == 1
    assert players["Cho"]["penalties"] == 20 and players["Dai"]["penalties"] == 2
    assert players["Ana"]["rank"] == 1 and players["Ana"]["place_1"] == 1
    # no hand records: every hand statistic is empty, not 0
    assert players["Ana"]["hands"] is None and players["Ana"]["win_rate"] is None and players["Ana"]["wins"] is None
    assert result.hands.height == 0 and result.rows_read == 4 and result.sheet_rows == 4
    assert result.games["session"].to_list() == ["1"] * 4 and result.games["table"].to_list() == ["1"] * 4


def test_the_leftover_sticks_share_when_tied_first_under_seat_ties():
    # Tenhou: ties by seat, so only A is first and takes both sticks: 32000 -> first takes minus the rest
    rows = [("A", 31000), ("B", 31000), ("C", 20000), ("D", 16000)]
    games = analyzer.score(sheet(rows, sticks=2), "tenhou").games
    assert games.filter(pl.col("player") == "A")["final_score"].item() == 33000
    assert games.filter(pl.col("player") == "A")["leftover_sticks"].item() == 2000


@pytest.mark.parametrize("seats, order", [
    (["E", "S", "W", "N"], ["A", "B", "C", "D"]),
    (["n", "w", "s", "e"], ["D", "C", "B", "A"]),
    (["3", "2", "1", "0"], ["D", "C", "B", "A"]),
])
def test_seats_as_numbers_or_winds_decide_ties_by_seat(seats, order):
    rows = sheet([("A", 25000), ("B", 25000), ("C", 25000), ("D", 25000)]).with_columns(pl.Series("seat", seats))
    games = analyzer.score(rows, "tenhou").games
    assert games.sort("place")["player"].to_list() == order


def test_without_seats_the_rows_order_is_the_seating():
    games = analyzer.score(sheet([("A", 25000), ("B", 25000), ("C", 25000), ("D", 25000)]), "tenhou").games
    assert games.sort("seat")["player"].to_list() == ["A", "B", "C", "D"]
    assert games.sort("place")["player"].to_list() == ["A", "B", "C", "D"]


def test_three_players_by_the_players_column_without_rules():
    rows = sheet([("A", 27400), ("B", 83100), ("C", -5500)], players=3)
    result = analyzer.score(rows)
    assert result.games["rules"].unique().to_list() == ["tenhou_sanma"]
    assert result.games["kind"].unique().to_list() == ["3-player hanchan"]


def test_each_game_under_its_own_rules_column():
    rows = pl.concat([sheet([("A", 41200), ("B", 28900), ("C", 19800), ("D", 30100)], "G1", rules="ema"),
                      sheet([("A", 42100), ("B", 31000), ("C", 18300), ("D", 8600)], "G2", rules="majsoul")])
    games = analyzer.score(rows).games
    assert games.group_by("game_id").agg(pl.col("rules").first()).sort("game_id")["rules"].to_list() == [
        "ema", "majsoul"]
    assert games.filter(pl.col("game_id") == "G2", pl.col("player") == "A")["game_points"].item() == 32.1


def rejected(result) -> dict[int, str]:
    return dict(result.rejects.group_by("row").agg(pl.col("reason").str.join("; ")).iter_rows())


@pytest.mark.parametrize("change, rows, reason", [
    ({"final_score": ["41200", "x", "19800", "30100"]}, {2}, "final_score must be a whole number"),
    ({"chombo": ["0", "-1", "0", "0"]}, {2}, "chombo must be a whole number from 0 to 100"),
    ({"penalty": ["0", "two", "0", "0"]}, {2}, "penalty must be a number"),
    ({"player": ["Ana", "", "Cho", "Dai"]}, {2}, "missing player name"),
])
def test_a_bad_cell_rejects_its_row_and_the_game_with_it(change, rows, reason):
    frame = pl.read_csv(DATA / "sheet_ema.csv", infer_schema=False).with_columns(
        pl.Series(k, v) for k, v in change.items())
    result = analyzer.score(frame, "ema")
    reasons = rejected(result)
    assert set(reasons) == {1, 2, 3, 4}  # the game cannot be settled without the bad row
    assert all(reason in reasons[r] for r in rows)
    assert "cannot be settled without its rejected row(s) 2" in reasons[1]
    assert result.games.height == 0 and result.rows_read == 4


def test_a_table_with_three_players_under_four_player_rules():
    result = analyzer.score(sheet([("A", 40000), ("B", 40000), ("C", 40000)]), "ema")
    assert result.games.height == 0
    assert set(result.rejects["reason"]) == {"the table has 3 players (A, B, C); the rules (ema) play 4"}
    assert result.rejects["column"].unique().to_list() == ["player"]


def test_a_player_twice_at_one_table():
    result = analyzer.score(sheet([("A", 40000), ("B", 20000), ("A", 30000), ("D", 30000)]), "ema")
    assert set(result.rejects["reason"]) == {"A is at this table twice"}
    assert result.rejects.height == 4


def test_an_exact_copy_of_a_row_is_counted_once():
    frame = pl.read_csv(DATA / "sheet_ema.csv", infer_schema=False)
    result = analyzer.score(pl.concat([frame, frame[1]]), "ema")
    assert result.games.height == 4
    assert result.rejects["reason"].to_list() == [
        "duplicate_row: an exact copy of row 2 of <frame> (the same game and values): counted once"]


def test_two_players_in_one_seat():
    rows = sheet([("A", 40000), ("B", 20000), ("C", 30000), ("D", 30000)]).with_columns(
        pl.Series("seat", ["0", "1", "1", "3"]))
    assert set(analyzer.score(rows, "ema").rejects["reason"]) == {"two players in seat 1"}


def test_mixed_inputs_hand_records_and_a_sheet():
    result = analyzer.score([str(DATA / "sheet_ema.csv"), "sample_logs/csv"])
    assert set(result.games["game_id"]) == {"S1-T1", "R1-T1", "R1-T2", "R2-T1", "R2-T2", "R3-T1", "R3-T2"}
    assert result.rows_read == 4 + 70 and result.hands.height == 70
    players = result.players
    assert players.filter(pl.col("player") == "Ana")["hands"].item() is None
    assert players.filter(pl.col("player") == "Moreau")["hands"].item() > 0


def test_a_sheet_game_that_also_has_hand_records_is_scored_from_the_hands(tmp_path):
    hands = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False)
    players = hands.filter(pl.col("game_id") == "R1-T1").row(0, named=True)
    rows = sheet([(players[f"player_{s}"], 25000) for s in range(4)], "R1-T1")
    rows.write_csv(tmp_path / "x.csv")
    result = analyzer.score([str(tmp_path / "x.csv"), "sample_logs/csv/round1.csv"])
    assert set(result.rejects["reason"]) == {
        "game R1-T1 also has hand records in the input: they are scored, not this sheet's rows"}
    assert result.games.filter(pl.col("game_id") == "R1-T1")["complete"].all()


def test_partitions_give_the_same_tables(tmp_path):
    rows = pl.concat([sheet([("A", 41200 - g * 100), ("B", 28900), ("C", 19800 + g * 100), ("D", 30100)],
                            f"G{g:02d}") for g in range(12)])
    whole = analyzer.score(rows, "ema")
    path = tmp_path / "sheet_parts.csv"
    rows.write_csv(path)
    parts = analyzer.score(str(path), "ema", partition_rows=8)
    assert parts.games.equals(whole.games) and parts.players.equals(whole.players)
