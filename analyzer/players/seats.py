"""Seat masks: how the statistics count for several seats in one integer per row.

Each count is one *seat mask* per row: an Int64 with a field of :data:`FIELD_BITS` bits per seat, holding 1 in
the field of each seat the row counts for. Masks combine with ``&`` and ``|`` (a riichi hand that the player
won is ``riichi & won``), so a statistic costs one integer expression per row, not one per seat, and two masks
share a word (the seats' fields of the first at bits 0, 8, 16, 24, of the second at 32 … 56). The words are
summed over *runs* of rows (:mod:`.sums`), cut to at most :data:`RUN_ROWS` rows so that a field never
overflows into the next and the top field never reaches the sign bit. Also here: the 4-bit masks replay keeps
(bit ``s`` for seat ``s``) and picking a per-seat value by a seat number, which every step of the statistics
reads.
"""

from __future__ import annotations

import polars as pl

from analyzer.core import segments as seg
from analyzer.core.schema import SEATS

FIELD_BITS = 8
FIELD_MASK = (1 << FIELD_BITS) - 1
RUN_ROWS = (1 << (FIELD_BITS - 1)) - 1
SEAT_FIELDS = 4 * FIELD_BITS  # bits of one mask; a word holds 64 // SEAT_FIELDS masks
MASKS_PER_WORD = 64 // SEAT_FIELDS
SEAT_WORD_FIELDS = FIELD_MASK | (FIELD_MASK << SEAT_FIELDS)  # one seat's field of each of a word's two masks


def at_seat(values: list[pl.Expr], seat: pl.Expr) -> pl.Expr:
    """The value of ``values`` (one per seat) at seat number ``seat`` (null for null or anything but 0-3)."""
    expr = pl.when(seat == 0).then(values[0])
    for s in SEATS[1:]:
        expr = expr.when(seat == s).then(values[s])
    return expr


def bit(mask: str, seat: int | pl.Expr) -> pl.Expr:
    """Bit ``seat`` of a 4-bit seat mask column."""
    return pl.col(mask).and_(1 << seat if isinstance(seat, int) else seg.seat_bit(seat)) != 0


def unit(s: int) -> int:
    """The seat mask of seat ``s`` alone."""
    return 1 << (FIELD_BITS * s)


ALL_SEATS = sum(unit(s) for s in SEATS)


def seat_mask(seat: pl.Expr) -> pl.Expr:
    """The seat mask of a seat number (0 for null or anything but 0-3; Polars' integer ``pow`` is slow)."""
    expr = pl.when(seat == 0).then(pl.lit(unit(0), pl.Int64))
    for s in SEATS[1:]:
        expr = expr.when(seat == s).then(pl.lit(unit(s), pl.Int64))
    return expr.otherwise(pl.lit(0, pl.Int64))


def spread(bits: pl.Expr) -> pl.Expr:
    """A 4-bit seat mask (bit s for seat s, as replay keeps them) as a seat mask (bit s moved to field s)."""
    return pl.sum_horizontal(bits.and_(1 << s) * (1 << (FIELD_BITS * s - s)) for s in SEATS).cast(pl.Int64)


def seats_where(conditions: list[pl.Expr]) -> pl.Expr:
    """The seat mask of the seats whose condition is true (null counts as false)."""
    return pl.sum_horizontal(
        pl.when(c).then(pl.lit(unit(s), pl.Int64)).otherwise(pl.lit(0, pl.Int64)) for s, c in enumerate(conditions)
    )


def has(mask: str, s: int) -> pl.Expr:
    """Seat ``s`` is in the seat mask column ``mask``."""
    return pl.col(mask).and_(unit(s)) != 0
