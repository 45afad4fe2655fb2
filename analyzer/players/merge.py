"""The merge of partial rows: many parts' rows (:mod:`.partials`) into one partial row per player.

The merge is associative, so parts can be merged in any grouping and order (partitions one after another, a
cluster's workers) with the same result: each column by its rule in :data:`~analyzer.players.columns.MERGE`.
"""

from __future__ import annotations

import polars as pl

from analyzer.players.columns import BEST, MERGE, PARTIAL_COLUMNS
from analyzer.players.partials import count_map


def arg_max(column: str, key: str) -> pl.Expr:
    """``column`` of the row with the largest ``key`` (ties: first game id, round, honba): the rule
    ``arg_max:KEY`` the plain way, one sort per player and column (:func:`_carried` is what the merge runs)."""
    order = [pl.col(key).fill_null(-1), pl.col(key.rsplit("_", 1)[0] + "_game"),
             pl.col(key.rsplit("_", 1)[0] + "_round"), pl.col(key.rsplit("_", 1)[0] + "_honba")]
    return pl.col(column).sort_by(order, descending=[True, False, False, False], nulls_last=True).first()


def _carried(partials: pl.LazyFrame, maxima: pl.LazyFrame, prefix: str, key: str) -> pl.LazyFrame:
    """Per player, the columns carried with ``key`` (``arg_max:KEY`` in :data:`MERGE`) from the row with the
    largest ``key`` (ties: first game id, round, honba): only the rows that reach the player's maximum are
    sorted, once, instead of every player's rows once per carried column (:func:`arg_max`)."""
    carried = [c for c, how in MERGE.items() if how == f"arg_max:{key}"]
    return (
        partials.select("player", key, *carried)
        .join(maxima.select("player", pl.col(key).alias("_largest")), on="player", how="left")
        .filter(pl.col(key).fill_null(-1) == pl.col("_largest").fill_null(-1))
        .sort("player", f"{prefix}_game", f"{prefix}_round", f"{prefix}_honba", nulls_last=True)
        .unique("player", keep="first", maintain_order=True)
        .select("player", *carried)
    )


def combine_partials(partials: pl.LazyFrame | list[pl.LazyFrame]) -> pl.LazyFrame:
    """Partial rows of many parts (stacked, or a list) merged into one partial row per player."""
    if isinstance(partials, list):
        partials = pl.concat(partials, how="vertical_relaxed")
    merge = {"sum": pl.Expr.sum, "max": pl.Expr.max}
    # a column that is 0 (a sum) or null (a max) on every row merges to that: only the others are grouped
    # (a game-level sheet's rows have no hand counts: a third of the columns, a third of the work)
    used = partials.select(
        ((pl.col(c) != 0) if how == "sum" else pl.col(c).is_not_null()).any().alias(c)
        for c, how in MERGE.items() if how in merge
    ).collect().row(0, named=True)
    maxima = partials.group_by("player").agg(
        merge[MERGE[c]](pl.col(c)).alias(c) for c, is_used in used.items() if is_used
    ).with_columns(
        pl.lit(0 if MERGE[c] == "sum" else None, pl.Int64).alias(c) for c, is_used in used.items() if not is_used
    ).collect().lazy()  # read once per best hand below
    scalars = maxima
    found = maxima.select(pl.col(key).is_not_null().any().alias(key) for key in BEST.values()).collect().row(
        0, named=True)
    for prefix, key in BEST.items():  # each best hand from the maxima alone (not from the join before it)
        if found[key]:
            scalars = scalars.join(_carried(partials, maxima, prefix, key), on="player", how="left")
        else:  # no hand at all (game-level sheets): nothing to carry
            carried = [c for c, how in MERGE.items() if how == f"arg_max:{key}"]
            scalars = scalars.with_columns(pl.lit(None, pl.Int64 if c.endswith("_honba") else pl.String).alias(c)
                                           for c in carried)
    empty = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    if not partials.select(pl.col("_yaku").list.len().sum() > 0).collect().item():
        return scalars.with_columns(empty.alias("_yaku")).select(PARTIAL_COLUMNS)
    yaku = count_map(
        partials.select("player", "_yaku").explode("_yaku").drop_nulls("_yaku").unnest("_yaku")
        .group_by("player", "yaku").agg(pl.col("count").sum())
    )
    return scalars.join(yaku, on="player", how="left").with_columns(pl.col("_yaku").fill_null(empty)).select(
        PARTIAL_COLUMNS
    )
