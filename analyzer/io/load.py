"""Reading hand records: files, directories and globs of CSV and Parquet, mixed, into one LazyFrame.

Every column is read as text (lists of text for player lists and melds) so that a bad value becomes a reject
with its file, row and column later instead of a failed read now. Three columns record where a row came from:
``_file`` (path), ``_row`` (1-based data row in that file; the CSV line number minus the header) and ``_pos``
(global input order: files in the order given, rows in file order).
"""

from __future__ import annotations

import glob as globlib
from pathlib import Path, PurePosixPath

import polars as pl

from analyzer.schema import INPUT_POSITION, PLAYER_LIST_COLUMNS, SOURCE_FILE, SOURCE_ROW

SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
LIST_COLUMNS = [*PLAYER_LIST_COLUMNS, "melds", "recorded_yaku"]
_ROWS_PER_FILE = 1 << 32


class InputError(Exception):
    """Input that cannot be read at all (missing file, unknown format, unreadable content)."""


def expand_inputs(inputs: list[str | Path]) -> list[Path]:
    """Files from paths, directories (searched recursively) and globs, in the order given, without repeats:
    the same file given twice (relative and absolute, or through a symlink) is read once."""
    files: list[Path] = []
    seen: set[Path] = set()
    for item in inputs:
        text = str(item)
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and format_of(p))
            if not found:
                raise InputError(f"no CSV or Parquet files in directory {text}")
        elif path.is_file():
            if not format_of(path):
                raise InputError(f"{text}: unsupported file type (expected .csv or .parquet)")
            found = [path]
        elif globlib.has_magic(text):
            found = sorted(Path(p) for p in globlib.glob(text, recursive=True) if format_of(Path(p)))
            if not found:
                raise InputError(f"no CSV or Parquet files match {text}")
        else:
            raise InputError(f"no such file or directory: {text}")
        for p in found:
            real = p.resolve()
            if real not in seen:
                seen.add(real)
                files.append(p)
    if not files:
        raise InputError("no input files given")
    return files


def format_of(path: str | Path) -> str | None:
    return SUFFIXES.get(PurePosixPath(str(path)).suffix.lower())


# A name between commas, without the spaces around it (it may hold spaces inside: "Bob Smith, Al").
_NAME_BETWEEN_COMMAS = r"[^,\s](?:[^,]*[^,\s])?"


def split_player_list(text: pl.Expr) -> pl.Expr:
    """A player list written as text: comma-separated when it has a comma (names may hold spaces), else on spaces;
    empty names are left out. The names are picked out by one regex (no per-element ``list.eval``: a third less)."""
    return (
        pl.when(text.str.contains(",", literal=True))
        .then(text.str.extract_all(_NAME_BETWEEN_COMMAS))
        .otherwise(text.str.extract_all(r"\S+"))
    )


def _as_text(name: str, dtype: pl.DataType) -> pl.Expr:
    col = pl.col(name)
    if name in LIST_COLUMNS:
        if isinstance(dtype, (pl.List, pl.Array)):
            return col.cast(pl.List(pl.String))
        return split_player_list(col.cast(pl.String))
    if isinstance(dtype, (pl.List, pl.Array)):
        return col.cast(pl.List(pl.String)).list.join(",")
    return col.cast(pl.String)


# Columns the outputs add: an input column of one of these names (or starting with '_', the internal prefix)
# is kept under ``input_<name>`` so that nothing is overwritten — scoring a ``hands`` output again works.
OUTPUT_NAMES = {
    "dealer", "replayed_honba", "base_points", "limit", "points", "problems", "source_file", "source_row",
    *[f"delta_{s}" for s in range(4)], *[f"score_{s}" for s in range(4)],
    "yaku", "fu_detail", "dora_count", "ura_dora", "aka_dora", "wait", "given_han", "given_fu", "given_yakuman",
}
INPUT_PREFIX = "input_"


def input_name(name: str) -> str:
    """The name an input column is kept under (see :data:`OUTPUT_NAMES`)."""
    name = name.strip()
    return INPUT_PREFIX + name if name in OUTPUT_NAMES or name.startswith("_") else name


def as_text_columns(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Every input column as text, and player lists and melds as lists of text (source columns untouched)."""
    schema = lf.collect_schema()
    return lf.select(
        pl.col(name) if name.startswith("_") else _as_text(name, dtype).alias(name.strip())
        for name, dtype in schema.items()
    )


def scan_file(path: str | Path, index: int, rows: tuple[int, int] | None = None) -> pl.LazyFrame:
    """One file as text columns plus its source columns; ``rows`` = (first, count) reads only those rows
    (``first`` 0-based), without decoding the rows before them."""
    try:
        if format_of(path) == "csv":
            lf = pl.scan_csv(path, infer_schema=False, missing_columns="insert", glob=False)
        else:
            lf = pl.scan_parquet(path, glob=False)
        lf.collect_schema()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {path}: {str(exc).splitlines()[0]}") from exc
    first = 0
    if rows is not None:
        first, count = rows
        lf = lf.slice(first, count)
    names = lf.collect_schema().names()
    renamed = {n: input_name(n) for n in names if input_name(n) != n}
    if len(set(input_name(n) for n in names)) < len(names):
        raise InputError(f"{path}: two columns have the same name once spaces are stripped: {names}")
    return (
        as_text_columns(lf.rename(renamed))
        .with_row_index(SOURCE_ROW, offset=first + 1)
        .with_columns(
            pl.col(SOURCE_ROW).cast(pl.Int64),
            pl.lit(str(path)).alias(SOURCE_FILE),
            (pl.col(SOURCE_ROW).cast(pl.Int64) + index * _ROWS_PER_FILE).alias(INPUT_POSITION),
        )
    )


def text_schema(frames: list[pl.LazyFrame]) -> dict[str, pl.DataType]:
    """The columns of several scanned files together, in first-seen order (what a diagonal concat gives)."""
    schema: dict[str, pl.DataType] = {}
    for lf in frames:
        for name, dtype in lf.collect_schema().items():
            schema.setdefault(name, dtype)
    return schema


def load(inputs: list[str | Path] | str | Path) -> pl.LazyFrame:
    """Hand records from CSV/Parquet files, directories and globs; a column missing from a file is null there."""
    if isinstance(inputs, (str, Path)):
        inputs = [inputs]
    frames = [scan_file(path, i) for i, path in enumerate(expand_inputs(list(inputs)))]
    return pl.concat(frames, how="diagonal_relaxed")


def prepare_input(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Frames built in Python have no source file; give them one so rejects still point somewhere.

    A recorded ``kyotaku`` is renamed ``recorded_kyotaku``: the replayed sticks take the name ``kyotaku``.
    """
    names = lf.collect_schema().names()
    if "kyotaku" in names and "recorded_kyotaku" not in names:
        lf = lf.rename({"kyotaku": "recorded_kyotaku"})
    if SOURCE_ROW not in names:
        lf = lf.with_row_index(SOURCE_ROW, offset=1).with_columns(pl.col(SOURCE_ROW).cast(pl.Int64))
    if SOURCE_FILE not in names:
        lf = lf.with_columns(pl.lit("<frame>").alias(SOURCE_FILE))
    if INPUT_POSITION not in names:
        lf = lf.with_columns(pl.col(SOURCE_ROW).alias(INPUT_POSITION))
    return lf
