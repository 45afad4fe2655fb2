"""Each seat's concealed tiles after every event of the events table (``docs/outputs.md#events``), and the
acting seat's shanten after the events that change its hand.

A seat's hand is held as four *suit codes* (:mod:`.suits`: the base-5 code of each suit's counts, red fives as
fives), which are linear in the counts: the tile changes of every event (a draw adds its tile, a discard, an
added kan or a north set aside takes it; a chi, pon or open kan takes the meld's tiles but the called one; a
closed kan takes its four; the deal adds thirteen) are codes too, and a seat's hand after an event is the
running sum of its own changes in the hand — a cumulative sum over the seat's rows less its value where the
hand starts. The called sets are a running count the same way. No loop over events or hands: four passes,
one per seat, over arrays in hand order.

The rows are taken in *hand order* — each hand's rows together, by ``seq`` — as the events table is written;
rows in another order are sorted first (:func:`in_hand_order`), and the results are given in the input's order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import polars as pl

from analyzer.play.suits import POWERS, shanten_of_codes

# the events after which the acting seat's shanten is given
SHANTEN_EVENTS = ("haipai", "draw", "discard", "chi", "pon", "minkan", "kakan", "ankan", "kita")
CALLS_FROM_DISCARDS = ("chi", "pon", "minkan")
SETS = ("chi", "pon", "minkan", "ankan")  # a kakan turns a pon into a kan: no new set
HAND = ("game_id", "log_row")
# events whose one tile enters (+1) or leaves (−1) the acting seat's hand, and those whose listed tiles do
TILE_IN, TILE_OUT = ("draw", *CALLS_FROM_DISCARDS), ("discard", "kakan", "kita")
TILES_IN, TILES_OUT = ("haipai",), ("ankan", *CALLS_FROM_DISCARDS)
SEQ_BITS = 16  # a row's place as hand * 2**16 + seq: seq is an Int16


def tile_kinds(tiles: list[str]) -> np.ndarray:
    """The kind (0-33) of each tile text (``1m`` … ``7z``, a red five ``0m`` a five)."""
    return np.array([(int(t[0]) or 5) - 1 + "mpsz".index(t[1]) * 9 for t in tiles], np.int64)


def kind_of(column: str, tiles: list[str]) -> pl.Expr:
    """A tile column of the events' Enum as kinds, by its categories' order."""
    return pl.lit(pl.Series(tile_kinds(tiles))).gather(pl.col(column).to_physical().cast(pl.Int64))


def event_codes(events: pl.DataFrame) -> tuple[np.ndarray, list[str]]:
    """(n,) the events' Enum codes (``len(categories)`` where null) and the Enum's categories."""
    categories = list(events.schema["event"].categories)
    return events["event"].to_physical().fill_null(len(categories)).to_numpy().astype(np.uint8), categories


def event_is(events: pl.DataFrame | tuple[np.ndarray, list[str]], names: tuple[str, ...] | str) -> np.ndarray:
    """(n,) bool: the row's event is one of ``names`` (one lookup of the Enum's codes; ``events`` the frame or
    its :func:`event_codes`)."""
    names = (names,) if isinstance(names, str) else names
    codes, categories = event_codes(events) if isinstance(events, pl.DataFrame) else events
    wanted = [i for i, c in enumerate(categories) if c in names]
    if len(wanted) > 3:  # a lookup; a few comparisons are faster than a gather
        return np.array([c in names for c in categories] + [False])[codes]
    found = np.zeros(len(codes), bool)
    for code in wanted:
        found |= codes == code
    return found


def tile_kind_array(events: pl.DataFrame, column: str = "tile") -> np.ndarray:
    """(n,) int64: the kind of the row's ``column`` tile, −1 where it has none."""
    kinds = np.append(tile_kinds(list(events.schema[column].categories)), -1)
    return kinds[events[column].to_physical().fill_null(len(kinds) - 1).to_numpy()]


def in_hand_order(events: pl.DataFrame) -> tuple[pl.DataFrame, np.ndarray | None]:
    """``events`` with each hand's rows together in ``seq`` order (hands by ``game_id`` and ``log_row`` when a
    sort is needed), and the input row of each of its rows (None: the input was in hand order already: each hand
    a run of rows whose ``seq`` counts 1, 2, … as the events table writes them)."""
    new_hand = pl.any_horizontal(pl.col(c).ne_missing(pl.col(c).shift()) for c in HAND).fill_null(True)
    in_order = events.select(
        pl.when(new_hand).then(pl.col("seq") == 1).otherwise(pl.col("seq") == pl.col("seq").shift() + 1).all()
    ).item()
    if in_order or events.height == 0:
        return events, None
    order = events.select(pl.int_range(pl.len()).sort_by([*HAND, "seq"], maintain_order=True)).to_series()
    return events[order], order.to_numpy()


