"""Exports of every event of every game: the events table (:mod:`.events`), and one file per game in mjai JSON
lines (:mod:`.mjai`) or tenhou.net/6 JSON (:mod:`.tenhou6`) written by :mod:`.games`, all run by :mod:`.run`
over logs of any format (told from their content)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Callable

from analyzer.formats.events import SCHEMA, EventsOutput, events_batch
from analyzer.formats.game_files import SUFFIXES, TEXTS, games_batch
from analyzer.formats.export_run import ExportSummary, Progress, export_logs
from analyzer.formats.outputs import DirectoryOutput
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.read_columns import events_columns_batch, games_columns_batch

__all__ = ["EVENTS_SCHEMA", "ExportSummary", "export_events", "export_games", "export_mjai", "export_tenhou6"]

EVENTS_SCHEMA = SCHEMA


def export_events(paths: list[str | Path], output: str | Path, workers: int | None = None,
                  scheduler: str | None = None, client=None, progress: Progress | None = None,
                  max_log_size: int = DEFAULT_MAX_LOG_BYTES, seats: str | Path | None = None) -> ExportSummary:
    """Write one Parquet table of one row per event of every game in ``paths`` (log files, directories, globs,
    ``.gz``; each file's format told from its content) to ``output``, written whole or not at all; with
    ``seats``, the games' ``hand_seats`` there too (:class:`~analyzer.formats.events.EventsOutput`).

    Files are read by ``workers`` local processes (default: one per core from 200 files on; mjlog files are
    read as columns on as many threads, :mod:`.read_columns`), or as tasks on the Dask cluster at
    ``scheduler`` (or of ``client``): the same file either way. ``progress(files_done,
    files_total, games_done)`` is called as batches of files are written. Returns the counts and the problems
    (files that did not read, copies of a game met before, notes), as ``import`` reports them; the table is
    written only when some game was exported."""
    return export_logs(paths, events_batch, EventsOutput(output, seats), workers, scheduler, client,
                       progress, max_log_size, columns=events_columns_batch)


def export_games(paths: list[str | Path], outdir: str | Path, to_text: Callable, suffix: str,
                 workers: int | None = None, scheduler: str | None = None, client=None,
                 progress: Progress | None = None, max_log_size: int = DEFAULT_MAX_LOG_BYTES) -> ExportSummary:
    """One file ``GAME_ID`` + ``suffix`` per game in ``outdir``, holding ``to_text(game)`` (a picklable
    function of the game model); otherwise as :func:`export_events`."""
    return export_logs(paths, partial(games_batch, to_text=to_text), DirectoryOutput(outdir, suffix), workers,
                       scheduler, client, progress, max_log_size)


def export_from_tables(paths: list[str | Path], outdir: str | Path, fmt: str, workers: int | None = None,
                       scheduler: str | None = None, client=None, progress: Progress | None = None,
                       max_log_size: int = DEFAULT_MAX_LOG_BYTES) -> ExportSummary:
    """One file per game in format ``fmt`` (``mjai``, ``tenhou6``); otherwise as :func:`export_events`. Files
    the import reads as columns (:func:`.read_columns.reads_as_columns`: mjlog, mjai, tenhou.net/6 JSON without
    worker processes) are written from their log tables (:mod:`.game_files_columns`); files read a game at a
    time (Mahjong Soul and Riichi City records, tenhou.net/6 JSON in worker processes) are written by the
    model's writers in the workers (:mod:`.game_files`), as the games are read: their tables would be made
    from the same model, one Python step per event, and cost 1.4-1.6x the export's time
    (``docs/performance.md#export``). The bytes and refusals are the same either way
    (``tests/formats/test_exports_from_tables.py``)."""
    return export_logs(paths, partial(games_batch, to_text=TEXTS[fmt]), DirectoryOutput(outdir, SUFFIXES[fmt]),
                       workers, scheduler, client, progress, max_log_size,
                       columns=partial(games_columns_batch, fmt=fmt))


def export_mjai(paths: list[str | Path], outdir: str | Path, **options) -> ExportSummary:
    """One ``GAME_ID.mjai.jsonl`` per game (mjai JSON lines, as Mortal and mjai-reviewer read them) in
    ``outdir``; the options are :func:`export_events`'."""
    return export_from_tables(paths, outdir, "mjai", **options)


def export_tenhou6(paths: list[str | Path], outdir: str | Path, **options) -> ExportSummary:
    """One ``GAME_ID.json`` per game (tenhou.net/6 JSON, as Tenhou's viewer opens it) in ``outdir``; the
    options are :func:`export_events`'."""
    return export_from_tables(paths, outdir, "tenhou6", **options)
