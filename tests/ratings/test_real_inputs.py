"""Ratings on real inputs: the shared Tenhou logs (skipped when absent) and the sample tournament — a row per
player per game, in the order of games."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from conftest import SHARED_HINT, SHARED_LOGS

import analyzer
from analyzer.formats.read import read_tenhou

SAMPLE_SHEET = Path(__file__).parents[2] / "sample_logs" / "tournament" / "sheet.csv"


def assert_one_row_per_player_per_game(result) -> None:
    rated = result.ratings.select("game_id", "player").sort("game_id", "player")
    assert_equal = rated.equals(result.games.select("game_id", "player").sort("game_id", "player"))
    assert assert_equal, "the ratings table has a row for every player of every game, and no other"
    # a game's rows together, and each player's game numbers count up by one
    starts = result.ratings.select((pl.col("game_id") != pl.col("game_id").shift(1)).fill_null(True).sum()).item()
    assert starts == result.games["game_id"].n_unique()
    numbers = result.ratings.group_by("player", "players", maintain_order=True).agg(pl.col("game"))
    for row in numbers.iter_rows(named=True):
        assert row["game"] == list(range(1, len(row["game"]) + 1))


def test_the_sample_tournament_in_session_order():
    result = analyzer.score(str(SAMPLE_SHEET), "ema")
    assert_one_row_per_player_per_game(result)
    sheet = pl.read_csv(SAMPLE_SHEET, infer_schema=False)
    expected = sheet.select("game_id", pl.col("session").cast(pl.Int64)).unique(maintain_order=True).sort(
        "session", maintain_order=True)["game_id"].to_list()
    assert result.ratings["game_id"].unique(maintain_order=True).to_list() == expected
    # the sessions table's rating after the last session is the players table's
    last = result.sessions.filter(pl.col("session") == result.sessions["session"].last())
    joined = last.join(result.players, on="player")
    assert (joined["rating"] - joined["rating_4p"]).abs().max() < 1e-9


@pytest.mark.skipif(not SHARED_LOGS.is_dir(), reason=f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
def test_the_shared_tenhou_logs_in_time_order():
    hands, _ = read_tenhou([SHARED_LOGS])[:2]
    result = analyzer.score(hands)
    assert_one_row_per_player_per_game(result)
    times = result.ratings.select("game_id", "played_at").unique(maintain_order=True)["played_at"]
    known = times.drop_nulls()
    assert known.len() > 30 and known.is_sorted()  # the games with a time first, in time order
    assert times[: known.len()].null_count() == 0
    assert set(result.ratings["players"].unique()) == {3, 4}  # sanma2.xml: a three-player rating of its own
