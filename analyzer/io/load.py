"""Reading hand records: files, directories and globs of CSV and Parquet, mixed, into one LazyFrame.

The columns analyzer validates (:data:`VALIDATED_COLUMNS`) are read from their text, so that a bad value
becomes a reject with its file, row and column later instead of a failed read now: a CSV file reads them as
text, and those whose readers parse text (:data:`TEXT_COLUMNS`) are made text whatever type a Parquet file or
a DataFrame gives them (player lists and melds: lists of text). Every other column keeps its type — Parquet's
and a DataFrame's as they are, a CSV file's as Polars infers it from the whole file — and leaves with it.
Three columns record where a row came from:
``_file`` (path), ``_row`` (1-based data row in that file; a spreadsheet shows it on line ``_row + 1``) and ``_pos``
(global input order: files in the order given, rows in file order). A fourth, ``_sheet``, says whether the
row's file is a game-level result sheet (:func:`analyzer.io.columns.is_sheet`) rather than hand records.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analyzer.io.columns import SHEET_COLUMNS, check_header, is_sheet, read_names
from analyzer.io.csv_text import csv_separator, csv_source, file_key, first_problem, separator_name
from analyzer.io.decimal_comma import as_numbers, comma_number_columns, decimal_points, reads_decimal_commas
from analyzer.io.errors import InputError
from analyzer.io.files import expand_inputs, format_of
from analyzer.io.wide import SEAT_FIELDS, WIDE_COLUMNS, missing_seat_columns, to_long, wide_layout
from analyzer.core.schema import (
    INPUT_POSITION, PLAYER_COLUMNS, PLAYER_LIST_COLUMNS, PLAYER_REF_COLUMNS, SHEET_ROW, SITUATION_FLAGS, SOURCE_FILE,
    SOURCE_ROW,
)
from analyzer.tiles.codes import CODE_COLUMNS

# Read as lists of text: a list as it is, text split into names (see split_player_list).
LIST_COLUMNS = [*PLAYER_LIST_COLUMNS, "melds", "recorded_yaku"]
# Validated columns whose readers parse text: made text whatever their type (a null-typed column too). The run
# replaces most of them by what it reads from the text (cleaned names, rounds and outcomes, whole numbers).
TEXT_COLUMNS = ["game_id", "round", "honba", "result", *PLAYER_COLUMNS, "han", "fu", "yakuman", "hand", "win_tile",
                "dora", "ura", "rules"]
# Every column whose bad value rejects its row, read from a CSV file's text exactly as written (no inference).
# Beyond the text and list columns, these readers take any type: player references (names or seat numbers),
# ``kita`` and ``players`` (read through their text), the situation flags (a Boolean as it is, anything else
# as text) and the tile codes (integers).
VALIDATED_COLUMNS = frozenset(
    [*TEXT_COLUMNS, *LIST_COLUMNS, *PLAYER_REF_COLUMNS, "kita", "players", *SITUATION_FLAGS, *CODE_COLUMNS]
)
_ROWS_PER_FILE = 1 << 32


# The columns analyzer reads: their names are matched without case (``Round`` is ``round``, see
# analyzer.io.columns.read_names). Any other column keeps its name as written.
KNOWN_COLUMNS = VALIDATED_COLUMNS | {
    "kyotaku", "recorded_kyotaku", "date", "turn",
    *[f"{fact}_{s}" for fact in ("riichi_turn", "calls", "open") for s in range(4)],
    *SHEET_COLUMNS, *WIDE_COLUMNS,
}


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


def as_text(col: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """A column of any type as text: lists comma-joined, structs as JSON, anything else cast."""
    if dtype == pl.String:
        return col
    if isinstance(dtype, (pl.List, pl.Array)):
        return col.cast(pl.List(pl.String)).list.join(",")
    if isinstance(dtype, pl.Struct):
        return col.struct.json_encode()
    return col.cast(pl.String)


def _input_column(name: str, dtype: pl.DataType) -> pl.Expr:
    """An input column as the pipeline reads it: list columns as lists of text, text columns as text (a flag
    that is not Boolean too), any other column as it is."""
    col = pl.col(name)
    if name in LIST_COLUMNS:
        if isinstance(dtype, (pl.List, pl.Array)):
            return col.cast(pl.List(pl.String))
        return split_player_list(as_text(col, dtype))
    if name in TEXT_COLUMNS or (name in SITUATION_FLAGS and dtype != pl.Boolean):
        return as_text(col, dtype)
    return col


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


def input_columns(lf: pl.LazyFrame) -> pl.LazyFrame:
    """The input columns as the pipeline reads them (see :func:`_input_column`; source columns untouched):
    the text and list columns converted, every other column with its own type."""
    schema = lf.collect_schema()
    return lf.select(
        pl.col(name) if name.startswith("_") else _input_column(name, dtype).alias(name.strip())
        for name, dtype in schema.items()
    )


def read_as_text(lf: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """``lf`` with those of the text and list columns among ``names`` that it has, and that are not text (lists
    of text) yet, converted as :func:`input_columns` converts them: for a stage given a frame straight from
    Python."""
    schema = lf.collect_schema()
    target = {**{n: pl.String for n in TEXT_COLUMNS}, **{n: pl.List(pl.String) for n in LIST_COLUMNS}}
    changed = [_input_column(n, schema[n]).alias(n) for n in names
               if n in schema and n in target and schema[n] != target[n]]
    return lf.with_columns(changed) if changed else lf


_CSV_SCHEMAS: dict[tuple, tuple[pl.Schema, list[str]]] = {}


def csv_schema(path: str | Path, separator: str = ",") -> pl.Schema:
    """A CSV file's columns as read: the validated ones text, the others of the type Polars infers from every
    row (a value the first rows do not foresee cannot fail the read later). Inferred once per file version: a
    file read in slices (``rows``) is not read through again for each. A semicolon-separated file's columns
    that are numbers with decimal commas are text here (:func:`comma_numbers` names them)."""
    return _csv_reading(path, separator)[0]


def comma_numbers(path: str | Path, separator: str = ",") -> list[str]:
    """The columns of a semicolon-separated CSV file that :func:`csv_schema` reads as text and are numbers with
    decimal commas (:func:`analyzer.io.decimal_comma.comma_number_columns`); none for any other file."""
    return _csv_reading(path, separator)[1]


def _csv_reading(path: str | Path, separator: str) -> tuple[pl.Schema, list[str]]:
    key = file_key(path)
    found = _CSV_SCHEMAS.get(key) if key is not None else None
    if found is None:
        source = csv_source(path)
        schema = pl.scan_csv(source, infer_schema=False, glob=False, separator=separator).collect_schema()
        commas: list[str] = []
        # validated columns by the name they are read as (`Honba` is `honba`: text too); a game-level sheet's
        # columns too, where the file is one (analyzer.tournament.sheets reads them from their text)
        sheet = is_sheet(n.strip().lower() for n in schema)
        text = {n: pl.String for n in schema
                if input_name(n).lower() in VALIDATED_COLUMNS
                or (sheet and n.strip().lower() in (*SHEET_COLUMNS, *WIDE_COLUMNS))}
        if len(text) < len(schema):  # a sheet of validated columns only is all text: no pass over it to infer
            schema = pl.scan_csv(source, infer_schema_length=None, schema_overrides=text, glob=False,
                                 separator=separator).collect_schema()
            if reads_decimal_commas(separator):
                commas = comma_number_columns(source, schema, text)
        found = schema, commas
        if key is not None:
            if len(_CSV_SCHEMAS) > 1024:
                _CSV_SCHEMAS.clear()
            _CSV_SCHEMAS[key] = found
    return found


def scan_file(path: str | Path, index: int, rows: tuple[int, int] | None = None) -> pl.LazyFrame:
    """One file's columns as the pipeline reads them (:func:`input_columns`) plus its source columns; ``rows`` =
    (first, count) reads only those rows (``first`` 0-based), without decoding the rows before them.

    A CSV file's separator and encoding are read off its start (:mod:`analyzer.io.csv_text`: a UTF-16 or
    Shift-JIS file is read through its UTF-8 text), a header naming a column twice is refused, the names are
    read as :func:`analyzer.io.columns.read_names` says (``Round`` is ``round``), and a semicolon-separated
    file's number columns read decimal commas (:mod:`analyzer.io.decimal_comma`).
    Read whole (no ``rows``), a column whose conversion to text can fail (Parquet bytes that are not UTF-8, a
    list of lists) is read through here, so that the error names the file and the column."""
    try:
        if format_of(path) == "csv":
            check_header(path)
            separator = csv_separator(path)
            lf = pl.scan_csv(csv_source(path), schema=csv_schema(path, separator), missing_columns="insert",
                             glob=False, separator=separator)
            lf = as_numbers(lf, comma_numbers(path, separator))
        else:
            lf = pl.scan_parquet(path, glob=False)
        raw = lf.collect_schema()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {path}{read_as(path)}: {str(exc).splitlines()[0]}") from exc
    first = 0
    if rows is not None:
        first, count = rows
        lf = lf.slice(first, count)
    renamed = read_names(raw.names(), path, KNOWN_COLUMNS, input_name)
    lf = input_columns(lf.rename({n: r for n, r in renamed.items() if r != n}))
    if format_of(path) == "csv" and reads_decimal_commas(csv_separator(path)):
        lf = decimal_points(lf)
    if rows is None:
        check_conversions(lf, {renamed[n]: t for n, t in raw.items()}, path)
    lf = (
        lf.with_row_index(SOURCE_ROW, offset=first + 1)
        .with_columns(
            pl.col(SOURCE_ROW).cast(pl.Int64),
            pl.lit(str(path)).alias(SOURCE_FILE),
            (pl.col(SOURCE_ROW).cast(pl.Int64) + index * _ROWS_PER_FILE).alias(INPUT_POSITION),
            pl.lit(is_sheet(renamed.values())).alias(SHEET_ROW),
        )
    )
    return long_form(lf, path)


def long_form(lf: pl.LazyFrame, where: str | Path) -> pl.LazyFrame:
    """A wide game-level sheet (one row per game, :mod:`analyzer.io.wide`) as the long form, one row per player
    per game (rows keep their source columns); any other input as it is. A seat with a player column and no
    score column (or the reverse) is an :class:`InputError`."""
    layout = wide_layout(lf.collect_schema().names())
    if layout is None:
        return lf
    both = [c for c in ("seat", *SEAT_FIELDS) if c in lf.collect_schema()]
    if both:  # a column of one player beside the seats' columns: which is meant cannot be guessed
        first = next((c for (f, _), c in layout.columns.items() if f == both[0]), None)
        beside = f" beside {first!r}" if first else " beside the seats' columns"
        raise InputError(f"column {both[0]!r}{beside} in {where}: a game-level sheet is one row per player "
                         f"(player, final_score) or one row per table (player_0, final_score_0, …), not both")
    missing = missing_seat_columns(layout)
    if missing:
        also = f" (also missing: {', '.join(map(repr, missing[1:]))})" if len(missing) > 1 else ""
        raise InputError(f"no column {missing[0]!r} in {where} (read as a wide game-level sheet: each seat needs "
                         f"a player and a score column){also}")
    return to_long(lf, layout, where)


def read_as(path: str | Path) -> str:
    """How a CSV file was read, for an error that it could not be: the separator found on its header line, and
    where the file goes wrong (``; line 4 has 12 fields, the header 10``). A line that is not UTF-8 is an
    :class:`InputError` of its own (:func:`analyzer.io.csv_text.first_problem`)."""
    if format_of(path) != "csv":
        return ""
    problem = first_problem(path)
    return f" (read as {separator_name(csv_separator(path))}{'; ' + problem if problem else ''})"


def _is_list(dtype: pl.DataType) -> bool:
    return isinstance(dtype, (pl.List, pl.Array))


def _may_not_be_text(dtype: pl.DataType) -> bool:
    """Whether a column of this type may fail to become text on its values: bytes that are not UTF-8, anywhere
    in it."""
    if dtype == pl.Binary:
        return True
    if _is_list(dtype):
        return _may_not_be_text(dtype.inner)
    if isinstance(dtype, pl.Struct):
        return any(_may_not_be_text(f.dtype) for f in dtype.fields)
    return False


def check_conversions(lf: pl.LazyFrame, raw: dict[str, pl.DataType], where: str | Path) -> None:
    """The known columns of ``lf`` (converted by :func:`input_columns`) can be read as text, as validation reads
    them (a player reference is made text there): a list of lists never can, and a column holding bytes is read
    through once, alone. A failure is an :class:`InputError` naming ``where`` and the column before any output is
    written, instead of Polars' message, naming neither, in the middle of a run. Other columns are not read."""
    converted = lf.collect_schema()
    for name, dtype in raw.items():
        if name not in KNOWN_COLUMNS or name not in converted:
            continue
        if _is_list(dtype) and _is_list(dtype.inner):
            raise InputError(f"column {name!r} of {where} is a list of lists ({dtype}): give one flat list "
                             "(or text) per row")
        if _may_not_be_text(dtype):
            try:
                lf.select(as_text(pl.col(name), converted[name]).null_count()).collect()
            except pl.exceptions.PolarsError as exc:
                raise InputError(
                    f"cannot read column {name!r} of {where} ({dtype}) as text: {str(exc).splitlines()[0]}"
                ) from exc


