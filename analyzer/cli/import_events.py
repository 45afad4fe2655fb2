"""``analyzer import --events``: the imported games' events written beside the hand records, as
``NAME.events.parquet`` for ``-o NAME.parquet`` (or ``NAME.csv``), where ``analyzer score NAME.parquet`` finds
them (:func:`analyzer.jobs.events.events_beside`).

The events are read with the hand records, from the same reading of each log file (the files that imported:
a copy the import skips gives no events), as ``analyzer export events`` reads them, into a temporary file
beside; it is renamed into place once the hand records are written, so the two files describe one import.
An import without ``--events`` removes the events an earlier import wrote beside the same output: they would
describe other games.

Beside the events goes their ``hand_seats`` table, ``NAME.hand_seats.parquet``, made from the same replay of
the events as their ``shanten`` column and marked with the events file's SHA-256: ``score`` reads it instead
of replaying the events again (:func:`analyzer.formats.events.seats_of`), and replays them where the mark
does not match (events written anew by other means).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from analyzer.formats.events import EventsOutput, seats_beside
from analyzer.formats.events_import import ImportEvents
from analyzer.io.faults import writing
from analyzer.jobs.events import events_beside

from analyzer.cli.display import cell, console

EVENTS_FLAG_HELP = ("Also write the games' events beside the output, as NAME.events.parquet (one row per draw, "
                    "discard, call, riichi and outcome, as `analyzer export events` writes them): `analyzer score "
                    "NAME.parquet` then finds them and writes the hand_seats table and the play statistics, "
                    "without reading the logs again. Their hand_seats go beside too (NAME.hand_seats.parquet), "
                    "which score reads instead of replaying the events.")


def events_flag(command):
    """The ``--events`` flag of every ``import`` command."""
    return click.option("--events", "with_events", is_flag=True, help=EVENTS_FLAG_HELP)(command)


class EventsBeside:
    """The events of an import beside its output: :meth:`reader` is where the import's reading writes them (to a
    temporary name), :meth:`stage` puts them there, :meth:`commit` (after the hand records are written) renames
    them into place, :meth:`drop` removes them.
    Without ``wanted``, :meth:`commit` removes an earlier import's events there instead."""

    def __init__(self, output: str | Path, wanted: bool) -> None:
        self.path = events_beside(output)
        self.wanted = wanted
        self.staged = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp.parquet")
        # their hand_seats, made as they are written: what score reads instead of replaying them
        self.seats, self.staged_seats = seats_beside(self.path), seats_beside(self.staged)
        self.rows = 0
        self.events: ImportEvents | None = None

    def reader(self) -> ImportEvents | None:
        """Where the import's reading of the logs puts their events (:func:`analyzer.formats.read.read_logs`'s
        ``events``: one reading of each file for both), written to the temporary name; None without ``wanted``."""
        if self.wanted and self.events is None:
            self.events = ImportEvents(EventsOutput(self.staged, seats=self.staged_seats))
        return self.events

    def stage(self) -> None:
        """The events read put in place under the temporary name (nothing where no game's were written)."""
        if self.events is None:
            return
        self.rows = self.events.rows
        self.events.commit()
        for problem in self.events.problems:  # a game whose events cannot be written (no importer should give one)
            console.print(f"[yellow]{cell(problem.where)}[/]: its events are not written: {cell(problem.reason)}",
                          highlight=False)
        self.events = None

    def commit(self) -> str:
        """The events put in place (or an earlier import's removed); what to add to the import's last line."""
        if self.wanted:
            if not self.staged.exists():  # no game's events could be written
                return "; no events written"
            made = self.staged_seats.exists()
            if made:  # first: beside other events they do not match them, and are not read
                with writing(self.seats):
                    os.replace(self.staged_seats, self.seats)
            with writing(self.path):
                os.replace(self.staged, self.path)
            made = f", their hand_seats into {self.seats.name}" if made else ""
            return f"; {self.rows} event(s) into {self.path}{made}"
        removed_seats = self.seats.is_file()
        if removed_seats:
            with writing(self.seats):
                self.seats.unlink()
        if self.path.is_file():
            with writing(self.path):
                self.path.unlink()
            return f"; removed {self.path}, an earlier import's events (--events writes them anew)"
        if removed_seats:
            return f"; removed {self.seats}, an earlier import's hand_seats"
        return ""

    def drop(self) -> None:
        if self.events is not None:  # the import stopped while reading
            self.events.abort()
            self.events = None
        self.staged.unlink(missing_ok=True)
        self.staged_seats.unlink(missing_ok=True)
