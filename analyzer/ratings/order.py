"""The order of games, stated once: every order-dependent table (ratings, recorded ranks) sorts its games by
:func:`sort_games`.

A game's place in time is, in this order of preference:

1. ``played_at`` — the time the game started (the Tenhou importer writes it from the log id; a CSV may give
   any ISO 8601 date and time, with or without an offset; a time without an offset is taken as UTC);
2. ``date`` — a day (``YYYY-MM-DD``), taken as midnight UTC;
3. ``session`` — the tournament's sessions in play order (by number when every session is a whole number, as
   :func:`analyzer.tournament.sessions.session_order` says);
4. the input: files in path order (as a folder's files are read, :func:`analyzer.io.load.expand_inputs`:
   ``b/c.csv`` before ``b.csv``), rows in file order (the game's first input row in that order) — not the order
   the files were given in, so that listing them otherwise gives the same ratings.

Each key decides only between games that both have it; a game without a time comes after the games with
one, a game without a session after those with one. Equal keys fall back to the next key, and last to the
game id, so the order is total and depends neither on how the input was partitioned nor on how it was listed.

:func:`game_times` reads one partition's input rows and gives one row per game with the keys; the games
table carries ``played_at`` (UTC, null where unknown) so that a reader can sort by it.
"""

from __future__ import annotations

import os

import polars as pl

from analyzer.core.schema import SOURCE_FILE, SOURCE_ROW
from analyzer.tournament.sessions import session_order

PLAYED_AT = "played_at"
PLAYED_AT_TYPE = pl.Datetime("us", "UTC")
SESSION = "session"
GAME_TIMES_SCHEMA = {"game_id": pl.String, PLAYED_AT: PLAYED_AT_TYPE, SESSION: pl.String, SOURCE_FILE: pl.String,
                     SOURCE_ROW: pl.Int64}
# the separators of a path's parts: '/' (and '\\' where the system's paths use it)
_SEPARATORS = sorted({"/", os.sep})

# text forms of a time: with an offset (converted to UTC), without (taken as UTC), a day alone (midnight UTC)
_WITH_OFFSET = ("%Y-%m-%dT%H:%M:%S%.f%:z", "%Y-%m-%d %H:%M:%S%.f%:z", "%Y-%m-%dT%H:%M:%S%:z", "%Y-%m-%d %H:%M:%S%:z",
                "%Y-%m-%dT%H:%M%:z", "%Y-%m-%d %H:%M%:z")
_WITHOUT_OFFSET = ("%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S",
                   "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M")


def _text_time(text: pl.Expr) -> pl.Expr:
    """A time written as text, in UTC; null where it is no time."""
    text = text.str.strip_chars().str.replace(r"Z$", "+00:00")
    with_offset = [text.str.strptime(pl.Datetime("us", "UTC"), f, strict=False) for f in _WITH_OFFSET]
    without = [text.str.strptime(pl.Datetime("us"), f, strict=False).dt.replace_time_zone("UTC")
               for f in _WITHOUT_OFFSET]
    day = text.str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False).cast(pl.Datetime("us")).dt.replace_time_zone(
        "UTC")
    return pl.coalesce(*with_offset, *without, day)


def time_of(name: str, dtype: pl.DataType) -> pl.Expr:
    """Column ``name`` (of type ``dtype``) as a time in UTC: a datetime converted (one without a time zone taken
    as UTC), a date at midnight, text parsed (:func:`_text_time`)."""
    column = pl.col(name)
    if isinstance(dtype, pl.Datetime):
        column = column.cast(pl.Datetime("us", dtype.time_zone))
        return column.dt.convert_time_zone("UTC") if dtype.time_zone else column.dt.replace_time_zone("UTC")
    if dtype == pl.Date:
        return column.cast(pl.Datetime("us")).dt.replace_time_zone("UTC")
    return _text_time(column.cast(pl.String))


