"""Writing outputs atomically: each file is written to a temporary name beside it, then renamed into place. An
OS error while writing (a full disk, a read-only directory) is raised as :class:`OutputError`, naming the file
or directory it happened to; a failed or interrupted write leaves what was there before."""

from __future__ import annotations

import json
import os
import queue
import shutil
import threading
import uuid
import tempfile
from pathlib import Path
from typing import Callable

import polars as pl

from analyzer.io.faults import interrupts_held, set_aside, writing
from analyzer.io.formats import (  # plain_types: known as write.plain_types too
    NDJSON_TABLES, RUN_FORMATS, WORKBOOK_NAME, flatten_for_csv, plain_types, table_file,
)
from analyzer.io.json_tables import json_file
from analyzer.io.lock import LOCK_NAME, lock_outdir, unlock_outdir  # LOCK_NAME: known as write.LOCK_NAME too
from analyzer.io.load import InputError
from analyzer.io.parquet_stream import ParquetStream
from analyzer.io.workbook import left_out_note, require_xlsxwriter, workbook_from_parts, write_workbook

FORMATS = ("parquet", "csv")
SUFFIX_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}


def table_format(path: Path) -> str:
    """``parquet`` or ``csv`` from a table file's suffix (:class:`InputError` for another)."""
    if (fmt := SUFFIX_FORMATS.get(path.suffix.lower())) is None:
        raise InputError(f"{path}: use a .parquet or .csv file name")
    return fmt


def write_table(df: pl.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
    """Write ``df`` to ``path`` (format from ``fmt`` or the suffix) without ever leaving a partial file."""
    path = Path(path)
    fmt = table_format(path) if fmt is None else fmt
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}; use one of {', '.join(FORMATS)}")
    if fmt == "csv":
        return write_atomic(path, lambda temp: flatten_for_csv(df).write_csv(temp))
    return write_atomic(path, lambda temp: df.write_parquet(temp, compression="zstd"))


