"""The plan of a run: partitions of whole games, how an input of any size is cut into parts scored one at a time.

Games are independent, so a part of whole games is scored exactly as it would be with the rest of the input
beside it. :func:`plan` reads only the ``game_id`` column of the inputs, counts each game's rows and cuts the
games, in ``game_id`` order, into parts of about ``partition_rows`` rows (a game is never split; the last
part is a quarter of that, see :data:`TAIL_FRACTION`). Scoring the parts in that order and appending their
outputs gives the same tables, row for row, whatever the part size.

How a part's rows are read back:

* one part (the input is small): every input file, as it is;
* input already in ``game_id`` order with each game's rows together (the usual export: game by game) and in
  Parquet: each part is a slice of the files, read directly — no extra pass;
* anything else: one *spill* pass reads the input once, a batch of rows at a time, and writes each batch's
  rows into the folder of their part in a temporary directory (a part holds a range of game keys: a row's
  part is a binary search among the parts' first keys, no join); each part reads its own folder.

Memory then depends on the part size, not on the input size; the plan itself holds one row per game.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.io.columns import check_required
from analyzer.io.faults import writing
from analyzer.io.load import (InputError, expand_inputs, format_of, input_schema, read_as, read_frame, scan_file,
                              to_schema)
from analyzer.core.schema import INPUT_POSITION
from analyzer.run.memory import MemoryBudget

ROWS_PER_FILE = 1 << 32
DEFAULT_PARTITION_ROWS = 500_000
# With several partitions in flight the default is shared between them (so the rows held at once stay the
# same: 100M rows with 2 in flight of 500,000 rows each peaked at 3.9 GB), down to this size per partition.
MIN_DEFAULT_PARTITION_ROWS = 125_000
# The last part's outputs are written when all scoring is done, with nothing left to overlap the write: the
# last rows (whole games) of a partitioned input make a part of this fraction of the others' size.
TAIL_FRACTION = 4
SPILL_ADVICE = "free space there, or set TMPDIR to a disk with room for a copy of the input"
# Rows the spill pass holds at a time (a batch and its split by part): its memory, whatever the input size.
SPILL_BATCH_ROWS = 250_000


def parse_size(text: str) -> int:
    """'2GB', '512MB', '1.5G', '3000000000' -> bytes."""
    units = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "G": 1 << 30, "GB": 1 << 30,
             "T": 1 << 40, "TB": 1 << 40}
    cleaned = text.strip().upper().replace("IB", "B")
    number = cleaned.rstrip("KMGTB")
    unit = cleaned[len(number):]
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if unit not in units or not value > 0:
        raise ValueError(f"not a size: {text!r} (e.g. 2GB, 512MB)")
    return int(value * units[unit])


def partition_rows_for(partition_rows: int | None, memory_limit: str | int | None,
                       in_flight: int = 1) -> int | MemoryBudget:
    """The part size of a run: ``partition_rows``; with ``memory_limit`` (bytes or '2GB') a
    :class:`~analyzer.run.memory.MemoryBudget` shared by the ``in_flight`` partitions scored at once, which
    :func:`plan` turns into a size once it has counted the games (capped by ``partition_rows``)."""
    if partition_rows is not None and partition_rows < 1:
        raise ValueError("partition_rows must be at least 1")
    if memory_limit is not None:
        limit = parse_size(memory_limit) if isinstance(memory_limit, str) else int(memory_limit)
        return MemoryBudget(limit, in_flight, partition_rows)
    return partition_rows or max(MIN_DEFAULT_PARTITION_ROWS, DEFAULT_PARTITION_ROWS // in_flight)


def rows_within(partition_rows: int | MemoryBudget, games: int, total_rows: int) -> int:
    """The part size for an input of ``games`` games and ``total_rows`` rows: ``partition_rows`` as it is, or
    what a memory budget allows (:class:`InputError` when it allows no partition)."""
    return partition_rows.rows(games, total_rows) if isinstance(partition_rows, MemoryBudget) else partition_rows


@dataclass
class Part:
    """One part: its row count, and how to read its rows (input columns with source columns)."""

    index: int
    rows: int
    games: int
    frame: pl.LazyFrame

    def read(self) -> pl.LazyFrame:
        return self.frame


@dataclass
class Plan:
    """The parts of an input, in ``game_id`` order; ``spilled`` says whether a spill pass ran.

    A context manager: leaving it removes the spill files (if any)."""

    parts: list[Part]
    rows: int
    games: int
    spilled: bool
    spill_dir: Path | None = field(default=None, repr=False)
    seconds: float = 0.0  # what making the plan took (reading the game ids, the spill pass)

    def __iter__(self) -> Iterator[Part]:
        return iter(self.parts)

    def __enter__(self) -> Plan:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Remove the spill files (if any)."""
        if self.spill_dir is not None:
            shutil.rmtree(self.spill_dir, ignore_errors=True)
            self.spill_dir = None


