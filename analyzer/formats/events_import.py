"""The events of an import read with its hand records: each batch of log files read once for both
(:func:`rows_and_events_batch`), the events of the files the import keeps written as the batches come
(:class:`ImportEvents`, :func:`analyzer.formats.read.read_logs`'s ``events``). ``analyzer import --events`` and
a score run of logs use it: the logs are parsed once, not once for the hand records and again for the events
(as ``analyzer export events`` reads them: the same games, the same rows)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from analyzer.formats.events import EventColumns, EventsOutput, game_events
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.model import ImportProblem
from analyzer.formats.parse import read_game
from analyzer.formats.read import rows_of_games


def rows_and_events_batch(files: list[Path], log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES):
    """A batch of files read once into both what the import's batch gives (:func:`analyzer.formats.read.
    rows_of_games`: per file its outcome, and the rows) and, as a third item, their events: the number of event
    rows of each file, (its game id, the reason) where a file's events cannot be written (else None), and the
    events as one Arrow table (:func:`analyzer.formats.events.events_batch`'s columns)."""
    reads = [read_game(f, log_format, max_bytes) for f in files]
    outcomes, table = rows_of_games(reads)
    out, counts, errors = EventColumns(), [], []
    for (game, gid, _, _), outcome in zip(reads, outcomes):
        rows, error = 0, None
        if game is not None and outcome[4] is None:  # imported: its events too
            mark = out.mark()
            try:
                rows = game_events(game, gid, out)
            except (KeyError, IndexError, TypeError, ValueError) as exc:  # a model no importer should give
                out.truncate(mark)
                rows, error = 0, (gid, f"cannot export ({type(exc).__name__}: {str(exc)[:200]})")
        counts.append(rows)
        errors.append(error)
    return outcomes, table, (counts, errors, out.table())


class ImportEvents:
    """The events of an import's games, written to ``output`` (an :class:`EventsOutput`) as the import reads
    each batch of files once for both (:func:`analyzer.formats.read.read_logs`'s ``events``): the events of the
    files whose rows the import keeps, in file order. ``rows``: the event rows written; ``problems``: the
    games whose events could not be written (imported all the same)."""

    batch = staticmethod(rows_and_events_batch)

    def __init__(self, output: EventsOutput) -> None:
        self.output = output
        self.rows = 0
        self.problems: list[ImportProblem] = []
        self.output.open()

    def take(self, events: tuple[list[int], list[tuple[str, str] | None], pa.Table], kept: list[bool],
             files: list[Path]) -> None:
        """A batch's events (:func:`rows_and_events_batch`'s third item), those of the files ``kept`` written."""
        counts, errors, table = events
        for f, error, imported in zip(files, errors, kept):
            if error is not None and imported:
                self.problems.append(ImportProblem(str(f), error[1], game_id=error[0]))
        keep = np.repeat(np.array(kept, bool), counts)
        self.rows += self.output.write(table if keep.all() else table.filter(pa.array(keep)))

    def commit(self) -> None:
        """The events put in place, where some were written (else nothing is left)."""
        if self.rows:
            self.output.commit()
        else:
            self.output.abort()

    def abort(self) -> None:
        self.output.abort()
