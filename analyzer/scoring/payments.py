"""Hand values and who pays whom in every row.

``hand_value`` needs ``result, han, fu, yakuman, _winner, dealer`` and adds ``base_points``, ``limit`` and
``points`` (the hand's value without honba and sticks: the ron payment, or the tsumo total; a nagashi is
valued as a mangan tsumo).

``deltas`` needs the columns of :mod:`analyzer.game.replay` and adds ``delta_0``..``delta_3``: each seat's score
change from the row, everything included (hand, honba, riichi sticks put out and collected, noten
payments, nagashi, chombo). Riichi sticks put out in a hand are charged on its first row. With three players
(``rules.players == 3``) only seats 0-2 pay and are paid; ``delta_3`` is null.
"""

from __future__ import annotations

from functools import lru_cache

import polars as pl

from analyzer.core import segments as seg
from analyzer.scoring.points import (
    MANGAN,
    YAKUMAN,
    base_points,
    hand_points,
    limit_name,
    paid_yakuman,
    ron_payment,
    tsumo_shares,
)
from analyzer.core.rules import Rules
from analyzer.core.schema import DELTA_COLUMNS, SEATS
from analyzer.core.text import one_of

WINNER = pl.col("_winner")
LOSER = pl.col("_loser")
DEALER = pl.col("dealer")
RESULT = pl.col("result")


def _nagashi_scored(rules: Rules) -> pl.Expr:
    return (RESULT == "nagashi") & pl.lit(rules.nagashi)