def plan_input(data, partition_rows: int | MemoryBudget = DEFAULT_PARTITION_ROWS, spill_dir: str | Path | None = None,
               input_kind: str = "auto") -> Plan:
    """The plan for ``data``: a frame is one part as it is; paths (files, directories, globs) are cut by
    :func:`plan`. ``input_kind`` says what the files are read as (:data:`analyzer.io.columns.INPUT_KINDS`)."""
    started = time.perf_counter()
    if isinstance(data, (pl.LazyFrame, pl.DataFrame)):
        frame = read_frame(data)
        check_required(frame, "the frame", input_kind)
        return Plan([Part(0, -1, -1, frame)], rows=-1, games=-1, spilled=False)
    inputs = [data] if isinstance(data, (str, Path)) else list(data)
    made = plan(expand_inputs(inputs), partition_rows, spill_dir, require_columns=True, input_kind=input_kind)
    made.seconds = time.perf_counter() - started
    return made


def _game_key() -> pl.Expr:
    return pl.col("game_id").str.strip_chars().fill_null("").alias("_game_key")


def unified(frames: list[pl.LazyFrame], schema: dict[str, pl.DataType]) -> pl.LazyFrame:
    """Frames with every column of ``schema`` in its order and type (missing ones null), stacked: a column
    whose files' types differ is read as their supertype, or as text where there is none
    (:func:`analyzer.io.load.supertype`), so that every part of an input has the same columns and types."""
    return pl.concat([to_schema(lf, schema) for lf in frames], how="vertical")


def _games_of(path: Path, scan: pl.LazyFrame) -> pl.DataFrame:
    """Each game's rows in one file (count, first and last input position): reading every row's game id is
    also where a malformed file shows, so the error names the file."""
    try:
        if format_of(path) == "csv":
            # every field parsed once here (the game ids alone would not touch a ragged line): a malformed CSV
            # is reported with its name, before any output is written
            scan.select(pl.all().null_count()).collect()
        return (
            scan.select(_game_key(), INPUT_POSITION)
            .group_by("_game_key")
            .agg(pl.len().cast(pl.Int64).alias("_n"), pl.col(INPUT_POSITION).min().alias("_first"),
                 pl.col(INPUT_POSITION).max().alias("_last"))
            .collect()
        )
    except pl.exceptions.PolarsError as exc:
        raise InputError(f"cannot read {path}{read_as(path)}: {str(exc).splitlines()[0]}") from exc


def _in_key_order(games: pl.DataFrame) -> pl.DataFrame:
    """The games sorted by key. Input written game by game in key order (the usual export) is in key order
    once sorted by first row: an integer sort and a check, instead of a sort of the key text."""
    by_first = games.sort("_first")
    if by_first.select((pl.col("_game_key") > pl.col("_game_key").shift(1)).fill_null(True).all()).item():
        return by_first
    return games.sort("_game_key")


