"""Findings on a hand's worth and its payments: recorded han, fu, yakuman, points, limit, yaku, dora and each
seat's score change against the computed ones, and han/fu pairs no hand can have."""

from __future__ import annotations

import polars as pl

from analyzer.findings.base import WIN, as_int, finding
from analyzer.core.rules import Rules
from analyzer.core.schema import DELTA_COLUMNS, SEATS
from analyzer.scoring.points import base_points, hand_points
from analyzer.core.text import format_text


def _yaku_names(column: str) -> pl.Expr:
    return pl.col(column).list.eval(pl.element().struct.field("name").cast(pl.String)).list.sort()


def _yaku_difference() -> pl.Expr:
    """'computed adds X, Y; record has Z' from the computed yaku and ``recorded_yaku``."""
    computed, recorded = _yaku_names("yaku"), pl.col("recorded_yaku").cast(pl.List(pl.String)).list.sort()
    extra = computed.list.set_difference(recorded).list.join(", ")
    missing = recorded.list.set_difference(computed).list.join(", ")
    return pl.concat_str(
        pl.when(extra != "").then(pl.lit("computed adds ") + extra),
        pl.when(missing != "").then(pl.lit("record has ") + missing),
        separator="; ",
        ignore_nulls=True,
    ).replace("", "same yaku (dora or han values differ)")


def _fu_items() -> pl.Expr:
    item = (pl.element().struct.field("reason").cast(pl.String) + pl.lit(" ")
            + pl.element().struct.field("fu").cast(pl.String))
    return pl.lit("computed: ") + pl.col("fu_detail").list.eval(item).list.join(", ")


# field -> (recorded column, computed column, how it is explained)
VALUE_FIELDS: dict[str, tuple[str, str, str]] = {
    "han": ("recorded_han", "han", "yaku"),
    "fu": ("recorded_fu", "fu", "fu"),
    "yakuman": ("recorded_yakuman", "yakuman", "yaku"),
    "points": ("recorded_points", "points", "value"),
    "limit": ("recorded_limit", "limit", "value"),
    "yaku": ("recorded_yaku", "yaku", "yaku"),
    "dora": ("recorded_dora", "dora_count", "indicators"),
    "ura_dora": ("recorded_ura_dora", "ura_dora", "indicators"),
    "aka_dora": ("recorded_aka_dora", "aka_dora", "red fives"),
    "given_han": ("given_han", "han", "yaku"),
    "given_fu": ("given_fu", "fu", "fu"),
    "given_yakuman": ("given_yakuman", "yakuman", "yaku"),
}


def value_findings(hands: pl.LazyFrame, names: list[str]) -> list[pl.LazyFrame]:
    out = []
    has_tiles = "yaku" in names
    for field, (recorded_col, computed_col, why) in VALUE_FIELDS.items():
        if recorded_col not in names or computed_col not in names:
            continue
        if field == "yaku":
            recorded = pl.col(recorded_col).cast(pl.List(pl.String)).list.sort()
            computed = _yaku_names("yaku")
            differs = recorded.is_not_null() & pl.col("yaku").is_not_null() & (recorded != computed)
            recorded, computed = recorded.list.join(", "), computed.list.join(", ")
        elif field == "limit":
            recorded, computed = pl.col(recorded_col), pl.col(computed_col)
            label = _limit_label(recorded, computed)
            differs = pl.col("recorded_points").is_not_null() & recorded.ne_missing(label) if (
                "recorded_points" in names
            ) else recorded.is_not_null() & (recorded != label)
        else:
            recorded, computed = as_int(recorded_col), pl.col(computed_col)
            differs = recorded.is_not_null() & computed.is_not_null() & (recorded != computed)
            if field in ("han", "fu", "given_han", "given_fu"):
                # a yakuman hand's han/fu are not what it is paid by
                differs = differs & (pl.col("yakuman").fill_null(0) == 0)
        explanation = {
            "yaku": _yaku_difference() if has_tiles and "recorded_yaku" in names else pl.lit("tiles give other yaku"),
            "fu": _fu_items() if "fu_detail" in names else pl.lit("other fu"),
            "value": format_text("computed from {} han {} fu, {} yakuman", "han", "fu", pl.col("yakuman").fill_null(0)),
            "indicators": format_text("indicators dora {} ura {}", _text_or_dash("dora"), _text_or_dash("ura"))
            if "dora" in names and "ura" in names else pl.lit("other dora count"),
            "red fives": pl.lit("red fives (0) in the hand and melds"),
        }[why]
        out.append(finding(hands, WIN & differs, field, "value", recorded, computed, explanation))
    return out


