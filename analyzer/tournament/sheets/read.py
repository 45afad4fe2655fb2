"""A game-level sheet's cells read into typed columns, and the reasons a row cannot be used.

Every cell is read from its text, or as it is where a Parquet file or a frame types it (a whole number column
is not read through text). Adds:

================== ==========================================================================================
game_id, player    stripped text
_final             ``final_score`` as a whole number (the scores on the table at the end, before leftover
                   sticks are handed out)
_seat_given        ``seat`` as 0-3 (``0``-``3`` or ``E``/``S``/``W``/``N``, any case); null when empty
_chombo            ``chombo`` count (empty: 0); ``_penalty`` points taken off (empty: 0)
_sticks            ``leftover_sticks`` (riichi sticks left on the table at the end), null when empty
_recorded_place,   the recorded values, null when empty or unreadable
_recorded_points
_unreadable_…      the text of an unreadable recorded value (:data:`UNREADABLE`), null when it was read
session, table,    text, null when empty
team
================== ==========================================================================================

A row with a bad cell (:data:`CELLS`: a value the game is settled from) is rejected (:data:`R_SHEET_VALUE`): its
reason names the first bad column, and lists every bad cell of the row. The recorded values
(:data:`COMPARED`) are only compared with the computed ones, never used: one that cannot be read leaves its row
scored, and ``check`` reports it (:mod:`analyzer.findings.sheets`).
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from analyzer.io.columns import SHEET_COLUMNS
from analyzer.io.load import as_text
from analyzer.io.wide import WIDE_INDEX, WIDE_WIND, wide_column
from analyzer.scoring.rejects import REJECT, reason, when
from analyzer.core.rules import MAX_POINTS
from analyzer.core.schema import WINDS
from analyzer.scoring.validate import R_GAME_ID, parse_int

MAX_COUNT = 100  # chombo and leftover sticks: beyond this no sheet is real
TEXT_LABELS = ["session", "table", "team"]
# column -> (typed column, what a good value is)
CELLS = {
    "final_score": ("_final", f"final_score must be a whole number of points from -{MAX_POINTS:,} to {MAX_POINTS:,}"),
    "player": ("player", "missing player name"),
    "seat": ("_seat_given", "seat must be 0-3 or E, S, W, N"),
    "chombo": ("_chombo", f"chombo must be a whole number from 0 to {MAX_COUNT}"),
    "penalty": ("_penalty", f"penalty must be a number of points from -{MAX_POINTS:,} to {MAX_POINTS:,}"),
    "leftover_sticks": ("_sticks", f"leftover_sticks must be a whole number from 0 to {MAX_COUNT}"),
}
# Columns only compared with what is computed, never used to settle a game (the same form): an unreadable value
# is kept as text under UNREADABLE's name, for its finding, and its typed value is null; the row is scored.
COMPARED = {
    "recorded_place": ("_recorded_place", "recorded_place must be a whole number from 1 to 4"),
    "recorded_points": ("_recorded_points", "recorded_points must be a number"),
}
UNREADABLE = {c: f"_unreadable_{c}" for c in COMPARED}
# The first bad cell of the row names the column (a wide sheet's own: ``final_score_2``) and its value; the
# reason lists every bad cell.
R_SHEET_VALUE = reason(wide_column(pl.col("_bad_column")), pl.col("_bad_value"), pl.col("_bad_reason"))


def _blank(text: pl.Expr) -> pl.Expr:
    return text.is_null() | (text == "")


def whole_number(name: str, dtype: pl.DataType) -> pl.Expr:
    """A column of whole numbers as Int64 (null where it is empty or not one): integers as they are, floats
    when whole, text parsed exactly ('3' or '3.0')."""
    col = pl.col(name)
    if dtype.is_integer():
        return col.cast(pl.Int64, strict=False)
    if dtype.is_float():
        return pl.when(col.is_finite() & (col == col.round()) & (col.abs() < 2.0 ** 62)).then(col).cast(pl.Int64)
    return parse_int(as_text(col, dtype).str.strip_chars())


def number(name: str, dtype: pl.DataType) -> pl.Expr:
    """A column of numbers (points: ``-2``, ``1.5``) as Float64, null where it is empty or not a finite number."""
    col = pl.col(name)
    value = col.cast(pl.Float64, strict=False) if dtype.is_numeric() else (
        as_text(col, dtype).str.strip_chars().cast(pl.Float64, strict=False))
    return pl.when(value.is_finite()).then(value)


def seat_number(name: str, dtype: pl.DataType) -> pl.Expr:
    """``seat`` as 0-3: a number, or a wind (E, S, W, N, or the word, any case); -1 when it is neither."""
    if dtype.is_integer():
        return pl.when(pl.col(name).is_between(0, 3)).then(pl.col(name).cast(pl.Int64)).otherwise(
            pl.when(pl.col(name).is_not_null()).then(-1))
    text = as_text(pl.col(name), dtype).str.strip_chars().str.to_uppercase()
    words = ["EAST", "SOUTH", "WEST", "NORTH"]
    keys = [*map(str, range(4)), *[f"{s}.0" for s in range(4)], *WINDS, *words]
    seats = [*range(4), *range(4), *range(4), *range(4)]
    return pl.when(_blank(text)).then(None).otherwise(
        text.replace_strict(keys, seats, default=-1, return_dtype=pl.Int64))


def _given(name: str, dtype: pl.DataType) -> pl.Expr:
    """The cell holds something (not null, and not blank text)."""
    if dtype == pl.String:
        return ~_blank(pl.col(name).str.strip_chars())
    return pl.col(name).is_not_null()


def read_sheet(rows: pl.DataFrame) -> pl.DataFrame:
    """The sheet's rows with typed columns (see the module doc) and ``_reject`` bits for bad cells.

    The text of the cells, and the reasons built from it, are made only when some cell is bad: a clean sheet of
    whole-number columns is never written out as text."""
    missing = [c for c in [*SHEET_COLUMNS, "rules", "players"] if c not in rows.columns]
    rows = rows.with_columns(pl.lit(None, pl.String).alias(c) for c in missing)
    rows = rows.with_columns(pl.lit(None, t).alias(c) for c, t in ((WIDE_INDEX, pl.Int64), (WIDE_WIND, pl.String))
                             if c not in rows.columns)
    schema = rows.schema

    def text(name: str) -> pl.Expr:
        return as_text(pl.col(name), schema[name]).str.strip_chars()

    typed = rows.with_columns(
        text("game_id").alias("game_id"),
        text("player").alias("player"),
        whole_number("final_score", schema["final_score"]).alias("_final"),
        seat_number("seat", schema["seat"]).alias("_seat_given"),
        whole_number("chombo", schema["chombo"]).alias("_chombo"),
        number("penalty", schema["penalty"]).alias("_penalty"),
        whole_number("leftover_sticks", schema["leftover_sticks"]).alias("_sticks"),
        whole_number("recorded_place", schema["recorded_place"]).alias("_recorded_place"),
        number("recorded_points", schema["recorded_points"]).alias("_recorded_points"),
        *[text(c).replace("", None).alias(c) for c in TEXT_LABELS],
    )
    given = {c: _given(c, schema[c]) for c in CELLS if c != "player"}
    bad = {
        "final_score": pl.col("_final").is_null() | (pl.col("_final").abs() > MAX_POINTS),
        "player": _blank(pl.col("player")),
        "seat": pl.col("_seat_given") == -1,
        "chombo": given["chombo"] & ~pl.col("_chombo").is_between(0, MAX_COUNT).fill_null(False),
        "penalty": given["penalty"] & ~(pl.col("_penalty").abs() <= MAX_POINTS).fill_null(False),
        "leftover_sticks": given["leftover_sticks"] & ~pl.col("_sticks").is_between(0, MAX_COUNT).fill_null(False),
    }
    unreadable = {
        "recorded_place": _given("recorded_place", schema["recorded_place"])
        & ~pl.col("_recorded_place").is_between(1, 4).fill_null(False),
        "recorded_points": _given("recorded_points", schema["recorded_points"]) & pl.col("_recorded_points").is_null(),
    }
    typed = typed.with_columns(e.fill_null(False).alias(f"_bad_{c}") for c, e in bad.items())
    typed = _unreadable(typed, {c: e.fill_null(False) for c, e in unreadable.items()}, text)
    flags = {c: pl.col(f"_bad_{c}") for c in CELLS}
    any_bad = pl.any_horizontal(flags.values())
    if typed.select(any_bad.any()).item():
        typed = typed.with_columns(_reasons(flags, {c: pl.col("player") if c == "player" else text(c) for c in CELLS}))
    else:
        typed = typed.with_columns(pl.lit(None, pl.String).alias(c) for c in ("_bad_column", "_bad_value",
                                                                             "_bad_reason"))
    return typed.with_columns(
        (when(_blank(pl.col("game_id")), R_GAME_ID) + when(any_bad, R_SHEET_VALUE)).alias(REJECT),
        pl.col("_chombo").fill_null(0),
        pl.col("_penalty").fill_null(0.0),
        pl.when(pl.col("_seat_given") >= 0).then(pl.col("_seat_given")).alias("_seat_given"),
    ).drop(*[f"_bad_{c}" for c in CELLS])


def _unreadable(typed: pl.DataFrame, flags: dict[str, pl.Expr], text: Callable[[str], pl.Expr]) -> pl.DataFrame:
    """The recorded values that cannot be read: their text kept (:data:`UNREADABLE`), their typed value null.
    Made text only when there is one."""
    if not typed.select(pl.any_horizontal(flags.values()).any()).item():
        return typed.with_columns(pl.lit(None, pl.String).alias(name) for name in UNREADABLE.values())
    return typed.with_columns(
        *[pl.when(flags[c]).then(text(c)).alias(UNREADABLE[c]) for c in COMPARED],
        *[pl.when(~flags[c]).then(pl.col(typed_name)).alias(typed_name) for c, (typed_name, _) in COMPARED.items()],
    )


def _reasons(flags: dict[str, pl.Expr], texts: dict[str, pl.Expr]) -> list[pl.Expr]:
    """``_bad_column`` and ``_bad_value`` of the first bad cell of each row, ``_bad_reason`` of them all."""

    def first_bad(values: dict[str, pl.Expr]) -> pl.Expr:
        chain = pl.when(flags["final_score"]).then(values["final_score"])
        for c in list(CELLS)[1:]:
            chain = chain.when(flags[c]).then(values[c])
        return chain

    return [
        first_bad({c: pl.lit(c) for c in CELLS}).alias("_bad_column"),
        first_bad(texts).alias("_bad_value"),
        pl.concat_str([pl.when(flags[c]).then(pl.lit(why)) for c, (_, why) in CELLS.items()], separator="; ",
                      ignore_nulls=True).alias("_bad_reason"),
    ]
