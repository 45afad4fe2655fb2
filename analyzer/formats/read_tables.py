"""The import through the log tables: a batch of files read into the log tables in a worker
(:func:`log_tables_batch`, Arrow only: the workers are forked), their hand records derived as columns in the
parent (:func:`record_batches`, :mod:`.records_from_tables`), in the form :func:`.read.read_logs` puts
together (per file: game id, digest, rows, notes, error, start; and the rows as one Arrow table).

:func:`.read.read_logs` takes this path for a run of mjlog files, with the columnar reader in place of the
workers' batches (:mod:`.read_columns`, through :func:`table_records`); the tests run the per-game readers of
every format through :func:`log_tables_batch` and :func:`record_batches`.

Every file gives the same game id, rows, notes and refusal as through :func:`.rows.game_rows` (a game the
events table cannot hold, a round past N4 or a counter beyond Int16, is refused with the export's reason).
Readers that give the log tables themselves (columnar ones) take the place of :func:`.tables_from_games.
arrow_tables_of_games` here.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa

from analyzer.formats.columns import COLUMNS
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES
from analyzer.formats.log_tables import LogTables
from analyzer.formats.parse import read_game
from analyzer.formats.records_from_tables import records_of_tables
from analyzer.formats.tables_from_games import arrow_tables_of_games, log_tables_from_arrow

ID_COLUMNS = ("game_id", "played_at")  # given per game by read_logs when the games are put together
ROW_COLUMNS = [name for name in COLUMNS if name not in ID_COLUMNS]


def games_into_tables(files: list[Path], log_format: str, max_bytes: int = DEFAULT_MAX_LOG_BYTES
                      ) -> tuple[list[tuple], dict[str, pa.Table]]:
    """Per file (game, game id, digest, reason it does not read or None), and the log tables of the games that
    read (numbered in file order), as Arrow tables (it runs in forked workers). A game the tables cannot hold
    keeps its id and digest, its game set to None and the reason given."""
    read = [read_game(f, log_format, max_bytes) for f in files]
    places = [i for i, (game, *_) in enumerate(read) if game is not None]
    refused: dict[int, str] = {}
    tables = arrow_tables_of_games([read[i][0] for i in places], [read[i][1] for i in places], refused)
    for number, reason in refused.items():
        _, gid, digest, _ = read[places[number]]
        read[places[number]] = (None, gid, digest, reason)
    return read, tables


def log_tables_batch(files: list[Path], log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES
                     ) -> tuple[list[tuple[str, str, str | None]], dict[str, pa.Table]]:
    """Per file (game id, digest, reason it does not read or None), and the log tables of the files that read
    (their games numbered in file order), as Arrow tables."""
    read, tables = games_into_tables(files, log_format, max_bytes)
    return [(gid, digest, None) if error is None else ("", "", error) for _, gid, digest, error in read], tables


def records_batch(batch: tuple[list[tuple[str, str, str | None]], dict[str, pa.Table]]) -> tuple[list[tuple], pa.Table]:
    """One batch of :func:`log_tables_batch` as :func:`.read.read_logs` takes a batch: per file (game id,
    digest, rows, notes, error, start time) and the rows without their id columns."""
    read, arrow = batch
    return table_records(read, log_tables_from_arrow(arrow))


def table_records(read: list[tuple[str, str, str | None]], tables: LogTables) -> tuple[list[tuple], pa.Table]:
    """:func:`records_batch` of a batch's files (per file game id, digest, reason it does not read or None) and
    the log tables of those that read (numbered in file order)."""
    result = records_of_tables(tables)
    records = result.records
    per_game = records.select("played_at", game=result.games).group_by("game").agg(
        pl.len(), pl.col("played_at").first())
    counts = {game: (rows, started) for game, rows, started in per_game.iter_rows()}
    outcomes: list[tuple] = []
    number = 0
    for gid, digest, error in read:
        if error is not None:
            outcomes.append(("", "", 0, [], error, None))
            continue
        if number in result.errors:
            outcomes.append(("", "", 0, [], result.errors[number], None))
        else:
            rows, started = counts.get(number, (0, None))
            outcomes.append((gid, digest, rows, result.notes.get(number, []), None, started))
        number += 1
    return outcomes, records.select(ROW_COLUMNS).to_arrow()


def record_batches(batches):
    """:func:`records_batch` of every batch, in order."""
    for batch in batches:
        yield records_batch(batch)
