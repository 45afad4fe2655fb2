"""Replaying games: hand order, hand grouping, the honba and riichi sticks each hand starts with, running scores.

Everything here is a window or cumulative expression over rows sorted by (game, round, honba, input position);
the sort is explicit because the streaming engine does not keep row order.

``order_hands`` adds:

================ ====================================================================================
_seq             position of the row in replay order (all later stages sort by it)
_hand            id of the hand the row belongs to (the rows of a multiple ron share one)
_first           the row is the first of its hand
_nearest         the winner is the one nearest the discarder in turn order (true for single winners)
_hand_riichi     4-bit mask of riichi declarations over all rows of the hand
_paid            the row's win is paid (false for head-bumped winners and aborted triple rons)
_is_win          the hand has a paid ron or tsumo
================ ====================================================================================

``derive_table_state`` adds ``replayed_honba``, ``kyotaku`` (sticks on the table at the start of the hand),
``_sticks_put`` (sticks declared in the hand), ``_kyotaku_after`` (sticks left on the table after it) and
``_partial_game`` (the game's first row is not E1 with no honba and no sticks: a fragment, replayed from the
counters its first row records).

``running_scores`` adds ``score_0``..``score_3`` after each row.
"""

from __future__ import annotations

import polars as pl

from analyzer.rules import Rules
from analyzer.schema import DELTA_COLUMNS, SCORE_COLUMNS

GAME = "game_id"


def _exclusive_cum_sum(expr: pl.Expr) -> pl.Expr:
    return expr.cum_sum() - expr


def order_hands(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    lf = lf.sort(GAME, "_round_idx", "honba", "_pos").with_row_index("_seq").with_columns(pl.col("_seq").cast(pl.Int64))
    prev = {c: pl.col(c).shift(1) for c in (GAME, "_round_idx", "honba", "result", "_loser")}
    joins_previous = (
        (pl.col(GAME) == prev[GAME])
        & (pl.col("_round_idx") == prev["_round_idx"])
        & (pl.col("honba") == prev["honba"])
        & pl.col("result").is_in(["ron", "nagashi"])
        & (pl.col("result") == prev["result"])
        & ((pl.col("result") != "ron") | (pl.col("_loser") == prev["_loser"]))
    ).fill_null(False)
    lf = lf.with_columns((~joins_previous).cast(pl.Int64).cum_sum().alias("_hand"))

    win_distance = pl.when(pl.col("result") == "ron").then((pl.col("_winner") - pl.col("_loser")) % 4).otherwise(0)
    lf = lf.with_columns(
        (pl.col("_seq") == pl.col("_seq").min().over("_hand")).alias("_first"),
        (win_distance == win_distance.min().over("_hand")).alias("_nearest"),
        pl.col("_riichi_mask").bitwise_or().over("_hand").alias("_hand_riichi"),
        pl.len().over("_hand").alias("_rows_in_hand"),
    )
    is_ron_or_tsumo = pl.col("result").is_in(["ron", "tsumo"])
    aborted = (pl.col("result") == "ron") & (pl.col("_rows_in_hand") >= 3) if rules.triple_ron == "abort" else pl.lit(False)
    head_bumped = ~pl.col("_nearest") if rules.multi_ron == "atamahane" else pl.lit(False)
    lf = lf.with_columns(
        (is_ron_or_tsumo & ~aborted & ~head_bumped).alias("_paid"),
        aborted.alias("_triple_ron_aborted"),
        (is_ron_or_tsumo & head_bumped).alias("_head_bumped"),
    )
    return lf.with_columns(pl.col("_paid").any().over("_hand").alias("_is_win"))


def derive_table_state(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    dealer_won = (pl.col("_paid") & (pl.col("_winner") == pl.col("dealer"))).any().over("_hand")
    first = pl.col("_first")
    sticks_put = pl.when(pl.col("result") != "chombo").then(pl.col("_hand_riichi").bitwise_count_ones()).otherwise(0)
    lf = lf.with_columns(
        sticks_put.cast(pl.Int64).alias("_sticks_put"),
        # The counters one hand leaves for the next: a win by someone other than the dealer clears the honba,
        # a chombo leaves it as it was, anything else adds one.
        pl.when(first & pl.col("_is_win") & ~dealer_won).then(1).otherwise(0).alias("_honba_reset"),
        pl.when(first & (pl.col("result") != "chombo") & (~pl.col("_is_win") | dealer_won)).then(1).otherwise(0).alias("_honba_inc"),
        pl.when(first & pl.col("_is_win")).then(1).otherwise(0).alias("_collects"),
        pl.when(first).then(sticks_put).otherwise(0).cast(pl.Int64).alias("_sticks_on_first"),
    )
    lf = lf.with_columns(
        _exclusive_cum_sum(pl.col("_honba_reset")).over(GAME).alias("_honba_era"),
        _exclusive_cum_sum(pl.col("_collects")).over(GAME).alias("_stick_era"),
    )
    # A game's first row gives the state the replay starts from: E1 with nothing on the table for a whole game,
    # the recorded counters for a fragment (flagged ``partial_game`` later).
    start_honba = pl.col("honba").sort_by("_seq").first().over(GAME)
    start_sticks = (
        pl.col("recorded_kyotaku").cast(pl.Int64, strict=False).fill_null(0).sort_by("_seq").first().over(GAME)
        if "recorded_kyotaku" in lf.collect_schema()
        else pl.lit(0, pl.Int64)
    )
    lf = lf.with_columns(
        (
            _exclusive_cum_sum(pl.col("_honba_inc")).over(GAME, "_honba_era")
            + pl.when(pl.col("_honba_era") == 0).then(start_honba).otherwise(0)
        )
        .cast(pl.Int64)
        .alias("replayed_honba"),
        (
            _exclusive_cum_sum(pl.col("_sticks_on_first")).over(GAME, "_stick_era")
            + pl.when(pl.col("_stick_era") == 0).then(start_sticks).otherwise(0)
        ).alias("kyotaku"),
        ((pl.col("_round_idx").sort_by("_seq").first().over(GAME) != 0) | (start_honba != 0) | (start_sticks != 0)).alias(
            "_partial_game"
        ),
    )
    lf = lf.with_columns(
        pl.col("replayed_honba").first().over("_hand"),
        pl.col("kyotaku").first().over("_hand"),
    )
    return lf.with_columns(
        pl.when(pl.col("_is_win")).then(0).otherwise(pl.col("kyotaku") + pl.col("_sticks_put")).alias("_kyotaku_after")
    ).drop("_honba_reset", "_honba_inc", "_collects", "_sticks_on_first", "_honba_era", "_stick_era")


def running_scores(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    return lf.sort("_seq").with_columns(
        (rules.start_points + pl.col(d).cum_sum().over(GAME)).alias(s) for d, s in zip(DELTA_COLUMNS, SCORE_COLUMNS)
    )

