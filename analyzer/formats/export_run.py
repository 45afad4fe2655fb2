"""The export runner: logs of any format read in worker processes (or as tasks on a Dask cluster), each game
turned into its export there, the results streamed to the output in the order of the files.

A game is read as ``import`` reads it (:func:`analyzer.formats.parse.parse_file` with the format told from
the content), with the same game id; a file that does not read is named, skipped and counted, a copy of an
earlier game (the same content or the same log id) is exported once. Two kinds of output:

* a table (:class:`TableOutput`): one Arrow table per batch of files, appended to one Parquet file written in
  a staging folder beside it and renamed when the run ends (memory holds a few batches, never the archive);
* a directory (:class:`DirectoryOutput`): one text file per game, written in a staging folder inside it and
  renamed into place together when the run ends.

Either way a fault or Ctrl-C leaves nothing behind (:class:`Staged`); an OS error names the output
(:class:`~analyzer.io.faults.OutputError`).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, FORMATS, expand_paths
from analyzer.io.faults import interrupts_held, set_aside, writing
from analyzer.formats.model import Game, ImportProblem, copies_skipped, files_failed
from analyzer.formats.read import BATCH_FILES, PARALLEL_FROM_FILES, copy_of, read_logs
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
        return files_failed(self.problems)

    @property
    def copies(self) -> int:
        return copies_skipped(self.problems)


# min/max kept for the columns a reader filters on (row groups skipped); the others' cost a third of the write
STATISTICS = ["game_id", "log_row", "event", "seat", "round"]


class Staged:
    """What an output writes, in a folder of its own (``.analyzer-export-…``) beside the files it makes, put
    in place together at the commit; the abort (a fault, Ctrl-C) removes it and the folders the output made,
    so a failed export leaves the disk as it was. Its files follow the umask, as ``score``'s."""

    def __init__(self, path: Path, folder: Path) -> None:
        self.path, self.folder = path, folder  # the output named in errors; where its files go
        self.made: list[Path] = []
        self.staging: Path | None = None

    def open(self) -> None:
        with interrupts_held(), writing(self.path):  # Ctrl-C while they are made: known, for the abort
            self.made = [f for f in [self.folder, *self.folder.parents] if not f.exists()]
            self.folder.mkdir(parents=True, exist_ok=True)
            self.staging = Path(tempfile.mkdtemp(prefix=".analyzer-export-", dir=self.folder))

    def put_in_place(self, names: list[str]) -> None:
        """The staged files ``names`` renamed into the folder together: a file one replaces is kept until all
        are in, and put back if a rename fails or Ctrl-C comes meanwhile."""
        kept, done = self.staging / ".replaced", []
        with interrupts_held() as held, writing(self.path):
            kept.mkdir()
            try:
                for name in names:
                    final = self.folder / name
                    if final.exists():
                        set_aside(final, kept / name)
                    done.append(name)
                    os.replace(self.staging / name, final)
            except BaseException:
                self._put_back(done, kept)
                raise
            if held.interrupted:  # the export is not written, as for Ctrl-C before
                self._put_back(done, kept)
            self.remove(keep_folders=not held.interrupted)

    def _put_back(self, names: list[str], kept: Path) -> None:
        for name in reversed(names):
            if (kept / name).exists():
                os.replace(kept / name, self.folder / name)
            else:
                (self.folder / name).unlink(missing_ok=True)

    def remove(self, keep_folders: bool = False) -> None:
        """The staging folder removed, and (``keep_folders`` aside) the folders the output made."""
        with interrupts_held():
            if self.staging is not None:
                shutil.rmtree(self.staging, ignore_errors=True)
                self.staging = None
            for folder in [] if keep_folders else self.made:  # deepest first; one holding something else stays
                try:
                    folder.rmdir()
                except OSError:
                    break
            self.made = []


class TableOutput:
    """Arrow tables appended to one Parquet file, written in a staging folder beside it and renamed at the end."""

    unit = "event row(s)"

    def __init__(self, path: str | Path, schema: pa.Schema) -> None:
        self.path, self.schema = Path(path), schema
        self.files = Staged(self.path, self.path.parent)
        self.writer: pq.ParquetWriter | None = None

    def open(self) -> None:
        self.files.open()
        with writing(self.path):
            self.writer = pq.ParquetWriter(self.staged, self.schema, compression="zstd",
                                           write_statistics=STATISTICS)

    def write(self, table: pa.Table) -> int:
        if table.num_rows:
            with writing(self.path):
                self.writer.write_table(table.cast(self.schema))
        return table.num_rows

    def commit(self) -> None:
        self.close()
        self.files.put_in_place([self.path.name])

    def close(self) -> None:
        """The file finished in the staging folder (not yet in place)."""
        with writing(self.path):  # closing writes what is buffered: the disk may be full
            self.writer, writer = None, self.writer
            writer.close()

    @property
    def staged(self) -> Path:
        """Where the file is written until it is put in place."""
        return self.files.staging / self.path.name

    def abort(self) -> None:
        with interrupts_held():
            try:
                if self.writer is not None:
                    self.writer, writer = None, self.writer
                    writer.close()
            except Exception:  # a full disk again: the run's own error is what matters
                pass
            finally:
                self.files.remove()


class DirectoryOutput:
    """One text file per game in a directory, ``GAME_ID`` + ``suffix``, written in a staging folder inside it
    and renamed into place together at the end: the directory holds this export's files all, or none."""

    unit = "file(s)"

    def __init__(self, path: str | Path, suffix: str) -> None:
        self.path, self.suffix = Path(path), suffix
        self.files = Staged(self.path, self.path)
        self.names: list[str] = []

    def open(self) -> None:
        self.files.open()

    def write_game(self, gid: str, text: str) -> None:
        name = _safe_name(gid) + self.suffix
        with writing(self.path / name):
            (self.files.staging / name).write_text(text, encoding="utf-8", newline="\n")
        self.names.append(name)

    def commit(self) -> None:
        self.files.put_in_place(list(dict.fromkeys(self.names)))

    def abort(self) -> None:
        self.files.remove()


def _safe_name(gid: str) -> str:
    """A game id as a file name: ids are letters, digits, dashes and dots; anything else (a separator) is _."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", gid)
    return "_" + name if name.startswith(".") else name


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
                max_log_size: int = DEFAULT_MAX_LOG_BYTES, convert: Callable | None = None) -> ExportSummary:
    """Run ``batch(files, max_bytes)`` (per file its outcome, and the batch's rows or texts) over the files of
    ``paths`` and write its results to ``output`` (a :class:`TableOutput` or a :class:`DirectoryOutput`).
    ``convert``: a stream over the batches' results run in this process (the per-game texts made from the
    batches' log tables by Polars, which does not run in forked workers), yielding results of the same form."""
    check_where(workers, scheduler, client)
    files, problems = expand_paths(paths, FORMATS["auto"])
    summary = ExportSummary(str(getattr(output, "path", "")), unit=output.unit, problems=problems)
    if workers is None:
        workers = default_workers(len(files), PARALLEL_FROM_FILES)
    batches = [files[i : i + BATCH_FILES] for i in range(0, len(files), BATCH_FILES)]
    first_file: dict[tuple[str, str], Path] = {}
    done = 0
    try:
        output.open()
        results = map_in_order(partial(batch, max_bytes=max_log_size), batches, workers, scheduler, client)
        for outcomes, payload in (results if convert is None else convert(results)):
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
