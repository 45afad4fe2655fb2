"""Helpers for the tile-scoring tests: score a few hands given as keyword dicts.

(Not a conftest.py: tests/conftest.py is imported as ``conftest`` by the other suites.)
"""

from __future__ import annotations

import polars as pl

from analyzer.scoring.points import base_points, hand_points
from analyzer.core.rules import Rules
from analyzer.tiles import score_tiles

FLAGS = ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou")


def make_frame(cases: list[dict]) -> pl.DataFrame:
    rows = []
    for c in cases:
        melds = c.get("melds")
        rows.append(
            {
                "hand": c["hand"],
                "melds": melds.split() if isinstance(melds, str) else melds,
                "win_tile": c["win"],
                "dora": c.get("dora"),
                "ura": c.get("ura"),
                **{f: c.get(f) for f in FLAGS},
                "_is_tsumo": c.get("tsumo", False),
                "_is_riichi": c.get("riichi", False),
                "_seat_wind": c.get("seat", 1),
                "_round_wind": c.get("round", 0),
                "_winner_is_dealer": c.get("dealer", c.get("seat", 1) == 0),
                "keep": c.get("keep", "x"),
            }
        )
    schema = {
        "hand": pl.String, "melds": pl.List(pl.String), "win_tile": pl.String, "dora": pl.String,
        "ura": pl.String, **{f: pl.Boolean for f in FLAGS}, "_is_tsumo": pl.Boolean, "_is_riichi": pl.Boolean,
        "_seat_wind": pl.Int64, "_round_wind": pl.Int64, "_winner_is_dealer": pl.Boolean, "keep": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def score_frame(cases: list[dict], rules: Rules | None = None) -> pl.DataFrame:
    rules = rules or Rules()
    out = score_tiles(make_frame(cases).lazy(), rules)
    base = base_points(pl.col("han").fill_null(0), pl.col("fu").fill_null(0), pl.col("yakuman"), rules)
    return out.with_columns(points=hand_points(base, pl.col("_winner_is_dealer"), pl.col("_is_tsumo"))).collect()


def score(rules: Rules | None = None, **case) -> dict:
    return score_frame([case], rules).row(0, named=True)


def yaku_of(row: dict) -> dict[str, int]:
    return {y["name"]: y["han"] for y in row["yaku"] or []}
