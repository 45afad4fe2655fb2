"""Problem codes: things wrong or doubtful in a row that is still scored. Never a silent overwrite.

``flag_problems`` adds ``problems``: the codes joined by ';' (empty when the row is clean).

=================== =========================================================================================
honba_mismatch      the recorded honba differs from the replayed one (``replayed_honba`` is what was paid)
kyotaku_mismatch    the recorded kyotaku differs from the sticks the replay finds on the table
seating_mismatch    the row's player names differ from the first row of its game (seats are what count)
head_bump           a further winner of a multiple ron under atamahane: paid nothing
triple_ron_abort    a triple ron under a ruleset where it is an abortive draw: paid nothing
duplicate_winner    the same winner twice in one hand
abort_not_in_rules  an abortive draw under a ruleset without them (scored as recorded: no payments)
nagashi_not_in_rules a nagashi under a ruleset without it (scored as an exhaustive draw)
riichi_not_tenpai   a riichi player is not listed as tenpai at an exhaustive draw
pao_without_yakuman a liable player is given for a hand that is not a yakuman (ignored)
implausible_han_fu  a han/fu combination no hand can have (20 fu by ron or below 2 han, 25 fu below 2 han)
partial_game        the game does not start at E1 with no honba and no sticks (replayed from its first row)
=================== =========================================================================================
"""

from __future__ import annotations

import polars as pl

from analyzer import segments as seg
from analyzer.rules import Rules
from analyzer.schema import PLAYER_COLUMNS

RESULT = pl.col("result")


def _code(condition: pl.Expr, code: str) -> pl.Expr:
    return pl.when(condition.fill_null(False)).then(pl.lit(code))


def _winner_repeats() -> pl.Expr:
    """The row's winner wins more than one row of the same hand."""
    winner = pl.col("_winner")
    won = RESULT.is_in(["ron", "tsumo"]) & winner.is_not_null()
    wins = pl.when(won).then(pl.lit(2, pl.Int64).pow(winner.fill_null(0))).otherwise(0)
    counts = seg.seat_counts(wins, pl.col("_first"), pl.col("_last"))
    return pl.coalesce(*[pl.when(winner == s).then(counts[s] > 1) for s in range(4)])


def flag_problems(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    schema = lf.collect_schema()
    seating = pl.concat_str(PLAYER_COLUMNS, separator="\x1f")
    riichi, tenpai = pl.col("_hand_riichi"), pl.col("_tenpai_mask")
    yakuman = pl.col("yakuman").fill_null(0)
    han, fu = pl.col("han"), pl.col("fu")
    value_given = RESULT.is_in(["ron", "tsumo"]) & (yakuman == 0) & han.is_between(1, 4)
    if "hand" in schema:
        value_given = value_given & pl.col("hand").is_null()
    codes = [
        _code(pl.col("honba") != pl.col("replayed_honba"), "honba_mismatch"),
        _code(pl.col("recorded_kyotaku").cast(pl.Int64, strict=False) != pl.col("kyotaku"), "kyotaku_mismatch")
        if "recorded_kyotaku" in schema
        else None,
        _code(seating != seg.first(seating, pl.col("_game_start")), "seating_mismatch"),
        _code(pl.col("_head_bumped"), "head_bump"),
        _code(pl.col("_triple_ron_aborted"), "triple_ron_abort"),
        _code(RESULT.is_in(["ron", "tsumo"]) & _winner_repeats(), "duplicate_winner"),
        _code((RESULT == "abort") & pl.lit(not rules.abortive_draws), "abort_not_in_rules"),
        _code((RESULT == "nagashi") & pl.lit(not rules.nagashi), "nagashi_not_in_rules"),
        _code((RESULT == "draw") & ((riichi & ~tenpai) != 0), "riichi_not_tenpai"),
        _code(pl.col("_pao").is_not_null() & (yakuman == 0), "pao_without_yakuman"),
        _code(
            value_given & (((fu == 20) & ((RESULT == "ron") | (han < 2))) | ((fu == 25) & (han < 2))),
            "implausible_han_fu",
        ),
        _code(pl.col("_partial_game") & pl.col("_game_start"), "partial_game"),
    ]
    listed = pl.concat_list([c for c in codes if c is not None]).list.drop_nulls()
    if "_tile_problems" in schema:
        listed = pl.concat_list([pl.col("_tile_problems"), listed])
    return lf.with_columns(listed.list.join(";").alias("problems"))
