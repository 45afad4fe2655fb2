"""Problem codes: things wrong or doubtful in a row that is still scored. Never a silent overwrite.

``flag_problems`` adds ``problems``: the list of the row's codes (empty when the row is clean). A CSV output
holds them joined by ';' (empty text when the row is clean); :func:`problem_lists` reads either form.

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

from analyzer.core import segments as seg
from analyzer.core.rules import Rules
from analyzer.core.schema import PLAYER_COLUMNS
from analyzer.core.text import one_of

RESULT = pl.col("result")


def _code(condition: pl.Expr, code: str) -> tuple[pl.Expr, str]:
    return condition.fill_null(False), code


PROBLEMS = "problems"
CODES = pl.List(pl.String)
SEPARATOR = ";"  # between the codes of a CSV output's ``problems``


@lru_cache(maxsize=8)
def _lists(codes: tuple[str, ...]) -> pl.Series:
    """The ``problems`` list of every combination of ``codes`` (index = bit mask)."""
    return pl.Series(
        [[c for i, c in enumerate(codes) if mask >> i & 1] for mask in range(1 << len(codes))], dtype=CODES
    )


def codes_list(flags: list[tuple[pl.Expr, str]]) -> pl.Expr:
    """The codes whose conditions hold, in the order given — a bit mask looked up in a table of all
    combinations (no list built per row)."""
    mask = pl.sum_horizontal(pl.when(cond).then(1 << i).otherwise(0) for i, (cond, _) in enumerate(flags))
    return pl.lit(_lists(tuple(code for _, code in flags))).gather(mask)


def split_codes(text: pl.Expr) -> pl.Expr:
    """Codes joined by ';' (a CSV output's ``problems``) as a list: empty text or null is no codes."""
    return pl.when(text.fill_null("") == "").then(pl.lit([], CODES)).otherwise(text.str.split(SEPARATOR))


def problem_lists(frame: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame:
    """A hands table with ``problems`` as a list of codes, whether it holds lists (the hands table, a Parquet
    output) or text (a CSV output read back)."""
    schema = frame.collect_schema()
    if PROBLEMS not in schema or schema[PROBLEMS] == CODES:
        return frame
    if isinstance(schema[PROBLEMS], pl.List):
        return frame.with_columns(pl.col(PROBLEMS).cast(CODES))
    return frame.with_columns(split_codes(pl.col(PROBLEMS).cast(pl.String)).alias(PROBLEMS))


def has_problems() -> pl.Expr:
    """Whether a row has a problem (``problems`` as a list, see :func:`problem_lists`)."""
    return pl.col(PROBLEMS).list.len() > 0


def has_code(*codes: str) -> pl.Expr:
    """Whether a row's ``problems`` (a list) hold one of ``codes``."""
    return pl.any_horizontal(pl.col(PROBLEMS).list.contains(pl.lit(c)) for c in codes).fill_null(False)


def rows_with_problems(hands: pl.DataFrame) -> int:
    """How many rows of a hands table (or of a CSV output read back) have a problem."""
    return problem_lists(hands).select(has_problems().sum()).item()


def problems_text(expr: pl.Expr = pl.col(PROBLEMS)) -> pl.Expr:
    """A ``problems`` list as a CSV output holds it: the codes joined by ';' (empty text for none)."""
    return expr.list.join(SEPARATOR)


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
    listed = codes_list([c for c in codes if c is not None])
    if "_tile_problems" in schema:  # the tile codes first, joined by ';' (analyzer.scoring.tiles_stage)
        tiles = pl.col("_tile_problems")
        listed = pl.when(tiles.fill_null("") == "").then(listed).otherwise(pl.concat_list(split_codes(tiles), listed))
    return lf.with_columns(listed.alias(PROBLEMS))