def _limit_label(recorded: pl.Expr, computed: pl.Expr) -> pl.Expr:
    """The computed limit as a log that names every yakuman hand ``yakuman`` labels it: Tenhou writes 役満 for a
    double or triple yakuman and for a kazoe yakuman alike and pays the multiple, so ``3x yakuman`` and
    ``kazoe yakuman`` read ``yakuman`` there; the multiple is compared by its count (``yakuman``) and its
    ``points``, a kazoe by its ``han``."""
    return pl.when((recorded == "yakuman") & computed.str.ends_with(" yakuman")).then(recorded).otherwise(computed)


def _text_or_dash(name: str) -> pl.Expr:
    return pl.col(name).cast(pl.String).fill_null("-")


def delta_findings(hands: pl.LazyFrame, names: list[str]) -> list[pl.LazyFrame]:
    out = []
    for s in SEATS:
        recorded_col = f"recorded_delta_{s}"
        if recorded_col not in names:
            continue
        recorded, computed = as_int(recorded_col), pl.col(DELTA_COLUMNS[s])
        explanation = format_text(
            "{} by seat {}: hand {} points, honba {}, sticks {}",
            "result", pl.col("_winner").cast(pl.String).fill_null("-"), pl.col("points").fill_null(0),
            "replayed_honba", "kyotaku",
        )
        out.append(finding(hands, recorded.is_not_null() & (recorded != computed), f"delta_{s}", "payment",
                            recorded, computed, explanation, seat=s))
    return out


def plausibility_findings(hands: pl.LazyFrame, names: list[str], rules: Rules) -> list[pl.LazyFrame]:
    """A recorded han/fu pair some hand can have, and recorded points that follow from it."""
    if "recorded_han" not in names or "recorded_fu" not in names:
        return []
    han, fu = as_int("recorded_han"), as_int("recorded_fu")
    yakuman = as_int("recorded_yakuman").fill_null(0) if "recorded_yakuman" in names else pl.lit(0)
    ron = pl.col("result") == "ron"
    possible_fu = fu.is_in([20, 25, *range(30, 120, 10)])
    impossible = (
        pl.when(han < 1).then(pl.lit("a winning hand has at least 1 han"))
        .when(fu.is_not_null() & ~possible_fu).then(pl.lit("fu is 20, 25 or a multiple of 10 up to 110"))
        .when((fu == 25) & (han < 2)).then(pl.lit("25 fu is chiitoitsu, at least 2 han"))
        .when((fu == 20) & ron).then(pl.lit("20 fu only for a closed tsumo (pinfu); a ron has 30"))
        .when((fu == 20) & (han < 2)).then(pl.lit("20 fu is pinfu tsumo, at least 2 han"))
    )
    out = [
        finding(hands, WIN & (yakuman == 0) & han.is_not_null() & impossible.is_not_null(), "han_fu",
                 "plausibility", format_text("{} han {} fu", han, fu), pl.lit(None, pl.String), impossible)
    ]
    if "recorded_points" in names:
        value = hand_points(base_points(han, fu, yakuman, rules), pl.col("_winner") == pl.col("dealer"),
                            pl.col("result") == "tsumo", rules)
        out.append(
            finding(hands, WIN & as_int("recorded_points").is_not_null() & (han.is_not_null() | (yakuman > 0))
                     & impossible.is_null() & (value != as_int("recorded_points")), "points_from_han_fu",
                     "plausibility", as_int("recorded_points"), value,
                     format_text("the record's own {} han {} fu {} yakuman pay this", han, fu, yakuman))
        )
    return out
