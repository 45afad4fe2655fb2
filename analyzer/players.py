"""Per-player totals and statistics across all games.

``player_stats(hands, games)`` returns one row per player:

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


def _hand_rows_per_player(hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (row, seat) with what that row meant to the player in the seat."""
    per_seat = [
        hands.select(
            "game_id",
            "_hand",
            "_first",
            pl.col("result"),
            pl.col(PLAYER_COLUMNS[s]).alias("player"),
            pl.col(DELTA_COLUMNS[s]).alias("delta"),
            (pl.col("_paid") & (pl.col("_winner") == s)).alias("win"),
            (pl.col("_paid") & (pl.col("_winner") == s) & (pl.col("result") == "tsumo")).alias("tsumo_win"),
            (pl.col("_paid") & (pl.col("result") == "ron") & (pl.col("_loser") == s)).alias("deal_in"),
            (pl.col("_first") & ((pl.col("_hand_riichi") // (1 << s)) % 2 == 1) & (pl.col("result") != "chombo")).alias(
                "riichi"
            ),
            pl.col("points"),
            (pl.col("_paid") & (pl.col("_winner") == s) & pl.col("limit").str.contains("yakuman")).alias("yakuman"),
            ((pl.col("result") == "chombo") & (pl.col("_loser") == s)).alias("chombo"),
        )
        for s in SEATS
    ]
    return pl.concat(per_seat)


def player_stats(hands: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    rows = _hand_rows_per_player(hands)
    deal_in_hands = (
        rows.filter("deal_in").group_by("player", "game_id", "_hand").agg(pl.col("points").sum().alias("cost"))
    )
    per_hand = rows.group_by("player").agg(
        (pl.col("_first") & (pl.col("result") != "chombo")).sum().alias("hands"),
        pl.col("delta").clip(lower_bound=0).sum().alias("points_received"),
        (-pl.col("delta").clip(upper_bound=0)).sum().alias("points_paid"),
        pl.col("win").sum().alias("wins"),
        pl.col("tsumo_win").sum().alias("tsumo_wins"),
        pl.col("riichi").sum().alias("riichi"),
        pl.col("points").filter(pl.col("win")).mean().alias("avg_win_value"),
        pl.col("yakuman").sum().alias("yakuman"),
        pl.col("chombo").sum().alias("chombo"),
    )
    deal_ins = deal_in_hands.group_by("player").agg(
        pl.len().alias("deal_ins"), pl.col("cost").mean().alias("avg_deal_in_cost")
    )
    per_game = games.group_by("player").agg(
        pl.len().alias("games"),
        pl.col("game_points").sum().alias("total_points"),
        pl.col("game_points").mean().alias("avg_points"),
        *[(pl.col("place") == p).sum().cast(pl.Int64).alias(f"place_{p}") for p in range(1, 5)],
        pl.col("place").mean().alias("avg_place"),
    )
    counts = ["hands", "wins", "tsumo_wins", "riichi", "yakuman", "chombo", "deal_ins"]
    return (
        per_game.join(per_hand, on="player", how="left")
        .join(deal_ins, on="player", how="left")
        .with_columns(pl.col(c).fill_null(0).cast(pl.Int64) for c in counts)
        .with_columns(
            (pl.col("wins") / pl.col("hands")).alias("win_rate"),
            (pl.col("deal_ins") / pl.col("hands")).alias("deal_in_rate"),
            (pl.col("riichi") / pl.col("hands")).alias("riichi_rate"),
        )
        .select(
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
        )
        .sort(["total_points", "player"], descending=[True, False])
    )
