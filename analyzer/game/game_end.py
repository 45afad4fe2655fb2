"""Where a game must end under its rules, and whether the recorded game ended there.

``hand_ends(hands, rules)`` needs scored hands in replay order (``_game``, ``_first``, ``_last``, ``_round_idx``,
``dealer``, ``_dealer_won``, ``_is_win``, ``_tenpai_mask``, ``score_*``) and returns one row per hand (chombo
re-deals left out: they neither count as a hand nor end a game), all columns kept, plus:

=============== ==============================================================================================
_must_end       the rules end the game after this hand (bust, last round over, West sudden death)
_may_stop       the all-last dealer may end it here (agari-yame or tenpai-yame, as the rules allow)
_end_reason     why the game ends or may end, as text (null when it goes on)
_is_last        the game's last recorded hand
_goes_on_reason why the game may not end after this hand (null when it may)
=============== ==============================================================================================

``game_end_ok(hands, rules)``: one row per game (``_game``), ``_ends_right``: no hand that must end the game is
followed by another, and the last hand may end it; ``_fragment``: the record does not start at E1 with nothing on the table.

Agari-yame and tenpai-yame are the dealer's choice: a game that goes on after them is not wrong (a real Tenhou
log, mjai-reviewer's ``bug1``, plays S4-2 after the top dealer was tenpai alone in S4-1).
"""

from __future__ import annotations

import polars as pl

from analyzer.core import segments as seg
from analyzer.game.per_game import last_round_expr
from analyzer.core.rules import Rules
from analyzer.core.schema import ROUND_NAMES, SCORE_COLUMNS
from analyzer.core.text import format_text, one_of

EXHAUSTIVE = ["draw", "nagashi"]


def round_name(index: pl.Expr) -> pl.Expr:
    return pl.lit(pl.Series(ROUND_NAMES)).gather(index.clip(0, len(ROUND_NAMES) - 1))


def _dealer_tenpai() -> pl.Expr:
    return pl.col("_tenpai_mask").and_(seg.seat_bit(pl.col("dealer"))) != 0


HAND_END = pl.col("_last")


