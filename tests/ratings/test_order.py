"""The order of games: played_at, else date, else session, else place in the input (files in path order) — and
the games table's played_at column."""

from __future__ import annotations

from datetime import datetime, timezone

import polars as pl
import pytest

import analyzer
from analyzer.io.load import expand_inputs
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
    return pl.DataFrame({"game_id": [f"g{i}" for i in range(n)], "_file": "x.csv", "_row": list(range(1, n + 1)),
                         **columns})


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
    frame = pl.DataFrame({"game_id": [" g1", "g1", "g2", "g1"], "_file": ["b.csv", "a.csv", "b.csv", "b.csv"],
                          "_row": [5, 7, 3, 1],
                          "played_at": [None, "2020-01-02 10:00", "2020-01-01", "2020-01-09"]})
    times = game_times(frame).sort("game_id")
    assert times["game_id"].to_list() == ["g1", "g2"]
    assert times.select("_file", "_row").rows() == [("a.csv", 7), ("b.csv", 3)]  # first in path order
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


def _sheet(path, games):
    """A game-level sheet without times, dates or sessions: (game id, players from first place to last)."""
    path.write_text("game_id,player,final_score\n" + "".join(
        f"{game},{p},{s}\n" for game, players in games for p, s in zip(players, [40000, 30000, 20000, 10000])))


def test_the_input_order_of_games_is_path_order_whatever_the_command_line(tmp_path):
    folder = tmp_path / "season"
    (folder / "b").mkdir(parents=True)
    _sheet(folder / "a.csv", [("g1", "BEAF"), ("g2", "ADEB")])
    _sheet(folder / "b" / "c.csv", [("g3", "FDBA"), ("g4", "DAFB")])  # 'b/c.csv' before 'b.csv', as a folder is read
    _sheet(folder / "b.csv", [("g5", "ABCD")])
    listed = [folder / "a.csv", folder / "b" / "c.csv", folder / "b.csv"]
    assert expand_inputs([folder]) == listed
    runs = [analyzer.score(str(folder)), analyzer.score([str(p) for p in listed]),
            analyzer.score([str(p) for p in reversed(listed)]),
            analyzer.score([str(listed[1]), str(folder)])]
    expected = ["g1", "g2", "g3", "g4", "g5"]
    for result in runs:
        assert result.ratings["game_id"].unique(maintain_order=True).to_list() == expected
        assert result.players.sort("player")["rating_4p"].to_list() == runs[0].players.sort("player")[
            "rating_4p"].to_list()
