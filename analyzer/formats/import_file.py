"""An import written to its file as the logs are read (:func:`import_logs`): what ``analyzer import`` runs, in
memory bounded by the batches in flight whatever the number of games, where :func:`.read.read_logs` returns
every game's rows in one frame.

Each batch's rows (:class:`.read.Assembly`, the same games, ids and problems as ``read_logs``) are appended to
part files in a staging folder beside the output, :data:`PART_ROWS` rows at a time; when the last batch is in,
the parts are written as the output one after the other (rows in file order; a later version of a game met
before left out, as ``read_logs`` leaves it out), and :meth:`WrittenImport.commit` renames it into
place. What the run holds meanwhile per game is its id and digest (a game met twice is told from them), and
its problems.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl
import polars.selectors as cs
import pyarrow.parquet as pq

from analyzer.formats.columns import COLUMNS
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.model import ImportProblem
from analyzer.formats.outputs import Staged
from analyzer.formats.read import SOURCE, Assembly, log_batches
from analyzer.io.faults import writing
from analyzer.io.formats import flatten_for_csv
from analyzer.io.load import InputError
from analyzer.io.write import SUFFIX_FORMATS

__all__ = ["PART_ROWS", "WrittenImport", "import_logs"]

PART_ROWS = 100_000  # rows a part file holds: about 60 MB in memory before it is written


@dataclass
class WrittenImport:
    """An import written in its staging folder: :meth:`commit` puts it in place, :meth:`abort` removes it."""

    path: Path
    games: int  # games imported (with rows)
    rows: int
    problems: list[ImportProblem]
    staged: Staged

    def commit(self) -> Path | None:
        """The output put in place (None, and nothing done, where no row was imported)."""
        if self.rows == 0:
            self.abort()
            return None
        self.staged.put_in_place([self.path.name])
        return self.path

    def abort(self) -> None:
        self.staged.remove()


def output_format(path: Path) -> str:
    """``parquet`` or ``csv`` from the output's suffix; another is refused before any log is read."""
    fmt = SUFFIX_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"{path}: use a .parquet or .csv file name")
    return fmt


def import_logs(paths: list[str | Path], output: str | Path, log_format: str = "tenhou", workers: int | None = None,
                progress: Callable[[int, int, int], None] | None = None, max_log_size: int = DEFAULT_MAX_LOG_BYTES,
                scheduler: str | None = None, client=None, events=None, advice: str | None = None) -> WrittenImport:
    """The hand records of the logs in ``paths`` (as :func:`.read.read_logs` reads them: ``log_format``,
    ``workers``, ``scheduler``, ``client``, ``events``) written to ``output`` (``.parquet``, or ``.csv``: lists
    as text, times as the text a Parquet import's give) in a staging folder, batch by batch; the caller commits
    it (or aborts: nothing is left behind). With no rows, nothing is written: ``rows`` is 0. An OS error
    writing it names ``output``, with ``advice``."""
    path = Path(output)
    fmt = output_format(path)
    files, problems, batches = log_batches(paths, workers, log_format, max_log_size, scheduler, client, events)
    staged = Staged(path, path.parent)
    staged.open()
    try:
        assembly = Assembly(files, problems)
        parts = _parts(assembly.frames(batches, progress, events), staged.staging, path, advice)
        left_out = assembly.later_rows(pl.scan_parquet(parts)) if parts and assembly.pending else pl.lit(False)
        with writing(path, advice):
            rows, games = _written(parts, left_out, staged.staging / path.name, fmt)
        for part in parts:
            part.unlink()
    except BaseException:
        staged.remove()
        raise
    return WrittenImport(path, games if rows else 0, rows, problems, staged)


def _parts(frames, folder: Path, output: Path, advice: str | None) -> list[Path]:
    """The frames appended to part files in ``folder``, :data:`PART_ROWS` rows or more each, in order."""
    parts: list[Path] = []
    waiting: list[pl.DataFrame] = []

    def flush() -> None:
        if waiting:
            part = folder / f".part-{len(parts):06d}.parquet"
            with writing(output, advice):
                pl.concat(waiting).write_parquet(part, compression="lz4")
            parts.append(part)
            waiting.clear()

    for frame in frames:
        if frame.height:
            waiting.append(frame)
        if sum(f.height for f in waiting) >= PART_ROWS:
            flush()
    flush()
    return parts


def _written(parts: list[Path], left_out: pl.Expr, target: Path, fmt: str) -> tuple[int, int]:
    """The parts' rows but those ``left_out`` written to ``target`` one part at a time (Parquet: the parts'
    Arrow tables appended; CSV: lists as text, times as the text a Parquet import's give, so that a CSV and a
    Parquet import are exact copies); the rows and games written."""
    rows = games = 0
    with open(target, "wb") as handle:
        writer = None
        for part in parts:
            frame = pl.read_parquet(part).filter(~left_out).select(list(COLUMNS))
            if frame.height == 0:
                continue
            if fmt == "csv":
                flatten_for_csv(frame.with_columns(cs.datetime().cast(pl.String))).write_csv(
                    handle, include_header=rows == 0)
            else:
                table = frame.to_arrow()
                writer = writer or pq.ParquetWriter(handle, table.schema, compression="zstd")
                writer.write_table(table.cast(writer.schema))
            rows, games = rows + frame.height, games + frame["game_id"].n_unique()  # a game is in one part
        if writer is not None:
            writer.close()
    return rows, games
