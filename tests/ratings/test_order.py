"""The order of games: played_at, else date, else session, else input position — and the games table's
played_at column."""

from __future__ import annotations

from datetime import datetime, timezone

import polars as pl
import pytest

import analyzer
from analyzer.ratings.order import game_times, sort_games, time_of

UTC = timezone.utc


@pytest.mark.parametrize("text, expected", [
    ("2018-02-02T15:00:00+09:00", datetime(2018, 2, 2, 6, tzinfo=UTC)),
    ("2018-02-02 15:00:00+09:00", datetime(2018, 2, 2, 6, tzinfo=UTC)),
    ("2018-02-02T15:00:00Z", datetime(2018, 2, 2, 15, tzinfo=UTC)),
    ("2018-02-02 15:04", datetime(2018, 2, 2, 15, 4, tzinfo=UTC)),
    ("2018-02-02", datetime(2018, 2, 2, tzinfo=UTC)),
    ("yesterday", None),
])
def test_times_written_as_text(text, expected):
    frame = pl.DataFrame({"played_at": [text]})
    assert frame.select(time_of("played_at", pl.String)).item() == expected


def test_a_datetime_with_a_zone_is_converted_to_utc():
    tokyo = pl.DataFrame({"played_at": [datetime(2018, 2, 2, 15)]}).with_columns(
        pl.col("played_at").dt.replace_time_zone("Asia/Tokyo"))
    assert tokyo.select(time_of("played_at", tokyo.schema["played_at"])).item() == datetime(2018, 2, 2, 6, tzinfo=UTC)


def games(**columns) -> pl.DataFrame:
    n = len(next(iter(columns.values())))
    return pl.DataFrame({"game_id": [f"g{i}" for i in range(n)], "_pos": list(range(n)), **columns})


@pytest.mark.parametrize("frame, expected", [
    # a time first; games without one after
    (games(played_at=["2020-01-03", None, "2020-01-01", "2020-01-02"]), ["g2", "g3", "g0", "g1"]),
    # a date column when there is no played_at; played_at wins where both are given
    (games(date=["2020-01-03", "2020-01-01", "2020-01-02"]), ["g1", "g2", "g0"]),
    (games(played_at=[None, "2020-01-05", None], date=["2020-01-03", "2020-01-01", "2020-01-02"]),
     ["g2", "g0", "g1"]),
    # sessions by number (2 before 10), then the input order inside a session
    (games(session=["10", "2", "2", "1"]), ["g3", "g1", "g2", "g0"]),
    # nothing but the input
    (games(table=["x", "y", "z"]), ["g0", "g1", "g2"]),
])
def test_the_order_of_games(frame, expected):
    times = game_times(frame)
    assert sort_games(times)["game_id"].to_list() == expected


def test_a_games_time_is_its_first_rows_and_every_game_has_one_row():
    frame = pl.DataFrame({"game_id": [" g1", "g1", "g2", "g1"], "_pos": [5, 1, 3, 9],
                          "played_at": [None, "2020-01-02 10:00", "2020-01-01", "2020-01-09"]})
    times = game_times(frame).sort("game_id")
    assert times["game_id"].to_list() == ["g1", "g2"]
    assert times["_pos"].to_list() == [1, 3]
    assert times["played_at"].to_list() == [datetime(2020, 1, 2, 10, tzinfo=UTC), datetime(2020, 1, 1, tzinfo=UTC)]


def test_the_games_table_carries_played_at(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("game_id,player,final_score,played_at\n"
                     + "".join(f"late,{p},{s},2021-05-02T20:00:00+09:00\n" for p, s in zip("ABCD", [40000, 30000,
                                                                                                   20000, 10000]))
                     + "".join(f"early,{p},{s},\n" for p, s in zip("ABCD", [10000, 20000, 30000, 40000])))
    result = analyzer.score(str(sheet))
    assert result.games.schema["played_at"] == pl.Datetime("us", "UTC")
    by_game = dict(result.games.group_by("game_id").agg(pl.col("played_at").first()).iter_rows())
    assert by_game == {"late": datetime(2021, 5, 2, 11, tzinfo=UTC), "early": None}
    # the game with a time comes first, the one without after it, whatever the input order
    assert result.ratings["game_id"].unique(maintain_order=True).to_list() == ["late", "early"]
