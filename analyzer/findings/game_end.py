"""Findings at a game's end: final scores and game points against the computed ones, and a game that goes
on after its rules end it (or ends where they let it go on)."""

from __future__ import annotations

import polars as pl

from analyzer.findings.base import finding, number_text
from analyzer.game.game_end import hand_ends
from analyzer.game.per_game import last_round_expr
from analyzer.core.rules import Rules
from analyzer.core.schema import SEATS
from analyzer.core.text import format_text


def game_end_findings(hands: pl.LazyFrame, names: list[str], games: pl.DataFrame) -> list[pl.LazyFrame]:
    out = []
    for recorded_prefix, computed_col, tolerance in (("recorded_final_", "final_score", 0.5),
                                                     ("recorded_game_points_", "game_points", 0.05)):
        if f"{recorded_prefix}0" not in names:
            continue
        last = hands.filter(pl.col(f"{recorded_prefix}0").is_not_null()).sort("_seq").group_by("game_id").agg(
            pl.all().last()
        )
        per_seat = pl.concat(
            [
                last.with_columns(
                    pl.lit(s, pl.Int64).alias("seat"),
                    pl.col(f"{recorded_prefix}{s}").cast(pl.Float64, strict=False).alias("_recorded"),
                )
                for s in SEATS
            ]
        ).join(games.lazy().select("game_id", "seat", "final_score", "game_points", "place", "rules"),
               on=["game_id", "seat"], how="left")
        field = "final_score" if computed_col == "final_score" else "game_points"
        explanation = (
            format_text("place {} with {} (leftover sticks included)", "place", "final_score")
            if field == "final_score"
            else format_text("place {} with {} under {} (uma, oka, rounding)", "place", "final_score", "rules")
        )
        recorded, computed = pl.col("_recorded"), pl.col(computed_col).cast(pl.Float64)
        out.append(
            finding(per_seat, recorded.is_not_null() & ((recorded - computed).abs() > tolerance),
                     field, "game_end", number_text(recorded), number_text(computed), explanation,
                     seat=pl.col("seat"))
        )
    return out


def settlement_findings(hands: pl.LazyFrame, names: list[str]) -> list[pl.LazyFrame]:
    """One note per game whose recorded game points fit no rule we know (the importer's ``settlement``,
    :mod:`analyzer.formats.settlement`): the game is scored as the server settled it, so its points agree;
    what the settlement may be is said once, not as a mismatch per seat."""
    if "settlement" not in names:
        return []
    return [finding(hands, pl.col("settlement").is_not_null(), "game_points", "note", pl.lit("settlement"),
                    pl.lit(None, pl.String), pl.col("settlement").cast(pl.String))]


def lobby_rules_findings(hands: pl.LazyFrame, names: list[str]) -> list[pl.LazyFrame]:
    """One note per game of a special lobby (the importer's ``rules_note``, :mod:`analyzer.formats.tenhou.lobby`):
    what its lobby's rules give and what of them is not reproduced, said once, not as mismatches."""
    if "rules_note" not in names:
        return []
    return [finding(hands, pl.col("rules_note").is_not_null(), "rules", "note", pl.lit("lobby_rules"),
                    pl.lit(None, pl.String), pl.col("rules_note").cast(pl.String))]


def game_end_rule_findings(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """A game that goes on after the first hand its rules end it with, or that ends in the last round (or
    later) where they let it go on."""
    ends = hand_ends(hands, rules).with_columns(
        (pl.col("_must_end").cast(pl.Int64).cum_sum().over("game_id") == 1).alias("_first_end")
    )
    goes_on = finding(
        ends, pl.col("_must_end") & pl.col("_first_end") & ~pl.col("_is_last"), "end", "game_end",
        pl.lit("goes on"), pl.lit("ends"), pl.lit("the game should end after this hand: ") + pl.col("_end_reason"),
    )
    # A record that stops before the last round, or a fragment, is an unfinished game (``complete`` is false in
    # the games table), not a disagreement; from the last round on, where it stops is the rules' question.
    last_round = last_round_expr(rules, hands.collect_schema().names())
    stops = finding(
        ends, pl.col("_is_last") & ~pl.col("_must_end") & ~pl.col("_may_stop") & (pl.col("_round_idx") >= last_round)
        & ~pl.col("_partial_game"), "end", "game_end",
        pl.lit("ends"), pl.lit("goes on"),
        pl.lit("the game ends after this hand, but ") + pl.col("_goes_on_reason"),
    )
    return pl.concat([goes_on, stops])
