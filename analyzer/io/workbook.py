"""A run's tables as one Excel workbook (``--format xlsx``), written through Polars' ``DataFrame.write_excel``
with xlsxwriter (the optional extra ``analyzer[xlsx]``).

* a sheet per table, the standings (``players``) first, then ``sessions``, ``teams``, ``games``, ``hands``,
  ``rejects`` (any other table after them);
* typed cells (numbers, booleans, dates and times as Excel's), the header row frozen, the columns as wide as
  their contents (autofit);
* lists as comma-joined text (problem codes ';'-joined) and structs as JSON text, as in CSV;
* a time-zoned time as the local time of its zone, the zone in the header (``date (Asia/Tokyo)``): Excel's
  times have no zone;
* text as text cells, never formulas: a name ``=1+1`` stays ``=1+1`` (xlsxwriter's ``strings_to_formulas`` off);
* NaN and infinities as Excel's error cells (``#NUM!``), never a blank that reads as nothing;
* a table of more rows than a sheet holds (1,048,576 with the header) is left out, with a note naming
  ``--format parquet``: the standings, sessions and teams always fit (one row per player or team).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from analyzer.io.formats import flatten_for_csv
from analyzer.io.load import InputError

# rows of an Excel worksheet, its header row included
EXCEL_MAX_ROWS = 1_048_576
SHEET_ORDER = ("players", "sessions", "teams", "ratings", "platform_ranks", "games", "hands", "rejects")
INSTALL_HINT = "pip install 'riichi-analyzer[xlsx]'"


def require_xlsxwriter() -> None:
    """xlsxwriter is installed, else one clear line saying how to get it (checked before a run starts)."""
    try:
        import xlsxwriter  # noqa: F401
    except ImportError:
        raise InputError(f"--format xlsx needs the xlsxwriter package: {INSTALL_HINT}") from None


def sheet_order(names: list[str]) -> list[str]:
    """The tables in the workbook's order: the standings first (:data:`SHEET_ORDER`), any other after."""
    known = [n for n in SHEET_ORDER if n in names]
    return [*known, *[n for n in names if n not in known]]


def excel_columns(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with the values Excel holds: lists and structs as text (as in CSV), time-zoned times as local
    times with the zone in the column's name, and any type Excel has no cell for (bytes, durations) as text."""
    df = flatten_for_csv(df)  # the same text for lists and structs as a CSV file's
    columns, names = [], {}
    for name, dtype in df.schema.items():
        col = pl.col(name)
        if isinstance(dtype, pl.Datetime) and dtype.time_zone is not None:
            columns.append(col.dt.replace_time_zone(None))
            names[name] = f"{name} ({dtype.time_zone})"
        elif dtype == pl.Binary:
            columns.append(col.bin.encode("hex"))
        elif isinstance(dtype, pl.Duration):  # ISO 8601 ('PT5S'): Excel has no durations
            columns.append(col.dt.to_string("iso"))
        elif dtype == pl.Null or isinstance(dtype, (pl.Decimal, pl.Enum, pl.Categorical)):
            columns.append(col.cast(pl.String))
        else:
            columns.append(col)
    return df.select(columns).rename(names)


def write_workbook(tables: dict[str, Callable[[], pl.DataFrame] | pl.DataFrame], path: str | Path,
                   rows: dict[str, int] | None = None) -> list[str]:
    """Write ``tables`` (frames, or functions that read one: a table is read only when it fits) into the
    workbook ``path``, a sheet each in :func:`sheet_order`; ``rows``: each table's row count where known before
    it is read. Returns the names of the tables left out because a sheet cannot hold them."""
    require_xlsxwriter()
    import xlsxwriter

    left_out = []
    # a workbook with no sheet is not a valid file: an empty one is written for a run with no table at all
    # text is text: `=1+1` (a player's name) or `=_=` (a Tenhou nickname) is a string cell, never a formula
    options = {"nan_inf_to_errors": True, "strings_to_formulas": False}
    with xlsxwriter.Workbook(str(path), options) as workbook:
        for name in sheet_order(list(tables)):
            height = (rows or {}).get(name)
            if height is not None and height + 1 > EXCEL_MAX_ROWS:
                left_out.append(name)
                continue
            table = tables[name]
            df = table() if callable(table) else table
            if df.height + 1 > EXCEL_MAX_ROWS:
                left_out.append(name)
                continue
            df = excel_columns(df)
            if df.width == 0:
                workbook.add_worksheet(name)
                continue
            df.write_excel(workbook=workbook, worksheet=name, autofit=True, freeze_panes=(1, 0))
        if not workbook.worksheets():
            workbook.add_worksheet("empty")
    return left_out


def workbook_from_parts(folder: Path, names: list[str], workbook: str) -> list[str]:
    """The workbook ``folder/workbook`` of the tables ``folder/NAME.parquet`` (removed once in it); returns the
    tables it cannot hold, left out."""
    parts = {name: folder / f"{name}.parquet" for name in names}
    rows = {name: pl.scan_parquet(path).select(pl.len()).collect().item() for name, path in parts.items()}
    left_out = write_workbook({name: (lambda p=path: pl.read_parquet(p)) for name, path in parts.items()},
                              folder / workbook, rows)
    for path in parts.values():
        path.unlink()
    return left_out


def left_out_note(names: list[str]) -> str:
    """The note a run prints for the tables a workbook could not hold."""
    tables = ", ".join(names)
    return (f"{tables}: more than {EXCEL_MAX_ROWS - 1:,} rows, more than an Excel sheet holds: left out of the "
            f"workbook (use --format parquet for every table)")
