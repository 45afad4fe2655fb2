"""Fu items (named reasons) and the ``fu_detail`` list built from a packed fu key.

Key layout (Int64): bits 0-1 mode (0 standard, 1 chiitoitsu, 2 kokushi = no fu), 2 menzen ron, 3 tsumo,
4-6 wait code, 7 dragon pair, 8 seat-wind pair, 9 round-wind pair, 10 open-pinfu bump (20 -> 30),
then 8 triplet/kan categories x 3 bits (count of groups in each category, see :data:`CATEGORIES`).
"""

from __future__ import annotations

import polars as pl

from analyzer.core.rules import Rules

BASE = "base"
CHIITOITSU = "chiitoitsu"
MENZEN_RON = "menzen ron"
TSUMO = "tsumo"
KANCHAN = "kanchan wait"
PENCHAN = "penchan wait"
TANKI = "tanki wait"
DRAGON_PAIR = "yakuhai pair"
SEAT_WIND_PAIR = "seat wind pair"
ROUND_WIND_PAIR = "round wind pair"
DOUBLE_WIND_PAIR = "double wind pair"
OPEN_PINFU = "open pinfu"
# (reason, fu) by category index: open/closed x simple/terminal-or-honour, triplet then kan
CATEGORIES = (
    ("open simple triplet", 2),
    ("open terminal triplet", 4),
    ("closed simple triplet", 4),
    ("closed terminal triplet", 8),
    ("open simple kan", 8),
    ("open terminal kan", 16),
    ("closed simple kan", 16),
    ("closed terminal kan", 32),
)
CAT_SHIFT = 2**11
WAITS = ("ryanmen", "kanchan", "penchan", "tanki", "shanpon")  # wait codes 0..4 of a standard reading

FU_REASONS = pl.Enum([BASE, CHIITOITSU, MENZEN_RON, TSUMO, KANCHAN, PENCHAN, TANKI, DRAGON_PAIR, SEAT_WIND_PAIR,
                      ROUND_WIND_PAIR, DOUBLE_WIND_PAIR, OPEN_PINFU, *[reason for reason, _ in CATEGORIES]])
FU_DTYPE = pl.List(pl.Struct({"fu": pl.Int32, "reason": FU_REASONS}))


def fu_details(keys: pl.LazyFrame, key: str, rules: Rules) -> pl.LazyFrame:
    """(key, fu_detail) for distinct fu keys, by a cross join with the table of fu items."""
    items = [
        ("base", 20, BASE), ("chiitoitsu", 25, CHIITOITSU), ("menzen_ron", 10, MENZEN_RON), ("tsumo", 2, TSUMO),
        ("kanchan", 2, KANCHAN), ("penchan", 2, PENCHAN), ("tanki", 2, TANKI), ("dragon", 2, DRAGON_PAIR),
        ("double", rules.double_wind_pair_fu, DOUBLE_WIND_PAIR), ("seat", 2, SEAT_WIND_PAIR),
        ("round", 2, ROUND_WIND_PAIR),
        *[(f"cat{c}", fu, reason) for c, (reason, fu) in enumerate(CATEGORIES)],
        ("open_pinfu", 10, OPEN_PINFU),
    ]
    table = pl.LazyFrame(
        {"__item": [i[0] for i in items], "__fu": [i[1] for i in items], "__reason": [i[2] for i in items],
         "__order": list(range(len(items)))},
        schema={"__item": pl.String, "__fu": pl.Int32, "__reason": FU_REASONS, "__order": pl.Int64},
    )
    k = pl.col(key)
    mode, wait = k % 4, (k // 16) % 8
    std = (mode == 0).cast(pl.Int64)
    seat, rnd = (k // 256) % 2, (k // 512) % 2
    it = pl.col("__item")
    count = (
        pl.when(it == "base").then(std)
        .when(it == "chiitoitsu").then((mode == 1).cast(pl.Int64))
        .when(it == "menzen_ron").then(std * ((k // 4) % 2))
        .when(it == "tsumo").then(std * ((k // 8) % 2))
        .when(it == "kanchan").then(std * (wait == 1).cast(pl.Int64))
        .when(it == "penchan").then(std * (wait == 2).cast(pl.Int64))
        .when(it == "tanki").then(std * (wait == 3).cast(pl.Int64))
        .when(it == "dragon").then(std * ((k // 128) % 2))
        .when(it == "double").then(std * seat * rnd)
        .when(it == "seat").then(std * seat * (1 - rnd))
        .when(it == "round").then(std * rnd * (1 - seat))
        .when(it == "open_pinfu").then(std * ((k // 1024) % 2))
    )
    for c in range(len(CATEGORIES)):
        count = count.when(it == f"cat{c}").then(std * ((k // (CAT_SHIFT * 8**c)) % 8))
    rows = (
        keys.join(table, how="cross")
        .with_columns(__n=count.otherwise(0))
        .filter(pl.col("__n") > 0)
        .with_columns(__rep=pl.int_ranges(0, pl.col("__n")))
        .explode("__rep")
        .group_by(key)
        .agg(pl.struct(fu=pl.col("__fu"), reason=pl.col("__reason")).sort_by("__order", "__rep").alias("fu_detail"))
    )
    return keys.join(rows, on=key, how="left").with_columns(
        pl.col("fu_detail").fill_null(pl.lit([], dtype=FU_DTYPE)).cast(FU_DTYPE)
    )