def next_round(round_idx: pl.Expr, stays: pl.Expr, players: int) -> pl.Expr:
    """The round index (``wind * 4 + number - 1``) of the next hand: the same when the dealer stays, else the
    next dealer's round, the next wind's first round after the last seat (E3 -> S1 with three players)."""
    passed = pl.when(round_idx % 4 == players - 1).then((round_idx // 4 + 1) * 4).otherwise(round_idx + 1)
    return pl.when(stays).then(round_idx).otherwise(passed)


def dealer_won() -> pl.Expr:
    """A paid winner of the hand is its dealer (on every row of the hand), as the replay found it
    (:func:`analyzer.game.replay.derive_table_state`)."""
    return pl.col("_dealer_won")


def dealer_stays() -> pl.Expr:
    """The deal stays after a paid win of the dealer, a draw or nagashi with the dealer tenpai, an abort."""
    return (
        pl.when(pl.col("_is_win")).then(dealer_won())
        .when(one_of(pl.col("result"), EXHAUSTIVE)).then(_dealer_tenpai().fill_null(False))
        .otherwise(one_of(pl.col("result"), ["abort", "chombo"]))
    )


def hand_ends(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    # the game's own last round when its part mixes game lengths (analyzer.game.per_game)
    last = last_round_expr(rules, hands.collect_schema().names())
    # rows in replay order (analyzer.game.replay): hands and games are runs of rows, windows are segment passes
    per_hand = hands.with_columns(
        dealer_stays().alias("_stays"),
        *[seg.last(pl.col(SCORE_COLUMNS[s]), HAND_END).alias(f"_after_{s}") for s in rules.seats],
    ).filter(pl.col("_first") & (pl.col("result") != "chombo"))
    after = [pl.col(f"_after_{s}") for s in rules.seats]
    # values read by several tests below, as columns (an expression used several times is evaluated each time)
    per_hand = per_hand.with_columns(
        pl.min_horizontal(after).alias("_low"), pl.max_horizontal(after).alias("_top"),
        pl.coalesce(pl.when(pl.col("dealer") == s).then(after[s]) for s in rules.seats).alias("_dealer_score"),
        next_round(pl.col("_round_idx"), pl.col("_stays"), rules.players).alias("_following"),
    )
    low, top, dealer_score, following = pl.col("_low"), pl.col("_top"), pl.col("_dealer_score"), pl.col("_following")
    others_at_least = pl.sum_horizontal(
        ((after[s] >= dealer_score) & (pl.col("dealer") != s)).cast(pl.Int64) for s in rules.seats
    )
    target = rules.extension_target
    reached = top >= target
    passes = following != pl.col("_round_idx")  # the deal moves on (the dealer does not keep it)
    bust = {"off": pl.lit(False), "below_zero": low < 0, "zero_or_below": low <= 0}[rules.tobi]
    if rules.west_extension:  # at most one more wind: its last round is ``last + 4`` in round indexes
        # sudden death ends a hand only when the deal passes: a dealer who keeps it plays on, unless top with
        # the target (the all-last stop below, which every extension hand is)
        over = (following > last) & ((reached & passes) | (following > last + 4))
        sudden_death = (pl.col("_round_idx") > last) & reached & passes
        stop_needs = dealer_score >= target
    else:
        over, sudden_death, stop_needs = following > last, pl.lit(False), pl.lit(True)
    stop_on = {"none": pl.lit(False), "agari": pl.col("_dealer_won"),
               "agari_tenpai": pl.col("_dealer_won") | (one_of(pl.col("result"), EXHAUSTIVE) & _dealer_tenpai())}
    stop = ((pl.col("_round_idx") >= last) & (others_at_least == 0) & stop_needs
            & stop_on[rules.last_dealer_stop].fill_null(False))
    end_reason = (
        pl.when(bust).then(format_text("a score is below{} zero ({}): the game ends at once (tobi)",
                                       pl.lit(" or at" if rules.tobi == "zero_or_below" else ""), low))
        .when(stop & pl.col("_dealer_won")).then(pl.lit("the all-last dealer won and is top (agari-yame)"))
        .when(stop).then(pl.lit("the all-last dealer is tenpai and top (tenpai-yame)"))
        .when(sudden_death).then(format_text("someone has {} or more in the extension (sudden death)",
                                             pl.lit(target)))
        .when(over).then(format_text("the last round ({}) is over", round_name(last)))
    )
    goes_on = (
        pl.when(end_reason.is_not_null()).then(pl.lit(None, pl.String))
        .when(following <= last).then(
            format_text("the game goes on to {} ({} is the last round)", round_name(following), round_name(last)))
        .when(reached).then(format_text(
            "the dealer keeps the deal, not as top with {}: the game goes on to {} (sudden death ends it when the "
            "deal passes)", pl.lit(target), round_name(following)))
        .otherwise(format_text("nobody has {} yet: the game goes on into {} (West extension)",
                               pl.lit(target), round_name(following)))
    )
    return per_hand.with_columns(
        (bust | over | sudden_death).alias("_must_end"),
        (stop & ~(bust | over | sudden_death)).alias("_may_stop"),
        end_reason.alias("_end_reason"),
        seg.ends_from_starts(seg.starts("_game")).alias("_is_last"),
        goes_on.alias("_goes_on_reason"),
    ).drop("_low", "_top", "_dealer_score", "_following")


def game_end_ok(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Per game: ``_ends_right`` (see the module doc)."""
    may_end = pl.col("_must_end") | pl.col("_may_stop")
    wrong = (pl.col("_must_end") & ~pl.col("_is_last")) | (pl.col("_is_last") & ~may_end)
    start = seg.starts("_game")
    return (
        hand_ends(hands, rules)
        .with_columns((~seg.any_(wrong, start, seg.ends_from_starts(start))).alias("_ends_right"))
        .filter(pl.col("_is_last"))
        .select("_game", "_ends_right", pl.col("_partial_game").alias("_fragment"))
    )
