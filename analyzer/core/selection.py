"""Choosing games by date: ``--since`` / ``--until`` of the report.

A game's date is its ``date`` column (ISO text, the first row of the game decides) when the input has one,
else the date a Tenhou log id starts with (``2019010100gm-…`` is 2019-01-01). Games without a date are left
out when a date bound is given: a bound cannot say whether they belong.
"""

from __future__ import annotations

from datetime import date

import polars as pl


def game_date(names: list[str]) -> pl.Expr:
    from_id = pl.col("game_id").str.extract(r"^(\d{8})", 1).str.to_date("%Y%m%d", strict=False)
    if "date" not in names:
        return from_id.first().over("game_id")
    given = pl.col("date").cast(pl.String).str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False)
    return given.first().over("game_id").fill_null(from_id.first().over("game_id"))


def select_games(raw: pl.LazyFrame, since: date | None = None, until: date | None = None) -> pl.LazyFrame:
    """The rows of the games played from ``since`` to ``until`` (both days included)."""
    if since is None and until is None:
        return raw
    when = game_date(raw.collect_schema().names())
    keep = pl.lit(True)
    if since is not None:
        keep = keep & (when >= since)
    if until is not None:
        keep = keep & (when <= until)
    return raw.filter(keep.fill_null(False))
