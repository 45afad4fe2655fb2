"""Window arithmetic over sorted rows: segments instead of hashed ``over`` groups.

Rows sorted by a key form contiguous *segments* (a game, a hand). With a column that is true on each
segment's first row (``start``) or last row (``end``), running totals and per-segment values are linear
passes — a cumulative sum minus its value where the segment starts, a forward or backward fill — with no
hash table over the key. Every function here needs the rows in segment order and non-null inputs.
"""

from __future__ import annotations

import polars as pl


def starts(*keys: str) -> pl.Expr:
    """True on the first row of each run of equal ``keys`` (and on the first row). A null key equals a null key
    (a seat left empty in three-player records runs on), unlike the other functions' inputs here."""
    changed = [pl.col(k).ne_missing(pl.col(k).shift(1)) for k in keys]
    return pl.any_horizontal(*changed, pl.int_range(pl.len()) == 0)


def ends_from_starts(start: pl.Expr) -> pl.Expr:
    """True on the last row of each segment, from the start flags."""
    return start.shift(-1).fill_null(True)


def first(expr: pl.Expr, start: pl.Expr) -> pl.Expr:
    """The segment's value of ``expr`` on its first row, on every row."""
    return pl.when(start).then(expr).forward_fill()


def last(expr: pl.Expr, end: pl.Expr) -> pl.Expr:
    """The segment's value of ``expr`` on its last row, on every row."""
    return pl.when(end).then(expr).backward_fill()


def cum_sum(expr: pl.Expr, start: pl.Expr) -> pl.Expr:
    """Running total within the segment, this row included."""
    running = expr.cum_sum()
    return running - first(running - expr, start)


def cum_sum_before(expr: pl.Expr, start: pl.Expr) -> pl.Expr:
    """Running total within the segment of the rows before this one."""
    return cum_sum(expr, start) - expr


def total(expr: pl.Expr, start: pl.Expr, end: pl.Expr) -> pl.Expr:
    """The segment's sum of ``expr``, on every row."""
    return total_of_running(expr.cum_sum(), expr, start, end)


def total_of_running(running: pl.Expr, expr: pl.Expr, start: pl.Expr, end: pl.Expr) -> pl.Expr:
    """:func:`total` from ``running``, the cumulative sum of ``expr``: it is read twice, so a column of its own
    step costs one pass instead of two."""
    return last(running, end) - first(running - expr, start)


def any_(condition: pl.Expr, start: pl.Expr, end: pl.Expr) -> pl.Expr:
    return total(condition.cast(pl.Int64), start, end) > 0


def length(start: pl.Expr, end: pl.Expr) -> pl.Expr:
    index = pl.int_range(pl.len(), dtype=pl.Int64)
    return last(index, end) - first(index, start) + 1


# Four seat counts packed in one Int64 (15 bits each), so one running total counts all four seats.
_FIELD = 15
_FIELD_MASK = (1 << _FIELD) - 1


def with_union4(lf: pl.LazyFrame, seat_bits: pl.Expr, start: pl.Expr, end: pl.Expr, name: str) -> pl.LazyFrame:
    """``lf`` with column ``name``: the union over each segment of the 4-bit seat masks ``seat_bits``.

    Three steps, each its own ``with_columns``: written as one expression, the running total inside is
    referenced once per seat and computed each time (ten times slower)."""
    spread = pl.sum_horizontal(
        pl.when(seat_bits.and_(1 << s) != 0).then(pl.lit(1 << (_FIELD * s), pl.Int64)).otherwise(0) for s in range(4)
    ).cast(pl.Int64)
    counts = f"{name}__counts"
    return (
        lf.with_columns(spread.alias(counts))
        .with_columns(total(pl.col(counts), start, end))
        .with_columns(
            pl.sum_horizontal(
                pl.when((pl.col(counts) // (1 << (_FIELD * s))).and_(_FIELD_MASK) > 0).then(1 << s).otherwise(0)
                for s in range(4)
            ).cast(pl.Int64).alias(name)
        )
        .drop(counts)
    )


def seat_bit(seat: pl.Expr) -> pl.Expr:
    """1 << seat for seats 0-3 (0 for anything else). Polars' integer ``pow`` is slow; four branches are not."""
    expr = pl.when(seat == 0).then(pl.lit(1, pl.Int64))
    for s in (1, 2, 3):
        expr = expr.when(seat == s).then(pl.lit(1 << s, pl.Int64))
    return expr.otherwise(pl.lit(0, pl.Int64))


def has_seat(mask: pl.Expr, seat: pl.Expr) -> pl.Expr:
    """The 4-bit seat ``mask`` contains ``seat``."""
    return mask.and_(seat_bit(seat)) != 0


# Many yes/no facts of a segment in one running total: each fact is a field of an Int64 word, wide enough for
# the longest segment, so that one cumulative sum counts them all. (A wrapped cumulative sum still gives exact
# segment totals: they are differences of running sums, and each field of a difference fits its width.)
def field_bits(longest: int) -> int:
    """The width of a field that counts up to ``longest`` rows."""
    return max(1, int(longest).bit_length())


def pack(flags: list[pl.Expr], bits: int) -> list[pl.Expr]:
    """Boolean ``flags`` (null is false) as fields of ``bits`` bits, as many to an Int64 word as fit."""
    per_word = 63 // bits
    return [
        pl.sum_horizontal(f.fill_null(False).cast(pl.Int64) * (1 << (bits * j))
                          for j, f in enumerate(flags[i:i + per_word])).cast(pl.Int64)
        for i in range(0, len(flags), per_word)
    ]


def unpack(words: list[str], count: int, bits: int) -> list[pl.Expr]:
    """The first ``count`` fields of the word columns ``words`` (as :func:`pack` laid them out), in order."""
    per_word = 63 // bits
    return [(pl.col(words[i // per_word]) // (1 << (bits * (i % per_word)))).and_((1 << bits) - 1)
            for i in range(count)]
