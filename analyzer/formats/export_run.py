"""The export runner: logs of any format read in worker processes (or as tasks on a Dask cluster), each game
turned into its export there, the results streamed to the output in the order of the files.

A game is read as ``import`` reads it (:func:`analyzer.formats.parse.parse_file` with the format told from
the content), with the same game id; a file that does not read is named, skipped and counted, a copy of an
earlier game (the same content or the same log id) is exported once. Two kinds of output:

* a table (:class:`TableOutput`): one Arrow table per batch of files, appended to one Parquet file written in
  a staging folder beside it and renamed when the run ends (memory holds a few batches, never the archive);
* a directory (:class:`DirectoryOutput`): one text file per game, written in a staging folder inside it and
  renamed into place together when the run ends.

Either way a fault or Ctrl-C leaves nothing behind (:class:`~analyzer.formats.outputs.Staged`); an OS error
names the output (:class:`~analyzer.io.faults.OutputError`). A run of files the import reads as columns (mjlog,
mjai, tenhou.net/6 JSON without worker processes) reads them so here too, on threads of this process
(:mod:`.read_columns`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

import pyarrow as pa

from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, FORMATS, expand_paths
from analyzer.formats.model import Game, ImportProblem, copies_skipped, files_failed
from analyzer.formats.outputs import DirectoryOutput, TableOutput
from analyzer.formats.parse import read_game as read_log_game
from analyzer.formats.read import BATCH_FILES, PARALLEL_FROM_FILES, copy_of, file_batches, read_logs
from analyzer.formats.read_columns import BATCH_FILES as COLUMN_BATCH_FILES
from analyzer.formats.read_columns import reads_as_columns
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
        return files_failed(self.problems)

    @property
    def copies(self) -> int:
        return copies_skipped(self.problems)


def read_game(path: Path, max_bytes: int) -> tuple[Game | None, str, str, str | None]:
    """(game, game id, digest, None), or (None, "", "", reason) for a file that does not read, as ``import``
    reads it (each file's format told from its content)."""
    return read_log_game(path, "auto", max_bytes)


def _recorded_otherwise(earlier: Path, later: Path, max_bytes: int) -> tuple[str, bool] | None:
    """(the reason, True) when ``later`` holds the game of ``earlier`` with the same plays, recorded otherwise
    (a Mahjong Soul raw record and tensoul's copy of it), as the import compares them
    (:func:`analyzer.core.records.compare_sources`); None for another version of the game. Read only for a
    game id met twice with other content."""
    _, problems = read_logs([earlier, later], workers=1, log_format="auto", max_log_size=max_bytes)
    for problem in problems:
        if problem.imported and problem.same_as is not None and Path(problem.file) == Path(later):
            return problem.reason.replace("imported once", "exported once"), True
    return None


def export_logs(paths: list[str | Path], batch: Callable, output, workers: int | None = None,
                scheduler: str | None = None, client=None, progress: Progress | None = None,
                max_log_size: int = DEFAULT_MAX_LOG_BYTES, columns: Callable | None = None) -> ExportSummary:
    """Run ``batch(files, max_bytes)`` (per file its outcome, and the batch's rows or texts) over the files of
    ``paths`` and write its results to ``output`` (a :class:`TableOutput` or a :class:`DirectoryOutput`).
    ``columns``: the batch of a run of files the import reads as columns (:func:`.read_columns.reads_as_columns`,
    told for the processes this run would have), read as columns on threads of this process (Polars) instead, in
    batches of :data:`.read_columns.BATCH_FILES`, giving results of the same form."""
    check_where(workers, scheduler, client)
    files, problems = expand_paths(paths, FORMATS["auto"])
    summary = ExportSummary(str(getattr(output, "path", "")), unit=output.unit, problems=problems)
    if workers is None:
        workers = default_workers(len(files), PARALLEL_FROM_FILES)
    processes = workers if scheduler is None and client is None else 1  # forked, as the import counts them
    by_columns = columns is not None and reads_as_columns(files, "auto", processes)
    batches = file_batches(files, COLUMN_BATCH_FILES if by_columns else BATCH_FILES)
    first_file: dict[tuple[str, str], Path] = {}
    done = 0
    try:
        output.open()
        results = map_in_order(partial(columns if by_columns else batch, max_bytes=max_log_size), batches, workers,
                               scheduler, client, threads=by_columns)
        for outcomes, payload in results:
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
                    if not same_content:  # the same game recorded otherwise is a copy, as the import decides
                        reason, same_content = _recorded_otherwise(earlier, f, max_log_size) or (reason, False)
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
        if summary.games:
            output.commit()
        else:
            output.abort()
    except BaseException:
        output.abort()  # nothing left behind: no temporary file, no folder the export made
        raise
    return summary
