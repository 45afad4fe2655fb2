"""Dora, ura dora and red fives counted from indicator strings and the hand's base-32 count codes.

The first indicator of each string is read inline (every row); further ones (kan dora, only on hands with a
kan) are read on a sparse branch: the rows that have them are exploded to one row per indicator, counted,
summed per hand and joined back on a narrow frame.
"""

from __future__ import annotations

import polars as pl

from analyzer.tiles.notation import normalise_indicators
from analyzer.tiles.tables import DORA_OF_TOKEN, lut

MAX_INDICATORS = 5


def count_of(tile: pl.Expr, full32: list[pl.Expr]) -> pl.Expr:
    """How many copies of ``tile`` (id 0-33, may be null) the whole hand holds (melds included)."""
    suit, rank = tile // 9, tile % 9
    code = pl.when(suit == 0).then(full32[0]).when(suit == 1).then(full32[1]).when(suit == 2).then(full32[2])
    code = code.otherwise(full32[3])
    count = (code // lut("POW32", rank.fill_null(0).clip(0, 8))) % 32
    return pl.when(tile.is_not_null()).then(count).otherwise(0)


def _dora_tile(token: pl.Expr) -> pl.Expr:
    return token.replace_strict(DORA_OF_TOKEN, default=None, return_dtype=pl.Int32)


def first_indicator_stages(col, out: str, indicators: pl.Expr, full32: list[pl.Expr]) -> list[dict]:
    """Stages adding ``{out}_norm`` (one tile per 2 chars), ``{out}_first`` (dora of the first indicator) and
    ``{out}_ok0`` (the first indicator is valid and the length is even)."""
    st0 = {f"{out}_grouped": pl.when(indicators.str.contains(r"[0-9][0-9]")).then(indicators)}
    st1 = {f"{out}_norm": pl.coalesce(normalise_indicators(col(f"{out}_grouped")), indicators)}
    st2 = {f"{out}_tgt0": _dora_tile(col(f"{out}_norm").str.slice(0, 2))}
    length = col(f"{out}_norm").str.len_bytes()
    st3 = {
        f"{out}_first": count_of(col(f"{out}_tgt0"), full32),
        f"{out}_ok0": indicators.is_null() | ((length % 2 == 0) & (length <= 2 * MAX_INDICATORS)
                                              & col(f"{out}_tgt0").is_not_null()),
        f"{out}_more": length > 2,
    }
    return [st0, st1, st2, st3]


def further_indicators(rows: pl.LazyFrame, col, out: str, rid: str, full32: list[pl.Expr]) -> pl.LazyFrame:
    """(rid, ``{P}{out}_kan``, ``{P}{out}_bad``): dora of the 2nd..5th indicators and how many are invalid."""
    name = col(f"{out}_kan").meta.output_name()
    bad = col(f"{out}_bad").meta.output_name()
    return (
        rows.filter(col(f"{out}_more"))
        .select(rid, *full32, col(f"{out}_norm").str.slice(2).str.extract_all("..").alias("__tok"))
        .explode("__tok")
        .with_columns(__tgt=_dora_tile(pl.col("__tok")))
        .with_columns(
            __cnt=count_of(pl.col("__tgt"), full32).cast(pl.Int64),
            __bad=(pl.col("__tgt").is_null() & pl.col("__tok").is_not_null()).cast(pl.Int64),
        )
        .group_by(rid)
        .agg(pl.col("__cnt").sum().alias(name), pl.col("__bad").sum().alias(bad))
    )
