"""Per-game exports (mjai JSON lines, tenhou.net/6 JSON) written from the log tables: the files of
:mod:`.game_files`, byte for byte, made by :func:`.mjai.write_columns.mjai_texts` and
:func:`.tenhou.tenhou6_columns.tenhou6_texts` from a batch's columns instead of one game model at a time.

The Polars work runs in the parent, never in a forked worker (Polars' threads do not survive a fork). The
export runs it on the tables of the columnar readers (:func:`.read_columns.games_columns_batch`, through
:func:`text_batches`); files read a game at a time are exported by :mod:`.game_files`' writers in the workers,
which is cheaper than making their tables first (:func:`.export.export_from_tables`); the tests make the files
of every log both ways and compare them byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import polars as pl
import pyarrow as pa

from analyzer.formats.game_texts import GameTexts
from analyzer.formats.log_tables import LogTables, concat_tables
from analyzer.formats.mjai.write_columns import mjai_texts
from analyzer.formats.model import Game
from analyzer.formats.tables_from_games import log_tables_from_arrow
from analyzer.formats.tenhou.tenhou6_columns import tenhou6_texts

WRITERS: dict[str, Callable[[LogTables, pl.DataFrame | None], GameTexts]] = {
    "mjai": mjai_texts, "tenhou6": tenhou6_texts}
GAMES_PER_RUN = 512  # games turned into texts at once: a Polars run's own cost is then a small part of it
PER_SEAT = ("dan", "rate", "ranks")
NUMBERS = pa.schema([("game", pa.int32()), *((f"{name}_numbers", pa.large_list(pa.bool_())) for name in PER_SEAT)])


def recorded_numbers(games: list[Game]) -> pa.Table:
    """Per game (numbered from 0) and per-seat value (dan, rate, ranks) whether each seat's value was recorded
    as a number (a tenhou.net/6 ``rate``): the log tables keep them as text, the exports write them as the log
    did. Arrow only (it runs in forked workers)."""
    columns: dict[str, list] = {"game": list(range(len(games)))}
    for name in PER_SEAT:
        columns[f"{name}_numbers"] = [
            None if not isinstance(getattr(g, name), (list, tuple)) else
            [isinstance(v, (int, float)) for v in getattr(g, name)] for g in games]
    return pa.table(columns, schema=NUMBERS)


@dataclass
class TablesBatch:
    """A batch's files read (:func:`.read_columns.columns_tables_batch`): per file (game id, digest, notes,
    reason it is not exported or None), and the log tables of the games read (Arrow, numbered in file order)
    with their :func:`recorded_numbers`."""

    read: list[tuple[str, str, list[tuple], str | None]]
    tables: dict[str, pa.Table]
    numbers: pa.Table


def texts_of_tables(tables: LogTables, fmt: str, numbers: pl.DataFrame | None = None) -> GameTexts:
    """The files of the games of ``tables`` in ``fmt`` (``mjai``, ``tenhou6``)."""
    return WRITERS[fmt](tables, numbers)


def _outcomes(batch: TablesBatch, texts: GameTexts, first: int) -> tuple[list[tuple], list[str | None]]:
    """The export runner's form of one batch (per file game id, digest, files, notes, error; and its texts),
    its games from number ``first`` of ``texts``."""
    outcomes, out = [], []
    number = first
    for gid, digest, notes, error in batch.read:
        text = None
        if error is None:
            error, text = texts.errors[number], texts.text(number)
            number += 1
        outcomes.append((gid, digest, 0, [], error) if error is not None else (gid, digest, 1, notes, None))
        out.append(text)
    return outcomes, out


def text_batches(batches: Iterable[TablesBatch], fmt: str, games_per_run: int = GAMES_PER_RUN
                 ) -> Iterator[tuple[list[tuple], list[str | None]]]:
    """Each :class:`TablesBatch` as the export runner takes a batch of :mod:`.game_files` (per file game id,
    digest, files, notes, error; the texts), in order: the parent's work, a few batches at a time."""
    waiting: list[TablesBatch] = []
    games = 0
    for batch in batches:
        waiting.append(batch)
        games += batch.tables["games"].num_rows
        if games >= games_per_run:
            yield from _converted(waiting, fmt)
            waiting, games = [], 0
    if waiting:
        yield from _converted(waiting, fmt)


def _converted(batches: list[TablesBatch], fmt: str) -> Iterator[tuple[list[tuple], list[str | None]]]:
    parts = [log_tables_from_arrow(batch.tables) for batch in batches]
    tables = concat_tables(parts)
    offsets, numbers = [], []
    offset = 0
    for part, batch in zip(parts, batches):
        offsets.append(offset)
        numbers.append(pl.from_arrow(batch.numbers).with_columns(pl.col("game") + offset))
        offset += part.games.height
    texts = texts_of_tables(tables, fmt, pl.concat(numbers))
    for batch, first in zip(batches, offsets):
        yield _outcomes(batch, texts, first)
