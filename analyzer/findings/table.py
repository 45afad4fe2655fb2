"""Findings on the table: honba and riichi sticks, the dealer's rotation, problem codes of the scoring, and
recorded score changes that do not balance."""

from __future__ import annotations

import polars as pl

from analyzer.findings.base import as_int, finding
from analyzer.game.game_end import dealer_stays, next_round, round_name
from analyzer.core.rules import Rules
from analyzer.core.text import format_text

# problem codes of the scoring pipeline that are findings of their own (the *_mismatch codes of the tiles
# stage are covered by the field comparisons instead): code -> (field, kind, explanation)
PROBLEM_FINDINGS = {
    "head_bump": ("winner", "plausibility", "a further winner on one discard under head-bump (atamahane) rules"),
    "triple_ron_abort": ("result", "plausibility", "a triple ron is an abortive draw under these rules"),
    "duplicate_winner": ("winner", "plausibility", "the same player wins twice in one hand"),
    "seating_mismatch": ("players", "table", "the seating differs from the game's first row"),
    "riichi_not_tenpai": ("tenpai", "plausibility", "a riichi player is not listed tenpai at the draw"),
    "pao_without_yakuman": ("pao", "plausibility", "a liable player for a hand that is not a yakuman"),
    "abort_not_in_rules": ("result", "table", "an abortive draw under rules without them"),
    "nagashi_not_in_rules": ("result", "table", "nagashi mangan under rules without it"),
    "implausible_han_fu": ("han_fu", "plausibility", "no hand has this han/fu combination"),
    "bad_notation": ("hand", "tiles", "the tiles are not MPSZ notation"),
    "bad_meld": ("melds", "tiles", "a meld is not a valid chi, pon or kan"),
    "tile_count": ("hand", "tiles", "the hand and melds do not hold 14 tiles (kans as 3)"),
    "fifth_copy": ("hand", "tiles", "a tile appears five times"),
    "win_tile_not_in_hand": ("win_tile", "tiles", "the winning tile is not in the hand"),
    "not_complete": ("hand", "tiles", "the tiles are not a complete hand"),
    "no_yaku": ("hand", "tiles", "the hand has no yaku"),
    "partial_game": ("round", "note", "the game does not start at E1: replayed from the counters of its first row"),
    "loser_ignored": ("loser", "plausibility", "a loser is given for a result that has none"),
    "winner_ignored": ("winner", "plausibility", "a winner is given for a result that has none"),
}




def table_findings(hands: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    honba = finding(
        hands, pl.col("_first") & (pl.col("honba") != pl.col("replayed_honba")), "honba", "table",
        pl.col("honba"), pl.col("replayed_honba"), "the honba the previous hands leave on the table",
    )
    if "recorded_kyotaku" not in names:
        return honba
    sticks = finding(
        hands, pl.col("_first") & (as_int("recorded_kyotaku") != pl.col("kyotaku")), "kyotaku", "table",
        as_int("recorded_kyotaku"), pl.col("kyotaku"), "riichi sticks left by the previous hands",
    )
    return pl.concat([honba, sticks])


def round_findings(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """The dealer repeats or passes as each hand's outcome requires: the next hand's round follows.

    The dealer stays after a paid win of the dealer, after an exhaustive draw or nagashi with the dealer
    tenpai, after an abortive draw and after a chombo (the hand is replayed); otherwise the deal passes.
    """
    stays = dealer_stays()
    # windows over the hand's rows first (a multiple ron has several), then one row per hand
    first = hands.with_columns(stays.alias("_stays")).filter(pl.col("_first")).sort("_seq").with_columns(
        next_round(pl.col("_round_idx"), pl.col("_stays"), rules.players).alias("_expected_round"),
    )
    nxt = first.with_columns(
        pl.col("_round_idx").shift(-1).over("game_id", order_by="_seq").alias("_next_round"),
    )
    why = format_text(
        "after {} in {} the dealer {}", "result", "round",
        pl.when(pl.col("_stays")).then(pl.lit("stays")).otherwise(pl.lit("passes")),
    )
    return finding(
        nxt, pl.col("_next_round").is_not_null() & (pl.col("_next_round") != pl.col("_expected_round")),
        "round", "table", round_name(pl.col("_next_round")), round_name(pl.col("_expected_round")), why,
    ).with_columns(pl.col("hand_no") + 1, pl.col("log_row") + 1)  # it belongs to the next hand, whose round is wrong


def problem_findings(hands: pl.LazyFrame) -> pl.LazyFrame:
    codes = pl.DataFrame(
        {
            "_code": list(PROBLEM_FINDINGS),
            "_field": [v[0] for v in PROBLEM_FINDINGS.values()],
            "_kind": [v[1] for v in PROBLEM_FINDINGS.values()],
            "_why": [v[2] for v in PROBLEM_FINDINGS.values()],
        }
    ).lazy()
    exploded = (
        hands.with_columns(pl.col("problems").alias("_code"))
        .explode("_code")
        .join(codes, on="_code", how="inner")
    )
    return finding(
        exploded, pl.lit(True), pl.col("_field"), pl.col("_kind"), pl.col("_code"), pl.lit(None, pl.String),
        pl.col("_why"),
    )


def money_findings(hands: pl.LazyFrame, names: list[str], rules: Rules) -> list[pl.LazyFrame]:
    """Recorded score changes of a hand add up to the sticks taken from the table minus those put on it."""
    recorded = [f"recorded_delta_{s}" for s in rules.seats]
    if not all(c in names for c in recorded):
        return []
    per_hand = hands.group_by("_hand").agg(
        pl.sum_horizontal(as_int(c).fill_null(0) for c in recorded).sum().alias("_recorded_sum"),
        pl.all_horizontal(as_int(c).is_not_null() for c in recorded).all().alias("_complete"),
        ((pl.col("kyotaku") - pl.col("_kyotaku_after")) * rules.riichi_deposit).first().alias("_expected_sum"),
    )
    first = hands.filter(pl.col("_first")).join(per_hand, on="_hand", how="inner")
    return [
        finding(
            first, pl.col("_complete") & (pl.col("_recorded_sum") != pl.col("_expected_sum")), "delta_sum", "money",
            pl.col("_recorded_sum"), pl.col("_expected_sum"),
            format_text("the recorded changes should add up to the sticks taken ({} on the table, {} left)",
                      "kyotaku", "_kyotaku_after"),
        )
    ]
