"""The export runner: logs of any format read in worker processes (or as tasks on a Dask cluster), each game
turned into its export there, the results streamed to the output in the order of the files.

A game is read as ``import`` reads it (:func:`analyzer.formats.parse.parse_file` with the format told from
the content), with the same game id; a file that does not read is named, skipped and counted, a copy of an
earlier game (the same content or the same log id) is exported once. Two kinds of output:

* a table (:class:`TableOutput`): one Arrow table per batch of files, appended to one Parquet file written to
  a temporary name and renamed when the run ends (memory holds a few batches, never the archive);
* a directory (:class:`DirectoryOutput`): one text file per game, each written to a temporary name and renamed.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, FORMATS, expand_paths
from analyzer.formats.model import Game, ImportProblem
from analyzer.formats.read import BATCH_FILES, PARALLEL_FROM_FILES, copy_of
from analyzer.formats.read import read_game as read_log_game
from analyzer.run.file_batches import check_where, default_workers, map_in_order

Progress = Callable[[int, int, int], None]


@dataclass
class ExportSummary:
    """What an export wrote: games, rows (events, or files written), the files' problems (as ``import``'s)."""

    output: str
    games: int = 0
    rows: int = 0
    unit: str = "row(s)"
    problems: list[ImportProblem] = field(default_factory=list)

    @property
    def failed(self) -> int:
        """Files (or games) not exported: read errors and other versions of a game."""
        return sum(1 for p in self.problems if not p.imported)

    @property
    def copies(self) -> int:
        return sum(1 for p in self.problems if p.same_as is not None and p.imported)


# min/max kept for the columns a reader filters on (row groups skipped); the others' cost a third of the write
STATISTICS = ["game_id", "log_row", "event", "seat", "round"]


class TableOutput:
    """Arrow tables appended to one Parquet file: a temporary file beside it, renamed at the end."""

    unit = "event row(s)"

    def __init__(self, path: str | Path, schema: pa.Schema) -> None:
        self.path, self.schema = Path(path), schema
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, self.temp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        os.close(handle)
        self.writer = pq.ParquetWriter(self.temp, schema, compression="zstd", write_statistics=STATISTICS)

    def write(self, table: pa.Table) -> int:
        if table.num_rows:
            self.writer.write_table(table.cast(self.schema))
        return table.num_rows

    def commit(self) -> None:
        self.writer.close()
        os.replace(self.temp, self.path)

    def abort(self) -> None:
        self.writer.close()
        Path(self.temp).unlink(missing_ok=True)


class DirectoryOutput:
    """One text file per game in a directory, ``GAME_ID`` + ``suffix``, each written whole under a temporary
    name and renamed: a file there is always complete."""

    unit = "file(s)"

    def __init__(self, path: str | Path, suffix: str) -> None:
        self.path, self.suffix = Path(path), suffix
        self.path.mkdir(parents=True, exist_ok=True)

    def write_game(self, gid: str, text: str) -> None:
        target = self.path / (_safe_name(gid) + self.suffix)
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=self.path)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def commit(self) -> None:
        pass

    def abort(self) -> None:
        pass


def _safe_name(gid: str) -> str:
    """A game id as a file name: ids are letters, digits, dashes and dots; anything else (a separator) is _."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", gid)
    return "_" + name if name.startswith(".") else name


def read_game(path: Path, max_bytes: int) -> tuple[Game | None, str, str, str | None]:
    """(game, game id, digest, None), or (None, "", "", reason) for a file that does not read, as ``import``
    reads it (each file's format told from its content)."""
    return read_log_game(path, "auto", max_bytes)


def export_logs(paths: list[str | Path], batch: Callable, output, workers: int | None = None,
                scheduler: str | None = None, client=None, progress: Progress | None = None,
                max_log_size: int = DEFAULT_MAX_LOG_BYTES) -> ExportSummary:
    """Run ``batch(files, max_bytes)`` (per file its outcome, and the batch's rows or texts) over the files of
    ``paths`` and write its results to ``output`` (a :class:`TableOutput` or a :class:`DirectoryOutput`)."""
    check_where(workers, scheduler, client)
    files, problems = expand_paths(paths, FORMATS["auto"])
    summary = ExportSummary(str(getattr(output, "path", "")), unit=output.unit, problems=problems)
    if workers is None:
        workers = default_workers(len(files), PARALLEL_FROM_FILES)
    batches = [files[i : i + BATCH_FILES] for i in range(0, len(files), BATCH_FILES)]
    first_file: dict[tuple[str, str], Path] = {}
    done = 0
    try:
        for outcomes, payload in map_in_order(partial(batch, max_bytes=max_log_size), batches, workers,
                                              scheduler, client):
            keep: list[bool] = []
            for i, (gid, digest, n_rows, notes, error) in enumerate(outcomes):
                f = files[done]
                done += 1
                if error is not None:
                    problems.append(ImportProblem(str(f), error, game_id=gid or None))
                    keep.extend([False] * n_rows)
                    continue
                copy = copy_of(gid, digest, first_file, "exported")
                keep.extend([copy is None] * n_rows)
                if copy is not None:
                    earlier, reason, same_content = copy
                    problems.append(ImportProblem(str(f), reason, game_id=gid, imported=same_content,
                                                  same_as=str(earlier)))
                    continue
                first_file[("id", gid)] = first_file[("content", digest)] = f
                summary.games += 1
                problems.extend(ImportProblem(str(f), text, game_id=gid, imported=True, hand=hand)
                                for text, hand in notes)
                if isinstance(output, DirectoryOutput):
                    output.write_game(gid, payload[i])
                    summary.rows += 1
            if isinstance(output, TableOutput):
                table = payload if all(keep) else payload.filter(pa.array(keep, pa.bool_()))
                summary.rows += output.write(table)
            if progress is not None:
                progress(done, len(files), summary.games)
    except BaseException:
        output.abort()
        raise
    if summary.games:
        output.commit()
    else:
        output.abort()
    return summary
