"""Reject reasons as bits: one Int64 mask per row while scoring, expanded to readable rows only for rejects.

Every reason a row can be rejected for is registered once, at import, with the column it names, the value it
shows and its text (:func:`reason`). Stages add bits to ``_reject`` (:func:`add_bits`); a row is scored when
``_reject == 0``. :func:`rejects_of` turns the set bits of the rejected rows into the ``rejects`` table:
``file, row, line, log_file, log_row, game_id, column, value, reason``, one line per reason (``line``: the line
a spreadsheet shows a CSV file's row on, :func:`spreadsheet_line`).

Building a list of reason structs for every row costs seconds per million rows; a mask costs an addition, and
the readable form is built for the few rows that need it.

A reason whose text names something of its row (``an exact copy of row 12 of hands.csv``) is registered with the
*kind* it is (:func:`reason_kind`), so that a summary counts 24 copies as one reason with one example
(:func:`reasons_summary`), not as 24 reasons.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analyzer.core.schema import log_columns
from analyzer.io.wide import MAX_SEATS, SEAT_FIELDS, index_column, wind_column

REJECT = "_reject"
# a wide sheet's seat columns, each with the long form's column it holds (player_2 and west: player)
SEAT_COLUMNS = {name(field, seat): field for field in SEAT_FIELDS for seat in range(MAX_SEATS)
                for name in (index_column, wind_column)}


@dataclass(frozen=True)
class RejectReason:
    column: str | pl.Expr  # an expression where one reason covers several columns (a game-level sheet's cells)
    value: pl.Expr
    text: pl.Expr


REASONS: list[RejectReason] = []


@dataclass(frozen=True)
class ReasonKind:
    """The texts of one kind of reason: those ``pattern`` (a regex) matches. ``text`` says the kind,
    ``example`` (a replacement template of the pattern's groups, ``${1}``) the part that varies, and
    ``column`` whether the summary names the reject's column (not where ``text`` leads with a code of its own)."""

    pattern: str
    text: str
    example: str = "${0}"
    column: bool = True


KINDS: list[ReasonKind] = []


def reason_kind(pattern: str, text: str, example: str = "${0}", column: bool = True) -> None:
    """Register a kind of reason whose texts vary by row (see :class:`ReasonKind`)."""
    KINDS.append(ReasonKind(pattern, text, example, column))


def reason(column: str | pl.Expr, value: pl.Expr, text: str | pl.Expr) -> int:
    """Register a reason; returns its bit. ``value`` and ``text`` (and ``column``, when an expression) are read
    from the rejected row."""
    if len(REASONS) >= 63:
        raise RuntimeError("more than 63 reject reasons do not fit an Int64 mask")
    REASONS.append(RejectReason(column, value.cast(pl.String), pl.lit(text) if isinstance(text, str) else text))
    return 1 << (len(REASONS) - 1)


def when(condition: pl.Expr, bit: int) -> pl.Expr:
    """``bit`` where ``condition`` holds (null counts as false), else 0."""
    return pl.when(condition.fill_null(False)).then(pl.lit(bit, pl.Int64)).otherwise(pl.lit(0, pl.Int64))


def bits(terms: list[pl.Expr]) -> pl.Expr:
    """The mask of several :func:`when` terms (distinct bits, so a sum is their union)."""
    return pl.sum_horizontal(terms) if terms else pl.lit(0, pl.Int64)


def add_bits(terms: list[pl.Expr]) -> pl.Expr:
    """``_reject`` with more bits set (as an expression naming ``_reject``)."""
    return pl.col(REJECT).or_(bits(terms)).alias(REJECT)


def is_clean() -> pl.Expr:
    return pl.col(REJECT) == 0


# the files whose rows are lines of text under a header line (analyzer.io.files: CSV, by suffix)
_TEXT_FILE = r"(?i)\.(csv|tsv)$"


def spreadsheet_line(file: pl.Expr, row: pl.Expr) -> pl.Expr:
    """The line a spreadsheet shows data row ``row`` of a CSV file on: the header is line 1, so ``row + 1``
    (a quoted cell holding a line break is still one row of the sheet); null for other files (Parquet, a frame),
    which have no lines."""
    return pl.when(file.str.contains(_TEXT_FILE)).then(row + 1).otherwise(None).cast(pl.Int64)


def rejects_of(lf: pl.LazyFrame, keep_order: bool = False) -> pl.LazyFrame:
    """One row per reason of every rejected row: file, row, line, game_id, column, value, reason (input order).

    ``keep_order`` keeps the ``_pos`` and ``_bit`` sort keys, to sort the rejects of several partitions.
    """
    names = set(lf.collect_schema().names())
    rejected = lf.filter(pl.col(REJECT) != 0)
    frames = []
    for index, item in enumerate(REASONS):
        column = pl.lit(item.column) if isinstance(item.column, str) else item.column.cast(pl.String)
        needed = {n for e in (item.value, item.text, column) for n in e.meta.root_names()}
        if not needed <= names:  # the stage that sets this bit did not run on this frame
            continue
        frames.append(
            rejected.filter(pl.col(REJECT).and_(1 << index) != 0).select(
                pl.col("_file").alias("file"),
                pl.col("_row").alias("row"),
                spreadsheet_line(pl.col("_file"), pl.col("_row")).alias("line"),
                *log_columns(list(names)),
                pl.col("game_id"),
                column.alias("column"),
                item.value.alias("value"),
                item.text.alias("reason"),
                "_pos",
                pl.lit(index, pl.Int64).alias("_bit"),
            )
        )
    keys = {"_pos": pl.Int64, "_bit": pl.Int64} if keep_order else {}
    if not frames:
        return pl.LazyFrame(schema={**REJECTS_SCHEMA, **keys})
    ordered = pl.concat(frames).sort("_pos", "column", "_bit")
    return ordered.select(*REJECTS_SCHEMA, *keys)


REJECTS_SCHEMA = {
    "file": pl.String, "row": pl.Int64, "line": pl.Int64, "log_file": pl.String, "log_row": pl.Int64, "game_id": pl.String,
    "column": pl.String, "value": pl.String, "reason": pl.String,
}


def reasons_summary(rejects: pl.DataFrame) -> pl.DataFrame:
    """The rejects per kind of reason, most first: ``column``, ``reason``, ``rows`` and ``example``. A reason of
    a registered kind (:func:`reason_kind`) is counted under the kind's text, with the varying part of its
    first reject as the example (``24``, ``duplicate_row: an exact copy of an earlier row``, ``row 1 of
    hands.csv``); any other reason under its own text (no example). A row rejected for two reasons counts under
    each. A reason given on several seats' columns of one row (a table's, on each seat of a wide sheet's row:
    ``player_0`` … ``player_3``, ``east`` … ``north``) is counted once, under the long form's column (``player``), as
    a long sheet's rows are. One row per kind: small, whatever the number of rejects."""
    schema = {"column": pl.String, "reason": pl.String, "rows": pl.Int64, "example": pl.String}
    if rejects.height == 0:
        return pl.DataFrame(schema=schema)
    text, example, column = pl.col("reason"), pl.lit(None, pl.String), pl.col("column")
    for kind in reversed(KINDS):  # the first registered kind that matches wins
        matches = pl.col("reason").str.contains(kind.pattern)
        text = pl.when(matches).then(pl.lit(kind.text)).otherwise(text)
        example = pl.when(matches).then(pl.col("reason").str.replace(kind.pattern, kind.example)).otherwise(example)
        if not kind.column:
            column = pl.when(matches).then(pl.lit(None, pl.String)).otherwise(column)
    field = pl.col("_column").replace(SEAT_COLUMNS)  # player_2, west: player
    several = pl.col("_column").n_unique().over("file", "row", "_text", "_example", field) > 1
    return (
        rejects.with_columns(column.alias("_column"), text.alias("_text"), example.alias("_example"))
        .with_columns(pl.when(several).then(field).otherwise(pl.col("_column")).alias("_column"))
        .group_by("_column", "_text", maintain_order=True)
        .agg(pl.struct("file", "row").n_unique().cast(pl.Int64).alias("rows"), pl.col("_example").first())
        .select(pl.col("_column").alias("column"), pl.col("_text").alias("reason"), "rows",
                pl.col("_example").alias("example"))
        .sort(["rows", "column", "reason"], descending=[True, False, False], nulls_last=True, maintain_order=True)
        .cast(schema)
    )
