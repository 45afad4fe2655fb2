"""Per-player totals and statistics across all games, from mergeable partial aggregates.

Games are independent, so the players table is built in two steps that work on any split of the games into
parts (partitions of whole games, or workers of a cluster):

* ``player_partials(hands, games)``: one row per player of the part, every column a count, a sum or another
  aggregate that merges across parts by the rule in :data:`MERGE` (``sum`` for all of them today);
* ``combine_partials(partials)``: the partial rows of many parts merged into one row per player;
* ``finalize_players(partials)``: the published columns (rates and averages from the merged sums).

``player_stats(hands, games)`` is the three in one, for a single part. Sums of game points are kept in
millionths of a point as integers, so a total does not depend on the order the parts are added in.

The published columns, one row per player:

==================== ==================================================================================
player               name
games                games played
total_points         sum of game points; ``avg_points`` their mean
place_1 .. place_4   how often each place; ``avg_place`` the mean place
points_received      sum of positive score changes over all hands; ``points_paid`` of negative ones (>= 0)
hands                hands played (a multiple ron counts once; chombo re-deals are not hands)
wins, win_rate       paid wins (ron or tsumo) and wins / hands
tsumo_wins           wins by tsumo
deal_ins, deal_in_rate  hands in which the player discarded into a paid ron, and deal_ins / hands
riichi, riichi_rate  hands with a riichi declaration, and riichi / hands
avg_win_value        mean ``points`` of the player's wins (hand value without honba and sticks)
avg_deal_in_cost     mean ``points`` paid per deal-in hand (all winners of a multiple ron together)
yakuman              yakuman wins (including kazoe yakuman)
chombo               chombo count
==================== ==================================================================================
"""

from __future__ import annotations

import polars as pl

from analyzer.schema import DELTA_COLUMNS, PLAYER_COLUMNS, SEATS

# Game points are summed as integers in these units: exact and independent of the order of the parts.
POINT_UNITS = 1_000_000

COUNTS = ["games", *[f"place_{p}" for p in range(1, 5)], "hands", "wins", "tsumo_wins", "riichi", "yakuman",
          "chombo", "deal_ins"]
# How each partial column merges across parts.
MERGE: dict[str, str] = {
    **{c: "sum" for c in COUNTS},
    "_points_units": "sum",
    "_place_sum": "sum",
    "points_received": "sum",
    "points_paid": "sum",
    "_win_value_sum": "sum",
    "_deal_in_cost_sum": "sum",
}
PLAYER_COLUMNS_OUT = [
    "player",
    "games",
    "total_points",
    "avg_points",
    *[f"place_{p}" for p in range(1, 5)],
    "avg_place",
    "points_received",
    "points_paid",
    "hands",
    "wins",
    "win_rate",
    "tsumo_wins",
    "deal_ins",
    "deal_in_rate",
    "riichi",
    "riichi_rate",
    "avg_win_value",
    "avg_deal_in_cost",
    "yakuman",
    "chombo",
]


def _seat_aggregates(hands: pl.LazyFrame, s: int) -> pl.LazyFrame:
    """What the rows meant to the player in seat ``s``, summed per player (one group-by per seat: the rows are
    never copied four times)."""
    won = pl.col("_paid") & (pl.col("_winner") == s)
    dealt_in = pl.col("_paid") & (pl.col("result") == "ron") & (pl.col("_loser") == s)
    delta = pl.col(DELTA_COLUMNS[s])
    counted = pl.col("_first") & (pl.col("result") != "chombo")
    return hands.group_by(pl.col(PLAYER_COLUMNS[s]).alias("player")).agg(
        counted.sum().alias("hands"),
        delta.clip(lower_bound=0).sum().alias("points_received"),
        (-delta.clip(upper_bound=0)).sum().alias("points_paid"),
        won.sum().alias("wins"),
        (won & (pl.col("result") == "tsumo")).sum().alias("tsumo_wins"),
        (counted & (pl.col("_hand_riichi").and_(1 << s) != 0)).sum().alias("riichi"),
        pl.when(won).then(pl.col("points")).otherwise(0).sum().alias("_win_value_sum"),
        (won & pl.col("_yakuman_win")).sum().alias("yakuman"),
        ((pl.col("result") == "chombo") & (pl.col("_loser") == s)).sum().alias("chombo"),
        # the rows of a multiple ron are one deal-in: its first row is the nearest winner's, paid when any is
        (dealt_in & pl.col("_first")).sum().alias("deal_ins"),
        pl.when(dealt_in).then(pl.col("points")).otherwise(0).sum().alias("_deal_in_cost_sum"),
    )


def player_partials(hands: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    """Mergeable aggregates per player of one part (whole games): the columns of :data:`MERGE`."""
    hands = hands.with_columns(pl.col("limit").str.contains("yakuman").fill_null(False).alias("_yakuman_win"))
    per_hand = pl.concat([_seat_aggregates(hands, s) for s in SEATS], how="vertical_relaxed").group_by("player").agg(
        pl.all().sum()
    )
    per_game = games.group_by("player").agg(
        pl.len().alias("games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).sum().alias("_points_units"),
        *[(pl.col("place") == p).sum().alias(f"place_{p}") for p in range(1, 5)],
        pl.col("place").sum().alias("_place_sum"),
    )
    return per_game.join(per_hand, on="player", how="left").select(
        "player", *[pl.col(c).fill_null(0).cast(pl.Int64) for c in MERGE]
    )


def combine_partials(partials: pl.LazyFrame | list[pl.LazyFrame]) -> pl.LazyFrame:
    """Partial rows of many parts (stacked, or a list) merged into one partial row per player."""
    if isinstance(partials, list):
        partials = pl.concat(partials, how="vertical_relaxed")
    merge = {"sum": pl.Expr.sum, "max": pl.Expr.max, "min": pl.Expr.min}
    return partials.group_by("player").agg(merge[how](pl.col(c)).alias(c) for c, how in MERGE.items())


def _ratio(numerator: str, denominator: str) -> pl.Expr:
    return pl.when(pl.col(denominator) > 0).then(pl.col(numerator) / pl.col(denominator))


def finalize_players(partials: pl.LazyFrame) -> pl.LazyFrame:
    """The published players table from merged partials, best total first (ties by name)."""
    return (
        partials.with_columns(
            (pl.col("_points_units") / POINT_UNITS).alias("total_points"),
        )
        .with_columns(
            _ratio("total_points", "games").alias("avg_points"),
            _ratio("_place_sum", "games").alias("avg_place"),
            _ratio("wins", "hands").alias("win_rate"),
            _ratio("deal_ins", "hands").alias("deal_in_rate"),
            _ratio("riichi", "hands").alias("riichi_rate"),
            _ratio("_win_value_sum", "wins").alias("avg_win_value"),
            _ratio("_deal_in_cost_sum", "deal_ins").alias("avg_deal_in_cost"),
        )
        .select(PLAYER_COLUMNS_OUT)
        .sort(["total_points", "player"], descending=[True, False])
    )


def player_stats(hands: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    """The players table of one part: partials, finalized."""
    return finalize_players(player_partials(hands, games))
