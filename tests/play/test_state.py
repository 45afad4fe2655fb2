"""The seats' hands replayed from the events table as columns, against a plain reading of the events one at a
time, and the shanten they give against the facts of play: a riichi discard leaves a tenpai hand, a tsumo's
draw completes one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import analyzer
from analyzer.play.state import codes_at, seat_states, shanten_column, tile_kinds, with_shanten
from analyzer.play.suits import counts_of
from analyzer.tiles.shanten import shanten
from tests.play.shared_events import real_events  # noqa: F401  (a fixture)

DATA = Path(__file__).resolve().parents[1] / "data"
LOGS = [DATA / "mjlog", DATA / "mjai", DATA / "majsoul", DATA / "majsoul_raw"]


@pytest.fixture(scope="module")
def events(tmp_path_factory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("events") / "events.parquet"
    analyzer.export_events([str(p) for p in LOGS], out)
    return pl.read_parquet(out)


def kind(tile: str) -> int:
    return int(tile_kinds([tile])[0])


def plain_hands(events: pl.DataFrame) -> dict[int, tuple[list[int], int]]:
    """Row -> (the acting seat's 34 counts after it, its called sets), one event at a time."""
    hands: dict[tuple, list[int]] = {}
    sets: dict[tuple, int] = {}
    out = {}
    for row, e in enumerate(events.iter_rows(named=True)):
        if e["seat"] is None:
            continue
        key = (e["game_id"], e["log_row"], e["seat"])
        hand = hands.setdefault(key, [0] * 34)
        name = e["event"]
        if name == "haipai":
            for t in e["tiles"]:
                hand[kind(t)] += 1
        elif name == "draw":
            hand[kind(e["tile"])] += 1
        elif name in ("discard", "kakan", "kita"):
            hand[kind(e["tile"])] -= 1
        elif name in ("chi", "pon", "minkan", "ankan"):
            for t in e["tiles"]:
                hand[kind(t)] -= 1
            if name != "ankan":
                hand[kind(e["tile"])] += 1
            sets[key] = sets.get(key, 0) + 1
        out[row] = (list(hand), sets.get(key, 0))
    return out


@pytest.mark.parametrize("shuffled", [False, True])
def test_the_hands_are_those_of_a_plain_replay(events, shuffled):
    """In the events' order, or shuffled (sorted into hand order first, the results given in the input's)."""
    plain = plain_hands(events)
    numbered = events.with_row_index("_original")
    given = numbered.sample(fraction=1.0, shuffle=True, seed=1) if shuffled else numbered
    states = seat_states(given.drop("_original"))
    assert (states.order is None) != shuffled
    rows = np.flatnonzero(states.seat >= 0)
    inputs = rows if states.order is None else states.order[rows]
    originals = given["_original"].to_numpy()[inputs]
    assert sorted(originals.tolist()) == sorted(plain)
    counts = counts_of(states.codes[rows])
    for i, row in enumerate(originals.tolist()):
        assert (counts[i].tolist(), int(states.sets[rows[i]])) == plain[row], row
    assert counts.min() >= 0 and counts.max() <= 4


@pytest.mark.parametrize("shuffled", [False, True])
def test_the_hands_of_rows_asked_are_those_of_every_row(real_events, shuffled):
    """States made without every row's hand (:func:`codes_at` sums the rows asked) give the same hands, for
    every row at once and for a scattered few."""
    given = real_events.sample(fraction=1.0, shuffle=True, seed=2) if shuffled else real_events
    full, light = seat_states(given), seat_states(given, every_row=False)
    assert light.codes is None and light.sets is None
    rows = np.flatnonzero(full.seat >= 0)
    for asked in (rows, rows[::97], rows[-3:], rows[:0]):
        codes, sets = codes_at(light, asked)
        assert np.array_equal(codes, full.codes[asked]) and np.array_equal(sets, full.sets[asked])


def test_the_shanten_of_suit_codes_is_that_of_the_counts(events, real_events):
    """The shanten column (suit codes, :mod:`analyzer.play.suits`) equals the counts' shanten
    (:func:`analyzer.tiles.shanten.shanten`) on every row, in any row order."""
    for frame in (events, real_events.drop("shanten")):
        plain = plain_hands(frame)
        three = frame.with_columns((pl.col("event") == "haipai").sum().over("game_id", "log_row").alias("n"))["n"]
        wanted = frame["event"].is_in(["haipai", "draw", "discard", "chi", "pon", "minkan", "kakan", "ankan", "kita"])
        expected = [None] * frame.height
        for row, (counts, sets) in plain.items():
            if wanted[row]:
                expected[row] = int(shanten(np.array([counts]), np.array([sets]), three_players=three[row] == 3)[0])
        assert shanten_column(frame).to_list() == expected
        shuffled = frame.with_row_index("i").sample(fraction=1.0, shuffle=True, seed=2)
        assert shanten_column(shuffled.drop("i")).to_list() == [expected[i] for i in shuffled["i"]]


def test_shanten_follows_the_play(real_events):
    shanten = with_shanten(real_events)
    assert shanten.filter(pl.col("event").is_in(["ron", "tsumo", "dora", "riichi_declared"]))["shanten"] \
        .null_count() == shanten.filter(pl.col("event").is_in(["ron", "tsumo", "dora", "riichi_declared"])).height
    assert shanten.filter(pl.col("event").is_in(["haipai", "draw", "discard"]))["shanten"].null_count() == 0
    keys = ["game_id", "log_row", "seat"]
    declared = shanten.filter(pl.col("event") == "riichi_declared").select(*keys, "seq")
    riichi_discards = shanten.join(declared.with_columns(pl.col("seq") + 1), on=[*keys, "seq"])
    assert riichi_discards.height > 0
    assert set(riichi_discards["event"].cast(pl.String)) == {"discard"}
    assert set(riichi_discards["shanten"]) == {0}
    tsumo = shanten.filter(pl.col("event") == "tsumo").select(*keys)
    last_draws = (shanten.filter(pl.col("event") == "draw").join(tsumo, on=keys)
                  .group_by(keys).agg(pl.col("shanten").sort_by("seq").last()))
    assert last_draws.height > 0 and set(last_draws["shanten"]) == {-1}
    assert np.all(shanten.filter(pl.col("event") == "haipai")["shanten"].to_numpy() >= 0)
