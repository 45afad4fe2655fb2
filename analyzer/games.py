"""Game results: final scores, leftover sticks, places, uma, oka, penalties and game points.

``game_results(hands, rules)`` needs the scored hands (with ``_seq``, ``score_*``, ``_kyotaku_after``) and
returns one row per game and seat with the columns of :data:`analyzer.schema.GAMES_SCHEMA`, plus
``leftover_sticks`` (points from sticks left on the table that this player received at the end) and
``chombo`` (chombo count).

Places: by final score before leftover sticks; equal scores are ordered by seat (``tie_rule = "seat"``) or
share the better place with uma and oka averaged over the places they span (``"split"``).
"""

from __future__ import annotations

import polars as pl

from analyzer import segments as seg
from analyzer.rules import Rules
from analyzer.schema import GAMES_SCHEMA, PLAYER_COLUMNS, SCORE_COLUMNS, SEATS

GAME = "game_id"


def _last_rows(hands: pl.LazyFrame) -> pl.LazyFrame:
    """The last row of each game (scores after it, sticks left) with the game's chombo count per seat.

    The hands are in replay order (:mod:`analyzer.replay`): a game's totals are segment sums, read on its
    last row."""
    start, end = pl.col("_game_start"), pl.col("_game_end")
    chombo = pl.col("result") == "chombo"
    # The k-th first row and the k-th last row belong to the same game: two filters side by side.
    seating = hands.filter(start).select(PLAYER_COLUMNS)
    last = hands.with_columns(
        *[seg.cum_sum((chombo & (pl.col("_loser") == s)).cast(pl.Int64), start).alias(f"_chombo_{s}") for s in SEATS],
    ).filter(end).select(
        GAME, "_game", *SCORE_COLUMNS, pl.col("_kyotaku_after").alias("_leftover"), *[f"_chombo_{s}" for s in SEATS],
    )
    return pl.concat([last, seating], how="horizontal")


def _long(last: pl.LazyFrame) -> pl.LazyFrame:
    per_seat = [
        last.select(
            GAME,
            "_game",
            pl.lit(s, pl.Int64).alias("seat"),
            pl.col(PLAYER_COLUMNS[s]).alias("player"),
            pl.col(SCORE_COLUMNS[s]).cast(pl.Int64).alias("_raw_score"),
            pl.col(f"_chombo_{s}").cast(pl.Int64).alias("chombo"),
            "_leftover",
        )
        for s in SEATS
    ]
    return pl.concat(per_seat)


def _game_key(lf: pl.LazyFrame) -> str:
    """The integer game key where the frame has one (cheaper windows), else ``game_id``."""
    return "_game" if "_game" in lf.collect_schema() else GAME


def _round_game_points(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    diff = (pl.col("final_score") - rules.return_points) / 1000
    exact = diff + pl.col("uma") + pl.col("oka") - pl.col("penalty")
    if rules.game_points_rounding == "exact":
        return lf.with_columns(exact.alias("game_points"))
    if rules.game_points_rounding == "tenth":
        return lf.with_columns(exact.round(1).alias("game_points"))
    # Tenhou: scores of places 2-4 to the nearest thousand, 500 away from zero (5500 -> 6, -7500 -> -8, as
    # recomputed from 50 real logs); first place takes minus the sum of the others so the table sums to zero.
    score = pl.col("final_score")
    thousands = score.sign() * ((score.abs() + 500) / 1000).floor()
    others = thousands - rules.return_points / 1000 + pl.col("uma") - pl.col("penalty")
    is_top = pl.col("_ordinal") == 1
    return lf.with_columns(
        pl.when(is_top)
        .then(-pl.when(~is_top).then(others).otherwise(0).sum().over(_game_key(lf)) - pl.col("penalty"))
        .otherwise(others)
        .alias("game_points")
    )


def game_results(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    lf = _long(_last_rows(hands))
    # Ordinal place: score, then seat. Ties then share per the tie rule.
    lf = lf.with_columns(
        (pl.col("_raw_score") * -4 + pl.col("seat")).rank("ordinal").over("_game").cast(pl.Int64).alias("_ordinal")
    )
    uma = pl.col("_ordinal").replace_strict([1, 2, 3, 4], list(rules.uma), return_dtype=pl.Float64)
    oka = pl.when(pl.col("_ordinal") == 1).then(rules.oka).otherwise(0.0)
    tie = ["_game", "_raw_score"]
    if rules.tie_rule == "split":
        lf = lf.with_columns(
            pl.col("_ordinal").min().over(tie).alias("place"),
            uma.mean().over(tie).alias("uma"),
            oka.mean().over(tie).alias("oka"),
        )
    else:
        lf = lf.with_columns(pl.col("_ordinal").alias("place"), uma.alias("uma"), oka.alias("oka"))
    if rules.leftover_sticks == "first":
        n_first = (pl.col("place") == 1).sum().over("_game")
        share = (pl.col("_leftover") * rules.riichi_deposit // n_first) // 100 * 100
        lf = lf.with_columns(pl.when(pl.col("place") == 1).then(share).otherwise(0).cast(pl.Int64).alias("leftover_sticks"))
    else:
        lf = lf.with_columns(pl.lit(0, pl.Int64).alias("leftover_sticks"))
    lf = lf.with_columns(
        (pl.col("_raw_score") + pl.col("leftover_sticks")).alias("final_score"),
        (pl.col("chombo") * rules.chombo_penalty).cast(pl.Float64).alias("penalty"),
    )
    lf = _round_game_points(lf, rules)
    return lf.select(*GAMES_SCHEMA, "leftover_sticks", "chombo").sort(GAME, "place", "seat")