def hand_value(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    win = one_of(RESULT, ["ron", "tsumo"])
    nagashi = _nagashi_scored(rules)
    base = base_points(pl.col("han"), pl.col("fu"), pl.col("yakuman"), rules)
    lf = lf.with_columns(
        pl.when(win).then(base).when(nagashi).then(MANGAN).alias("base_points"),
    )
    winner_is_dealer = WINNER == DEALER
    return lf.with_columns(
        pl.when(win)
        .then(limit_name(pl.col("han"), pl.col("base_points"), pl.col("yakuman"), rules))
        .when(nagashi)
        .then(pl.lit("mangan"))
        .alias("limit"),
        hand_points(pl.col("base_points"), winner_is_dealer, RESULT != "ron", rules).alias("points"),
    )


def _tsumo_shares(payee: pl.Expr, base: pl.Expr, rules: Rules) -> list[pl.Expr]:
    """What each seat pays when ``payee`` wins by tsumo with ``base``: 0 for the payee itself."""
    from_dealer, from_other = tsumo_shares(base, payee == DEALER, rules)
    return _shares_by_seat(payee, from_dealer, from_other, rules)


def _shares_by_seat(payee: pl.Expr, from_dealer: pl.Expr, from_other: pl.Expr, rules: Rules) -> list[pl.Expr]:
    return [
        pl.when(payee == s).then(0).when(DEALER == s).then(from_dealer).otherwise(from_other) for s in rules.seats
    ]


def _liability(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Adds ``_liable_value`` (the part of a yakuman the liable player covers), ``_base_rest`` (the base points
    the usual payers cover) and ``_liable_honba`` (the liable player pays the honba)."""
    pao = pl.col("_pao")
    n_yakuman = paid_yakuman(pl.col("yakuman"), rules)
    pao_on = pao.is_not_null() & (n_yakuman > 0) & ((RESULT == "tsumo") | (pao != LOSER))
    if rules.pao_scope == "all":
        covered = n_yakuman
    else:
        # How many of the hand's yakuman the liability covers: the optional ``pao_yakuman`` column, else one.
        given = (
            pl.col("pao_yakuman").cast(pl.Int64, strict=False) if "pao_yakuman" in lf.collect_schema() else pl.lit(None)
        )
        covered = pl.min_horizontal(given.fill_null(1), n_yakuman)
    covered = pl.when(pao_on).then(covered).otherwise(0)
    # the base points the liability covers: its yakuman, or under aotenjou (no yakuman price) the whole hand
    covered_base = (
        pl.when(pao_on).then(pl.col("base_points")).otherwise(0) if rules.limits == "aotenjou" else covered * YAKUMAN
    )
    return lf.with_columns(
        (covered_base * pl.when(WINNER == DEALER).then(6).otherwise(4)).alias("_liable_value"),
        (pl.col("base_points") - covered_base).alias("_base_rest"),
        (pao_on & pl.lit(rules.pao_honba_payer == "liable")).fill_null(False).alias("_liable_honba"),
    )


def _win_payments(rules: Rules) -> list[pl.Expr]:
    """What each seat pays for a paid ron or tsumo row: hand (split with a liable player) plus honba."""
    pao = pl.col("_pao")
    liable_value, liable_honba = pl.col("_liable_value"), pl.col("_liable_honba")
    honba = pl.col("_honba_paid") * rules.honba_value
    ron = RESULT == "ron"
    shares = _shares_by_seat(WINNER, pl.col("_share_dealer"), pl.col("_share_other"), rules)
    payers = rules.players - 1
    payments = []
    for s in rules.seats:
        seat = pl.lit(s)
        is_loser, is_pao, is_winner = LOSER == seat, (pao == seat).fill_null(False), WINNER == seat
        ron_pays = (
            pl.when(is_loser).then(pl.col("_ron_rest") + liable_value - liable_value // 2).otherwise(0)
            + pl.when(is_pao).then(liable_value // 2).otherwise(0)
            + pl.when(pl.when(liable_honba).then(is_pao).otherwise(is_loser)).then(honba).otherwise(0)
        )
        tsumo_pays = (
            shares[s]
            + pl.when(is_pao).then(liable_value).otherwise(0)
            + pl.when(liable_honba)
            .then(pl.when(is_pao).then(honba).otherwise(0))
            .otherwise(pl.when(is_winner).then(0).otherwise(honba // payers))
        )
        payments.append(pl.when(ron).then(ron_pays).otherwise(tsumo_pays))
    return payments


def _as_deltas(payee: pl.Expr, payments: list[pl.Expr]) -> list[pl.Expr]:
    total = pl.sum_horizontal(payments)
    return [pl.when(payee == s).then(total).otherwise(0) - payments[s] for s in range(len(payments))]


PAY = [f"_pay_{s}" for s in SEATS]


@lru_cache(maxsize=32)
def _seat_table(rules: Rules, kind: str) -> pl.DataFrame:
    """Each seat's delta of a nagashi or chombo (a mangan tsumo by, or paid back by, each seat with each dealer:
    row ``seat * 4 + dealer``) or of the noten payments (row = tenpai mask), for every case: the expressions
    of :func:`deltas` evaluated on 16 rows instead of on every row."""
    cases = pl.DataFrame({"_case": list(range(16))}, schema={"_case": pl.Int64}).with_columns(
        (pl.col("_case") // 4).alias("_winner"), (pl.col("_case") // 4).alias("_loser"),
        (pl.col("_case") % 4).alias("dealer"), pl.col("_case").alias("_tenpai_mask"),
    )
    if kind == "nagashi":
        columns = _as_deltas(WINNER, _tsumo_shares(WINNER, pl.lit(MANGAN), rules))
    elif kind == "chombo":
        columns = [-d for d in _as_deltas(LOSER, _tsumo_shares(LOSER, pl.lit(MANGAN), rules))]
    else:
        columns = _noten_deltas(rules)
    return cases.select(c.cast(pl.Int64).alias(f"_{s}") for s, c in zip(rules.seats, columns))


def _by_seats(table: pl.DataFrame, case: pl.Expr) -> list[pl.Expr]:
    """Each seat's value of the row's ``case`` in a :func:`_seat_table` (one column per seat of the rules)."""
    return [pl.lit(table[column]).gather(case) for column in table.columns]


def _noten_deltas(rules: Rules) -> list[pl.Expr]:
    tenpai = pl.col("_tenpai_mask")
    n_tenpai = tenpai.bitwise_count_ones().cast(pl.Int64)
    some = n_tenpai.is_between(1, rules.players - 1)
    return [
        pl.when(~some)
        .then(0)
        .when((tenpai // (1 << s)) % 2 == 1)
        .then(rules.noten_total // n_tenpai)
        .otherwise(-(rules.noten_total // (rules.players - n_tenpai)))
        for s in rules.seats
    ]


def _stick_deltas(rules: Rules) -> list[pl.Expr]:
    """Sticks put out (charged on the hand's first row) and collected by the winner(s)."""
    riichi = pl.col("_hand_riichi")
    winner_declared = seg.has_seat(riichi, WINNER) & pl.col("_paid")
    table = pl.col("kyotaku") + pl.col("_sticks_put")
    if rules.multi_ron_sticks == "nearest":
        collected = pl.when(pl.col("_paid") & pl.col("_nearest")).then(table).otherwise(0)
    else:
        own_back_total = seg.total(winner_declared.cast(pl.Int64), pl.col("_first"), pl.col("_last"))
        collected = winner_declared.cast(pl.Int64) + pl.when(pl.col("_paid") & pl.col("_nearest")).then(
            table - own_back_total
        ).otherwise(0)
    put_out = pl.col("_first") & (RESULT != "chombo")
    return [
        (
            pl.when(WINNER == s).then(collected).otherwise(0)
            - pl.when(put_out & ((riichi // (1 << s)) % 2 == 1)).then(1).otherwise(0)
        )
        * rules.riichi_deposit
        for s in rules.seats
    ]


def deltas(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    honba_to_this_row = pl.col("_paid") & (pl.col("_nearest") | pl.lit(rules.multi_ron_honba == "each"))
    lf = lf.with_columns(pl.when(honba_to_this_row).then(pl.col("replayed_honba")).otherwise(0).alias("_honba_paid"))
    share_dealer, share_other = tsumo_shares(pl.col("_base_rest"), WINNER == DEALER, rules)
    lf = lf.pipe(_liability, rules).with_columns(
        ron_payment(pl.col("_base_rest"), WINNER == DEALER, rules).alias("_ron_rest"),
        share_dealer.alias("_share_dealer"),
        share_other.alias("_share_other"),
    )
    pay = PAY[: rules.players]
    # Each seat's payment as a column first: the deltas read every payment twice.
    lf = lf.with_columns(pl.when(pl.col("_paid")).then(p).otherwise(0).alias(name)
                         for p, name in zip(_win_payments(rules), pay))
    win = _as_deltas(WINNER, [pl.col(c) for c in pay])
    # deltas that depend only on seats: looked up in small tables built by the same expressions
    nagashi = _by_seats(_seat_table(rules, "nagashi"), WINNER * 4 + DEALER)
    chombo = _by_seats(_seat_table(rules, "chombo"), LOSER * 4 + DEALER)
    noten = _by_seats(_seat_table(rules, "noten"), pl.col("_tenpai_mask"))
    sticks = _stick_deltas(rules)
    is_draw = (RESULT == "draw") | ((RESULT == "nagashi") & pl.lit(not rules.nagashi))
    columns = []
    for s in rules.seats:
        hand_part = (
            pl.when(pl.col("_paid"))
            .then(win[s])
            .when(_nagashi_scored(rules))
            .then(nagashi[s])
            .when(is_draw & pl.col("_first"))
            .then(noten[s])
            .when((RESULT == "chombo") & pl.lit(rules.chombo_payment == "reverse_mangan"))
            .then(chombo[s])
            .otherwise(0)
        )
        columns.append((hand_part + sticks[s]).cast(pl.Int64).alias(DELTA_COLUMNS[s]))
    columns += [pl.lit(None, pl.Int64).alias(DELTA_COLUMNS[s]) for s in SEATS if s not in rules.seats]
    return lf.with_columns(columns).drop(
        "_liable_value", "_base_rest", "_liable_honba", "_ron_rest", "_share_dealer", "_share_other", *pay
    )
