"""Dora, ura dora and red fives counted from indicator strings and the hand's base-32 count codes.

Returned as stages of columns (so the indicator string is normalised once, not once per use).
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


def dora_stages(col, out: str, indicators: pl.Expr, full32: list[pl.Expr], kan_dora: bool) -> list[dict]:
    """Stages adding ``out`` = dora pointed to by ``indicators`` (the first, plus kan dora if allowed) and
    ``{out}_ok`` = the indicator string is well formed (null string: ok).

    ``col(name)`` gives the scratch column expression for a scratch name.
    """
    n = MAX_INDICATORS if kan_dora else 1
    st0 = {f"{out}_grouped": pl.when(indicators.str.contains(r"[0-9][0-9]")).then(indicators)}
    st1 = {f"{out}_norm": pl.coalesce(normalise_indicators(col(f"{out}_grouped")), indicators)}
    st2 = {
        f"{out}_tgt{k}": col(f"{out}_norm").str.slice(2 * k, 2).replace_strict(
            DORA_OF_TOKEN, default=None, return_dtype=pl.Int32
        )
        for k in range(MAX_INDICATORS)
    }
    n_tokens = sum(col(f"{out}_tgt{k}").is_not_null().cast(pl.UInt32) for k in range(MAX_INDICATORS))
    st3 = {
        out: sum(count_of(col(f"{out}_tgt{k}"), full32) for k in range(n)),
        f"{out}_ok": indicators.is_null() | (col(f"{out}_norm").str.len_bytes() == 2 * n_tokens),
    }
    return [st0, st1, st2, st3]
