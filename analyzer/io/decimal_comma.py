"""Decimal commas in semicolon-separated CSV files: what Excel writes in a European locale (``2,0``, ``18,2``).

A semicolon-separated file is the only kind where a comma cannot separate fields, and where Excel writes it as
the decimal mark. There:

* a value of a number column analyzer reads (:data:`NUMBER_FIELDS`: ``honba``, ``han``, ``final_score``,
  ``penalty``, ``recorded_points``, …; a wide sheet's per-seat ones, ``penalty_2``, ``west_score``) that is
  digits, one comma and digits (``-1,5``) is read with a decimal point (``-1.5``): :func:`decimal_points`;
* any other column that Polars reads as text, and as numbers once it reads decimal commas (every value
  ``-1,5`` or whole), is Float64 (:func:`comma_number_columns`, :func:`as_numbers`); a column of decimal
  points is read as it always was.

Lists of players (``riichi``: ``1,2`` is seats 1 and 2) and every other text are left as they are. A comma- or
tab-separated file is read as it always was: a quoted ``"2,0"`` there is not a number.

:func:`decimal_comma_columns` says which columns of a file hold decimal commas, for the one line the run says
about it before it starts.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analyzer.io.csv_text import csv_source
from analyzer.io.wide import wide_layout

# The columns analyzer reads a number from (as text): hand records' and game-level sheets'.
NUMBER_FIELDS = frozenset({
    "honba", "han", "fu", "yakuman", "kyotaku", "kita", "players",
    "final_score", "chombo", "penalty", "leftover_sticks", "recorded_place", "recorded_points",
})
DECIMAL_COMMA = r"^(\s*[+-]?\d*),(\d+\s*)$"
SEPARATOR = ";"


def reads_decimal_commas(separator: str) -> bool:
    """Whether a CSV file of this separator has its decimal commas read (a semicolon-separated one)."""
    return separator == SEPARATOR


def number_columns(names: list[str]) -> list[str]:
    """The columns of ``names`` (as read: lower case where known) that analyzer reads numbers from, a wide
    sheet's per-seat ones included."""
    layout = wide_layout(names)
    per_seat = {c for (field, _), c in layout.columns.items() if field in NUMBER_FIELDS} if layout else set()
    return [n for n in names if n in NUMBER_FIELDS or n in per_seat]


def decimal_points(lf: pl.LazyFrame) -> pl.LazyFrame:
    """``lf`` (a semicolon-separated file's columns, as read) with the decimal commas of its number columns
    read as decimal points: ``2,0`` is ``2.0``; any other text as it is."""
    schema = lf.collect_schema()
    columns = [n for n in number_columns(schema.names()) if schema[n] == pl.String]
    return lf.with_columns(pl.col(columns).str.replace(DECIMAL_COMMA, "${1}.${2}")) if columns else lf


def comma_number_columns(source: str | Path | bytes, schema: pl.Schema, text: dict[str, pl.DataType]) -> list[str]:
    """The columns of a semicolon-separated file (``source``, its columns inferred as ``schema`` with ``text``
    read as text) that Polars infers as text, and as floats once it reads decimal commas: a second inference."""
    strings = [n for n, t in schema.items() if t == pl.String and n not in text]
    if not strings:
        return []
    commas = pl.scan_csv(source, infer_schema_length=None, schema_overrides=text, glob=False, separator=SEPARATOR,
                         decimal_comma=True).collect_schema()
    return [n for n in strings if commas[n].is_float()]


def as_numbers(lf: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """``lf`` with ``columns`` (text whose every value is a number with a decimal comma, or whole) as Float64."""
    return lf.with_columns(pl.col(c).str.replace(",", ".", literal=True).cast(pl.Float64) for c in columns)


def decimal_comma_columns(path: str | Path, names: dict[str, str], numbers: list[str]) -> list[str]:
    """The columns of a semicolon-separated file that hold a decimal comma, as the file names them: its number
    columns (``names``: {name in the file: name it is read as}) that do, by one pass over their text, and
    ``numbers`` (:func:`comma_number_columns`)."""
    read = set(number_columns(list(names.values())))
    candidates = [raw for raw, name in names.items() if name in read]
    found: list[str] = []
    if candidates:
        text = pl.scan_csv(csv_source(path), infer_schema=False, glob=False, separator=SEPARATOR)
        held = text.select(pl.col(c).str.contains(DECIMAL_COMMA).any() for c in candidates).collect()
        found = [c for c in candidates if held[c].item()]
    return [n for n in names if n in found or n in numbers]