def plan(files: list[Path], partition_rows: int | MemoryBudget = DEFAULT_PARTITION_ROWS, spill_dir: str | Path | None = None,
         require_columns: bool = False, input_kind: str = "auto") -> Plan:
    """Cut the rows of ``files`` (as :func:`analyzer.io.load.expand_inputs` lists them) into parts of whole games.

    ``require_columns``: every file has the columns a score needs (:func:`analyzer.io.columns.check_required`),
    checked before the game ids are read; cutting alone needs only ``game_id``."""
    scans = [scan_file(path, i) for i, path in enumerate(files)]
    if require_columns:  # a missing column is one error, not a file of rejected rows
        for path, scan in zip(files, scans):
            check_required(scan, path, input_kind)
    schema = input_schema(scans)
    per_file = [_games_of(path, lf) for path, lf in zip(files, scans)]
    # one file's games are one row each already; a game may span files
    games = per_file[0] if len(per_file) == 1 else (
        pl.concat(per_file, how="vertical")
        .group_by("_game_key")
        .agg(pl.col("_n").sum(), pl.col("_first").min(), pl.col("_last").max())
    )
    games = _in_key_order(games)
    total = int(games["_n"].sum()) if games.height else 0
    partition_rows = rows_within(partition_rows, games.height, total)  # a memory limit: known from here on
    if total <= partition_rows:
        frame = unified(scans, schema)
        return Plan([Part(0, total, games.height, frame)], total, games.height, spilled=False)
    start = pl.col("_n").cum_sum() - pl.col("_n")
    in_tail = start >= total - partition_rows // TAIL_FRACTION
    games = games.with_columns(
        pl.when(in_tail).then(pl.lit(total, pl.Int64)).otherwise(start.floordiv(partition_rows)).alias("_part"),
    )
    # consecutive part numbers, even where one game is bigger than a part
    games = games.with_columns(pl.col("_part").rank("dense").cast(pl.Int64).sub(1))
    in_order = games.height < 2 or bool(
        games.select((pl.col("_first").shift(-1) > pl.col("_last")).fill_null(True).all()).item()
    )
    all_parquet = all(path.suffix.lower() in (".parquet", ".pq") for path in files)
    counts = games.group_by("_part").agg(pl.col("_n").sum(), pl.len().alias("_games"),
                                         pl.col("_first").min(), pl.col("_last").max()).sort("_part")
    if in_order and all_parquet:
        parts = []
        for index, rows, n_games, first, last in zip(*counts.get_columns()):
            frames = []
            for file_index in range(first // ROWS_PER_FILE, last // ROWS_PER_FILE + 1):
                lo = max(first, file_index * ROWS_PER_FILE + 1) - file_index * ROWS_PER_FILE
                hi = min(last, (file_index + 1) * ROWS_PER_FILE - 1) - file_index * ROWS_PER_FILE
                frames.append(scan_file(files[file_index], file_index, rows=(lo - 1, hi - lo + 1)))
            parts.append(Part(index, rows, n_games, unified(frames, schema)))
        return Plan(parts, total, games.height, spilled=False)
    directory = Path(tempfile.mkdtemp(prefix="analyzer-spill-", dir=spill_dir))
    # a part holds a range of game keys: a row's part is found among the parts' first keys by binary search
    first_keys = games.group_by("_part").agg(pl.col("_game_key").min()).sort("_part")["_game_key"]
    try:
        with writing(directory, SPILL_ADVICE):
            _spill(files, schema, first_keys, directory)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    parts = [
        Part(index, rows, n_games, pl.scan_parquet(directory / f"_part={index}" / "*.parquet"))
        for index, rows, n_games in zip(counts["_part"], counts["_n"], counts["_games"])
    ]
    return Plan(parts, total, games.height, spilled=True, spill_dir=directory)


def _spill(files: list[Path], schema: dict, first_keys: pl.Series, directory: Path) -> None:
    """Every row into ``DIRECTORY/_part=K/NNNNNN.parquet``, a batch of rows at a time (file names in input
    order): memory holds one batch, whatever the input's size or order."""
    part = (pl.lit(first_keys).search_sorted(_game_key(), side="right").cast(pl.Int64) - 1).alias("_part")
    number = 0
    for index, path in enumerate(files):
        for batch in _batches(path, index, schema, part):
            for (key,), rows in batch.partition_by("_part", as_dict=True, include_key=False).items():
                target = directory / f"_part={key}"
                target.mkdir(exist_ok=True)
                rows.write_parquet(target / f"{number:06d}.parquet")
            number += 1


def _batches(path: Path, index: int, schema: dict, part: pl.Expr) -> Iterator[pl.DataFrame]:
    """A file's rows with their part, :data:`SPILL_BATCH_ROWS` at a time: Parquet slices read only their row
    groups; a CSV file is streamed (a slice of it would parse every line before it again)."""
    if format_of(path) == "csv":
        yield from unified([scan_file(path, index)], schema).with_columns(part).collect_batches(
            chunk_size=SPILL_BATCH_ROWS)
        return
    total = scan_file(path, index).select(pl.len()).collect().item()
    for first in range(0, total, SPILL_BATCH_ROWS):
        yield unified([scan_file(path, index, rows=(first, SPILL_BATCH_ROWS))], schema).with_columns(part).collect()


def row_chunks(files: list[Path], chunk_rows: int = DEFAULT_PARTITION_ROWS) -> Iterator[pl.LazyFrame]:
    """The rows of ``files`` in input order, ``chunk_rows`` at a time, all with the same columns — for work
    that is row by row (``tiles encode``) rather than game by game."""
    scans = [scan_file(path, i) for i, path in enumerate(files)]
    schema = input_schema(scans)
    for index, (path, scan) in enumerate(zip(files, scans)):
        total = scan.select(pl.len()).collect().item()
        for first in range(0, total, chunk_rows) or [0]:
            yield unified([scan_file(path, index, rows=(first, min(chunk_rows, total - first)))], schema)
