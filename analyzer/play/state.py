"""Each seat's concealed tiles after every event of the events table (``docs/outputs.md#events``), as counts of
the 34 kinds (red fives as fives), and the acting seat's shanten after the events that change its hand.

The tile changes of every event are columns (a draw adds its tile, a discard, an added kan or a north set aside
takes it; a chi, pon or open kan takes the meld's tiles but the called one; a closed kan takes its four; the
deal adds thirteen); sorted by hand, seat and ``seq``, their running sums per seat are the hands (a cumulative
sum less its value at the seat's first row), and the called sets a running count. No loop over events.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyzer.tiles.shanten import shanten

# the events after which the acting seat's shanten is given
SHANTEN_EVENTS = ("haipai", "draw", "discard", "chi", "pon", "minkan", "kakan", "ankan", "kita")
CALLS_FROM_DISCARDS = ("chi", "pon", "minkan")
SETS = ("chi", "pon", "minkan", "ankan")  # a kakan turns a pon into a kan: no new set
HAND = ("game_id", "log_row")
def tile_kinds(tiles: list[str]) -> np.ndarray:
    """The kind (0-33) of each tile text (``1m`` … ``7z``, a red five ``0m`` a five)."""
    return np.array([(int(t[0]) or 5) - 1 + "mpsz".index(t[1]) * 9 for t in tiles], np.int64)


def kind_of(column: str, tiles: list[str]) -> pl.Expr:
    """A tile column of the events' Enum as kinds, by its categories' order."""
    return pl.lit(pl.Series(tile_kinds(tiles))).gather(pl.col(column).to_physical().cast(pl.Int64))


def tile_changes(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per tile that enters or leaves a seat's concealed hand: ``_row`` (the event's row), ``kind``
    and ``change`` (+1 or −1)."""
    tiles = list(events.collect_schema()["tile"].categories)
    event = pl.col("event").cast(pl.String)
    single = (events.filter(event.is_in(["draw", "discard", "kakan", "kita"]) | event.is_in(CALLS_FROM_DISCARDS))
              .select("_row", kind=kind_of("tile", tiles),
                      change=pl.when(event.is_in(["draw", *CALLS_FROM_DISCARDS])).then(1).otherwise(-1)
                      .cast(pl.Int32)))
    listed = (events.filter(event.is_in(["haipai", "ankan", *CALLS_FROM_DISCARDS]))
              .select("_row", "tiles", change=pl.when(event == "haipai").then(1).otherwise(-1).cast(pl.Int32))
              .explode("tiles").select("_row", kind=kind_of("tiles", tiles), change="change"))
    return pl.concat([single, listed])


def seat_states(events: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``events`` that have an acting seat (their row numbers, in hand, seat and ``seq`` order),
    that seat's concealed counts after each (R, 34) int8, and its called sets (R,)."""
    frame = events.lazy().with_row_index("_row")
    key_changed = pl.any_horizontal(pl.col(c).ne_missing(pl.col(c).shift()) for c in (*HAND, "seat"))
    order = (frame.filter(pl.col("seat").is_not_null())
             .select("_row", *HAND, "seat", "seq", "event")
             .sort([*HAND, "seat", "seq"])
             .select("_row", "event", group=key_changed.cum_sum() - 1).collect())
    rows = order["_row"].to_numpy().astype(np.int64)
    position = np.full(events.height, -1, np.int64)
    position[rows] = np.arange(len(rows))
    # a kind dealt twice is one change of two: summed first, so that each (kind, row) is set once
    changes = tile_changes(frame).group_by("_row", "kind").agg(pl.col("change").sum()).collect()
    deltas = np.zeros((len(rows), 34), np.int8)
    deltas[position[changes["_row"].to_numpy().astype(np.int64)], changes["kind"].to_numpy().astype(np.int64)] = \
        changes["change"].to_numpy().astype(np.int8)
    group = order["group"].to_numpy()
    starts = np.flatnonzero(np.diff(group, prepend=-1))
    lengths = np.diff(np.append(starts, len(rows)))
    # running sums over all rows, less each seat's sum before its first row; in int8, wrapping: the sums are
    # exact modulo 256, and a seat's own count (0-4) is their difference
    with np.errstate(over="ignore"):
        running = np.cumsum(deltas, axis=0, dtype=np.int8)
        offsets = np.concatenate([np.zeros((1, 34), np.int8), running[starts[1:] - 1]])
        running -= np.repeat(offsets, lengths, axis=0)
    is_set = order["event"].cast(pl.String).is_in(SETS).to_numpy().astype(np.int32)
    set_running = np.cumsum(is_set)
    sets = set_running - np.repeat(np.concatenate([[0], set_running[starts[1:] - 1]]), lengths)
    return rows, running, sets


def three_player_hands(events: pl.DataFrame) -> np.ndarray:
    """For every row: whether its hand was dealt to three seats."""
    dealt = (events.lazy().with_row_index("_row")
             .with_columns(pl.col("event").cast(pl.String).eq("haipai").sum().over(HAND).alias("_dealt"))
             .sort("_row").collect()["_dealt"].to_numpy())
    return dealt == 3


def shanten_column(events: pl.DataFrame, states: tuple | None = None) -> pl.Series:
    """``shanten`` (Int8) for every row of ``events``: the acting seat's shanten after each row of
    :data:`SHANTEN_EVENTS` (−1 a complete hand), null on other rows; ``states`` the events'
    :func:`seat_states` when they are known already."""
    rows, counts, sets = seat_states(events) if states is None else states
    three = three_player_hands(events)[rows]
    wanted = events["event"].cast(pl.String).is_in(SHANTEN_EVENTS).to_numpy()[rows]
    values = np.zeros(events.height, np.int8)
    known = np.zeros(events.height, bool)
    for sanma in (False, True):
        pick = wanted & (three == sanma)
        if pick.any():
            values[rows[pick]] = shanten(counts[pick], sets[pick], three_players=sanma)
            known[rows[pick]] = True
    column = pl.Series("shanten", values, pl.Int8)
    return column if known.all() else column.set(pl.Series(~known), None)


def with_shanten(events: pl.DataFrame) -> pl.DataFrame:
    """``events`` with :func:`shanten_column` (replaced where it is already there)."""
    return events.with_columns(shanten_column(events.drop("shanten", strict=False)))
