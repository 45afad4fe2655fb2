"""Ratings computed over a run's games, in the order of games (:mod:`analyzer.ratings.order`): ``tenhou`` (Tenhou's
R, :mod:`analyzer.ratings.tenhou`, the default) or ``openskill`` (:mod:`analyzer.ratings.skill`), kept apart by
player count — a player has a four-player and a three-player rating, as on Tenhou.

Ratings depend on the order of all games, so they are computed once, at the end of a run, from compact rows of
the games table that each partition hands on (:func:`rating_rows`: one per player and game). The results:

* the ``ratings`` table (:data:`RATINGS_COLUMNS`): one row per player per game, in the order of games;
* per player and player count the final state (:class:`Ratings.final`), written into the players table
  (:func:`with_ratings`: ``rating_4p``, ``rating_games_4p``, ``rating_rank_4p`` and the same for ``3p``;
  openskill also ``rating_mu_*``, ``rating_sigma_*``) — which ``--ratings-from`` reads back
  (:func:`previous_state`) to carry a season on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyzer.io.columns import InputError
from analyzer.ratings import skill, tenhou
from analyzer.ratings.order import GAME_TIMES_SCHEMA, PLAYED_AT, PLAYED_AT_TYPE, SESSION, game_times, sort_games
from analyzer.core.schema import SOURCE_FILE, SOURCE_ROW

__all__ = ["RatingOptions", "Ratings", "SYSTEMS", "compute_ratings", "game_times", "previous_state", "rating_rows",
           "sort_games", "with_ratings", "read_previous"]

SYSTEMS = ("tenhou", "openskill", "none")
PLAYER_COUNTS = (4, 3)
ROWS_SCHEMA = {"game_id": pl.Categorical, "player": pl.Categorical, "seat": pl.Int8, "place": pl.Int8,
               "players": pl.Int8, PLAYED_AT: PLAYED_AT_TYPE, SESSION: pl.Categorical, SOURCE_FILE: pl.Categorical,
               SOURCE_ROW: pl.Int64}
RATINGS_COLUMNS = {"player": pl.String, "players": pl.Int8, "game_id": pl.String, PLAYED_AT: PLAYED_AT_TYPE,
                   "place": pl.Int8, "game": pl.Int32, "rating_before": pl.Float64, "rating_after": pl.Float64,
                   "change": pl.Float64}
SKILL_COLUMNS = {"mu_before": pl.Float64, "sigma_before": pl.Float64, "mu_after": pl.Float64,
                 "sigma_after": pl.Float64}
STATE_SCHEMA = {"player": pl.String, "players": pl.Int64, "rating": pl.Float64, "games": pl.Int64,
                "mu": pl.Float64, "sigma": pl.Float64}


@dataclass(frozen=True)
class RatingOptions:
    """Which rating a run computes and from where: ``system`` (:data:`SYSTEMS`), Tenhou's ``start`` and ``scale``
    (R of a new player; the divisor of the table's R difference), and ``previous``, each player's state to
    start from (:func:`previous_state`, from the players table of an earlier run)."""

    system: str = "tenhou"
    start: float = tenhou.START
    scale: float = tenhou.SCALE
    previous: pl.DataFrame | None = None

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise InputError(f"unknown rating system {self.system!r}: one of {', '.join(SYSTEMS)}")
        if not self.scale > 0:
            raise InputError(f"the rating scale must be positive, not {self.scale}")

    @property
    def enabled(self) -> bool:
        return self.system != "none"

    @classmethod
    def of(cls, ratings: RatingOptions | str | None, ratings_from: str | Path | pl.DataFrame | None = None,
           start: float | None = None, scale: float | None = None) -> RatingOptions:
        """Options from the API's arguments: a system name (or None: the default), the earlier players table."""
        if isinstance(ratings, RatingOptions):
            return ratings
        system = ratings or "tenhou"
        previous = None if ratings_from is None else previous_state(read_previous(ratings_from), system)
        return cls(system, tenhou.START if start is None else float(start), tenhou.SCALE if scale is None
                   else float(scale), previous)


@dataclass
class Ratings:
    table: pl.DataFrame  # RATINGS_COLUMNS (+ SKILL_COLUMNS for openskill), in the order of games
    final: pl.DataFrame  # STATE_SCHEMA: each player and player count after their last game
    rows: pl.DataFrame  # the rated rows with their session (the sessions table's rating after each session)


def rating_rows(games: pl.DataFrame, times: pl.DataFrame) -> pl.DataFrame:
    """A partition's rows for the ratings (:data:`ROWS_SCHEMA`): its games table (one row per player per game,
    a game's rows together) with each game's player count and its keys of the order of games (``times``,
    :func:`analyzer.ratings.order.game_times`). Compact: the game id, the player, the session and the file as
    categoricals (a run keeps these rows of every game until its end; a game id as text took three quarters of
    them)."""
    if games.height == 0:
        return pl.DataFrame(schema=ROWS_SCHEMA)
    return (
        games.lazy().select("game_id", "player", "seat", "place", pl.len().over("game_id").alias("players"))
        .join(times.lazy().select(list(GAME_TIMES_SCHEMA)), on="game_id", how="left", maintain_order="left")
        .select(list(ROWS_SCHEMA)).cast(ROWS_SCHEMA).collect()
    )


def stacked(frames: list[pl.DataFrame]) -> pl.DataFrame:
    frames = [f for f in frames if f.height]
    # not rechunked: the parts' buffers are shared, not copied (the rows are gathered into order once, later)
    return pl.concat(frames, how="vertical", rechunk=False) if frames else pl.DataFrame(schema=ROWS_SCHEMA)


def read_previous(source: str | Path | pl.DataFrame) -> pl.DataFrame:
    """An earlier run's players table (Parquet or CSV, or a frame)."""
    if isinstance(source, pl.DataFrame):
        return source
    path = Path(source)
    try:
        return pl.read_csv(path) if path.suffix.lower() == ".csv" else pl.read_parquet(path)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read the earlier ratings {path}: {str(exc).splitlines()[0]}") from exc


def previous_state(players: pl.DataFrame, system: str) -> pl.DataFrame:
    """Each player's state per player count (:data:`STATE_SCHEMA`) from an earlier run's players table: its
    ``rating_*``/``rating_games_*`` columns (openskill: ``rating_mu_*``, ``rating_sigma_*``). A table of
    another system, or with no ratings, is refused: its numbers mean something else."""
    if system == "none":
        return pl.DataFrame(schema=STATE_SCHEMA)
    recorded = players["rating_system"].drop_nulls().unique().to_list() if "rating_system" in players.columns \
        else []
    if not recorded:
        raise InputError(f"--ratings-from: the table holds no ratings: give the players table of a run with"
                         f" --ratings {system}")
    if recorded != [system]:
        raise InputError(f"--ratings-from: the table holds {', '.join(recorded)} ratings, not {system}")
    frames = []
    for count in PLAYER_COUNTS:
        suffix = f"_{count}p"
        rating, games = f"rating{suffix}", f"rating_games{suffix}"
        if rating not in players.columns:
            continue
        mu, sigma = f"rating_mu{suffix}", f"rating_sigma{suffix}"
        frames.append(players.filter(pl.col(games) > 0).select(
            pl.col("player").cast(pl.String), pl.lit(count, pl.Int64).alias("players"),
            pl.col(rating).cast(pl.Float64).alias("rating"), pl.col(games).cast(pl.Int64).alias("games"),
            (pl.col(mu) if mu in players.columns else pl.lit(None)).cast(pl.Float64).alias("mu"),
            (pl.col(sigma) if sigma in players.columns else pl.lit(None)).cast(pl.Float64).alias("sigma"),
        ))
    return pl.concat(frames) if frames else pl.DataFrame(schema=STATE_SCHEMA)


def _in_order(rows: pl.DataFrame) -> pl.DataFrame:
    """The rows in the order of games, each game's rows in place order. A partition's rows hold each game's rows
    together, by place (the games table's order), so the order is found among the games (one row each) and the
    rows follow their game: a sort of the games, not of the rows."""
    new_game = rows.select((pl.col("game_id") != pl.col("game_id").shift(1)).fill_null(True)).to_series()
    starts = np.flatnonzero(new_game.to_numpy())
    lengths = np.diff(np.append(starts, rows.height))
    games = rows[starts].select(PLAYED_AT, SESSION, SOURCE_FILE, SOURCE_ROW, "game_id").with_columns(
        pl.col(SESSION, SOURCE_FILE, "game_id").cast(pl.String), pl.Series("_g", np.arange(len(starts))))
    order = sort_games(games)["_g"].to_numpy()
    if (np.diff(order) > 0).all():  # the games came in their order (the usual case): no gather of the rows
        return rows
    first = np.repeat(starts[order], lengths[order])
    offset = np.arange(rows.height) - np.repeat(np.cumsum(lengths[order]) - lengths[order], lengths[order])
    return rows[first + offset]


def _codes(players: pl.Series, counts: np.ndarray) -> np.ndarray:
    """An integer per (player, player count): the player's categorical code and the count."""
    return players.cast(pl.Categorical).to_physical().cast(pl.Int64).to_numpy() * 8 + counts


def compute_ratings(rows: pl.DataFrame | list[pl.DataFrame], options: RatingOptions) -> Ratings:
    """The ratings of the rows of every partition (:func:`rating_rows`: a frame, or the parts' frames — a list,
    emptied here so that the rows are held once), in the order of games. Games of a player count other than
    three or four are not rated.

    All but the recurrence itself is column work: the order (a sort of the games), each row's key (player and
    player count as an integer), its game number N and place base; the loop over games (:func:`tenhou.rate`,
    :func:`skill.rate`) only adds up."""
    if isinstance(rows, list):
        parts, rows = rows, stacked(rows)
        parts.clear()
    unrated = ~pl.col("players").is_in(PLAYER_COUNTS)
    # filtered only when some game is unrated: a filter copies every row, which would hold them twice
    rated = _in_order(rows.filter(~unrated) if rows.select(unrated.any()).item() else rows)
    del rows  # gathered into order: not held twice
    previous = options.previous if options.previous is not None else pl.DataFrame(schema=STATE_SCHEMA)
    key, keys, carried_at = _keys(rated, previous)
    carried = np.zeros(keys, dtype=np.int64)
    carried[carried_at] = previous["games"].to_numpy()
    by_key = pl.DataFrame({"key": key})
    # N: the row's number among its key's rows (in game order), the earlier run's games counted
    number = by_key.select(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("key")).to_series().to_numpy() \
        + carried[key]
    new_game = rated.select((pl.col("game_id") != pl.col("game_id").shift(1)).fill_null(True)).to_series().to_numpy()
    game_start = np.append(np.flatnonzero(new_game), rated.height)
    del new_game
    place = rated["place"].to_numpy()
    counts = rated["players"].to_numpy()

    def start_of(column: str, default: float) -> np.ndarray:
        values = np.full(keys, default)
        given = previous[column].to_numpy() if previous.height else np.array([])
        known = ~np.isnan(given.astype(float)) if len(given) else np.array([], dtype=bool)
        values[carried_at[known]] = given[known]
        return values

    def before_from(after: np.ndarray, initial: np.ndarray) -> np.ndarray:
        """Each row's value before its game: the key's value after its previous game, or where it started."""
        before = by_key.with_columns(pl.Series("v", after)).select(pl.col("v").shift(1).over("key")).to_series()
        return before.fill_null(pl.Series(initial[key])).to_numpy()

    columns: dict[str, np.ndarray] = {}
    if options.system == "tenhou":
        base = _place_bases(game_start, place, counts)
        initial = start_of("rating", options.start)
        after = tenhou.rate(key, game_start, base, number, initial, options.scale)
        columns["rating_before"], columns["rating_after"] = before_from(after, initial), after
        final_extra = {"mu": None, "sigma": None}
    else:
        mu0, sigma0 = start_of("mu", skill.MU), start_of("sigma", skill.SIGMA)
        mu_a, sigma_a = skill.rate(key, game_start, place, mu0, sigma0)
        mu_b, sigma_b = before_from(mu_a, mu0), before_from(sigma_a, sigma0)
        columns = {"rating_before": mu_b - skill.Z * sigma_b, "rating_after": mu_a - skill.Z * sigma_a,
                   "mu_before": mu_b, "sigma_before": sigma_b, "mu_after": mu_a, "sigma_after": sigma_a}
        final_extra = {"mu": mu_a, "sigma": sigma_a}
    schema = {**RATINGS_COLUMNS, **(SKILL_COLUMNS if options.system == "openskill" else {})}
    table = rated.select(pl.col("player").cast(pl.String), "players", "game_id", PLAYED_AT, "place").with_columns(
        pl.Series("game", number), *[pl.Series(name, values) for name, values in columns.items()],
        (pl.Series(columns["rating_after"]) - pl.Series(columns["rating_before"])).alias("change"),
    ).select(list(schema)).cast(schema)
    # the final state: each key's last row, and the earlier run's keys with no game here as they were
    last = by_key.with_row_index("i").group_by("key").agg(pl.col("i").last())["i"].cast(pl.Int64).to_numpy()
    played = np.zeros(keys, dtype=bool)
    played[key[last]] = True
    final = pl.concat([
        pl.DataFrame({"player": table["player"].gather(last), "players": counts[last],
                      "rating": columns["rating_after"][last], "games": number[last],
                      "mu": None if final_extra["mu"] is None else final_extra["mu"][last],
                      "sigma": None if final_extra["sigma"] is None else final_extra["sigma"][last]},
                     schema=STATE_SCHEMA),
        previous.filter(pl.Series(~played[carried_at]) if previous.height else pl.lit(True)).select(
            list(STATE_SCHEMA)).cast(STATE_SCHEMA),
    ]).sort("players", "player", descending=[True, False])
    has_sessions = rated[SESSION].null_count() < rated.height
    sessions = (rated.select(pl.col(SESSION).cast(pl.String), table["player"], table["rating_after"])
                if has_sessions else pl.DataFrame(schema={SESSION: pl.String, "player": pl.String,
                                                          "rating_after": pl.Float64}))
    return Ratings(table, final, sessions)


def _keys(rated: pl.DataFrame, previous: pl.DataFrame) -> tuple[np.ndarray, int, np.ndarray]:
    """Each row's key (player and player count) as 0..K-1 in the order of the codes (a count of the codes used,
    not a sort), the number of keys K (the earlier run's included), and the keys of the earlier run's rows."""
    row_codes = _codes(rated["player"], rated["players"].cast(pl.Int64).to_numpy())
    previous_codes = _codes(previous["player"], previous["players"].to_numpy())
    codes = np.concatenate([row_codes, previous_codes])
    highest = int(codes.max()) if len(codes) else -1
    if highest > 16 * len(codes) + 1024:  # codes spread far (a process that made many categories): sorted
        used_codes, inverse = np.unique(codes, return_inverse=True)
        keys = len(used_codes)
    else:
        used = np.zeros(highest + 1, dtype=bool)
        used[codes] = True
        inverse = (np.cumsum(used, dtype=np.int64) - 1)[codes]  # each code's number among those used, in order
        keys = int(used.sum())
    return inverse[:len(row_codes)].astype(np.int32), keys, inverse[len(row_codes):]


def _place_bases(game_start: np.ndarray, place: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each row's Tenhou place base, shared places sharing their bases (:func:`tenhou.shared_bases`): a run of
    rows of one game and one place is the players sharing it."""
    game = np.zeros(len(place), dtype=np.int32)
    game[game_start[1:-1]] = 1
    game = np.cumsum(game, dtype=np.int32)
    run_start = np.ones(len(place), dtype=bool)
    run_start[1:] = (game[1:] != game[:-1]) | (place[1:] != place[:-1])
    run = np.cumsum(run_start, dtype=np.int32) - 1
    return tenhou.shared_bases(counts, place.astype(np.int64), np.bincount(run)[run])


def rating_columns(system: str) -> list[str]:
    """The players table's rating columns of ``system``."""
    columns = ["rating_system"]
    for count in PLAYER_COUNTS:
        columns += [f"rating_{count}p", f"rating_rank_{count}p", f"rating_games_{count}p"]
        if system == "openskill":
            columns += [f"rating_mu_{count}p", f"rating_sigma_{count}p"]
    return columns


def with_ratings(players: pl.DataFrame, ratings: Ratings, system: str) -> pl.DataFrame:
    """The players table with each player's final rating per player count, its rank among the players of this
    table rated at that count (1 best; equal ratings share a rank) and the games it counts (the earlier
    run's included), after the table's own columns."""
    frame = players.select("player").with_columns(pl.lit(system).alias("rating_system"))
    for count in PLAYER_COUNTS:
        suffix = f"_{count}p"
        final = ratings.final.filter(pl.col("players") == count).select(
            "player", pl.col("rating").alias(f"rating{suffix}"), pl.col("games").alias(f"rating_games{suffix}"),
            pl.col("mu").alias(f"rating_mu{suffix}"), pl.col("sigma").alias(f"rating_sigma{suffix}"))
        frame = frame.join(final, on="player", how="left", maintain_order="left").with_columns(
            pl.col(f"rating{suffix}").rank("min", descending=True).cast(pl.Int64).alias(f"rating_rank{suffix}"),
            pl.col(f"rating_games{suffix}").fill_null(0))
    return pl.concat([players, frame.select(rating_columns(system))], how="horizontal")


def sessions_with_ratings(sessions: pl.DataFrame, ratings: Ratings) -> pl.DataFrame:
    """The sessions table with each player's rating after the session (``rating``: after their last game up to
    it; a session they missed keeps the one before; null before their first game)."""
    last = ratings.rows.filter(pl.col(SESSION).is_not_null()).group_by(SESSION, "player").agg(
        pl.col("rating_after").last().alias("rating"))
    return sessions.join(last, on=[SESSION, "player"], how="left", maintain_order="left").with_columns(
        pl.col("rating").forward_fill().over("player"))
