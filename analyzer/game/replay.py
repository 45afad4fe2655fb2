"""Replaying games: hand order, hand grouping, the honba and riichi sticks each hand starts with, running scores.

``order_hands`` sorts the rows into replay order — game, round, honba, then a chombo before the hand it
interrupts, then the hands of one round and honba in input order (each at its first row: the rows of a multiple
ron, one discarder, are one hand, and so are the nagashi rows of one draw; a row with the outcome of an earlier
one, the same result, winner and loser, an exact copy among them, follows that one), the winners of a multiple
ron by their seat distance from the discarder, then input position — and every later stage works on that order
with the segment arithmetic of :mod:`analyzer.core.segments` (a game and a hand are runs of rows; no hashed window
over string keys). Only rows of one round and honba, which are one hand or a record's mistake, are replayed in
input order; the order of the rounds does not depend on the order of the rows. ``order_hands`` adds:

================ ====================================================================================
_game            integer key of the game (games in ``game_id`` order)
_seq             position of the row in replay order (all later stages keep this order)
_game_start,     the row is the first / last of its game
_game_end
_hand            id of the hand the row belongs to (the rows of a multiple ron share one)
_first, _last    the row is the first / last of its hand
_nearest         the winner is the one nearest the discarder in turn order (true for single winners)
_hand_riichi     4-bit mask of riichi declarations over all rows of the hand
_paid            the row's win is paid (false for head-bumped winners and aborted triple rons)
_is_win          the hand has a paid ron or tsumo
================ ====================================================================================

``derive_table_state`` adds ``replayed_honba``, ``kyotaku`` (sticks on the table at the start of the hand),
``_sticks_put`` (sticks declared in the hand), ``_kyotaku_after`` (sticks left on the table after it),
``_dealer_won`` (a paid winner of the hand is its dealer, on every row of the hand: the game-end rules and the
statistics read it too) and ``_partial_game`` (the game's first row is not E1 with no honba and no sticks: a
fragment, replayed from the counters its first row records).

``running_scores`` adds ``score_0``..``score_3`` after each row.
"""

from __future__ import annotations

import polars as pl

from analyzer.core import segments as seg
from analyzer.core.rules import Rules
from analyzer.core.schema import DELTA_COLUMNS, RESULTS, SCORE_COLUMNS
from analyzer.core.text import one_of

GAME = "game_id"
REPLAY_ORDER = ["_game", "_round_idx", "honba", "_chombo_later", "_hand_pos", "_win_distance", "_pos"]
GAME_START, GAME_END = pl.col("_game_start"), pl.col("_game_end")
HAND_START, HAND_END = pl.col("_first"), pl.col("_last")


def game_keys(lf: pl.LazyFrame) -> pl.LazyFrame:
    """``_game``: dense rank of ``game_id`` (kept when a partitioner already gave one)."""
    if "_game" in lf.collect_schema():
        return lf
    return lf.with_columns(pl.col(GAME).rank("dense").cast(pl.Int64).alias("_game"))


def _order_keys(lf: pl.LazyFrame) -> pl.LazyFrame:
    """The keys of :data:`REPLAY_ORDER`. ``_hand_pos``: the input position of the first row of the row's hand
    among the rows of its round and honba — the rons off one discarder, the nagashi rows, and otherwise the rows
    of one result, winner and loser (so that an exact copy follows its original and is found)."""
    ron, nagashi = pl.col("result") == "ron", pl.col("result") == "nagashi"
    winner = pl.when(~(ron | nagashi)).then(pl.col("_winner").cast(pl.Int64)).fill_null(-1) + 1
    loser = pl.when(~nagashi).then(pl.col("_loser").cast(pl.Int64)).fill_null(-1) + 1
    result = pl.col("result").replace_strict(list(RESULTS), list(range(len(RESULTS))), default=len(RESULTS),
                                             return_dtype=pl.Int64)
    outcome = (result * 5 + winner) * 5 + loser  # one integer: no window over text
    return game_keys(lf).with_columns(
        (pl.col("result") != "chombo").cast(pl.Int8).alias("_chombo_later"),
        pl.col("_pos").min().over("_game", "_round_idx", "honba", outcome).alias("_hand_pos"),
        pl.when(ron).then((pl.col("_winner") - pl.col("_loser")) % 4).otherwise(0).alias("_win_distance"),
    )


