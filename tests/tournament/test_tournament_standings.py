"""Standings after each session and team standings, worked by hand on tests/data/sheet_sessions.csv (EMA).

Game points (EMA: (final - 30000) / 1000 + uma 15/5/-5/-15, ties share their uma, chombo -20):

session 1  A +25 (40000), B +10, C -10, D -25  |  E +23 (38000), F +8, G -8, H -23
session 2  C +25 (40000), E 0 and G 0 (tied 2nd-3rd: uma (5 - 5) / 2), A -25  |  D +30, B +5, F -10, H -25
session 3  A +35 (50000), F +5, G -10, D -50 (one chombo)  |  B, C, E, H all 30000: 0 each, H -1 (penalty)

totals      after 1: A 25, E 23, B 10, F 8, G -8, C -10, H -23, D -25
            after 2: E 23, C 15 and B 15 (equal average place 2.0: C has a first place), D 5, A 0, F -2, G -8, H -48
            after 3: A 35, E 23, C 15 and B 15 (equal average place 5/3: C has two firsts), F 3, G -18, D -45, H -49
teams       Red (A, B) 50, Green (E, F) 26, Blue (C, D) -30, Gold (G, H) -67
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer

SHEET = Path(__file__).parents[1] / "data" / "sheet_sessions.csv"

RANKS = {
    "1": ["A", "E", "B", "F", "G", "C", "H", "D"],
    "2": ["E", "C", "B", "D", "A", "F", "G", "H"],
    "3": ["A", "E", "C", "B", "F", "G", "D", "H"],
}
TOTALS = {
    "1": {"A": 25, "B": 10, "C": -10, "D": -25, "E": 23, "F": 8, "G": -8, "H": -23},
    "2": {"A": 0, "B": 15, "C": 15, "D": 5, "E": 23, "F": -2, "G": -8, "H": -48},
    "3": {"A": 35, "B": 15, "C": 15, "D": -45, "E": 23, "F": 3, "G": -18, "H": -49},
}
CHANGES = {
    "2": {"A": -4, "B": 0, "C": 4, "D": 4, "E": 1, "F": -2, "G": -2, "H": -1},
    "3": {"A": 4, "B": -1, "C": -1, "D": -3, "E": -1, "F": 1, "G": 1, "H": 0},
}


@pytest.fixture(scope="module")
def result():
    return analyzer.score(SHEET, "ema")


@pytest.mark.parametrize("session", list(RANKS))
def test_standings_after_each_session(result, session):
    table = result.sessions.filter(pl.col("session") == session)
    assert table["player"].to_list() == RANKS[session]
    assert table["rank"].to_list() == list(range(1, 9))
    assert dict(zip(table["player"], table["total_points"])) == pytest.approx(TOTALS[session])
    changes = dict(zip(table["player"], table["rank_change"]))
    assert changes == (CHANGES[session] if session in CHANGES else dict.fromkeys(RANKS[session]))


def test_session_points_and_games(result):
    row = result.sessions.filter(pl.col("session") == "3", pl.col("player") == "D").row(0, named=True)
    assert row["session_points"] == pytest.approx(-50) and row["session_games"] == 1 and row["games"] == 3
    assert row["avg_place"] == pytest.approx(3.0)  # 4th, 1st, 4th


def test_the_final_session_is_the_players_table(result):
    last = result.sessions.filter(pl.col("session") == "3").select("player", "rank", "total_points")
    players = result.players.select("player", "rank", "total_points").sort("rank", "player")
    assert last.equals(players)


def test_ties_share_a_rank_when_only_points_rank():
    table = analyzer.score(SHEET, "ema", rank_by=("total_points",)).sessions.filter(pl.col("session") == "3")
    ranks = dict(zip(table["player"], table["rank"]))
    assert ranks["B"] == ranks["C"] == 3 and ranks["F"] == 5


def test_team_standings(result):
    teams = result.teams
    assert teams["team"].to_list() == ["Red", "Green", "Blue", "Gold"]
    assert teams["total_points"].to_list() == pytest.approx([50, 26, -30, -67])
    assert teams["members"].to_list() == [2, 2, 2, 2] and teams["games"].to_list() == [6, 6, 6, 6]
    assert teams["players"].to_list()[0] == ["A", "B"]  # by rank


def test_a_teams_file_wins_over_the_sheet(tmp_path):
    path = tmp_path / "teams.csv"
    path.write_text("player,team\nA,Blue\n", encoding="utf-8")
    teams = analyzer.score(SHEET, "ema", teams=path).teams
    totals = dict(zip(teams["team"], teams["total_points"]))
    assert totals == pytest.approx({"Blue": 35 + 15 - 45, "Red": 15, "Green": 26, "Gold": -67})


def test_teams_from_a_file_for_hand_records(tmp_path):
    path = tmp_path / "teams.csv"
    path.write_text("player,team\nBrennan,North\nIshikawa,North\nMoreau,South\n", encoding="utf-8")
    result = analyzer.score("sample_logs/csv", teams=path)
    teams = dict(zip(result.teams["team"], result.teams["members"]))
    assert teams == {"North": 2, "South": 1}
    assert result.sessions is None


def test_a_teams_file_without_its_columns_is_one_error(tmp_path):
    path = tmp_path / "teams.csv"
    path.write_text("name,club\nA,Blue\n", encoding="utf-8")
    with pytest.raises(analyzer.InputError, match="needs the columns player and team"):
        analyzer.score(SHEET, "ema", teams=path)


def test_sessions_in_number_order():
    rows = pl.read_csv(SHEET, infer_schema=False).with_columns(pl.col("session").replace({"3": "10"}))
    assert analyzer.score(rows, "ema").sessions["session"].unique(maintain_order=True).to_list() == ["1", "2", "10"]


def test_a_player_who_misses_a_session_keeps_their_total():
    rows = pl.read_csv(SHEET, infer_schema=False).filter(pl.col("game_id") != "S3-T2")
    table = analyzer.score(rows, "ema").sessions.filter(pl.col("session") == "3", pl.col("player") == "B")
    assert table["session_games"].item() == 0 and table["session_points"].item() == 0
    assert table["total_points"].item() == pytest.approx(15)


def test_the_tables_are_written(tmp_path):
    analyzer.score_to(str(SHEET), tmp_path, "csv", "ema")
    sessions = pl.read_csv(tmp_path / "sessions.csv")
    assert sessions.height == 24 and sessions.columns[:3] == ["session", "rank", "player"]
    assert pl.read_csv(tmp_path / "teams.csv")["players"].to_list()[0] == "A,B"


def test_a_later_run_without_sessions_removes_them(tmp_path):
    analyzer.score_to(str(SHEET), tmp_path, "csv", "ema")
    analyzer.score_to("sample_logs/csv", tmp_path, "csv")
    assert not (tmp_path / "sessions.csv").exists() and not (tmp_path / "teams.csv").exists()
    assert (tmp_path / "hands.csv").exists()


def test_hand_records_with_a_session_column_get_session_standings():
    rows = analyzer.load("sample_logs/csv").collect().with_columns(
        pl.col("game_id").str.slice(1, 1).alias("session"), pl.col("game_id").str.slice(4, 1).alias("table"))
    result = analyzer.score(rows)
    assert result.games["session"].unique().sort().to_list() == ["1", "2", "3"]
    last = result.sessions.filter(pl.col("session") == "3").select("player", "rank", "total_points")
    assert last.equals(result.players.select("player", "rank", "total_points").sort("rank", "player"))
    assert result.sessions.height == 8 * 3


def test_two_games_in_one_session_add_up():
    """Sessions 1 and 2 as one: each player's two games are one session's (session points: their sum), and
    the standings after it are those after session 2 of the sheet."""
    rows = pl.read_csv(SHEET, infer_schema=False).with_columns(pl.col("session").replace({"2": "1"}))
    sessions = analyzer.score(rows, "ema").sessions
    first = sessions.filter(pl.col("session") == "1")
    assert first["player"].to_list() == RANKS["2"] and first["rank_change"].is_null().all()
    assert first["session_games"].to_list() == [2] * 8 and first["games"].to_list() == [2] * 8
    assert dict(zip(first["player"], first["session_points"])) == pytest.approx(TOTALS["2"])
    last = sessions.filter(pl.col("session") == "3")
    assert last["player"].to_list() == RANKS["3"]
    assert dict(zip(last["player"], last["rank_change"])) == CHANGES["3"]


@pytest.mark.parametrize("partition_rows, in_flight", [(4, 1), (8, 2), (12, 3), (1_000, 1)])
def test_sessions_and_teams_whatever_the_partitions(result, partition_rows, in_flight):
    """Partial rows of any number of partitions, merged in any grouping, give the same tables."""
    parts = analyzer.score(str(SHEET), "ema", partition_rows=partition_rows, in_flight=in_flight)
    assert parts.sessions.equals(result.sessions)
    assert parts.teams.equals(result.teams) and parts.team_of.equals(result.team_of)
    assert parts.players.equals(result.players)
