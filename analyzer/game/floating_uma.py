"""A floating uma (``Rules.floating_uma``): the uma of each place taken from the row of the rules' table that the
number of players who finish below the return points picks (:func:`floating_uma_exprs`).

A player's finish is its final score with the sticks left on the table that it receives (first place, shared
between players tied for first under ``tie_rule = "split"``, each share floored to 100, as
:mod:`analyzer.game.games` pays them), compared with ``return_points``: below is strictly below. Source of the
rule: riichi.wiki, "Oka and uma", section "Floating uma" (the uma varies with the number of players above and
below the target score); Tenhou's custom lobbies give such a table in their ``csrule``
(:mod:`analyzer.formats.tenhou.csrule`).
"""

from __future__ import annotations

import polars as pl

from analyzer.core.rules import Rules
from analyzer.core.schema import SCORE_COLUMNS

BELOW = "_players_below_return"


def players_below(rules: Rules) -> pl.Expr:
    """How many players of a game's row (``score_s`` before leftover sticks, ``_leftover`` the sticks left,
    ``_ordinal_s`` the seat's rank by score, then seat) finish below ``return_points``."""
    raw = [pl.col(SCORE_COLUMNS[s]).cast(pl.Int64) for s in rules.seats]
    if rules.tie_rule == "split":
        first = [r == pl.max_horizontal(raw) for r in raw]
    else:
        first = [pl.col(f"_ordinal_{s}") == 1 for s in rules.seats]
    n_first = pl.sum_horizontal(f.cast(pl.Int64) for f in first)
    share = (pl.col("_leftover").fill_null(0) * rules.riichi_deposit // n_first) // 100 * 100
    if rules.leftover_sticks != "first":
        share = pl.lit(0)
    finals = [raw[s] + pl.when(first[s]).then(share).otherwise(0) for s in rules.seats]
    return pl.sum_horizontal((f < rules.return_points).cast(pl.Int64) for f in finals)


def floating_uma_exprs(rules: Rules) -> list[pl.Expr]:
    """The uma of places 1..n of each game's row under ``rules.floating_uma``: the row its count of players below
    the return points picks."""
    below = players_below(rules)
    exprs = []
    for place in range(rules.players):
        expr = pl.when(below == 0).then(pl.lit(rules.floating_uma[0][place], pl.Float64))
        for count, row in enumerate(rules.floating_uma[1:], 1):
            expr = expr.when(below == count).then(pl.lit(row[place], pl.Float64))
        exprs.append(expr.otherwise(pl.lit(rules.floating_uma[-1][place], pl.Float64)))
    return exprs
