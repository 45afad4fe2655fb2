"""The platform_ranks table: ranks as the records give them, per player and game in the order of games."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from conftest import SHARED_HINT, SHARED_LOGS

import analyzer
from analyzer.formats.read import read_tenhou
from analyzer.ratings.platform import level_of

MAJSOUL = Path(__file__).parents[1] / "data" / "majsoul"


@pytest.mark.parametrize("rank, level", [
    ("初心★1", 0), ("初心★3", 2), ("雀士★1", 3), ("雀士★2", 4), ("雀傑★3", 8), ("雀豪★1", 9), ("雀聖★3", 14),
    ("魂天", 15), ("魂天Lv1", 15), ("魂天Lv3", 17), ("unknown", None), (None, None),
])
def test_majsoul_levels_as_numbers(rank, level):
    assert pl.DataFrame({"r": [rank]}, schema={"r": pl.String}).select(level_of(pl.col("r"))).item() == level


def hand_rows(games: list[tuple[str, str, list[int]]]) -> pl.DataFrame:
    """One tsumo per game (han/fu records), with each seat's dan and R at the start: (game_id, played_at, dans)."""
    rows = []
    for game_id, played_at, dans in games:
        rows.append({"game_id": game_id, "round": "E1", "honba": "0", "player_0": "A", "player_1": "B",
                     "player_2": "C", "player_3": "D", "result": "tsumo", "winner": "A", "han": "1", "fu": "30",
                     "played_at": played_at, **{f"dan_{s}": d for s, d in enumerate(dans)},
                     **{f"rate_{s}": 1500.0 + 10 * d for s, d in enumerate(dans)}, "lobby": "0"})
    return pl.DataFrame(rows)


def test_a_row_per_player_per_game_in_time_order_and_the_latest_in_players():
    rows = hand_rows([("late", "2020-01-02 10:00", [11, 10, 3, 0]), ("early", "2020-01-01 10:00", [10, 10, 2, 0])])
    result = analyzer.score(rows, "tenhou")
    table = result.platform_ranks
    assert table["game_id"].to_list() == ["early"] * 4 + ["late"] * 4
    assert table.filter(pl.col("player") == "A").select("dan", "dan_name", "rate").rows() == [
        (10, "初段", 1600.0), (11, "二段", 1610.0)]
    assert table.filter(pl.col("game_id") == "late").sort("player")["place"].to_list() == [1, 2, 3, 4]
    players = result.players.sort("player")
    assert players.select("player", "platform_dan_name", "platform_rate", "platform_games").rows() == [
        ("A", "二段", 1610.0, 2), ("B", "初段", 1600.0, 2), ("C", "7級", 1530.0, 2), ("D", "新人", 1500.0, 2)]


def test_no_recorded_rank_no_table():
    result = analyzer.score(str(Path(__file__).parents[2] / "sample_logs" / "csv"))
    assert result.platform_ranks is None and "platform_dan" not in result.players.columns


def test_majsoul_ranks_with_their_room():
    hands, _ = read_tenhou([MAJSOUL])[:2]
    result = analyzer.score(hands)
    table = result.platform_ranks
    assert table.height == result.games.height
    aoi = table.filter(pl.col("player") == "Aoi").row(0, named=True)
    assert (aoi["platform_rank"], aoi["level"], aoi["room"], aoi["players"]) == ("雀士★2", 4, "金の間東喰赤", 4)
    assert set(table.filter(pl.col("room") == "三金の間赤")["players"]) == {3}


@pytest.mark.skipif(not SHARED_LOGS.is_dir(), reason=f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
def test_the_shared_logs_ranks_in_time_order():
    hands, _ = read_tenhou([SHARED_LOGS])[:2]
    result = analyzer.score(hands)
    table = result.platform_ranks
    # every seat of every game whose log records a rank, once, in the ratings' order of games
    assert table.select("game_id", "player").is_unique().all()
    recorded = hands.filter(pl.col("dan_0").is_not_null() | pl.col("rate_0").is_not_null())["game_id"].unique()
    assert set(table["game_id"]) == set(recorded)
    order = result.ratings["game_id"].unique(maintain_order=True).to_list()
    mine = table["game_id"].unique(maintain_order=True).to_list()
    assert mine == [g for g in order if g in set(mine)]
