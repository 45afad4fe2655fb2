"""The formats a run's tables are written in, and the file each table goes to.

========= ===================================================================================================
parquet   ``OUTDIR/NAME.parquet``: every type kept (the default)
csv       ``OUTDIR/NAME.csv``: lists comma-joined (problem codes ';'-joined), structs as JSON text
xlsx      one workbook, ``OUTDIR/results.xlsx``, a sheet per table, standings first (:mod:`.workbook`)
json      ``players``, ``games``, ``sessions``, ``teams`` as JSON arrays of records (``NAME.json``); ``hands``,
          ``hand_seats`` and ``rejects`` as NDJSON, one record a line (``NAME.ndjson``) (:mod:`.json_tables`)
========= ===================================================================================================
"""

from __future__ import annotations

import logging
from pathlib import Path

import polars as pl

RUN_FORMATS = ("parquet", "csv", "xlsx", "json")
WORKBOOK_NAME = "results.xlsx"
# tables that may hold millions of rows: one record a line, read and written a line at a time
NDJSON_TABLES = frozenset({"hands", "rejects", "hand_seats"})


# Lists of problem codes (``problems``, and the one of a hands table scored again): joined by ';' in CSV.
CODE_LIST_COLUMNS = {"problems", "input_problems"}


def flatten_for_csv(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame:
    """CSV holds no nested values: lists become comma-joined text (problem codes ';'-joined, none an empty
    text), lists of structs 'a:b' items joined by ', '."""
    columns = []
    for name, dtype in df.collect_schema().items():
        col = pl.col(name)
        if name in CODE_LIST_COLUMNS and isinstance(dtype, pl.List) and not isinstance(dtype.inner, pl.Struct):
            columns.append(col.cast(pl.List(pl.String)).list.join(";").fill_null("").alias(name))
        elif isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct):
            fields = [f.name for f in dtype.inner.fields]
            item = pl.concat_str([pl.element().struct.field(f).cast(pl.String) for f in fields], separator=":")
            columns.append(col.list.eval(item).list.join(", ").alias(name))
        elif isinstance(dtype, pl.List):
            columns.append(col.cast(pl.List(pl.String)).list.join(",").alias(name))
        elif isinstance(dtype, pl.Struct):
            columns.append(col.struct.json_encode().alias(name))
        else:
            columns.append(col)
    return df.select(columns)


def table_file(name: str, fmt: str) -> str:
    """The file name table ``name`` is written to in format ``fmt``."""
    if fmt == "xlsx":
        return WORKBOOK_NAME
    if fmt == "json":
        return f"{name}.ndjson" if name in NDJSON_TABLES else f"{name}.json"
    return f"{name}.{fmt}"


def read_table(path: str | Path, name: str, empty: dict[str, pl.DataType] | None = None) -> pl.DataFrame:
    """Table ``name`` read back from the file a run wrote it to (its format from the suffix); ``empty``: the
    columns of the table when it has no rows (an empty NDJSON file says nothing of them)."""
    suffix = Path(str(path)).suffix.lower()
    if suffix == ".csv":
        return pl.read_csv(path)
    if suffix == ".ndjson":
        if Path(path).stat().st_size == 0:
            return pl.DataFrame(schema=empty or {})
        return pl.read_ndjson(path)
    if suffix == ".json":
        return pl.read_json(path)
    if suffix == ".xlsx":
        return read_sheet(path, name)
    return pl.read_parquet(path)


def read_sheet(path: str | Path, name: str, schema: dict[str, pl.DataType] | None = None) -> pl.DataFrame:
    """Sheet ``name`` of a workbook (``schema``: the types of its columns, where known), without the reader's
    notes on empty columns (read as text)."""
    quiet = logging.getLogger("fastexcel")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        return pl.read_excel(path, sheet_name=name, schema_overrides=schema)
    finally:
        quiet.setLevel(level)


def _plain(dtype: pl.DataType) -> pl.DataType:
    if isinstance(dtype, (pl.Enum, pl.Categorical)) or dtype == pl.Null:
        return pl.String
    if isinstance(dtype, pl.List):
        return pl.List(_plain(dtype.inner))
    if isinstance(dtype, pl.Struct):
        return pl.Struct([pl.Field(f.name, _plain(f.dtype)) for f in dtype.fields])
    return dtype


def plain_types(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame:
    """Enum and categorical values (also inside lists and structs) as text, null-typed columns as text: the
    types every Parquet writer and reader handles alike, whether a table is written at once or in parts."""
    schema = df.collect_schema()
    targets = {name: _plain(dtype) for name, dtype in schema.items()}
    return df.with_columns(pl.col(n).cast(t) for n, t in targets.items() if t != schema[n])