def write_atomic(path: str | Path, writer: Callable[[str], None]) -> Path:
    """Call ``writer(temp_name)`` for a temporary file beside ``path``, then rename it into place (an OS error
    as :class:`OutputError` naming ``path``)."""
    path = Path(path)
    with writing(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        with interrupts_held() as held:  # a temporary file made is a temporary file known, for the cleanup
            handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            os.close(handle)
            if held.interrupted:
                Path(temp_name).unlink(missing_ok=True)
                raise KeyboardInterrupt
        try:
            writer(temp_name)
            os.chmod(temp_name, 0o666 & ~current_umask())  # a temporary file is private; the output follows the umask
            os.replace(temp_name, path)
        except BaseException:
            Path(temp_name).unlink(missing_ok=True)
            raise
    return path


def write_results(tables: dict[str, pl.DataFrame], outdir: str | Path, fmt: str = "parquet") -> dict[str, Path]:
    """Write each named table as ``OUTDIR/NAME.{parquet,csv}`` (or into one workbook, ``xlsx``, or as JSON,
    ``json``: :mod:`analyzer.io.formats`); returns the paths written."""
    outdir = Path(outdir)
    if fmt == "xlsx":
        left_out: list[str] = []
        path = write_atomic(outdir / WORKBOOK_NAME, lambda temp: left_out.extend(write_workbook(tables, temp)))
        return {name: path for name in tables if name not in left_out}  # a table too long for a sheet: not there
    if fmt == "json":
        def write_json(df: pl.DataFrame, records_per_line: bool) -> Callable[[str], None]:
            def write(temp: str) -> None:
                out = json_file(temp, records_per_line)
                out.append(plain_types(df))
                out.close()
            return write
        return {name: write_atomic(outdir / table_file(name, fmt), write_json(df, name in NDJSON_TABLES))
                for name, df in tables.items()}
    return {name: write_table(df, outdir / f"{name}.{fmt}", fmt) for name, df in tables.items()}


class ResultWriter:
    """The tables of one run, written as a unit into OUTDIR, in parts.

    ``append(name, df)`` adds rows to ``NAME.{parquet,csv}`` (Parquet row groups, or CSV lines after one
    header); the files grow in a temporary directory inside OUTDIR and :meth:`commit` renames them into place
    together, so OUTDIR never holds a half-written table of this run: the tables they replace are kept until all
    are in, and put back if the commit fails or is interrupted. :meth:`abort` removes this run's files (and
    OUTDIR, when the run made it). The run holds OUTDIR's lock (:func:`lock_outdir`) from its start until the
    commit or the abort, which remove the run directory and the lock file; Ctrl-C is held back while the two
    are taken and while they are given up, so it never leaves either behind. OS errors are
    :class:`OutputError`.
    ``streamed=False`` promises one ``append`` per table: Parquet is then written by Polars in one go (faster
    than Arrow's incremental writer).

    Writing happens on a background thread (encoding releases the GIL), so one partition is written while the
    next is scored; at most :data:`PENDING` tables wait, which bounds the memory this costs. An error of the
    writer thread is raised by the next ``append`` or by ``commit``.
    """

    PENDING = 2

    def __init__(
        self, outdir: str | Path, fmt: str = "parquet", streamed: bool = True, file_names: dict[str, str] | None = None,
        optional: tuple[str, ...] = (),
    ) -> None:
        if fmt not in RUN_FORMATS:
            raise ValueError(f"unknown output format {fmt!r}; use one of {', '.join(RUN_FORMATS)}")
        if fmt == "xlsx":
            require_xlsxwriter()
        self.notes: list[str] = []  # what the commit could not do as asked (a table too big for a workbook)
        self._workbook_made = False
        self.outdir = Path(outdir)
        self.fmt = fmt
        self.streamed = streamed
        self._file_names = file_names or {}
        self._made = not self.outdir.is_dir()  # abort removes OUTDIR too when this run made it
        self._lock = None
        self._done = False  # committed or dropped: abort has nothing left to do
        self._staged: list[str] = []  # the files of the tables, once staged
        # Ctrl-C held back until the lock and the run directory are both taken (kept) or both dropped: between
        # the two, nothing else would remove them
        with interrupts_held() as held, writing(self.outdir):
            try:
                self.outdir.mkdir(parents=True, exist_ok=True)
                self._lock = lock_outdir(self.outdir)
                self._temp = Path(tempfile.mkdtemp(prefix=".analyzer-run-", dir=self.outdir))
            except BaseException:
                self._remove_made()
                raise
            if held.interrupted:
                shutil.rmtree(self._temp, ignore_errors=True)
                self._remove_made()
                raise KeyboardInterrupt
        self._cancelled = False
        # tables a run writes only when its input has them: one the run before wrote and this one has not is
        # removed at the commit (the manifest of the run before names it)
        self._optional = optional
        self._stale: list[str] = []
        self._parquet: dict[str, ParquetStream] = {}
        self._csv: dict[str, object] = {}
        self._order: list[str] = []
        self._written: set[str] = set()
        self._queue: queue.Queue = queue.Queue(maxsize=self.PENDING)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="analyzer-writer", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self._error is None and not self._cancelled:
                try:
                    self._write(*item)
                except BaseException as exc:  # handed to the caller's thread
                    self._error = exc

    @property
    def temp(self) -> Path:
        """The run's temporary directory inside OUTDIR (removed with the commit or the abort)."""
        return self._temp

    def _raise_error(self) -> None:
        if self._error is not None:
            raise self._error

    def _path(self, name: str) -> Path:
        if self.fmt == "xlsx":  # tables streamed to Parquet, the workbook made of them at the commit
            return self._temp / (WORKBOOK_NAME if self._workbook_made else f"{name}.parquet")
        return self._temp / self._file_names.get(name, table_file(name, self.fmt))

    def append(self, name: str, df: pl.DataFrame) -> None:
        """Queue ``df`` to be added to table ``name``."""
        self._raise_error()
        if name not in self._order:
            self._order.append(name)
        self._queue.put((name, df))

    def write_whole(self, name: str, frame: pl.LazyFrame) -> None:
        """Table ``name`` written at once from ``frame``, streamed into its file (part files read together, say:
        never all in memory)."""
        self._raise_error()
        if name in self._order:
            raise ValueError(f"{name} is already a table of this run")
        self._order.append(name)
        path = self._path(name)
        with writing(self.outdir / path.name):
            if self.fmt == "csv":
                flatten_for_csv(plain_types(frame)).sink_csv(path)
            else:
                plain_types(frame).sink_parquet(path, compression="zstd")

    def _write(self, name: str, df: pl.DataFrame) -> None:
        with writing(self.outdir / self._path(name).name):
            self._write_part(name, plain_types(df))

    def _write_part(self, name: str, df: pl.DataFrame) -> None:
        if self.fmt == "json":
            handle = self._csv.get(name)
            if handle is None:
                handle = self._csv[name] = json_file(self._path(name), name in NDJSON_TABLES)
            handle.append(df)
            return
        if self.fmt == "csv":
            handle = self._csv.get(name)
            first = handle is None
            if first:
                handle = self._csv[name] = open(self._path(name), "w", encoding="utf-8", newline="")
            flatten_for_csv(df).write_csv(handle, include_header=first)
            return
        if not self.streamed:
            if name in self._written:
                raise ValueError(f"{name} appended twice to a writer that is not streamed")
            self._written.add(name)
            df.write_parquet(self._path(name), compression="zstd")
            return
        stream = self._parquet.get(name)
        if stream is None:
            stream = self._parquet[name] = ParquetStream(self._path(name), df.schema)
        stream.write(df)

    def _finish_thread(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

    def _close(self) -> None:
        """Every file closed, each whatever the others raise (the disk may be full; Ctrl-C may have cancelled an
        encoder), the first error raised after; Ctrl-C waits: no encoder may write on into a removed directory."""
        failed = None
        try:
            self._finish_thread()
        except BaseException as exc:  # Ctrl-C while waiting for the thread: it is waited for below, Ctrl-C held
            failed = exc
        with interrupts_held():
            if self._thread.is_alive():  # the thread stops at the first None it meets: a second one is harmless
                self._queue.put(None)
                self._thread.join()
            for handles in (self._parquet, self._csv):
                for name in list(handles):
                    try:
                        with writing(self.outdir / self._path(name).name):
                            handles.pop(name).close()
                    except BaseException as exc:  # the other files are closed all the same
                        failed = failed or exc
        if failed is not None:
            raise failed

    def commit(self, details: dict | None = None) -> dict[str, Path]:
        """Move every table into OUTDIR (:meth:`stage`, then :meth:`publish`); returns the paths written."""
        paths = self.stage(details)
        self.publish()
        return paths

    def stage(self, details: dict | None = None) -> dict[str, Path]:
        """Every table finished in the run directory (:attr:`temp`), the manifest beside them; returns the paths
        the tables will have in OUTDIR. ``details`` (plain JSON values) go into the manifest beside the run id
        and the tables. Until :meth:`publish`, OUTDIR is as it was and :meth:`abort` drops the run."""
        self._close()
        self._raise_error()
        if self.fmt == "xlsx":
            self._make_workbook()
        files = [self._path(name).name for name in self._order]
        text = json.dumps({"run": uuid.uuid4().hex, "tables": dict(zip(self._order, files)), **(details or {})},
                          indent=2)
        per_table, self._staged = dict(zip(self._order, files)), list(dict.fromkeys(files))  # a workbook: one file
        with writing(self.outdir / MANIFEST_NAME):  # written beside the tables first: a full disk stops it here
            (self._temp / MANIFEST_NAME).write_text(text + "\n", encoding="utf-8")
        for name in [*self._staged, MANIFEST_NAME]:
            os.chmod(self._temp / name, 0o666 & ~current_umask())  # a temporary directory is private
        return {name: self.outdir / file for name, file in per_table.items()}

    def publish(self, extra: tuple[str, ...] = ()) -> None:
        """The staged tables renamed into OUTDIR together, with ``extra`` files put in the run directory beside
        them (a report); the run directory and the lock removed."""
        files = [*self._staged, *extra]
        with interrupts_held() as held, writing(self.outdir):
            self._swap(files)
            if held.interrupted:  # Ctrl-C while swapping: the run is not written, as for Ctrl-C before
                self._put_back([*self._stale, *files, MANIFEST_NAME])
            # the run directory and the lock go with the commit, before Ctrl-C may end the process
            shutil.rmtree(self._temp, ignore_errors=True)
            if held.interrupted:
                self._remove_made()
            else:
                unlock_outdir(self._lock, self.outdir)
            self._done = True

    def _make_workbook(self) -> None:
        """The workbook of the tables streamed so far, in the run directory; from then on every table's file is
        the workbook, and a table it cannot hold is left out with a note."""
        with writing(self.outdir / WORKBOOK_NAME):
            left_out = workbook_from_parts(self._temp, self._order, WORKBOOK_NAME)
        if left_out:
            self.notes.append(left_out_note(left_out))
        self._order = [name for name in self._order if name not in left_out]
        self._workbook_made = True  # every table's file is the workbook now

    def _swap(self, files: list[str]) -> None:
        """The run's files renamed into OUTDIR, the manifest last (and the old one out first: no manifest while
        the set is mixed). What they replace is kept in the run directory, and put back if a rename fails."""
        kept = self._temp / ".replaced"
        kept.mkdir()
        moved = []
        try:
            stale = self._stale = self._previous_tables()
            if (self.outdir / MANIFEST_NAME).exists():
                os.replace(self.outdir / MANIFEST_NAME, kept / MANIFEST_NAME)
            for name in stale:  # a table of the run before that this run has not (its sessions, its teams)
                moved.append(name)
                os.replace(self.outdir / name, kept / name)
            for name in [*files, MANIFEST_NAME]:
                final = self.outdir / name
                if name != MANIFEST_NAME and final.exists():
                    set_aside(final, kept / name)
                moved.append(name)
                os.replace(self._temp / name, final)
        except BaseException:
            self._put_back(moved)
            raise

    def _previous_tables(self) -> list[str]:
        """What this run's tables replace besides their files: the part-file folders of a cluster run before
        (``hands/part-K.parquet``: :class:`~analyzer.run.sink.PartFilesSink`), and the files of the optional
        tables the manifest of the run before names that are still in OUTDIR."""
        folders = [name for name in self._order if (self.outdir / name).is_dir()
                   and any((self.outdir / name).glob("part-*.parquet"))]
        if not self._optional:
            return folders
        try:
            tables = json.loads((self.outdir / MANIFEST_NAME).read_text(encoding="utf-8")).get("tables", {})
        except (OSError, ValueError, AttributeError):
            return folders
        return folders + [name for table, name in tables.items() if table in self._optional and table not in
                          self._order and isinstance(name, str) and name == Path(name).name
                          and (self.outdir / name).is_file()]

    def _put_back(self, names: list[str]) -> None:
        """Undo :meth:`_swap` for the ``names`` it renamed in: the kept files back in OUTDIR, the run's own
        removed; and the old manifest back."""
        kept = self._temp / ".replaced"
        for name in reversed(names):
            if (kept / name).exists():
                os.replace(kept / name, self.outdir / name)
            else:  # nothing was there before
                (self.outdir / name).unlink(missing_ok=True)
        if (kept / MANIFEST_NAME).exists():
            os.replace(kept / MANIFEST_NAME, self.outdir / MANIFEST_NAME)

    def abort(self) -> None:
        """Drop this run's files and OUTDIR's lock file, and OUTDIR itself when this run made it (nothing to do
        after the commit)."""
        with interrupts_held():
            if self._done:
                return
            self._cancelled = True  # the writer thread skips what is still queued
            try:
                self._close()  # every file closed, whatever it raises: nothing writes on into the run directory
            except BaseException:  # the run's own error is what matters
                pass
            finally:
                shutil.rmtree(self._temp, ignore_errors=True)
                self._remove_made()
                self._done = True

    def _remove_made(self) -> None:
        """The lock file (removed while still held), then OUTDIR if this run made it and nothing else is there."""
        if self._lock is not None:
            unlock_outdir(self._lock, self.outdir)
            self._lock = None
        if self._made:
            try:
                self.outdir.rmdir()
            except OSError:
                pass


# Written last, after every table of a run is in place (and removed first when the next run swaps its tables
# in): a reader that finds it knows the tables beside it are one complete run, and which run.
MANIFEST_NAME = ".analyzer-run.json"


def current_umask() -> int:
    """The process's umask (read by setting it, then set back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
