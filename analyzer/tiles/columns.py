"""Scratch-column helpers shared by the tile-scoring stages (all scratch columns start with ``P``)."""

from __future__ import annotations

import polars as pl

from analyzer.tiles.tables import lut

P = "__tt_"  # prefix of the scratch columns
# tile_problem codes in the order they are checked; carried as an index into this list (0 = none)
PROBLEMS = ["", "bad_notation", "bad_meld", "tile_count", "fifth_copy", "win_tile_not_in_hand", "not_complete",
            "no_yaku", "removed_in_three_player", "chi_in_three_player"]


def C(name: str) -> pl.Expr:
    return pl.col(P + name)


def I(name: str) -> pl.Expr:  # noqa: E743 - an input column, normalised by features.input_columns
    return pl.col(P + "in_" + name)


def input_flag(name: str) -> pl.Expr:
    """A situation flag's input column (``ippatsu``, ``_is_tsumo``...): False where the input had none."""
    return I(name)


def _bit(x: pl.Expr, i: pl.Expr) -> pl.Expr:
    return (x // lut("POW2", i)) % 2 == 1


def where(cond: pl.Expr, value: int | pl.Expr, dtype: pl.DataType = pl.Int64) -> pl.Expr:
    """``value`` where ``cond`` holds, else 0 (also for a null ``cond``).

    One select pass: ``cond.cast(int) * value`` costs two to four times as much (a Boolean to integer cast
    unpacks bits; on 1M rows a when/then is ~1 ms, the cast and multiply ~2 ms).
    """
    return pl.when(cond).then(value if isinstance(value, pl.Expr) else pl.lit(value, dtype)).otherwise(
        pl.lit(0, dtype))


def any_of(exprs: list[pl.Expr]) -> pl.Expr:
    return pl.any_horizontal(exprs)


# A reading (or any multi-step computation) is a list of stages, dicts of expressions; each stage may use the
# columns of the previous ones.  Materialising the stages keeps the expression trees small.
Stages = list[dict[str, pl.Expr]]


def apply_stages(lf: pl.LazyFrame, prefix: str, stages: Stages) -> pl.LazyFrame:
    """The stages' columns added to ``lf`` one stage at a time, named ``P + prefix + key``."""
    for stage in stages:
        lf = lf.with_columns(**{P + prefix + k: v for k, v in stage.items()})
    return lf
