"""Hand value: base points, limit names and the rounded payments, as column expressions.

Rules used: ``kiriage``, ``kazoe``, ``yakuman_stacking``, ``yakuman_max``.
"""

from __future__ import annotations

import polars as pl

from analyzer.rules import Rules
from analyzer.text import format_text

MANGAN = 2000
YAKUMAN = 8000

# (lowest han, base points, limit name) for 5+ han; kazoe (13+) depends on the ruleset.
_HAN_LIMITS = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, MANGAN, "mangan"))


def ceil100(points: pl.Expr) -> pl.Expr:
    """Round a payment up to the next multiple of 100."""
    return (points + 99) // 100 * 100


def paid_yakuman(yakuman: pl.Expr, rules: Rules) -> pl.Expr:
    """How many yakuman a hand is paid for under the ruleset's stacking rule."""
    cap = rules.yakuman_max if rules.yakuman_stacking else 1
    return yakuman.fill_null(0).cast(pl.Int64).clip(0, cap)


def base_points(han: pl.Expr, fu: pl.Expr, yakuman: pl.Expr, rules: Rules) -> pl.Expr:
    """Base points: fu x 2^(2+han) capped at mangan, the han limits, kazoe and yakuman multiples."""
    han = han.cast(pl.Int64)
    # 2**(han + 2) by a lookup (a third of the cost of pow); from 5 han the limits below take over
    doubling = pl.lit(pl.Series([2**k for k in range(9)], dtype=pl.Int64)).gather((han + 2).clip(0, 8))
    below_limit = (fu.cast(pl.Int64) * doubling).clip(upper_bound=MANGAN)
    if rules.kiriage:
        below_limit = pl.when(below_limit == 1920).then(MANGAN).otherwise(below_limit)
    kazoe = YAKUMAN if rules.kazoe == "yakuman" else 6000
    expr = pl.when(paid_yakuman(yakuman, rules) > 0).then(paid_yakuman(yakuman, rules) * YAKUMAN)
    expr = expr.when(han >= 13).then(kazoe)
    for low, base, _ in _HAN_LIMITS:
        expr = expr.when(han >= low).then(base)
    return expr.otherwise(below_limit).cast(pl.Int64)


def limit_name(han: pl.Expr, base: pl.Expr, yakuman: pl.Expr, rules: Rules) -> pl.Expr:
    """Name of the limit reached ('mangan' … 'yakuman', 'kazoe yakuman', '2x yakuman'), null below mangan."""
    n = paid_yakuman(yakuman, rules)
    kazoe_name = "kazoe yakuman" if rules.kazoe == "yakuman" else "sanbaiman"
    expr = (
        pl.when(n > 1)
        .then(format_text("{}x yakuman", n))
        .when(n == 1)
        .then(pl.lit("yakuman"))
        .when(han >= 13)
        .then(pl.lit(kazoe_name))
    )
    for low, _, name in _HAN_LIMITS:
        expr = expr.when(han >= low).then(pl.lit(name))
    return expr.when(base >= MANGAN).then(pl.lit("mangan")).otherwise(pl.lit(None, pl.String))


def ron_payment(base: pl.Expr, winner_is_dealer: pl.Expr) -> pl.Expr:
    """What the discarder pays for the hand (honba and sticks excluded)."""
    return ceil100(base * pl.when(winner_is_dealer).then(6).otherwise(4))


def tsumo_payment(base: pl.Expr, winner_is_dealer: pl.Expr, payer_is_dealer: pl.Expr) -> pl.Expr:
    """What one player pays on a tsumo: double when the winner or the payer is the dealer."""
    return ceil100(base * pl.when(winner_is_dealer | payer_is_dealer).then(2).otherwise(1))


def hand_points(base: pl.Expr, winner_is_dealer: pl.Expr, is_tsumo: pl.Expr) -> pl.Expr:
    """The hand's value without honba and sticks: the ron payment, or the sum of the tsumo payments."""
    tsumo_total = pl.when(winner_is_dealer).then(3 * ceil100(2 * base)).otherwise(
        ceil100(2 * base) + 2 * ceil100(base)
    )
    return pl.when(is_tsumo).then(tsumo_total).otherwise(ron_payment(base, winner_is_dealer))
