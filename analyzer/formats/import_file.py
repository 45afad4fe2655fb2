"""An import written to its file as the logs are read (:func:`import_logs`): what ``analyzer import`` runs, in
memory bounded by the batches in flight whatever the number of games, where :func:`.read.read_logs` returns
every game's rows in one frame.

Each batch's rows (:class:`.read.Assembly`: the same games, ids and problems as ``read_logs``) are appended to
the output in a staging folder beside it, :data:`GROUP_ROWS` rows at a time (a CSV output is written from such
a Parquet file once the last batch is in), and :meth:`WrittenImport.commit` renames it into place. The rows of
a later version of a game met before (the same id, other content) are never written, as ``read_logs`` leaves
them out; they are held until the end and compared with the earlier file's rows, read back from the file,
which says whether the later file is a copy written otherwise. What the run holds meanwhile per game is its id
and digest (a game met twice is told from them), and its problems.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl
import polars.selectors as cs
import pyarrow.parquet as pq

from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.model import ImportProblem
from analyzer.formats.outputs import Staged
from analyzer.formats.read import SOURCE, Assembly, log_batches
from analyzer.io.faults import writing
from analyzer.io.formats import flatten_for_csv
from analyzer.io.write import table_format

__all__ = ["GROUP_ROWS", "WrittenImport", "import_logs"]

GROUP_ROWS = 100_000  # rows of a row group: about 60 MB in memory before they are written


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


def import_logs(paths: list[str | Path], output: str | Path, log_format: str = "tenhou", workers: int | None = None,
                progress: Callable[[int, int, int], None] | None = None, max_log_size: int = DEFAULT_MAX_LOG_BYTES,
                scheduler: str | None = None, client=None, events=None, advice: str | None = None) -> WrittenImport:
    """The hand records of the logs in ``paths`` (as :func:`.read.read_logs` reads them: ``log_format``,
    ``workers``, ``scheduler``, ``client``, ``events``) written to ``output`` (``.parquet``, or ``.csv``: lists
    as text, times as the text a Parquet import's give) in a staging folder, batch by batch; the caller commits
    it (or aborts: nothing is left behind). With no rows, nothing is written: ``rows`` is 0. An OS error
    writing it names ``output``, with ``advice``."""
    path = Path(output)
    fmt = table_format(path)  # another suffix refused before any log is read
    files, problems, batches = log_batches(paths, workers, log_format, max_log_size, scheduler, client, events)
    staged = Staged(path, path.parent, prefix=".analyzer-import-")
    staged.open()
    table = staged.staging / (path.name if fmt == "parquet" else ".rows.parquet")
    try:
        assembly = Assembly(files, problems)
        rows, games, later = _appended(assembly.frames(batches, progress, events), table, assembly.pending, path,
                                       advice)
        if later:  # compared with the earlier files' rows, read back
            ids = pl.concat([frame.select("game_id") for frame in later])["game_id"].unique().implode()
            earlier = pl.scan_parquet(table).filter(pl.col("game_id").is_in(ids)).with_columns(
                pl.lit(-1, pl.Int64).alias(SOURCE))
            assembly.settle_later(pl.concat([earlier, *(frame.lazy() for frame in later)]))
        if rows and fmt == "csv":
            with writing(path, advice):
                _as_csv(table, staged.staging / path.name)
            table.unlink()
    except BaseException:
        staged.remove()
        raise
    return WrittenImport(path, games, rows, problems, staged)


def _appended(frames, table: Path, pending: dict[int, int], output: Path, advice: str | None,
              ) -> tuple[int, int, list[pl.DataFrame]]:
    """The frames' rows appended to the Parquet file ``table``, :data:`GROUP_ROWS` at a time, but those of the
    files in ``pending`` (the later versions of a game met before, filled in as the frames come), which are
    returned; the rows and games written. An OS error writing names ``output`` (with ``advice``); one reading
    the frames is theirs."""
    rows = games = 0
    waiting: list[pl.DataFrame] = []
    later: list[pl.DataFrame] = []
    writer: pq.ParquetWriter | None = None

    def flush() -> None:
        nonlocal writer
        if waiting:
            arrow = pl.concat(waiting).to_arrow()
            waiting.clear()
            with writing(output, advice):
                writer = writer or pq.ParquetWriter(table, arrow.schema, compression="zstd")
                writer.write_table(arrow.cast(writer.schema))

    try:
        for frame in frames:
            if pending:
                is_later = pl.col(SOURCE).is_in(list(pending))
                later.append(frame.filter(is_later))
                frame = frame.filter(~is_later)
            frame = frame.drop(SOURCE)
            if frame.height:
                rows, games = rows + frame.height, games + frame["game_id"].n_unique()  # a game is in one batch
                waiting.append(frame)
            if sum(f.height for f in waiting) >= GROUP_ROWS:
                flush()
        flush()
    finally:
        if writer is not None:
            with writing(output, advice):
                writer.close()
    return rows, games, [frame for frame in later if frame.height]


def _as_csv(table: Path, target: Path) -> None:
    """The Parquet file ``table`` as CSV, a row group at a time: lists as text, times as the text a Parquet
    import's give, so that a CSV and a Parquet import are exact copies."""
    source = pq.ParquetFile(table)
    with open(target, "wb") as handle:
        for group in range(source.num_row_groups):
            frame = pl.from_arrow(source.read_row_group(group))
            flatten_for_csv(frame.with_columns(cs.datetime().cast(pl.String))).write_csv(
                handle, include_header=group == 0)
