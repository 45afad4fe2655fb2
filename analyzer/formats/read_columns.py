"""The import and the exports of mjlog, mjai and tenhou.net/6 JSON files through the columns: each batch of files
read into the log tables by a columnar reader (:func:`analyzer.formats.tenhou.mjlog_columns.read_mjlog_tables`,
:func:`analyzer.formats.mjai.columns.read_mjai_tables`,
:func:`analyzer.formats.tenhou.tenhou6_columns_read.read_tenhou6_tables`), its hand records
derived from them (:func:`analyzer.formats.read_tables.table_records`) and, for an import with events, the events
table taken from the same tables: one parse of each file, no Python model of its games. The exports take the
same tables: ``export events`` their events (:func:`events_columns_batch`), ``export mjai`` and ``tenhou6`` the
texts made from them in the batch's thread (:func:`games_columns_batch`).

A batch runs Polars, which does not survive a fork: :func:`analyzer.formats.read.read_logs` runs these batches
on threads of its own process (Polars, numpy and Arrow work outside the GIL), or as tasks on a Dask cluster
(whose workers are started, not forked). A run takes this path (:func:`reads_as_columns`) when it reads Tenhou
logs (``tenhou`` or ``auto``) and at least half its files are named as mjlog files, or mjai logs (``mjai``, or
``auto`` with at least half its files named as JSON lines, or mostly ``.json`` files that begin as mjai files
do), or tenhou.net/6 JSON files (:func:`reads_as_columns` says when); a file of a batch that is not of the
batch's format, or one the columns do not read exactly as the
per-game reader, is read by that reader within the batch, so every file gives the rows, notes and refusal of
the per-game path whichever path reads it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa

from analyzer.formats.events import PLAYED_SCHEMA
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.game_files_columns import NUMBERS, PER_SEAT, TablesBatch, recorded_numbers, text_batches
from analyzer.formats.log_tables import SCHEMAS, LogTables
from analyzer.formats.mjai.columns import read_mjai_tables, starts_as_mjai
from analyzer.formats.read_tables import table_records
from analyzer.formats.tenhou.mjlog_columns import read_mjlog_tables
from analyzer.formats.tenhou.tenhou6_columns_read import read_tenhou6_tables, starts_as_tenhou6

MJLOG_NAMES = (".mjlog", ".xml", ".mjlog.gz", ".xml.gz")
MJAI_NAMES = (".jsonl", ".mjson", ".jsonl.gz", ".mjson.gz")
JSON_NAMES = (".json", ".json.gz")  # as often a Tenhou or Mahjong Soul log as an mjai one: told by their starts
SNIFFED = 64  # files of a run of JSON files whose first bytes tell whether it is one of mjai files
BATCH_FILES = 512  # a batch's Polars runs cost tens of milliseconds whatever its size: 10,000 mjlog games import in
# 12.7 s in batches of 512 or 1,024 (0.7 GB, 1.1 GB), 16.6 s in batches of 256 (benchmarks.imports)


def reads_as_columns(files: list[Path], log_format: str, processes: int = 1) -> bool:
    """Whether an import of ``files`` as ``log_format`` takes the columns' path: Tenhou logs, at least half of
    them named as mjlog files, or mjai logs (``auto``: at least half of them named as JSON lines, or as JSON
    and mostly beginning as mjai files), or Tenhou logs mostly of tenhou.net/6 JSON files when the run does not
    have ``processes`` (more than one) of its own for the per-game reader. Mahjong Soul's JSON logs are read by
    the per-game reader in forked processes, and so are tenhou.net/6 JSON files when there are such processes:
    the columns' Python part (each file's game without its play) holds the GIL, so their threads take about
    what one takes, where forked processes share the work out (``docs/performance.md#tenhounet6-json-files``)."""
    if not files:
        return False
    if log_format == "mjai":
        return True
    if log_format not in ("tenhou", "auto"):
        return False
    if 2 * _named(files, MJLOG_NAMES) >= len(files):
        return True
    return (log_format == "auto" and _mostly_mjai(files)) or (processes <= 1 and _mostly_tenhou6(files))


def _named(files: list[Path], suffixes: tuple[str, ...]) -> int:
    return sum(f.name.lower().endswith(suffixes) for f in files)


def _mostly_mjai(files: list[Path]) -> bool:
    """Whether at least half the files are named as JSON lines, or as JSON and most of those (up to
    :data:`SNIFFED` of them, spread over the list) begin as the mjai columns' files do."""
    if 2 * _named(files, MJAI_NAMES) >= len(files):
        return True
    json = [f for f in files if f.name.lower().endswith(JSON_NAMES)]
    if 2 * (len(json) + _named(files, MJAI_NAMES)) < len(files):
        return False
    sample = json[:: max(1, len(json) // SNIFFED)][:SNIFFED]
    return 2 * sum(starts_as_mjai(f) for f in sample) > len(sample)


def _mostly_tenhou6(files: list[Path]) -> bool:
    """Whether at least half the files are named as JSON and most of those (up to :data:`SNIFFED`, spread over
    the list) begin as a whole tenhou.net/6 game in one JSON object does."""
    json = [f for f in files if f.name.lower().endswith(JSON_NAMES)]
    if 2 * len(json) < len(files):
        return False
    sample = json[:: max(1, len(json) // SNIFFED)][:SNIFFED]
    return 2 * sum(starts_as_tenhou6(f) for f in sample) > len(sample)


def read_batch_tables(files: list[Path], max_bytes: int, log_format: str) -> tuple[LogTables, list]:
    """The log tables of a batch of files and what became of each (:func:`analyzer.formats.columns_read.
    read_with_columns`): read by the mjai columns for ``mjai``, and for ``auto`` when fewer than half of them are
    named as mjlog files and they are mostly mjai files (:func:`_mostly_mjai`); by the tenhou.net/6 columns when
    fewer than half are named as mjlog files and they are mostly such JSON files (:func:`_mostly_tenhou6`); else
    by the mjlog columns."""
    not_mjlog = 2 * _named(files, MJLOG_NAMES) < len(files)
    if log_format == "mjai" or (log_format == "auto" and not_mjlog and _mostly_mjai(files)):
        return read_mjai_tables(files, max_bytes, log_format)
    if not_mjlog and _mostly_tenhou6(files):
        return read_tenhou6_tables(files, max_bytes, log_format)
    return read_mjlog_tables(files, max_bytes, log_format)


def columns_batch(files: list[Path], log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES,
                  events: bool = False) -> tuple:
    """A batch of files as :func:`analyzer.formats.read.read_logs` takes one: per file (game id, digest, rows,
    notes, error, start time) and the rows (Arrow, without their id columns); with ``events`` a third item,
    as :func:`analyzer.formats.events_import.rows_and_events_batch` gives it: each file's event rows, no
    file whose events cannot be written (a game the tables cannot hold is not read at all), and the events."""
    tables, reads = read_batch_tables(files, max_bytes, log_format)
    outcomes, rows = table_records([(r.game_id, r.digest, r.error) for r in reads], tables)
    if not events:
        return outcomes, rows
    per_game = _event_rows(tables)
    counts = [0 if r.game is None else int(per_game[r.game]) for r in reads]
    return outcomes, rows, (counts, [None] * len(reads), _played(tables.events))


def events_columns_batch(files: list[Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES) -> tuple[list[tuple], pa.Table]:
    """A batch of files as ``export events`` takes one (:func:`analyzer.formats.events.events_batch`'s form: per
    file game id, digest, event rows, the reader's notes, error; and the events), through the columns."""
    tables, reads = read_batch_tables(files, max_bytes, "auto")
    per_game, notes = _event_rows(tables), _notes(tables)
    outcomes = [(r.game_id, r.digest, 0, [], r.error) if r.game is None else
                (r.game_id, r.digest, int(per_game[r.game]), notes[r.game], None) for r in reads]
    return outcomes, _played(tables.events)


def games_columns_batch(files: list[Path], fmt: str, max_bytes: int = DEFAULT_MAX_LOG_BYTES
                        ) -> tuple[list[tuple], list[str | None]]:
    """A batch of files as ``export mjai`` and ``export tenhou6`` (``fmt``) write it: per file game id, digest,
    files, notes, error, and the texts (:func:`analyzer.formats.game_files_columns.text_batches`' form), made in
    the batch's own thread from its tables."""
    return next(text_batches([columns_tables_batch(files, max_bytes)], fmt, games_per_run=len(files) + 1))


def columns_tables_batch(files: list[Path], max_bytes: int = DEFAULT_MAX_LOG_BYTES) -> TablesBatch:
    """A batch of files as a :class:`analyzer.formats.game_files_columns.TablesBatch`, read through the
    columns: the per-seat values of an mjlog are text (its ``UN`` attributes), a game read into a model (by the
    per-game reader, or an mjai ``start_game``) says itself which were numbers."""
    tables, reads = read_batch_tables(files, max_bytes, "auto")
    notes = _notes(tables)
    read = [(r.game_id, r.digest, [] if r.game is None else notes[r.game], r.error) for r in reads]
    models = [r for r in reads if r.model is not None and r.game is not None]
    as_text = pl.element().is_null() & pl.lit(False)  # a False for every value of the list
    text = tables.games.select("game", *(pl.col(name).list.eval(as_text).alias(f"{name}_numbers") for name in PER_SEAT))
    numbers = text.filter(~pl.col("game").is_in([r.game for r in models])).to_arrow().cast(NUMBERS)
    if models:
        own = recorded_numbers([r.model for r in models])
        own = own.set_column(0, "game", pa.array([r.game for r in models], pa.int32()))
        numbers = pa.concat_tables([numbers, own]).sort_by("game")
    return TablesBatch(read, {name: getattr(tables, name).to_arrow() for name in SCHEMAS}, numbers)


def _event_rows(tables: LogTables) -> np.ndarray:
    """Each game's count of event rows, by its number."""
    return np.bincount(tables.events["game"].to_numpy(), minlength=tables.games.height)


def _notes(tables: LogTables) -> list[list[tuple[str, int | None]]]:
    """Each game's notes as the runners take them ((text, hand) pairs), by its number (0, 1, ...)."""
    return [[(n["text"], n["hand"]) for n in said or []] for said in tables.games.sort("game")["notes"].to_list()]


def _played(events: pl.DataFrame) -> pa.Table:
    """The log tables' events as the events file's columns before its derived ones (:data:`PLAYED_SCHEMA`)."""
    table = events.drop("game").to_arrow()
    return table.select(PLAYED_SCHEMA.names).cast(PLAYED_SCHEMA)
