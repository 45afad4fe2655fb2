"""A batch of files read into the log tables (:mod:`.log_tables`) by a columnar reader, with the per-game reader
for every file the columns do not read exactly (:func:`read_with_columns`).

A columnar reader (:mod:`.tenhou.mjlog_columns`, :mod:`.mjai.columns`) prepares each file (its bytes read with
the caps of :mod:`.files`, its digest; None: not for the columns) and reads the prepared files of a batch at
once into an object with ``refused`` (the numbers, among the prepared files, of those it does not read as the
per-game reader would), ``game_ids`` and ``tables(numbers)``, and may have ``games``: per prepared file the game
model of its header (an mjai ``start_game``), which keeps how its per-seat values were written. **The per-game
reader is the oracle**: a file refused, and one not prepared, is read by :func:`analyzer.formats.parse.read_game`
and its game turned into tables by :func:`.tables_from_games.tables_of_games`, so a broken log gets the per-game
path's exact reason and an unusual one its exact tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

import numpy as np
import polars as pl

from analyzer.formats.log_tables import SCHEMAS, LogTables
from analyzer.formats.model import Game, LogError
from analyzer.formats.parse import malformed_reason, read_game
from analyzer.formats.rows import game_rows
from analyzer.formats.tables_from_games import tables_of_games


@dataclass(frozen=True)
class FileRead:
    """What became of one file: its game's number in the tables (None: not read), game id, content digest,
    and the reason it did not read (None when it did), as :func:`analyzer.formats.read.read_game` says it;
    ``columns``: read by these columns (else by the per-game reader); ``model``: the game model the file was read
    into, if any (by the per-game reader, or the header's of a columnar reader's ``games``)."""

    game: int | None
    game_id: str
    digest: str
    error: str | None
    columns: bool
    model: Game | None = field(default=None, compare=False, repr=False)


class Prepared(Protocol):
    digest: str


class Parsed(Protocol):
    refused: set[int]
    game_ids: list[str]

    def tables(self, numbers: np.ndarray) -> LogTables: ...


def read_with_columns(files: list[str | Path], prepared: list[Prepared | None],
                      parse: Callable[[list], Parsed], max_bytes: int, log_format: str,
                      ) -> tuple[LogTables, list[FileRead]]:
    """The log tables of ``files`` (games numbered in file order, the files that do not read left out) and
    what became of each file: ``prepared`` per file (None: for the per-game reader), ``parse`` the columnar
    reading of the prepared ones; the others read by the per-game reader as ``log_format``."""
    fast = [p for p in prepared if p is not None]
    parsed = parse(fast) if fast else None
    number_of = {}  # file index -> its number among the prepared files, for those the columns read
    for i, p in enumerate(prepared):
        if p is not None:
            number_of[i] = len(number_of)
    refused = parsed.refused if parsed is not None else set()
    number_of = {i: n for i, n in number_of.items() if n not in refused}
    old = _per_game([f for i, f in enumerate(files) if i not in number_of], max_bytes, log_format)
    old_reads = iter(old.reads)
    models = getattr(parsed, "games", None)
    reads, numbers, old_numbers = [], np.full(len(fast), -1, np.int32), []
    count = 0  # the games read so far: the next one's number, whichever reader reads it
    for i in range(len(files)):
        number = number_of.get(i)
        if number is not None:
            numbers[number] = count
            model = models[number] if models is not None else None
            reads.append(FileRead(count, parsed.game_ids[number], fast[number].digest, None, True, model))
            count += 1
            continue
        gid, digest, error, model = next(old_reads)
        reads.append(FileRead(None if error else count, gid, digest, error, False, model))
        if error is None:
            old_numbers.append(count)
            count += 1
    parts = []
    if parsed is not None and (numbers >= 0).any():
        parts.append(parsed.tables(numbers))
    if old_numbers:
        renumber = pl.col("game").replace_strict(list(range(len(old_numbers))), old_numbers, return_dtype=pl.Int32)
        parts.append(LogTables(**{name: getattr(old.tables, name).with_columns(renumber) for name in SCHEMAS}))
    return _merged(parts), reads


@dataclass
class _PerGame:
    tables: LogTables | None
    reads: list[tuple[str, str, str | None, Game | None]]  # per file: game id, digest, the reason it is not read, game


def _per_game(files: list[str | Path], max_bytes: int, log_format: str) -> _PerGame:
    """The files the columns do not read, read by the per-game reader (its exact reasons for those that do not
    read), their games' tables by :func:`.tables_from_games.tables_of_games`; a game those tables cannot hold
    (a counter beyond the events table's Int16) is not read, and says so."""
    games, ids, reads = [], [], []
    for f in files:
        game, gid, digest, error = read_game(Path(f), log_format, max_bytes)
        if game is not None:
            try:
                tables_of_games([game], [gid])
            except (ValueError, IndexError, KeyError, TypeError) as exc:  # as the events export
                game, error = None, unreadable_reason(game, exc)
        if game is not None:
            games.append(game)
            ids.append(gid)
        reads.append((gid, digest, error, game))
    return _PerGame(tables_of_games(games, ids) if games else None, reads)


def unreadable_reason(game: Game, exc: Exception) -> str:
    """Why a game the log tables cannot hold (``exc``) is not read: the reason the per-game import gives for
    its hands, where it gives one (a wall drawn past empty), else that the tables cannot hold it."""
    try:
        game_rows(game)
    except LogError as error:
        return str(error)
    except ValueError as error:
        return malformed_reason(error)
    except (KeyError, IndexError, TypeError, AttributeError, RecursionError, OverflowError) as error:
        return f"malformed log ({type(error).__name__}: {str(error)[:200]})"
    return f"cannot be read into the log tables ({type(exc).__name__}: {str(exc)[:200]})"


def _merged(parts: list[LogTables]) -> LogTables:
    """The tables of the columns and of the per-game reader as one, in game order."""
    if not parts:
        return LogTables.empty()
    if len(parts) == 1:
        return parts[0]
    merged = {}
    for name in SCHEMAS:
        first, second = (getattr(part, name) for part in parts)
        if name == "events":  # two runs sorted by game: merged, not sorted again
            merged[name] = first.merge_sorted(second, key="game")
        else:
            merged[name] = pl.concat([first, second]).sort("game", maintain_order=True)
    return LogTables(**merged)
