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
loser_ignored       a loser is given for a result that has none (tsumo, draw, nagashi, abort): not used
winner_ignored      a winner is given for a result that has none (draw, abort, chombo): not used
=================== =========================================================================================
"""

from __future__ import annotations

from functools import lru_cache

import polars as pl

from analyzer import segments as seg
from analyzer.rules import Rules
from analyzer.schema import PLAYER_COLUMNS
from analyzer.text import one_of

RESULT = pl.col("result")


def _code(condition: pl.Expr, code: str) -> tuple[pl.Expr, str]:
    return condition.fill_null(False), code


@lru_cache(maxsize=8)
def _texts(codes: tuple[str, ...]) -> pl.Series:
    """The ``problems`` text of every combination of ``codes`` (index = bit mask)."""
    return pl.Series(
        [";".join(c for i, c in enumerate(codes) if mask >> i & 1) for mask in range(1 << len(codes))], dtype=pl.String
    )


def codes_text(flags: list[tuple[pl.Expr, str]]) -> pl.Expr:
    """The codes whose conditions hold, joined by ';' — a bit mask looked up in a table of all combinations
    (no per-row list)."""
    mask = pl.sum_horizontal(pl.when(cond).then(1 << i).otherwise(0) for i, (cond, _) in enumerate(flags))
    return pl.lit(_texts(tuple(code for _, code in flags))).gather(mask)


def _winner_repeats() -> pl.Expr:
    """The row's winner wins another row of the same hand.

    Only ron rows share a hand, sorted by seat distance from the discarder: the same winner is on a
    neighbouring row of the hand."""
    winner = pl.col("_winner")
    same_as_previous = ~pl.col("_first") & (winner == winner.shift(1))
    same_as_next = ~pl.col("_last") & (winner == winner.shift(-1))
    return (same_as_previous | same_as_next).fill_null(False)


def flag_problems(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    schema = lf.collect_schema()
    start = pl.col("_game_start")
    seating_differs = pl.any_horizontal(pl.col(p) != seg.first(pl.col(p).fill_null(""), start) for p in PLAYER_COLUMNS)
    riichi, tenpai = pl.col("_hand_riichi"), pl.col("_tenpai_mask")
    yakuman = pl.col("yakuman").fill_null(0)
    han, fu = pl.col("han"), pl.col("fu")
    value_given = one_of(RESULT, ["ron", "tsumo"]) & (yakuman == 0) & han.is_between(1, 4)
    if "hand" in schema:
        value_given = value_given & pl.col("hand").is_null()
    codes = [
        _code(pl.col("honba") != pl.col("replayed_honba"), "honba_mismatch"),
        _code(pl.col("recorded_kyotaku").cast(pl.Int64, strict=False) != pl.col("kyotaku"), "kyotaku_mismatch")
        if "recorded_kyotaku" in schema
        else None,
        _code(seating_differs, "seating_mismatch"),
        _code(pl.col("_head_bumped"), "head_bump"),
        _code(pl.col("_triple_ron_aborted"), "triple_ron_abort"),
        _code(one_of(RESULT, ["ron", "tsumo"]) & _winner_repeats(), "duplicate_winner"),
        _code((RESULT == "abort") & pl.lit(not rules.abortive_draws), "abort_not_in_rules"),
        _code((RESULT == "nagashi") & pl.lit(not rules.nagashi), "nagashi_not_in_rules"),
        _code((RESULT == "draw") & ((riichi & ~tenpai) != 0), "riichi_not_tenpai"),
        _code(pl.col("_pao").is_not_null() & (yakuman == 0), "pao_without_yakuman"),
        _code(
            value_given & (((fu == 20) & ((RESULT == "ron") | (han < 2))) | ((fu == 25) & (han < 2))),
            "implausible_han_fu",
        ),
        _code(pl.col("_partial_game") & pl.col("_game_start"), "partial_game"),
        _code(one_of(RESULT, ["tsumo", "draw", "nagashi", "abort"]) & pl.col("_loser").is_not_null(), "loser_ignored"),
        _code(one_of(RESULT, ["draw", "abort", "chombo"]) & pl.col("_winner").is_not_null(), "winner_ignored"),
    ]
    text = codes_text([c for c in codes if c is not None])
    if "_tile_problems" in schema:
        tiles = pl.col("_tile_problems")
        text = pl.concat_str(tiles, pl.when((tiles != "") & (text != "")).then(pl.lit(";")).otherwise(pl.lit("")), text)
    return lf.with_columns(text.alias("problems"))