def supertype(left: pl.DataType, right: pl.DataType) -> pl.DataType:
    """The type two files' columns of one name are read as together: Polars' supertype (Int64 and Float64 give
    Float64, a null-typed column takes the other's type), or String where there is none (Int64 and Datetime,
    two time zones, a list and a number): each file's values as text then (see :func:`as_text`). Different
    nested types (lists, structs) meet as text too."""
    if left == right or right == pl.Null:
        return left
    if left == pl.Null:
        return right
    if any(isinstance(t, (pl.List, pl.Array, pl.Struct)) for t in (left, right)):
        return pl.String
    try:
        return pl.concat([pl.DataFrame(schema={"x": left}), pl.DataFrame(schema={"x": right})],
                         how="vertical_relaxed").schema["x"]
    except pl.exceptions.PolarsError:
        return pl.String


def input_schema(frames: list[pl.LazyFrame]) -> dict[str, pl.DataType]:
    """The columns of several scanned files together, in first-seen order (what a diagonal concat gives), each
    of the type its files' types meet in (:func:`supertype`)."""
    schema: dict[str, pl.DataType] = {}
    for lf in frames:
        for name, dtype in lf.collect_schema().items():
            schema[name] = supertype(schema[name], dtype) if name in schema else dtype
    return schema


def to_schema(lf: pl.LazyFrame, schema: dict[str, pl.DataType]) -> pl.LazyFrame:
    """``lf`` with every column of ``schema`` in its order and type (missing ones null); a column made text
    by :func:`supertype` is its values' text (:func:`as_text`)."""
    have = lf.collect_schema()

    def column(name: str, dtype: pl.DataType) -> pl.Expr:
        if name not in have:
            return pl.lit(None, dtype).alias(name)
        if have[name] == dtype:
            return pl.col(name)
        if dtype == pl.String:
            return as_text(pl.col(name), have[name]).alias(name)
        return pl.col(name).cast(dtype).alias(name)

    return lf.select(column(n, t) for n, t in schema.items())


