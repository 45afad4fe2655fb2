"""A run with events for the report's play tests (a module the test files import; not a conftest.py).

The shared real logs' hand records scored, their events (``real_events``, exported once per session), and a
players table with play statistics computed plainly here from the hand facts (``analyzer.hand_seats``): the
players table's own play statistics are another module's work, and the page only needs columns of those
names. Columns not computed here stay out of the table (the page shows a dash for them).
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import pytest

import analyzer
from tests.conftest import SHARED_LOGS
from tests.play.shared_events import real_events  # noqa: F401  (a fixture, re-exported for the test files)

SEAT = ("game_id", "log_row", "seat")


def plain_play_columns(events: pl.DataFrame) -> pl.DataFrame:
    """Per player, some play statistics from the hand facts of ``events`` (rates as fractions)."""
    names = events.filter(pl.col("event") == "haipai").select(*SEAT, "player")
    seats = analyzer.hand_seats(events).join(names, on=list(SEAT))
    riichi = pl.col("riichi_accepted").fill_null(False)
    dealt = pl.col("deal_in_shanten")
    return seats.group_by("player").agg(
        riichi_first_rate=pl.col("riichi_first").filter(riichi).mean(),
        chasing_riichi_rate=1 - pl.col("riichi_first").filter(riichi).mean(),
        riichi_chased_rate=pl.col("riichi_chased").filter(riichi).mean(),
        avg_riichi_waits=pl.col("riichi_waits").filter(riichi).mean(),
        riichi_multi_wait_rate=(pl.col("riichi_waits") >= 2).filter(riichi).mean(),
        avg_riichi_wait_left=pl.col("riichi_wait_left").filter(riichi).mean(),
        riichi_good_shape_rate=(pl.col("riichi_wait_left") >= 6).filter(riichi).mean(),
        riichi_furiten_rate=pl.col("riichi_furiten").filter(riichi).mean(),
        avg_deal_in_shanten=dealt.mean(),
        deal_in_tenpai_rate=(dealt == 0).sum() / dealt.count(),
        avg_start_shanten=pl.col("start_shanten").mean(),
        avg_first_call_turn=pl.col("first_call_turn").mean(),
        kan_rate=(pl.col("kans") > 0).mean(),
    )


@pytest.fixture(scope="session")
def shared_run(real_events):  # noqa: F811  (the fixture imported above)
    """(the scored run of the shared logs with play statistics in its players table, their events)."""
    hands, _ = analyzer.read_tenhou([str(SHARED_LOGS)])
    result = analyzer.score(hands)
    plain = plain_play_columns(real_events)
    players = result.players.drop(plain.columns[1:], strict=False).join(plain, on="player", how="left")
    return replace(result, players=players), real_events
