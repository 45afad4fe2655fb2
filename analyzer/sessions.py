"""Standings after each session of a tournament: the games table's ``session`` column (a game-level sheet's, or
a ``session`` column of hand records, read from a game's first row).

Like the players table, built from partial sums that merge across any split of the games:
:func:`session_partials` gives one row per session and player of a part (games, game points in integer
millionths, the sum of places, first places), :func:`merge_sessions` adds partial rows up and
:func:`finish_sessions` gives, for every session and every player of the tournament, the session's points,
the running totals after it, the rank after it (by ``--rank-by``, over the running totals) and the change of
rank since the session before (positive: up). A player who missed a session keeps their totals through it
(``session_games`` 0).

Sessions are ordered by number when every session is a whole number (``2`` before ``10``), else by name.
"""

from __future__ import annotations

import polars as pl

from analyzer.players import DEFAULT_RANK_BY, rank_expr
from analyzer.players.columns import POINT_UNITS

SESSION = "session"
SUMS = ["games", "_points_units", "_place_sum", "place_1"]
SESSION_COLUMNS = ["session", "rank", "player", "session_games", "session_points", "games", "total_points",
                   "avg_points", "avg_place", "place_1", "rank_change"]
# the keys a standing after a session can be ranked by: the running totals (hand statistics have no session)
SESSION_RANK_KEYS = ("total_points", "avg_points", "avg_place", "place_1", "games")


def session_partials(games: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """One row per session and player of a part: the sums of :data:`SUMS` (games without a session left out)."""
    lf = games.lazy()
    if SESSION not in lf.collect_schema().names():
        return pl.LazyFrame(schema=partials_schema())
    return lf.filter(pl.col(SESSION).is_not_null()).select(
        SESSION, "player",
        pl.lit(1, pl.Int64).alias("games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).alias("_points_units"),
        pl.col("place").cast(pl.Int64).alias("_place_sum"),
        (pl.col("place") == 1).cast(pl.Int64).alias("place_1"),
    ).group_by(SESSION, "player").agg(pl.all().sum())


def partials_schema() -> dict[str, pl.DataType]:
    return {SESSION: pl.String, "player": pl.String, **{c: pl.Int64 for c in SUMS}}


def merge_sessions(partials: list[pl.DataFrame]) -> pl.DataFrame:
    """Partial rows of several parts as one row per session and player (associative)."""
    frames = [p for p in partials if p.height]
    if not frames:
        return pl.DataFrame(schema=partials_schema())
    if len(frames) == 1:
        return frames[0]
    return pl.concat(frames, how="vertical").group_by(SESSION, "player").agg(pl.col(SUMS).sum())


def session_order(sessions: pl.Series) -> list[str]:
    """The sessions in play order: by number when all are whole numbers, else by name."""
    names = sessions.drop_nulls().unique()
    numbers = names.str.strip_chars().str.to_integer(strict=False)
    if numbers.null_count() == 0:
        return pl.DataFrame({"s": names, "n": numbers}).sort("n", "s")["s"].to_list()
    return names.sort().to_list()


def session_rank_keys(rank_by: tuple[str, ...] | list[str]) -> list[str]:
    """The ``rank_by`` keys a standing after a session has (the hand rates it has not are left out)."""
    keys = [k for k in rank_by if k in SESSION_RANK_KEYS]
    return keys or ["total_points"]


def finish_sessions(merged: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.DataFrame:
    """The standings after each session (columns :data:`SESSION_COLUMNS`), session by session in play order,
    each by rank then player; empty without sessions."""
    if merged.height == 0:
        return pl.DataFrame(schema={**{c: pl.Int64 for c in SESSION_COLUMNS}, "session": pl.String,
                                    "player": pl.String, "session_points": pl.Float64, "total_points": pl.Float64,
                                    "avg_points": pl.Float64, "avg_place": pl.Float64}).select(SESSION_COLUMNS)
    order = session_order(merged[SESSION])
    sessions = pl.DataFrame({SESSION: order, "_order": list(range(len(order)))})
    players = merged.select(pl.col("player").unique())
    grid = sessions.join(players, how="cross").join(merged, on=[SESSION, "player"], how="left").with_columns(
        pl.col(SUMS).fill_null(0)).sort("player", "_order")
    running = grid.with_columns(
        pl.col("games").alias("session_games"),
        (pl.col("_points_units") / POINT_UNITS).alias("session_points"),
        *[pl.col(c).cum_sum().over("player").alias(c) for c in SUMS],
    ).with_columns(
        (pl.col("_points_units") / POINT_UNITS).alias("total_points"),
    ).with_columns(
        pl.when(pl.col("games") > 0).then(pl.col("total_points") / pl.col("games")).alias("avg_points"),
        pl.when(pl.col("games") > 0).then(pl.col("_place_sum") / pl.col("games")).alias("avg_place"),
    )
    ranked = running.with_columns(rank_expr(session_rank_keys(rank_by)).over("_order").alias("rank")).sort(
        "player", "_order").with_columns(
        (pl.col("rank").shift(1).over("player") - pl.col("rank")).alias("rank_change"))
    return ranked.sort("_order", "rank", "player").select(SESSION_COLUMNS)