def load(inputs: list[str | Path] | str | Path) -> pl.LazyFrame:
    """Hand records from CSV/Parquet files, directories and globs; a column missing from a file is null there."""
    if isinstance(inputs, (str, Path)):
        inputs = [inputs]
    frames = [scan_file(path, i) for i, path in enumerate(expand_inputs(list(inputs)))]
    schema = input_schema(frames)
    return pl.concat([to_schema(lf, schema) for lf in frames], how="vertical")


def read_frame(frame: pl.LazyFrame | pl.DataFrame, where: str = "the frame") -> pl.LazyFrame:
    """A frame given from Python as the pipeline reads a file (:func:`scan_file`): names matched without case
    where they name a known column, the columns converted (a conversion that fails names the column), source
    columns added where it has none. Its own ``_`` columns (a :func:`load` frame's source columns) are kept."""
    lf = frame.lazy()
    raw = lf.collect_schema()
    renamed = read_names([n for n in raw.names() if not n.startswith("_")], where, KNOWN_COLUMNS)
    lf = input_columns(lf.rename({n: r for n, r in renamed.items() if r != n}))
    check_conversions(lf, {renamed.get(n, n): t for n, t in raw.items()}, where)
    if wide_layout(lf.collect_schema().names()) is not None:  # its rows numbered before they become seats
        lf = long_form(prepare_input(lf), where)
    return prepare_input(lf)


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
    if SHEET_ROW not in names:
        lf = lf.with_columns(pl.lit(is_sheet(names)).alias(SHEET_ROW))
    return lf
