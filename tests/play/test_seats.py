"""Each seat's facts of a hand from the events table as columns, against a plain reading of the shared real
logs' events one at a time (:mod:`tests.play.plain_play`), its shanten and waits from the ``mahjong`` package
(test-only)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.play.seats import COLUMNS, hand_seats
from tests.conftest import SHARED_HINT, SHARED_LOGS
from tests.play.plain_play import plain_facts
from tests.play.shared_events import real_events  # noqa: F401  (a fixture)

FACTS = [c for c in COLUMNS if c not in ("game_id", "log_row", "seat", "start_score")]
COUNTS = ("calls", "kans", "ippatsu_cancels")


def _compare(table: pl.DataFrame, plain: dict[tuple, dict]) -> None:
    assert table.height == len(plain)
    for row in table.to_dicts():
        expected = plain[(row["game_id"], row["log_row"], row["seat"])]
        got = {c: row[c] for c in FACTS if row[c] is not None and not (c in COUNTS and row[c] == 0)}
        want = {c: v for c, v in expected.items() if v is not None and not (c in COUNTS and v == 0)}
        assert got == want, (row["game_id"], row["log_row"], row["seat"])


def _some_games(events: pl.DataFrame, games: int = 14) -> pl.DataFrame:
    """The first games by id, and every three-player game (their hands are dealt to three seats)."""
    dealt = events.filter(pl.col("event") == "haipai").group_by("game_id", "log_row").len()
    three = dealt.filter(pl.col("len") == 3)["game_id"].unique()
    first = events["game_id"].unique().sort()[:games]
    return events.filter(pl.col("game_id").is_in(pl.concat([first, three]).implode()))


def test_the_facts_are_those_of_a_plain_reading(real_events):
    some = _some_games(real_events)
    table = hand_seats(some)
    _compare(table, plain_facts(some))
    assert table.schema == pl.Schema(COLUMNS)
    assert table["riichi_waits"].drop_nulls().len() > 10 and table["deal_in_shanten"].drop_nulls().len() > 10
    assert table["ippatsu_cancels"].sum() > 0 and table["start_place"].drop_nulls().n_unique() == 4
    three = table.group_by("game_id", "log_row").len().filter(pl.col("len") == 3)
    assert three.height >= 5  # three-player hands read too (the shared logs have six)
    assert table.filter(pl.col("riichi_accepted"))["riichi_waits"].min() >= 1  # an accepted riichi is tenpai


def test_any_row_order_gives_the_same_table(real_events):
    some = _some_games(real_events, 6)
    table = hand_seats(some)
    assert hand_seats(some.sample(fraction=1.0, shuffle=True, seed=5)).equals(table)
    assert table.equals(table.sort("game_id", "log_row", "seat"))


def test_start_scores_come_from_the_hand_records(real_events):
    """With the scored hand records, each seat's score before the hand: the last hand's scores less its changes
    (the first row of a multiple ron: its scores less that row's changes), and the first hand's the start points."""
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"no shared logs at {SHARED_LOGS}: {SHARED_HINT}")
    gids = real_events["game_id"].unique().sort()[:8]
    events = real_events.filter(pl.col("game_id").is_in(gids.implode()))
    rows, _ = analyzer.read_tenhou([str(SHARED_LOGS)])
    hands = analyzer.score(rows.filter(pl.col("game_id").is_in(gids.implode())), ratings="none").hands
    table = hand_seats(events, hands)
    first_rows = hands.group_by("game_id", "log_row", maintain_order=True).first()
    for row in table.to_dicts():
        record = first_rows.filter((pl.col("game_id") == row["game_id"]) & (pl.col("log_row") == row["log_row"]))
        s = row["seat"]
        assert row["start_score"] == record[f"score_{s}"][0] - record[f"delta_{s}"][0]
    starts = table.filter(pl.col("log_row") == 1)["start_score"]
    assert starts.null_count() == 0 and set(starts) <= {25000, 30000, 35000, 1000}
    assert hand_seats(events)["start_score"].null_count() == table.height  # not known without the hand records


def test_a_table_of_one_deal(real_events):
    """Only the deal (no draws, no outcome): the facts of the deal, the rest null or 0."""
    one = real_events.filter((pl.col("game_id") == real_events["game_id"].min()) & (pl.col("log_row") == 1)
                             & (pl.col("event") == "haipai"))
    table = hand_seats(one)
    assert table.height == 4 and table["start_shanten"].null_count() == 0
    assert table["score_change"].null_count() == 4 and table["calls"].to_list() == [0] * 4
    assert hand_seats(one.clear()).height == 0


def test_the_facts_of_every_format_are_those_of_a_plain_reading(tmp_path):
    """The test logs of every format (mjlog, mjai, Mahjong Soul records: three players and norths among them)."""
    data = Path(__file__).resolve().parents[1] / "data"
    out = tmp_path / "events.parquet"
    analyzer.export_events([str(data / d) for d in ("mjlog", "mjai", "majsoul", "majsoul_raw")], out)
    events = pl.read_parquet(out)
    _compare(hand_seats(events), plain_facts(events))
    assert events.filter(pl.col("event") == "kita").height > 0
