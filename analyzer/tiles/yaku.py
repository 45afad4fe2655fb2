"""Yaku names, their han (closed / open, kuisagari) and the yaku list built from a bit mask.

A reading's yaku are a bit mask over :data:`YAKU` (plus the open flag and the variable renhou han), so the
``yaku`` output column is built only once per distinct key and joined back.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl

from analyzer.core.rules import Rules
from analyzer.tiles.columns import where

# (name, closed han, open han; 0 = closed only).  Order is the bit index and the order of the output list.
NORMAL: tuple[tuple[str, int, int], ...] = (
    ("riichi", 1, 0),
    ("double_riichi", 2, 0),
    ("ippatsu", 1, 0),
    ("menzen_tsumo", 1, 0),
    ("pinfu", 1, 0),
    ("tanyao", 1, 1),
    ("iipeikou", 1, 0),
    ("ryanpeikou", 3, 0),
    ("haku", 1, 1),
    ("hatsu", 1, 1),
    ("chun", 1, 1),
    ("seat_wind", 1, 1),
    ("round_wind", 1, 1),
    ("sanshoku", 2, 1),
    ("sanshoku_doukou", 2, 2),
    ("ittsu", 2, 1),
    ("chanta", 2, 1),
    ("junchan", 3, 2),
    ("honitsu", 3, 2),
    ("chinitsu", 6, 5),
    ("toitoi", 2, 2),
    ("sanankou", 2, 2),
    ("sankantsu", 2, 2),
    ("honroutou", 2, 2),
    ("shousangen", 2, 2),
    ("chiitoitsu", 2, 0),
    ("haitei", 1, 1),
    ("houtei", 1, 1),
    ("rinshan", 1, 1),
    ("chankan", 1, 1),
    ("renhou", 0, 0),  # renhou = 'mangan': han filled up to 5 (variable, stored in the key)
)
# (name, yakuman count when rules.double_yakuman, else 1)
YAKUMAN: tuple[tuple[str, int], ...] = (
    ("kokushi", 1),
    ("kokushi_13", 2),
    ("suuankou", 1),
    ("suuankou_tanki", 2),
    ("daisangen", 1),
    ("shousuushii", 1),
    ("daisuushii", 2),
    ("tsuuiisou", 1),
    ("ryuuiisou", 1),
    ("chinroutou", 1),
    ("chuuren", 1),
    ("junsei_chuuren", 2),
    ("suukantsu", 1),
    ("tenhou", 1),
    ("chiihou", 1),
    ("renhou_yakuman", 1),  # reported as "renhou"
)
BIT = {name: i for i, (name, _, _) in enumerate(NORMAL)} | {
    name: len(NORMAL) + i for i, (name, _) in enumerate(YAKUMAN)
}
OPEN_BIT = 2**50
RENHOU_UNIT = 2**51

# Aotenjou: a yakuman is a 13-han yaku scored beside the hand's other yaku and dora, except the yaku its completion
# implies (riichi.wiki "Aotenjou": "any yaku that are implied by the completion of a yakuman are not scored. For
# example, a suuankou hand does not score sanankou or toitoi"; its shousuushii + tsuuiisou example still scores
# toitoi, sanankou and the wind yakuhai, which shousuushii does not imply). Implied: what every hand completing
# the yakuman has (daisangen: its three dragon triplets; daisuushii: the seat and round wind triplets, all
# triplets; chinroutou: all triplets, no seven pairs of six terminals; chuuren: one suit; a suuankou that is not
# a single wait is only complete by a tsumo; tenhou and chiihou are tsumo wins of a closed hand).
IMPLIED: dict[str, tuple[str, ...]] = {
    "daisangen": ("haku", "hatsu", "chun", "shousangen"),
    "daisuushii": ("seat_wind", "round_wind", "toitoi"),
    "suuankou": ("toitoi", "sanankou", "menzen_tsumo"),
    "suuankou_tanki": ("toitoi", "sanankou"),
    "suukantsu": ("toitoi", "sankantsu"),
    "chinroutou": ("toitoi", "honroutou"),
    "tsuuiisou": ("honroutou",),
    "chuuren": ("chinitsu",),
    "junsei_chuuren": ("chinitsu",),
    "tenhou": ("menzen_tsumo",),
    "chiihou": ("menzen_tsumo",),
}


def shown_name(name: str) -> str:
    """The name a yaku is listed under (renhou as a yakuman is listed as renhou)."""
    return "renhou" if name == "renhou_yakuman" else name


YAKU_NAMES = pl.Enum(list(dict.fromkeys(shown_name(n) for n in BIT)))
YAKU_DTYPE = pl.List(pl.Struct({"name": YAKU_NAMES, "han": pl.Int32}))


def yakuman_count(name: str, rules: Rules) -> int:
    return dict(YAKUMAN)[name] if rules.double_yakuman else 1


HAN_CHUNK = 11  # bits per han lookup (the normal yaku take bits 0..30: three lookups)


@cache
def _han_luts() -> list[pl.Series]:
    """Per 11-bit chunk of the normal yaku bits: the han when open (entries 0..2047), then when closed."""
    bits = np.arange(2**HAN_CHUNK)
    out = []
    for j in range(3):
        open_han, closed_han = np.zeros(2**HAN_CHUNK, np.int64), np.zeros(2**HAN_CHUNK, np.int64)
        for bit, (_, closed, opened) in enumerate(NORMAL[j * HAN_CHUNK:(j + 1) * HAN_CHUNK]):
            has = (bits >> bit) & 1
            closed_han += has * closed
            open_han += has * opened
        out.append(pl.Series(np.concatenate([open_han, closed_han])))
    return out


@cache
def _yakuman_lut(double: bool) -> pl.Series:
    values = np.zeros(2 ** len(YAKUMAN), np.int64)
    for i, (_, count) in enumerate(YAKUMAN):
        values[(np.arange(2 ** len(YAKUMAN)) >> i) & 1 == 1] += count if double else 1
    return pl.Series(values)


@cache
def _implied_lut() -> pl.Series:
    """Per yakuman mask (the yakuman bits shifted down): the mask of the normal yaku those yakuman imply."""
    ym = np.arange(2 ** len(YAKUMAN), dtype=np.int64)
    out = np.zeros(2 ** len(YAKUMAN), np.int64)
    for name, implied in IMPLIED.items():
        has = ((ym >> (BIT[name] - len(NORMAL))) & 1) == 1
        out[has] |= sum(2 ** BIT[n] for n in implied)
    return pl.Series(out)


def without_implied(ymask: pl.Expr, ymmask: pl.Expr) -> pl.Expr:
    """The normal yaku of ``ymask`` that the yakuman of ``ymmask`` do not imply (aotenjou; see IMPLIED)."""
    implied = pl.lit(_implied_lut()).gather((ymmask // 2 ** len(NORMAL)) % 2 ** len(YAKUMAN))
    return ymask - ymask.and_(implied)


def han_from_mask(ymask: pl.Expr, closed: pl.Expr) -> pl.Expr:
    """Han of the normal yaku of a mask (kuisagari applied) by three table lookups."""
    offset = where(closed, 2**HAN_CHUNK)
    return sum(pl.lit(lut).gather(((ymask // 2 ** (HAN_CHUNK * j)) & (2**HAN_CHUNK - 1)) + offset)
               for j, lut in enumerate(_han_luts()))


def yakuman_from_mask(ymmask: pl.Expr, rules: Rules) -> pl.Expr:
    """Number of yakuman of a yakuman mask (double ones count 2 when rules.double_yakuman)."""
    idx = (ymmask // 2 ** len(NORMAL)) % 2 ** len(YAKUMAN)
    return pl.lit(_yakuman_lut(rules.double_yakuman)).gather(idx)


def mask(present: dict[str, pl.Expr]) -> pl.Expr:
    """The bit mask of the yaku that are present.  Built in Int32 (a third of the cost of Int64 terms) from the
    lowest bit present, then widened and moved up to it."""
    low = min((BIT[n] for n in present), default=0)
    assert all(BIT[n] - low < 31 for n in present)
    terms = _sum([where(e, 2 ** (BIT[n] - low), pl.Int32) for n, e in present.items()]).cast(pl.Int64)
    return terms * 2**low if low else terms


def _sum(exprs: list[pl.Expr]) -> pl.Expr:
    return pl.sum_horizontal(exprs) if exprs else pl.lit(0, pl.Int64)


def yaku_lists(keys: pl.LazyFrame, key: str, rules: Rules) -> pl.LazyFrame:
    """(key, yaku) for distinct keys = mask + OPEN_BIT*open + RENHOU_UNIT*renhou_han.

    Built by a cross join of the (few thousand) distinct keys with the yaku table, so no per-key Python.
    """
    names, bits, closed_han, open_han = [], [], [], []
    for name, c, o in NORMAL:
        names.append(name), bits.append(BIT[name]), closed_han.append(c), open_han.append(o)
    for name, _ in YAKUMAN:
        han = 13 * yakuman_count(name, rules)
        names.append(shown_name(name))
        bits.append(BIT[name]), closed_han.append(han), open_han.append(han)
    table = pl.LazyFrame(
        {"__name": names, "__bit": bits, "__closed": closed_han, "__open": open_han},
        schema={"__name": YAKU_NAMES, "__bit": pl.Int64, "__closed": pl.Int32, "__open": pl.Int32},
    )
    k = pl.col(key)
    han = (
        pl.when(pl.col("__bit") == BIT["renhou"]).then((k // RENHOU_UNIT).cast(pl.Int32))
        .when((k // OPEN_BIT) % 2 == 1).then(pl.col("__open"))
        .otherwise(pl.col("__closed"))
    )
    items = (
        keys.join(table, how="cross")
        .filter((k // pl.lit(2, pl.Int64).pow(pl.col("__bit"))) % 2 == 1)
        .with_columns(__han=han)
        .group_by(key)
        .agg(pl.struct(name=pl.col("__name"), han=pl.col("__han")).sort_by("__bit").alias("yaku"))
    )
    return keys.join(items, on=key, how="left").with_columns(
        pl.col("yaku").fill_null(pl.lit([], dtype=YAKU_DTYPE)).cast(YAKU_DTYPE)
    )
