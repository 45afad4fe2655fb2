"""What a score run's inputs hold — hand records (CSV, Parquet), events tables, game logs, in any mix: a folder
may hold all three — and the logs imported for the run.

:class:`ScoreInputs` sorts the files the inputs name: hand-record files by their suffix (``.csv``, ``.tsv``,
``.parquet``, as :func:`analyzer.io.files.expand_inputs` finds them), Parquet files of the events table by
their columns (:func:`analyzer.jobs.events.is_events_table`), the ``hand_seats`` an import writes beside its
events by theirs (:func:`analyzer.jobs.events.is_seats_table`: read with their events, not as hand records),
game logs by theirs (``.mjlog``, ``.xml``,
``.json``, ``.jsonl``, ``.mjson``, ``.gz`` too). :meth:`ScoreInputs.import_logs` reads the logs as
``analyzer import`` reads them (each file's format told from its content; a file that does not read is a
problem, reported, and the others are imported; a copy of a game is imported once), into a temporary folder,
with their events (as ``analyzer export events`` reads them, from the files that imported); leaving the
context removes the folder.

The logs' hand records take the place of the first log file among the inputs (files in the order given, a
folder's in path order): a game given both as a log and as an import of it (in one folder, say) is scored
from the first in that order, the other rejected as a copy, as any game given twice
(:mod:`analyzer.scoring.records`).
"""

from __future__ import annotations

import glob
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.formats.events import EventsOutput, seats_beside
from analyzer.formats.events_import import ImportEvents
from analyzer.formats.files import AUTO_SUFFIXES, DEFAULT_MAX_LOG_BYTES
from analyzer.formats.model import ImportProblem, copies_skipped, files_failed
from analyzer.formats.import_file import import_logs
from analyzer.io.errors import InputError
from analyzer.io.faults import writing
from analyzer.io.files import expand_inputs, format_of
from analyzer.io.write import MANIFEST_NAME
from analyzer.jobs.events import EventSources, events_beside, events_table, is_events_table, is_seats_table

LOGS_TABLE = "logs.parquet"  # the logs' hand records, in the run's temporary folder
SCRATCH_ADVICE = "free space there, or set TMPDIR to a disk with room for the logs' hand records and events"


def is_log_name(path: Path) -> bool:
    """Whether a file's name is a game log's (``.gz`` of one too)."""
    name = path.name[:-3] if path.name.endswith(".gz") else path.name
    return name.lower().endswith(AUTO_SUFFIXES)


def _wanted(path: Path) -> bool:
    return path.is_file() and (format_of(path) is not None or is_log_name(path))


def _not_a_runs_output(folder: Path):
    """A test of the files under ``folder``: not a log-named file of a score run's OUTDIR (its JSON tables:
    a folder holding a run manifest), which a folder of inputs may hold from an earlier run."""
    runs = [m.parent for m in folder.rglob(MANIFEST_NAME)]
    return lambda path: format_of(path) is not None or not any(run in path.parents for run in runs)


def _files_of(item) -> list[Path]:
    """The hand-record and log files one input names (a folder's recursively, a glob's), in path order; an
    input naming none is refused as :func:`analyzer.io.files.expand_inputs` refuses it."""
    text = str(item)
    path = Path(text)
    if path.is_dir():
        kept = _not_a_runs_output(path)
        found = sorted(p for p in path.rglob("*") if _wanted(p) and kept(p))
    elif path.is_file():
        found = [path] if _wanted(path) else []
    elif glob.has_magic(text):
        found = sorted(Path(p) for p in glob.glob(text, recursive=True) if _wanted(Path(p)))
    else:
        found = []
    if not found:
        expand_inputs([item])  # its error: no such file, an unsupported type, nothing found
        raise InputError(f"no hand records or game logs in {text}")
    return found