class SeatStates(NamedTuple):
    """The seats' hands after every row of ``events`` (the input in hand order, :func:`in_hand_order`;
    ``order``: the input row of each of its rows, None when the same): per row, its ``hand`` (0, 1, … in
    order), acting ``seat`` (−1 none), that seat's concealed ``codes`` (n, 4) int32 after it (zeros without a
    seat) and called ``sets``; whether the hand was dealt to three seats (``three``); ``key``, the row's place
    (hand * 2**16 + seq, increasing); the listed tiles of the deals and melds, one entry a tile: the row
    (``listed_row``, increasing) and the kind (``listed_kind``); the rows' event codes (``event``:
    :func:`event_codes`) and the kinds of their tiles (``kind``, −1 none)."""

    events: pl.DataFrame
    order: np.ndarray | None
    hand: np.ndarray
    seat: np.ndarray
    codes: np.ndarray
    sets: np.ndarray
    three: np.ndarray
    key: np.ndarray
    listed_row: np.ndarray
    listed_kind: np.ndarray
    event: tuple[np.ndarray, list[str]]
    kind: np.ndarray

    def rows_of(self, names: tuple[str, ...] | str) -> np.ndarray:
        """(n,) bool: the row's event is one of ``names``."""
        return event_is(self.event, names)


def _code_changes(events: pl.DataFrame, codes: tuple[np.ndarray, list[str]], kind: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, 4) int32: what each row adds to its acting seat's suit codes; the listed tiles (rows, kinds)."""
    n = events.height
    changes = np.zeros((n, 4), np.int32)
    sign = event_is(codes, TILE_IN).astype(np.int32) - event_is(codes, TILE_OUT)
    single = np.flatnonzero((sign != 0) & (kind >= 0))
    changes[single, kind[single] // 9] = sign[single] * POWERS[kind[single] % 9]
    listed_sign = event_is(codes, TILES_IN).astype(np.int32) - event_is(codes, TILES_OUT)
    listed = np.flatnonzero(listed_sign != 0)
    owner, flat = np.zeros(0, np.int64), np.zeros(0, np.int64)
    if len(listed):
        tiles = events[listed].select("tiles")
        lengths = tiles["tiles"].list.len().fill_null(0).to_numpy()
        flat = tile_kind_array(tiles.explode("tiles").drop_nulls(), "tiles")
        owner = np.repeat(np.arange(len(listed)), lengths)
        weights = listed_sign[listed][owner] * POWERS[flat % 9]
        summed = np.bincount(owner * 4 + flat // 9, weights=weights, minlength=4 * len(listed))
        changes[listed] += summed.reshape(-1, 4).astype(np.int32)
    return changes, listed[owner], flat


def _running_per_hand(values: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """Running sums of ``values`` (rows of one seat, in hand order) within each hand. Summed in ``values``' own
    integer type, wrapping: the sums over all rows may overflow it, but they are exact modulo its range, and a
    hand's running sum (a code or a count, which fits) is their difference (twice as fast as widening)."""
    running = np.cumsum(values, axis=0, dtype=values.dtype)
    starts = np.flatnonzero(np.diff(hand, prepend=-1))
    before = np.zeros((len(starts), *values.shape[1:]), values.dtype)
    before[1:] = running[starts[1:] - 1]
    running -= np.repeat(before, np.diff(np.append(starts, len(hand))), axis=0)
    return running


def seat_states(events: pl.DataFrame) -> SeatStates:
    """The :class:`SeatStates` of ``events``."""
    events, order = in_hand_order(events)
    n = events.height
    columns = events.select(
        pl.any_horizontal(pl.col(c).ne_missing(pl.col(c).shift()) for c in HAND).fill_null(True).alias("new_hand"),
        pl.col("seat").fill_null(-1).cast(pl.Int8), pl.col("seq").cast(pl.Int64))
    hand = np.cumsum(columns["new_hand"].to_numpy(), dtype=np.int64) - 1
    seat = columns["seat"].to_numpy()
    codes_ = event_codes(events)
    kind = tile_kind_array(events)
    changes, listed_row, listed_kind = _code_changes(events, codes_, kind)
    is_set = event_is(codes_, SETS).astype(np.int8)
    codes = np.zeros((n, 4), np.int32)
    sets = np.zeros(n, np.int8)
    for s in range(4):
        rows = np.flatnonzero(seat == s)
        if len(rows):
            codes[rows] = _running_per_hand(changes[rows], hand[rows])
            sets[rows] = _running_per_hand(is_set[rows], hand[rows])
    dealt = np.bincount(hand[event_is(codes_, "haipai")], minlength=int(hand[-1]) + 1 if n else 0)
    key = (hand << SEQ_BITS) + columns["seq"].to_numpy()
    return SeatStates(events, order, hand, seat, codes, sets, (dealt == 3)[hand], key, listed_row, listed_kind,
                      codes_, kind)


def shanten_column(events: pl.DataFrame, states: SeatStates | None = None) -> pl.Series:
    """``shanten`` (Int8) for every row of ``events``: the acting seat's shanten after each row of
    :data:`SHANTEN_EVENTS` (−1 a complete hand), null on other rows; ``states`` the events' :func:`seat_states`
    when they are known already."""
    states = seat_states(events) if states is None else states
    rows = np.flatnonzero(states.rows_of(SHANTEN_EVENTS) & (states.seat >= 0))
    values = np.zeros(events.height, np.int8)
    values[rows] = shanten_of_codes(states.codes[rows], states.sets[rows], states.three[rows])
    known = np.zeros(events.height, bool)
    known[rows] = True
    if states.order is not None:  # back to the input's order
        values[states.order], known[states.order] = values.copy(), known.copy()
    column = pl.Series("shanten", values, pl.Int8)
    return column if known.all() else column.set(pl.Series(~known), None)


def with_shanten(events: pl.DataFrame) -> pl.DataFrame:
    """``events`` with :func:`shanten_column` (replaced where it is already there)."""
    return events.with_columns(shanten_column(events.drop("shanten", strict=False)))
