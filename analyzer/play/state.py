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
    """(n,) int8: the kind of the row's ``column`` tile, −1 where it has none."""
    kinds = np.append(tile_kinds(list(events.schema[column].categories)), -1).astype(np.int8)
    return kinds[events[column].to_physical().fill_null(len(kinds) - 1).to_numpy()]


def _hand_starts(events: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(n,) bool: the row starts a hand (its ``game_id`` or ``log_row`` not the row before's); (n,) its seq."""
    columns = events.select(
        pl.any_horizontal(pl.col(c).ne_missing(pl.col(c).shift()) for c in HAND).fill_null(True).alias("new_hand"),
        pl.col("seq"))
    return columns["new_hand"].to_numpy(), columns["seq"].to_numpy()


def in_hand_order(events: pl.DataFrame) -> tuple[pl.DataFrame, np.ndarray | None, np.ndarray, np.ndarray]:
    """``events`` with each hand's rows together in ``seq`` order (hands by ``game_id`` and ``log_row`` when a
    sort is needed), the input row of each of its rows (None: the input was in hand order already: each hand
    a run of rows whose ``seq`` counts 1, 2, … as the events table writes them), and its rows'
    :func:`_hand_starts`."""
    new_hand, seq = _hand_starts(events)
    if not len(seq):
        return events, None, new_hand, seq
    counts_on = np.empty(len(seq), bool)
    counts_on[1:] = seq[1:] == seq[:-1] + 1
    if np.where(new_hand, seq == 1, counts_on).all():
        return events, None, new_hand, seq
    order = events.select(pl.int_range(pl.len()).sort_by([*HAND, "seq"], maintain_order=True)).to_series()
    events = events[order]
    return (events, order.to_numpy(), *_hand_starts(events))


class SeatStates(NamedTuple):
    """The seats' hands after every row of ``events`` (the input in hand order, :func:`in_hand_order`;
    ``order``: the input row of each of its rows, None when the same): per row, its ``hand`` (0, 1, … in
    order), acting ``seat`` (−1 none), that seat's concealed ``codes`` (n, 4) int32 after it (zeros without a
    seat) and called ``sets`` — both None where the states were made without them (:func:`seat_states`'s
    ``every_row``; :func:`codes_at` sums them for the rows asked); per hand, whether it was dealt to three
    seats (``dealt_three``, :meth:`three`); ``key``, the row's place (hand * 2**16 + seq, increasing); the
    rows' event codes (``event``: :func:`event_codes`) and the kinds of their tiles (``kind``, −1 none); each
    seat's rows (``seat_rows``, increasing) and their keys (``seat_keys``); the events' own ``shanten``
    column (:data:`UNKNOWN` where null; None without the column); the first row of each hand (``starts``)."""

    events: pl.DataFrame
    order: np.ndarray | None
    hand: np.ndarray
    seat: np.ndarray
    codes: np.ndarray | None
    sets: np.ndarray | None
    dealt_three: np.ndarray
    key: np.ndarray
    event: tuple[np.ndarray, list[str]]
    kind: np.ndarray
    seat_rows: tuple[np.ndarray, ...]
    seat_keys: tuple[np.ndarray, ...]
    shanten: np.ndarray | None
    starts: np.ndarray

    def rows_of(self, names: tuple[str, ...] | str) -> np.ndarray:
        """(n,) bool: the row's event is one of ``names``."""
        return event_is(self.event, names)

    def three(self, rows: np.ndarray) -> np.ndarray:
        """Whether the hand of each of ``rows`` was dealt to three seats."""
        return self.dealt_three[self.hand[rows]]

    def slot(self, rows: np.ndarray) -> np.ndarray:
        """The slot (hand * 4 + seat) of each of ``rows`` (rows with a seat)."""
        return self.hand[rows].astype(np.int64) * 4 + self.seat[rows]

    def seq(self, rows: np.ndarray) -> np.ndarray:
        """The ``seq`` of each of ``rows``."""
        return self.key[rows] & ((1 << SEQ_BITS) - 1)

    def values(self, column: str, rows: np.ndarray, missing: int = 0) -> np.ndarray:
        """(len(rows),) int64: the events' ``column`` at ``rows``, ``missing`` where null."""
        return self.events[column].gather(rows).fill_null(missing).to_numpy().astype(np.int64)


UNKNOWN = np.int8(127)  # a shanten the events do not give


def in_ranges(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every index of the ranges ``[lo, hi)`` and the range it belongs to."""
    lengths = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(len(lo)), lengths)
    starts = np.cumsum(lengths) - lengths
    return owner, np.arange(lengths.sum()) - np.repeat(starts - lo, lengths)


def listed_tiles(events: pl.DataFrame, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The listed tiles (``tiles``) of ``rows``, one entry a tile: the index of its row in ``rows``, its kind."""
    if not len(rows):
        return np.zeros(0, np.int64), np.zeros(0, np.int8)
    tiles = events.select(pl.col("tiles").gather(rows))
    lengths = tiles["tiles"].list.len().fill_null(0).to_numpy()
    return np.repeat(np.arange(len(rows)), lengths), tile_kind_array(tiles.explode("tiles").drop_nulls(), "tiles")


def _signs(categories: list[str], entering: tuple[str, ...], leaving: tuple[str, ...]) -> np.ndarray:
    """Per event code (null last): +1 for the events of ``entering``, −1 for those of ``leaving``, else 0."""
    return np.array([(c in entering) - (c in leaving) for c in categories] + [0], np.int8)


def _single_changes() -> np.ndarray:
    """(3 * 35, 4) int32: the code change of one tile of each kind (−1 none: no change) entering (sign +1) or
    leaving (−1) a hand, at row ``(sign + 1) * 35 + kind + 1``."""
    table = np.zeros((3, 35, 4), np.int32)
    for kind in range(34):
        for sign in (-1, 1):
            table[sign + 1, kind + 1, kind // 9] = sign * POWERS[kind % 9]
    return table.reshape(-1, 4)


SINGLE_CHANGES = _single_changes()


def _code_changes(states: SeatStates, rows: np.ndarray | None = None) -> np.ndarray:
    """(len(rows), 4) int32: what each of ``rows`` (all rows: None) adds to its acting seat's suit codes: one
    gather of :data:`SINGLE_CHANGES` for the events of one tile, the listed tiles' codes summed for the others."""
    codes, categories = states.event
    codes, kind = (codes, states.kind) if rows is None else (codes[rows], states.kind[rows])
    sign = _signs(categories, TILE_IN, TILE_OUT)[codes].astype(np.int64)
    changes = SINGLE_CHANGES[(sign + 1) * 35 + kind + 1]
    listed_sign = _signs(categories, TILES_IN, TILES_OUT)[codes]
    listed = np.flatnonzero(listed_sign)
    if len(listed):
        owner, flat = listed_tiles(states.events, listed if rows is None else rows[listed])
        weights = listed_sign[listed][owner] * POWERS[flat % 9]
        summed = np.bincount(owner * 4 + flat // 9, weights=weights, minlength=4 * len(listed))
        changes[listed] += summed.reshape(-1, 4).astype(np.int32)
    return changes


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


def seat_states(events: pl.DataFrame, every_row: bool = True) -> SeatStates:
    """The :class:`SeatStates` of ``events``; without ``every_row`` no codes and sets are kept for every row
    (:func:`codes_at` sums those of the rows asked, a fraction of the work where few rows are asked)."""
    events, order, new_hand, seq = in_hand_order(events)
    n = events.height
    hand = np.cumsum(new_hand, dtype=np.int32) - 1
    seat = events["seat"].fill_null(-1).to_numpy().astype(np.int8, copy=False)
    codes_ = event_codes(events)
    dealt = np.bincount(hand[event_is(codes_, "haipai")], minlength=int(hand[-1]) + 1 if n else 0)
    key = (hand.astype(np.int64) << SEQ_BITS) + seq
    seat_rows = tuple(np.flatnonzero(seat == s) for s in range(4))
    shanten = (events["shanten"].fill_null(UNKNOWN).to_numpy().astype(np.int8, copy=False)
               if "shanten" in events.columns else None)
    states = SeatStates(events, order, hand, seat, None, None, dealt == 3, key, codes_, tile_kind_array(events),
                        seat_rows, tuple(key[r] for r in seat_rows), shanten, np.flatnonzero(new_hand))
    if not every_row:
        return states
    changes = _code_changes(states)
    is_set = event_is(codes_, SETS).astype(np.int8)
    codes = np.zeros((n, 4), np.int32)
    sets = np.zeros(n, np.int8)
    for rows in seat_rows:
        if len(rows):
            codes[rows] = _running_per_hand(changes[rows], hand[rows])
            sets[rows] = _running_per_hand(is_set[rows], hand[rows])
    return states._replace(codes=codes, sets=sets)


def codes_at(states: SeatStates, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(len(rows), 4) int32 suit codes and (len(rows),) int8 called sets of the acting seat's hand after each of
    ``rows`` (rows with a seat): the sum of the seat's changes from its hand's first row to the row, over the
    rows asked only."""
    rows = np.asarray(rows, np.int64)
    if states.codes is not None:
        return states.codes[rows], states.sets[rows]
    owners, members = [], []
    for s in range(4):
        pick = np.flatnonzero(states.seat[rows] == s)
        if len(pick):
            at = states.key[rows[pick]]
            lo = np.searchsorted(states.seat_keys[s], (at >> SEQ_BITS) << SEQ_BITS, side="left")
            owner, index = in_ranges(lo, np.searchsorted(states.seat_keys[s], at, side="right"))
            owners.append(pick[owner])
            members.append(states.seat_rows[s][index])
    if not owners:
        return np.zeros((len(rows), 4), np.int32), np.zeros(len(rows), np.int8)
    owner, member = np.concatenate(owners), np.concatenate(members)
    unique, inverse = np.unique(member, return_inverse=True)
    changes = _code_changes(states, unique)[inverse]
    codes = np.stack([np.bincount(owner, weights=changes[:, s], minlength=len(rows)) for s in range(4)], axis=1)
    is_set = event_is((states.event[0][member], states.event[1]), SETS)
    return codes.astype(np.int32), np.bincount(owner, weights=is_set, minlength=len(rows)).astype(np.int8)


def shanten_column(events: pl.DataFrame, states: SeatStates | None = None) -> pl.Series:
    """``shanten`` (Int8) for every row of ``events``: the acting seat's shanten after each row of
    :data:`SHANTEN_EVENTS` (−1 a complete hand), null on other rows; ``states`` the events' :func:`seat_states`
    when they are known already."""
    states = seat_states(events) if states is None else states
    rows = np.flatnonzero(states.rows_of(SHANTEN_EVENTS) & (states.seat >= 0))
    values = np.zeros(events.height, np.int8)
    values[rows] = shanten_of_codes(*codes_at(states, rows), states.three(rows))
    known = np.zeros(events.height, bool)
    known[rows] = True
    if states.order is not None:  # back to the input's order
        values[states.order], known[states.order] = values.copy(), known.copy()
    column = pl.Series("shanten", values, pl.Int8)
    return column if known.all() else column.set(pl.Series(~known), None)


def with_shanten(events: pl.DataFrame) -> pl.DataFrame:
    """``events`` with :func:`shanten_column` (replaced where it is already there)."""
    return events.with_columns(shanten_column(events.drop("shanten", strict=False)))