def _is_local(data) -> bool:
    """Paths on this machine (not a frame, not a cluster's URLs)."""
    if isinstance(data, (pl.DataFrame, pl.LazyFrame)):
        return False
    items = [data] if isinstance(data, (str, Path)) else list(data)
    return bool(items) and not any("://" in str(item) for item in items)


@dataclass
class LogsRead:
    """What reading the logs gave: games and rows imported, event rows, the problems (as ``import``'s)."""

    files: int = 0
    games: int = 0
    rows: int = 0
    events: int = 0
    problems: list[ImportProblem] = field(default_factory=list)

    @property
    def failed(self) -> int:
        """Log files not imported: read errors and other versions of a game."""
        return files_failed(self.problems)

    @property
    def copies(self) -> int:
        return copies_skipped(self.problems)


class ScoreInputs:
    """The inputs of a score run sorted into hand records, events tables and logs (see the module docstring);
    :attr:`data` is what the run reads (hand-record files, the logs' import among them), :attr:`events` where
    its events are (None: no events known). ``events``: ``"auto"`` (found beside the hand records, among the
    inputs, in the logs), None (none), or files / a frame given (read first, then those found). ``scratch``:
    where the logs' import goes (default: ``$TMPDIR``). A context manager: leaving it removes the import."""

    def __init__(self, data, events="auto", scratch: str | Path | None = None) -> None:
        self.given = data
        self.scratch = scratch
        self.logs_read = LogsRead()
        self._folder: Path | None = None
        self._frame: pl.DataFrame | None = None
        self._explicit: list[str] = []
        if isinstance(events, (pl.DataFrame, pl.LazyFrame)):
            self._use_events, self._frame = True, events.lazy().collect()
        else:
            self._use_events = events is not None and events is not False
            if self._use_events and not (isinstance(events, str) and events == "auto"):
                given = [events] if isinstance(events, (str, Path)) else list(events)
                self._explicit = [events_table(path, "--events") for path in given]
        self.hand_files: list[Path] = []
        self.logs: list[Path] = []
        self.events_tables: list[str] = []
        self.seats_tables: list[str] = []  # hand_seats files among the inputs: not read as hand records
        self._logs_at: int | None = None  # where the logs' hand records go among the hand files
        if _is_local(data):
            self._sort([data] if isinstance(data, (str, Path)) else list(data))

    def _sort(self, items: list) -> None:
        seen: set[Path] = set()
        for item in items:
            for path in _files_of(item):
                real = path.resolve()
                if real in seen:
                    continue
                seen.add(real)
                if format_of(path) is None:
                    if self._logs_at is None:
                        self._logs_at = len(self.hand_files)
                    self.logs.append(path)
                elif is_events_table(path):
                    self.events_tables.append(str(path))
                elif is_seats_table(path):
                    self.seats_tables.append(str(path))
                else:
                    self.hand_files.append(path)

    def __enter__(self) -> ScoreInputs:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """The logs' import removed."""
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    @property
    def _imported(self) -> Path | None:
        return None if self._folder is None or not (self._folder / LOGS_TABLE).exists() else self._folder / LOGS_TABLE

    @property
    def data(self):
        """What the run reads: the data as given (a frame, URLs), or its hand-record files with the logs'
        hand records in the first log's place."""
        if not _is_local(self.given):
            return self.given
        if self.logs and self._folder is None:  # never a run without the logs it was given
            self.import_logs()
        files = list(self.hand_files)
        if self._imported is not None:
            files.insert(self._logs_at or 0, self._imported)
        if not files:
            raise InputError(self._nothing_read())
        return files

    def _nothing_read(self) -> str:
        if not self.logs and not self.events_tables and self.seats_tables:
            return (f"{self.seats_tables[0]} is a hand_seats table, not hand records: give the hand records or the "
                    "game logs it was made from")
        if not self.logs and self.events_tables:
            return (f"{self.events_tables[0]} is an events table, not hand records: give the hand records or the "
                    "game logs beside it (score --events FILE reads it with them)")
        if not self.logs:
            return "no input files given"
        first = next((p for p in self.logs_read.problems if not p.imported), None)
        why = f": {first.where}: {first.reason}" if first is not None else ""
        more = f" (and {self.logs_read.failed - 1} more)" if self.logs_read.failed > 1 else ""
        return f"no game imported from the {len(self.logs)} log file(s) given{why}{more}"

    def found_events(self) -> list[str]:
        """The events tables found or given (not the logs' own, read by the run), as named."""
        sources = self.events
        logs = None if self._imported is None else str(events_beside(self._imported))
        return [] if sources is None else [t for t in sources.tables if t != logs]

    @property
    def events(self) -> EventSources | None:
        """Where the run's events are (see :mod:`analyzer.jobs.events`; without any, only the logs' import it
        names), or None when there is neither."""
        imported = (str(self._imported),) if self._imported is not None else ()
        if not self._use_events:
            return EventSources(imported=imported) if imported else None
        tables = list(self._explicit)
        for path in self.data if _is_local(self.given) else []:
            beside = events_beside(path)
            if beside.is_file():
                tables.append(events_table(beside, f"the events beside {path}"))
        tables += self.events_tables
        tables = list({Path(t).resolve(): t for t in reversed(tables)}.values())[::-1]  # once each, as first named
        if not tables and self._frame is None and not imported:
            return None
        return EventSources(tuple(tables), self._frame, imported)

    def import_logs(self, progress=None, max_log_size: int = DEFAULT_MAX_LOG_BYTES,
                    workers: int | None = None) -> LogsRead:
        """Read the logs into hand records and events in the run's temporary folder (once, each file read once for
        both); ``progress(done, total, games)`` as files are read."""
        if not self.logs or self._folder is not None:
            return self.logs_read
        place = Path(self.scratch) if self.scratch is not None else Path(tempfile.gettempdir())
        with writing(place, SCRATCH_ADVICE):
            place.mkdir(parents=True, exist_ok=True)
            folder = self._folder = Path(tempfile.mkdtemp(prefix=".analyzer-logs-", dir=place))
        events = sink = None
        if self._use_events:  # read with the hand records: the logs are parsed once for both
            events_path = events_beside(folder / LOGS_TABLE)
            with writing(folder, SCRATCH_ADVICE):
                events = sink = ImportEvents(EventsOutput(events_path, seats=seats_beside(events_path)))
        written = None
        try:
            written = import_logs(self.logs, folder / LOGS_TABLE, "auto", workers, progress=progress,  # as read
                                  max_log_size=max_log_size, events=events, advice=SCRATCH_ADVICE)
            read = self.logs_read = LogsRead(len(self.logs), written.games, written.rows, problems=written.problems)
            if written.rows == 0:
                return read
            with writing(folder, SCRATCH_ADVICE):
                if events is not None:
                    events.commit()
                    events = None
                written.commit()
        finally:
            if written is not None:
                written.abort()  # what is left staged: nothing after the commit
            if events is not None:  # not put in place: the reading stopped, or no game imported
                events.abort()
        if sink is None:
            return read
        read.events = sink.rows
        # a game whose events could not be written (a model no importer should give): scored without them
        read.problems += [ImportProblem(p.file, f"its events are not read: {p.reason}", game_id=p.game_id,
                                        imported=True) for p in sink.problems]
        return read


@contextmanager
def score_inputs(data, events="auto", scratch: str | Path | None = None) -> Iterator[ScoreInputs]:
    """``data`` sorted and its logs imported (:class:`ScoreInputs`), removed when the context ends; a
    :class:`ScoreInputs` given (the command line's, read with its progress bar) is used as it is."""
    if isinstance(data, ScoreInputs):
        yield data
        return
    with ScoreInputs(data, events, scratch) as inputs:
        inputs.import_logs()
        yield inputs
