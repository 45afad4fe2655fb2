"""Standings after each session of a tournament: the games table's ``session`` column (a game-level sheet's, or
a ``session`` column of hand records, read from a game's first row).

Like the players table, built from partial sums that merge across any split of the games:
:func:`session_partials` gives a part's rows per game and player (games, game points in integer millionths,
the sum of places, first places), :func:`stacked` puts the parts' rows together and :func:`finish_sessions`
adds up each session and player's and gives, for every session and every player of the tournament, the session's points,
the running totals after it, the rank after it (by ``--rank-by``, over the running totals) and the change of
rank since the session before (positive: up). A player who missed a session keeps their totals through it
(``session_games`` 0).

Sessions are ordered by number when every session is a whole number (``2`` before ``10``), else by name.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyzer import segments as seg
from analyzer.players import DEFAULT_RANK_BY, RANK_KEYS
from analyzer.players.columns import POINT_UNITS

SESSION = "session"
SUMS = ["games", "_points_units", "_place_sum", "place_1"]
SESSION_COLUMNS = ["session", "rank", "player", "session_games", "session_points", "games", "total_points",
                   "avg_points", "avg_place", "place_1", "rank_change"]
# the keys a standing after a session can be ranked by: the running totals (hand statistics have no session)
SESSION_RANK_KEYS = ("total_points", "avg_points", "avg_place", "place_1", "games")
# the column each key sorts by: the total as integer millionths (equal totals compare equal)
SORT_COLUMNS = {"total_points": "_points_units", "avg_points": "avg_points", "avg_place": "avg_place",
                "place_1": "place_1", "games": "games"}


def session_partials(games: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """Partial rows of a part: one per game and player with a session, the sums of :data:`SUMS` (a player's
    rows of one session add up in :func:`finish_sessions`)."""
    lf = games.lazy()
    if SESSION not in lf.collect_schema().names():
        return pl.LazyFrame(schema=partials_schema())
    # a player has one game a session as a rule: the rows are the partial rows as they are (merged at the end)
    return lf.filter(pl.col(SESSION).is_not_null()).select(
        SESSION, "player",
        pl.lit(1, pl.Int64).alias("games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).alias("_points_units"),
        pl.col("place").cast(pl.Int64).alias("_place_sum"),
        (pl.col("place") == 1).cast(pl.Int64).alias("place_1"),
    )


def partials_schema() -> dict[str, pl.DataType]:
    return {SESSION: pl.String, "player": pl.String, **{c: pl.Int64 for c in SUMS}}


def stacked(partials: list[pl.DataFrame]) -> pl.DataFrame:
    """Partial rows of several parts as one frame (they add up in :func:`finish_sessions`)."""
    frames = [p for p in partials if p.height]
    return pl.concat(frames, how="vertical") if frames else pl.DataFrame(schema=partials_schema())


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


def _sort_key(grid: pl.DataFrame, rank_keys: list[str]) -> pl.Series:
    """One integer per cell that sorts by session, then the ranking keys (best first), packed into one Int64 (a
    sort by one integer column, several times faster than by several columns): whole-number keys as their
    distance from the best value, the averages as their dense rank; the columns themselves when they do not
    fit 63 bits."""
    packed = [("_order", False)] + [(SORT_COLUMNS[k], RANK_KEYS[k]) for k in rank_keys]
    fields = []
    for column, down in packed:
        col = pl.col(column)
        if grid.schema[column].is_integer():
            fields.append((pl.col(column).max() - col) if down else (col - pl.col(column).min()))
        else:
            fields.append(col.rank("dense", descending=down).fill_null(pl.len() + 1).cast(pl.Int64))
    values = grid.select(f.alias(str(i)) for i, f in enumerate(fields))
    bits = [max(1, int(values[c].max()).bit_length()) for c in values.columns]
    if sum(bits) > 63:
        order = grid.select(pl.arg_sort_by([c for c, _ in packed], descending=[d for _, d in packed],
                                           nulls_last=True, maintain_order=True)).to_series()
        return pl.zeros(grid.height, dtype=pl.Int64, eager=True).scatter(
            order, pl.int_range(grid.height, dtype=pl.Int64, eager=True))
    shift, key = sum(bits), pl.lit(0, pl.Int64)
    for column, width in zip(values.columns, bits):
        shift -= width
        key = key + pl.col(column) * (1 << shift)
    return values.select(key).to_series()


def finish_sessions(partials: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.DataFrame:
    """The standings after each session (columns :data:`SESSION_COLUMNS`), session by session in play order,
    each by rank then player; empty without sessions. ``partials``: partial rows (a session and player may
    come in several).

    Every (player, session) is a cell of a grid laid out player by player: the partial rows are summed into it
    by their integer cell number (``bincount``: no group-by on names), the running totals are segment sums
    down each player's cells, and one sort by session, ranking keys and name gives the order and the ranks."""
    if partials.height == 0:
        return pl.DataFrame(schema={**{c: pl.Int64 for c in SESSION_COLUMNS}, "session": pl.String,
                                    "player": pl.String, "session_points": pl.Float64, "total_points": pl.Float64,
                                    "avg_points": pl.Float64, "avg_place": pl.Float64}).select(SESSION_COLUMNS)
    order = session_order(partials[SESSION].unique())
    n_sessions = len(order)
    coded = partials.with_columns(
        pl.col(SESSION).replace_strict(order, list(range(n_sessions)), return_dtype=pl.Int64).alias("_order"),
        pl.col("player").cast(pl.Categorical).to_physical().cast(pl.Int64).alias("_code"),
    )
    # the grid's players in name order: a stable sort by the ranking keys leaves equal players by name
    codes = coded.select("_code", "player").unique("_code").sort("player")
    dense = np.zeros(int(codes["_code"].max()) + 1, dtype=np.int64)  # a player's code -> their row of the grid
    dense[codes["_code"].to_numpy()] = np.arange(codes.height)
    cell = dense[coded["_code"].to_numpy()] * n_sessions + coded["_order"].to_numpy()
    cells = codes.height * n_sessions
    sums = {c: np.bincount(cell, weights=coded[c].to_numpy(), minlength=cells).round().astype(np.int64) for c in SUMS}
    grid = pl.DataFrame({
        "_order": np.tile(np.arange(n_sessions, dtype=np.int64), codes.height),
        "_player_index": np.repeat(np.arange(codes.height, dtype=np.int64), n_sessions),
        **sums,
    })
    start = pl.col("_order") == 0
    running = grid.with_columns(
        pl.col("games").alias("session_games"),
        (pl.col("_points_units") / POINT_UNITS).alias("session_points"),
        *[seg.cum_sum(pl.col(c), start).alias(c) for c in SUMS],
    ).with_columns(
        (pl.col("_points_units") / POINT_UNITS).alias("total_points"),
    ).with_columns(
        pl.when(pl.col("games") > 0).then(pl.col("total_points") / pl.col("games")).alias("avg_points"),
        pl.when(pl.col("games") > 0).then(pl.col("_place_sum") / pl.col("games")).alias("avg_place"),
        pl.int_range(pl.len(), dtype=pl.Int64).alias("_cell"),
    )
    # one stable sort by session and ranking keys gives the table's order (players by name where the keys are
    # equal); a player's rank is the place of the first row with the same keys in the session
    keys = [SORT_COLUMNS[k] for k in session_rank_keys(rank_by)]
    ordered = running.sort(_sort_key(running, session_rank_keys(rank_by)), maintain_order=True)
    first_of_session = pl.col("_order") != pl.col("_order").shift(1)
    new_keys = pl.any_horizontal(first_of_session, *[pl.col(c).ne_missing(pl.col(c).shift(1)) for c in keys])
    position = pl.int_range(pl.len(), dtype=pl.Int64)
    ranked = ordered.with_columns(
        pl.when(new_keys.fill_null(True)).then(position - seg.first(position, first_of_session.fill_null(True)) + 1)
        .forward_fill().alias("rank"))
    # the rank after the session before: each cell's rank put back in the grid, one cell up
    by_cell = pl.zeros(ranked.height, dtype=pl.Int64, eager=True).scatter(ranked["_cell"], ranked["rank"])
    before = pl.concat([pl.Series([0], dtype=pl.Int64), by_cell[:-1]]).gather(ranked["_cell"])
    return ranked.with_columns(
        pl.when(pl.col("_order") > 0).then(before - pl.col("rank")).alias("rank_change"),
        codes["player"].gather(ranked["_player_index"]).alias("player"),
        pl.Series(order).gather(ranked["_order"]).alias(SESSION),
    ).select(SESSION_COLUMNS)