def row_time(schema: pl.Schema) -> pl.Expr:
    """A row's time: its ``played_at``, else its ``date``, else null."""
    times = [time_of(c, schema[c]) for c in (PLAYED_AT, "date") if c in schema]
    return (pl.coalesce(*times) if times else pl.lit(None, PLAYED_AT_TYPE)).cast(PLAYED_AT_TYPE)


def path_order(path: pl.Expr) -> pl.Expr:
    """A key of input files (``_file``, the path as the run lists it) that sorts them in path order: part by part,
    as Python's paths compare and a folder's files are read (each separator made the smallest character, so
    ``b/c.csv`` comes before ``b.csv``; on Windows without case, as its paths compare)."""
    key = path
    for separator in _SEPARATORS:
        key = key.str.replace_all(separator, "\x00", literal=True)
    return key.str.to_lowercase() if os.name == "nt" else key


def game_times(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per game of a partition's input rows (:data:`GAME_TIMES_SCHEMA`): the game id as the games table
    writes it, the time and the session of the game's first input row that has one, and the file and row of its
    first input row in path order (:func:`path_order`). A game's rows are few (tens): one group-by over the
    partition."""
    if rows.height == 0 or "game_id" not in rows.columns:
        return pl.DataFrame(schema=GAME_TIMES_SCHEMA)
    schema = rows.schema
    session = (pl.col(SESSION).cast(pl.String).str.strip_chars() if SESSION in schema
               else pl.lit(None, pl.String))
    # the files in path order, once each (a partition holds few): each row's file by its place among them
    files = rows.select(pl.col(SOURCE_FILE).cast(pl.String).unique()).sort(path_order(pl.col(SOURCE_FILE)))
    file_place = pl.col(SOURCE_FILE).cast(pl.String).replace_strict(
        files[SOURCE_FILE], pl.int_range(files.height, eager=True), default=None, return_dtype=pl.Int64)
    return (
        rows.lazy()
        .select(pl.col("game_id").cast(pl.String).str.strip_chars().alias("game_id"),
                row_time(schema).alias(PLAYED_AT), session.alias(SESSION), pl.col(SOURCE_FILE).cast(pl.String),
                pl.col(SOURCE_ROW).cast(pl.Int64), file_place.alias("_file_place"))
        .filter(pl.col("game_id").is_not_null())
        .sort("_file_place", SOURCE_ROW)
        .group_by("game_id")
        .agg(pl.col(PLAYED_AT).drop_nulls().first(), pl.col(SESSION).drop_nulls().first(),
             pl.col(SOURCE_FILE).first(), pl.col(SOURCE_ROW).first())
        .collect()
        .select(list(GAME_TIMES_SCHEMA))
        .cast(GAME_TIMES_SCHEMA)
    )


def session_rank(sessions: pl.Series) -> pl.Series:
    """Each session's place in play order (0 first), null where the session is null."""
    order = session_order(sessions.cast(pl.String))
    return sessions.cast(pl.String).replace_strict(order, list(range(len(order))), default=None,
                                                   return_dtype=pl.Int64)


def order_keys(frame: pl.DataFrame) -> list[pl.Expr | str]:
    """The sort keys of the order of games over ``frame`` (columns ``played_at``, ``session``, ``_file`` (text),
    ``_row``, ``game_id``): used with ``nulls_last``."""
    rank = session_rank(frame[SESSION]) if SESSION in frame.columns else None
    keys: list[pl.Expr | str] = [PLAYED_AT]
    if rank is not None:
        keys.append(pl.lit(rank))
    return [*keys, path_order(pl.col(SOURCE_FILE)), SOURCE_ROW, "game_id"]


def sort_games(frame: pl.DataFrame, *then: str) -> pl.DataFrame:
    """``frame`` (one row per game, or per game and player with ``then`` the columns that order a game's rows)
    in the order of games."""
    return frame.sort([*order_keys(frame), *then], nulls_last=True, maintain_order=False)
