"""Dora, ura dora and red fives counted from indicator strings and the hand's base-32 count codes.

Returned as stages of columns (so the indicator string is normalised once, not once per use).
"""

from __future__ import annotations

import polars as pl

from analyzer.tiles.notation import next_tile, normalise_indicators, tile_id
from analyzer.tiles.tables import lut

MAX_INDICATORS = 5


def count_of(tile: pl.Expr, full32: list[pl.Expr]) -> pl.Expr:
    """How many copies of ``tile`` (id 0-33, may be null) the whole hand holds (melds included)."""
    suit, rank = tile // 9, tile % 9
    code = pl.when(suit == 0).then(full32[0]).when(suit == 1).then(full32[1]).when(suit == 2).then(full32[2])
    code = code.otherwise(full32[3])
    count = (code // lut("POW32", rank.fill_null(0).clip(0, 8))) % 32
    return pl.when(tile.is_not_null()).then(count).otherwise(0)


def dora_stages(col, out: str, indicators: pl.Expr, full32: list[pl.Expr], kan_dora: bool) -> list[dict]:
    """Stages adding column ``out`` = dora pointed to by ``indicators`` (first one, plus kan dora if allowed).

    ``col(name)`` gives the scratch column expression for a scratch name.
    """
    n = MAX_INDICATORS if kan_dora else 1
    st0 = {f"{out}_grouped": pl.when(indicators.str.contains(r"[0-9][0-9]")).then(indicators)}
    st1 = {f"{out}_norm": pl.coalesce(normalise_indicators(col(f"{out}_grouped")), indicators)}
    st2 = {f"{out}_tok{k}": col(f"{out}_norm").str.slice(2 * k, 2) for k in range(n)}
    st3 = {f"{out}_ind{k}": tile_id(col(f"{out}_tok{k}")) for k in range(n)}
    st4 = {f"{out}_tgt{k}": next_tile(col(f"{out}_ind{k}")) for k in range(n)}
    st5 = {out: sum(count_of(col(f"{out}_tgt{k}"), full32) for k in range(n))}
    return [st0, st1, st2, st3, st4, st5]
