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

from analyzer.players import DEFAULT_RANK_BY
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
    # session and player as categoricals: 4 bytes a row kept to the end of the run, codes for the grid
    return lf.filter(pl.col(SESSION).is_not_null()).select(
        pl.col(SESSION).cast(pl.String).cast(pl.Categorical), pl.col("player").cast(pl.Categorical),
        pl.lit(1, pl.Int64).alias("games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).alias("_points_units"),
        pl.col("place").cast(pl.Int64).alias("_place_sum"),
        (pl.col("place") == 1).cast(pl.Int64).alias("place_1"),
    )


def partials_schema() -> dict[str, pl.DataType]:
    return {SESSION: pl.Categorical, "player": pl.Categorical, **{c: pl.Int64 for c in SUMS}}


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


def _fields(grid: dict[str, np.ndarray], rank_keys: list[str]) -> list[np.ndarray]:
    """Each ranking key as non-negative integers, smaller first, equal where the key is equal: whole numbers as
    their distance from the best in steps of their greatest common divisor (game points in millionths come in
    tenths), the average place as a multiple of 1 / (2 * most games ** 2) (two averages over at most that many
    games differ by more), the average points as their dense rank."""
    games = grid["games"]
    most = max(int(games.max()), 1)
    fields = []
    for key in rank_keys:
        if key in ("total_points", "place_1", "games"):
            values = grid[SORT_COLUMNS[key]]
            step = max(int(np.gcd.reduce(values - values.min())), 1)
            fields.append((values.max() - values) // step)
        elif key == "avg_place":
            scale = 2 * most * most
            quantized = np.floor(np.divide(grid["_place_sum"] * scale, np.maximum(games, 1))).astype(np.int64)
            fields.append(np.where(games > 0, quantized, quantized.max() + 1))
        else:  # avg_points: a ratio of millionths, no small common step
            average = np.divide(grid["_points_units"], np.maximum(games, 1))
            rank = pl.Series(np.where(games > 0, -average, np.inf)).rank("dense").cast(pl.Int64).to_numpy()
            fields.append(rank - 1)
    return fields


def _ordering(order: np.ndarray, fields: list[np.ndarray], player: np.ndarray) -> np.ndarray:
    """The permutation that sorts the cells by session, the key fields and the player (name order): the fields
    packed into one Int64 where they fit (one sort of integers), else a sort by the columns."""
    columns = [order, *fields, player]
    bits = [max(1, int(c.max()).bit_length()) for c in columns]
    if sum(bits) <= 63:
        key, shift = np.zeros(len(order), dtype=np.int64), sum(bits)
        for column, width in zip(columns, bits):
            shift -= width
            key |= column.astype(np.int64) << shift
        return np.argsort(key)  # every key differs (the player is in it): no stable sort needed
    frame = pl.DataFrame({str(i): c for i, c in enumerate(columns)})
    return frame.select(pl.arg_sort_by(frame.columns)).to_series().to_numpy()


def _lookup(codes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """An array that maps each categorical code of ``codes`` to its value of ``values``."""
    table = np.zeros(int(codes.max()) + 1 if len(codes) else 1, dtype=np.int64)
    table[codes] = values
    return table


def _cell_sums(cell: np.ndarray, columns: dict[str, np.ndarray], cells: int) -> dict[str, np.ndarray]:
    """Each column summed per cell: placed directly where no cell has two partial rows (the usual case, one
    game per player and session), else added up by ``bincount``."""
    counts = np.bincount(cell, minlength=cells)
    if counts.max(initial=0) <= 1:
        sums = {}
        for name, values in columns.items():
            summed = np.zeros(cells, dtype=np.int64)
            summed[cell] = values
            sums[name] = summed
        return sums
    return {name: np.bincount(cell, weights=values, minlength=cells).round().astype(np.int64)
            for name, values in columns.items()}


def finish_sessions(partials: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.DataFrame:
    """The standings after each session (columns :data:`SESSION_COLUMNS`), session by session in play order,
    each by rank then player; empty without sessions. ``partials``: partial rows (a session and player may
    come in several).

    Players and sessions are integer codes (categoricals: no group-by on names). A session at a time, in play
    order: its partial rows are summed per player (placed by code, or ``bincount`` where a player has several),
    added to the running totals, and one sort of a packed integer key (ranking keys, name) gives the order and
    the ranks. Memory: the partial rows, the table, and arrays of one session's players (not the whole grid of
    players x sessions). Column work on arrays, a Python step per session, none per row."""
    if partials.height == 0:
        return pl.DataFrame(schema={**{c: pl.Int64 for c in SESSION_COLUMNS}, "session": pl.String,
                                    "player": pl.String, "session_points": pl.Float64, "total_points": pl.Float64,
                                    "avg_points": pl.Float64, "avg_place": pl.Float64}).select(SESSION_COLUMNS)
    sessions = partials[SESSION].cast(pl.Categorical)  # process-wide integer codes: no hashing of names here
    players = partials["player"].cast(pl.Categorical)
    session_codes = sessions.unique()
    order = session_order(session_codes.cast(pl.String))
    n_sessions = len(order)
    place_of = dict(zip(order, range(n_sessions)))
    session_index = _lookup(session_codes.to_physical().to_numpy(),
                            np.array([place_of[s] for s in session_codes.cast(pl.String).to_list()], dtype=np.int64))
    names = players.unique().to_frame("code").with_columns(pl.col("code").cast(pl.String).alias("player")).sort(
        "player")  # the grid's players, by name
    n_players = names.height
    player_index = _lookup(names["code"].to_physical().to_numpy(), np.arange(n_players, dtype=np.int64))
    row_player = player_index[players.to_physical().to_numpy()]
    row_session = session_index[sessions.to_physical().to_numpy()]
    by_session = np.argsort(row_session, kind="stable")  # each session's partial rows together
    bounds = np.concatenate([[0], np.cumsum(np.bincount(row_session, minlength=n_sessions))])
    values = {c: partials[c].to_numpy() for c in SUMS}
    running = {c: np.zeros(n_players, dtype=np.int64) for c in SUMS}  # the totals after the session
    keys, no_session, player_of = session_rank_keys(rank_by), np.zeros(n_players, np.int64), np.arange(n_players)
    chunks, rank_before = [], None
    for number, name in enumerate(order):  # a session at a time: memory of one session, not of the whole grid
        rows = by_session[bounds[number]:bounds[number + 1]]
        session = _cell_sums(row_player[rows], {c: v[rows] for c, v in values.items()}, n_players)
        for c in SUMS:
            running[c] = running[c] + session[c]
        fields = _fields(running, keys)
        perm = _ordering(no_session, fields, player_of)
        rank = _ranks([f[perm] for f in fields])
        chunks.append(_session_table(name, perm, rank, rank_before, names["player"], session, running))
        rank_before = np.empty(n_players, dtype=np.int64)
        rank_before[perm] = rank
    return pl.concat(chunks)


def _ranks(fields: list[np.ndarray]) -> np.ndarray:
    """Ranks of cells sorted by ``fields``: the place of the first cell with the same keys (equal keys, equal
    rank)."""
    position = np.arange(len(fields[0]), dtype=np.int64)
    new = np.zeros(len(position), dtype=bool)
    new[:1] = True
    for f in fields:
        new[1:] |= f[1:] != f[:-1]
    return np.maximum.accumulate(np.where(new, position, 0)) + 1


def _session_table(name: str, perm: np.ndarray, rank: np.ndarray, rank_before: np.ndarray | None,
                   names: pl.Series, session: dict[str, np.ndarray], running: dict[str, np.ndarray]) -> pl.DataFrame:
    """One session's standings (players in ``perm`` order, their ranks ``rank``)."""
    games, units = running["games"][perm], running["_points_units"][perm]
    played = ~pl.Series(games > 0)
    n = len(perm)
    return pl.DataFrame({
        SESSION: pl.repeat(name, n, dtype=pl.String, eager=True),
        "rank": rank,
        "player": names.gather(perm),
        "session_games": session["games"][perm],
        "session_points": session["_points_units"][perm] / POINT_UNITS,
        "games": games,
        "total_points": units / POINT_UNITS,
        "avg_points": pl.Series(np.divide(units, np.maximum(games, 1)) / POINT_UNITS).set(played, None),
        "avg_place": pl.Series(running["_place_sum"][perm] / np.maximum(games, 1)).set(played, None),
        "place_1": running["place_1"][perm],
        "rank_change": pl.repeat(None, n, dtype=pl.Int64, eager=True) if rank_before is None
        else pl.Series(rank_before[perm] - rank),
    }).select(SESSION_COLUMNS)
