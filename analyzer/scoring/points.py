"""Hand value: base points, limit names and the rounded payments, as column expressions.

Outside :mod:`analyzer.scoring` because the tile scorer (:mod:`analyzer.tiles`) ranks a hand's readings by
their payment too, and the scoring stages use the tile scorer: here both depend on it, not on each other.

Rules used: ``limits``, ``payment_rounding``, ``kiriage``, ``kazoe``, ``yakuman_stacking``, ``yakuman_max``.

Under ``limits = "aotenjou"`` base points are fu x 2^(2+han) with no cap, each yakuman adding 13 han; every
amount is Int64 end to end. Hands whose value would not fit (base points above :data:`AOTENJOU_MAX_BASE`)
are rejected before they reach this module (:func:`analyzer.scoring.checks.rules_checks`).
"""

from __future__ import annotations

import polars as pl

from analyzer.core.rules import Rules
from analyzer.core.text import format_text

MANGAN = 2000
YAKUMAN = 8000

YAKUMAN_HAN = 13  # aotenjou: a yakuman is a 13-han yaku (riichi.wiki "Aotenjou")
# Aotenjou base points beyond this are rejected: a dealer ron pays 6x, and a game's running scores must stay far
# inside Int64 (2^56 x 6 x 20 hands < 2^63).
AOTENJOU_MAX_BASE = 2**56
_DOUBLINGS = pl.Series([2**k for k in range(63)], dtype=pl.Int64)

# (lowest han, base points, limit name) for 5+ han; kazoe (13+) depends on the ruleset.
_HAN_LIMITS = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, MANGAN, "mangan"))


def ceil100(points: pl.Expr, rules: Rules | None = None) -> pl.Expr:
    """Round a payment up to the next multiple of 100 (of ``rules.payment_rounding`` when given)."""
    unit = 100 if rules is None else rules.payment_rounding
    return points if unit == 1 else (points + (unit - 1)) // unit * unit


def aotenjou_han(han: pl.Expr, yakuman: pl.Expr) -> pl.Expr:
    """The han an aotenjou hand is priced at: its han plus 13 for each yakuman."""
    return han.cast(pl.Int64).fill_null(0) + YAKUMAN_HAN * yakuman.fill_null(0).cast(pl.Int64).clip(lower_bound=0)


def aotenjou_base(han: pl.Expr, fu: pl.Expr, yakuman: pl.Expr) -> pl.Expr:
    """fu x 2^(2+han), han counting 13 per yakuman; null beyond Int64 (such hands are rejected earlier)."""
    exponent = aotenjou_han(han, yakuman) + 2
    doubling = pl.lit(_DOUBLINGS).gather(exponent.clip(0, len(_DOUBLINGS) - 1))
    return pl.when(exponent < len(_DOUBLINGS) - 6).then(fu.cast(pl.Int64) * doubling)


def paid_yakuman(yakuman: pl.Expr, rules: Rules) -> pl.Expr:
    """How many yakuman a hand is paid for under the ruleset's stacking rule."""
    cap = rules.yakuman_max if rules.yakuman_stacking else 1
    return yakuman.fill_null(0).cast(pl.Int64).clip(0, cap)


def base_points(han: pl.Expr, fu: pl.Expr, yakuman: pl.Expr, rules: Rules) -> pl.Expr:
    """Base points: fu x 2^(2+han) capped at mangan, the han limits, kazoe and yakuman multiples (no cap under
    aotenjou)."""
    if rules.limits == "aotenjou":
        return aotenjou_base(han, fu, yakuman)
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
    """Name of the limit reached ('mangan' … 'yakuman', 'kazoe yakuman', '2x yakuman'), null below mangan and
    always null under aotenjou (no limits)."""
    if rules.limits == "aotenjou":
        return pl.lit(None, pl.String)
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


def ron_payment(base: pl.Expr, winner_is_dealer: pl.Expr, rules: Rules | None = None) -> pl.Expr:
    """What the discarder pays for the hand (honba and sticks excluded)."""
    return ceil100(base * pl.when(winner_is_dealer).then(6).otherwise(4), rules)


def tsumo_payment(
    base: pl.Expr, winner_is_dealer: pl.Expr, payer_is_dealer: pl.Expr, rules: Rules | None = None
) -> pl.Expr:
    """What one player pays on a tsumo: double when the winner or the payer is the dealer."""
    dealer_share, other_share = tsumo_shares(base, winner_is_dealer, rules)
    return pl.when(payer_is_dealer).then(dealer_share).otherwise(other_share)


def tsumo_shares(base: pl.Expr, winner_is_dealer: pl.Expr, rules: Rules | None = None) -> tuple[pl.Expr, pl.Expr]:
    """(what the dealer pays, what a non-dealer pays) on a tsumo, the dealer's share being the winner's own when
    the dealer wins. With three players and ``tsumo_loss = "split"`` each payer also pays half of what the
    missing non-dealer would have paid (that share as rounded, halved, rounded up to 100 again)."""
    dealer_share = ceil100(2 * base, rules)
    other_share = pl.when(winner_is_dealer).then(dealer_share).otherwise(ceil100(base, rules))
    if rules is not None and rules.players == 3 and rules.tsumo_loss == "split":
        half = ceil100((other_share + 1) // 2, rules)
        dealer_share, other_share = dealer_share + half, other_share + half
    return dealer_share, other_share


def hand_points(base: pl.Expr, winner_is_dealer: pl.Expr, is_tsumo: pl.Expr, rules: Rules | None = None) -> pl.Expr:
    """The hand's value without honba and sticks: the ron payment, or the sum of the tsumo payments (of the
    ``players - 1`` payers)."""
    payers = 3 if rules is None else rules.players - 1
    dealer_share, other_share = tsumo_shares(base, winner_is_dealer, rules)
    tsumo_total = pl.when(winner_is_dealer).then(payers * other_share).otherwise(
        dealer_share + (payers - 1) * other_share
    )
    return pl.when(is_tsumo).then(tsumo_total).otherwise(ron_payment(base, winner_is_dealer, rules))