def sort_for_replay(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` in replay order, with the order keys; rows already in that order are not copied."""
    keyed = _order_keys(df.lazy()).collect()
    order = keyed.select(pl.int_range(pl.len(), dtype=pl.Int64).sort_by(REPLAY_ORDER).alias("i"))
    if order.select((pl.col("i") == pl.int_range(pl.len(), dtype=pl.Int64)).all()).item():
        return keyed
    return keyed[order["i"]]


def order_hands(lf: pl.LazyFrame, rules: Rules, presorted: bool = False) -> pl.LazyFrame:
    """Replay order and hands (see the module doc); ``presorted``: the rows come from :func:`sort_for_replay`."""
    ron = pl.col("result") == "ron"
    if not presorted:
        lf = _order_keys(lf).sort(REPLAY_ORDER)
    lf = (
        lf.with_row_index("_seq")
        .with_columns(pl.col("_seq").cast(pl.Int64), seg.starts("_game").alias("_game_start"))
    )
    prev = {c: pl.col(c).shift(1) for c in ("_round_idx", "honba", "result", "_loser")}
    joins_previous = (
        ~GAME_START
        & (pl.col("_round_idx") == prev["_round_idx"])
        & (pl.col("honba") == prev["honba"])
        & one_of(pl.col("result"), ["ron", "nagashi"])
        & (pl.col("result") == prev["result"])
        & (~ron | (pl.col("_loser") == prev["_loser"]))
    ).fill_null(False)
    lf = lf.with_columns(
        seg.ends_from_starts(GAME_START).alias("_game_end"),
        (~joins_previous).alias("_first"),
    ).with_columns(
        HAND_START.cast(pl.Int64).cum_sum().alias("_hand"),
        seg.ends_from_starts(HAND_START).alias("_last"),
    )
    # Rows of a hand are sorted by seat distance from the discarder: the nearest winner comes first.
    lf = lf.with_columns(
        (pl.col("_win_distance") == seg.first(pl.col("_win_distance"), HAND_START)).alias("_nearest"),
        seg.length(HAND_START, HAND_END).alias("_rows_in_hand"),
    ).pipe(seg.with_union4, pl.col("_riichi_mask").fill_null(0), HAND_START, HAND_END, "_hand_riichi")
    is_ron_or_tsumo = one_of(pl.col("result"), ["ron", "tsumo"])
    aborted = ron & (pl.col("_rows_in_hand") >= 3) if rules.triple_ron == "abort" else pl.lit(False)
    head_bumped = ~pl.col("_nearest") if rules.multi_ron == "atamahane" else pl.lit(False)
    lf = lf.with_columns(
        (is_ron_or_tsumo & ~aborted & ~head_bumped).alias("_paid"),
        aborted.alias("_triple_ron_aborted"),
        (is_ron_or_tsumo & head_bumped).alias("_head_bumped"),
    )
    return lf.with_columns(seg.any_(pl.col("_paid"), HAND_START, HAND_END).alias("_is_win")).drop(
        "_chombo_later", "_hand_pos", "_win_distance"
    )


def derive_table_state(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    # Values read by several expressions are columns first: inside one step each use is computed again.
    lf = lf.with_columns(
        seg.any_(pl.col("_paid") & (pl.col("_winner") == pl.col("dealer")), HAND_START, HAND_END).alias("_dealer_won"),
        pl.when(pl.col("result") != "chombo").then(pl.col("_hand_riichi").bitwise_count_ones()).otherwise(0)
        .cast(pl.Int64).alias("_sticks_put"),
    )
    dealer_won, sticks_put = pl.col("_dealer_won"), pl.col("_sticks_put")
    first = HAND_START
    lf = lf.with_columns(
        # The counters one hand leaves for the next: a win by someone other than the dealer clears the honba,
        # a chombo leaves it as it was, anything else adds one.
        (first & pl.col("_is_win") & ~dealer_won).cast(pl.Int64).alias("_honba_reset"),
        (first & (pl.col("result") != "chombo") & (~pl.col("_is_win") | dealer_won)).cast(pl.Int64).alias("_honba_inc"),
        (first & pl.col("_is_win")).cast(pl.Int64).alias("_collects"),
        pl.when(first).then(sticks_put).otherwise(0).cast(pl.Int64).alias("_sticks_on_first"),
    )
    lf = lf.with_columns(
        seg.cum_sum_before(pl.col("_honba_reset"), GAME_START).alias("_honba_era"),
        seg.cum_sum_before(pl.col("_collects"), GAME_START).alias("_stick_era"),
    )
    # A game's first row gives the state the replay starts from: E1 with nothing on the table for a whole game,
    # the recorded counters for a fragment (flagged ``partial_game`` later).
    recorded = (
        pl.col("recorded_kyotaku").cast(pl.Int64, strict=False).fill_null(0)
        if "recorded_kyotaku" in lf.collect_schema()
        else pl.lit(0, pl.Int64)
    )
    lf = lf.with_columns(
        seg.first(pl.col("honba"), GAME_START).alias("_start_honba"),
        seg.first(recorded, GAME_START).alias("_start_sticks"),
        (GAME_START | (pl.col("_honba_era") != pl.col("_honba_era").shift(1)).fill_null(True)).alias("_honba_era_start"),
        (GAME_START | (pl.col("_stick_era") != pl.col("_stick_era").shift(1)).fill_null(True)).alias("_stick_era_start"),
    )
    start_honba, start_sticks = pl.col("_start_honba"), pl.col("_start_sticks")
    honba_era_start, stick_era_start = pl.col("_honba_era_start"), pl.col("_stick_era_start")
    lf = lf.with_columns(
        (
            seg.cum_sum_before(pl.col("_honba_inc"), honba_era_start)
            + pl.when(pl.col("_honba_era") == 0).then(start_honba).otherwise(0)
        )
        .cast(pl.Int64)
        .alias("replayed_honba"),
        (
            seg.cum_sum_before(pl.col("_sticks_on_first"), stick_era_start)
            + pl.when(pl.col("_stick_era") == 0).then(start_sticks).otherwise(0)
        ).alias("kyotaku"),
        ((seg.first(pl.col("_round_idx"), GAME_START) != 0) | (start_honba != 0) | (start_sticks != 0)).alias(
            "_partial_game"
        ),
    )
    lf = lf.with_columns(
        seg.first(pl.col("replayed_honba"), HAND_START),
        seg.first(pl.col("kyotaku"), HAND_START),
    )
    return lf.with_columns(
        pl.when(pl.col("_is_win")).then(0).otherwise(pl.col("kyotaku") + pl.col("_sticks_put")).alias("_kyotaku_after")
    ).drop("_honba_reset", "_honba_inc", "_collects", "_sticks_on_first", "_honba_era", "_stick_era",
           "_start_honba", "_start_sticks", "_honba_era_start", "_stick_era_start")


def running_scores(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    # each seat's running total over the whole part first, as a column (it is read twice below), then less its
    # value before the game started
    running = [f"_running_{s}" for s in SCORE_COLUMNS]
    return lf.with_columns(pl.col(d).cum_sum().alias(r) for d, r in zip(DELTA_COLUMNS, running)).with_columns(
        (rules.start_points + pl.col(r) - seg.first(pl.col(r) - pl.col(d), GAME_START)).alias(s)
        for d, r, s in zip(DELTA_COLUMNS, running, SCORE_COLUMNS)
    ).drop(running)
