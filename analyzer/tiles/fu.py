"""Fu items (named reasons) and the ``fu_detail`` list built from a packed fu key.

Key layout (Int64): bits 0-1 mode (0 standard, 1 chiitoitsu, 2 kokushi = no fu), 2 menzen ron, 3 tsumo,
4-6 wait code, 7 dragon pair, 8 seat-wind pair, 9 round-wind pair, 10 open-pinfu bump (20 -> 30),
then 8 triplet/kan categories x 3 bits (count of groups in each category, see :data:`CATEGORIES`).
"""

from __future__ import annotations

import polars as pl

from analyzer.rules import Rules

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

FU_DTYPE = pl.List(pl.Struct({"fu": pl.Int32, "reason": pl.String}))


def _bit(key: pl.Expr, i: int) -> pl.Expr:
    return (key // 2**i) % 2 == 1


def fu_detail(key: pl.Expr, rules: Rules) -> pl.Expr:
    mode = key % 4
    wait = (key // 16) % 8
    std = mode == 0

    def item(cond: pl.Expr, fu: int, reason: str) -> pl.Expr:
        return pl.when(cond).then(pl.struct(fu=pl.lit(fu, pl.Int32), reason=pl.lit(reason)))

    seat, rnd = _bit(key, 8), _bit(key, 9)
    items = [
        item(std, 20, BASE),
        item(mode == 1, 25, CHIITOITSU),
        item(std & _bit(key, 2), 10, MENZEN_RON),
        item(std & _bit(key, 3), 2, TSUMO),
        item(std & (wait == 1), 2, KANCHAN),
        item(std & (wait == 2), 2, PENCHAN),
        item(std & (wait == 3), 2, TANKI),
        item(std & _bit(key, 7), 2, DRAGON_PAIR),
        item(std & seat & rnd, rules.double_wind_pair_fu, DOUBLE_WIND_PAIR),
        item(std & seat & ~rnd, 2, SEAT_WIND_PAIR),
        item(std & rnd & ~seat, 2, ROUND_WIND_PAIR),
    ]
    for c, (reason, fu) in enumerate(CATEGORIES):
        count = (key // (CAT_SHIFT * 8**c)) % 8
        items += [item(std & (count >= j), fu, reason) for j in range(1, 5)]
    items.append(item(std & _bit(key, 10), 10, OPEN_PINFU))
    return pl.concat_list(items).list.drop_nulls().cast(FU_DTYPE)
