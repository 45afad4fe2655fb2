"""Writing outputs atomically: each file is written to a temporary name beside it, then renamed into place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable

import polars as pl

FORMATS = ("parquet", "csv")


def flatten_for_csv(df: pl.DataFrame) -> pl.DataFrame:
    """CSV holds no nested values: lists become comma-joined text, lists of structs 'a:b' items joined by ', '."""
    columns = []
    for name, dtype in df.schema.items():
        col = pl.col(name)
        if isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct):
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


def write_table(df: pl.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
    """Write ``df`` to ``path`` (format from ``fmt`` or the suffix) without ever leaving a partial file."""
    path = Path(path)
    fmt = fmt or ("csv" if path.suffix.lower() == ".csv" else "parquet")
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}; use one of {', '.join(FORMATS)}")
    if fmt == "csv":
        return write_atomic(path, lambda temp: flatten_for_csv(df).write_csv(temp))
    return write_atomic(path, lambda temp: df.write_parquet(temp, compression="zstd"))


def write_atomic(path: str | Path, writer: Callable[[str], None]) -> Path:
    """Call ``writer(temp_name)`` for a temporary file beside ``path``, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        writer(temp_name)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return path


def write_results(tables: dict[str, pl.DataFrame], outdir: str | Path, fmt: str = "parquet") -> dict[str, Path]:
    """Write each named table as ``OUTDIR/NAME.{parquet,csv}``; returns the paths written."""
    outdir = Path(outdir)
    return {name: write_table(df, outdir / f"{name}.{fmt}", fmt) for name, df in tables.items()}
