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
from analyzer.schema import INPUT_POSITION

__all__ = ["RatingOptions", "Ratings", "SYSTEMS", "compute_ratings", "game_times", "previous_state", "rating_rows",
           "sort_games", "with_ratings", "read_previous"]

SYSTEMS = ("tenhou", "openskill", "none")
PLAYER_COUNTS = (4, 3)
ROWS_SCHEMA = {"game_id": pl.String, "player": pl.Categorical, "seat": pl.Int8, "place": pl.Int8,
               "players": pl.Int8, PLAYED_AT: PLAYED_AT_TYPE, SESSION: pl.Categorical, INPUT_POSITION: pl.Int64}
RATINGS_COLUMNS = {"player": pl.String, "players": pl.Int64, "game_id": pl.String, PLAYED_AT: PLAYED_AT_TYPE,
                   "place": pl.Int64, "game": pl.Int64, "rating_before": pl.Float64, "rating_after": pl.Float64,
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
    :func:`analyzer.ratings.order.game_times`). Compact: the player and the session as categoricals."""
    if games.height == 0:
        return pl.DataFrame(schema=ROWS_SCHEMA)
    return (
        games.lazy().select("game_id", "player", "seat", "place", pl.len().over("game_id").alias("players"))
        .join(times.lazy().select(list(GAME_TIMES_SCHEMA)), on="game_id", how="left", maintain_order="left")
        .select(list(ROWS_SCHEMA)).cast(ROWS_SCHEMA).collect()
    )


def stacked(frames: list[pl.DataFrame]) -> pl.DataFrame:
    frames = [f for f in frames if f.height]
    return pl.concat(frames, how="vertical") if frames else pl.DataFrame(schema=ROWS_SCHEMA)


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
    if recorded != [system]:
        found = ", ".join(recorded) if recorded else "none"
        raise InputError(f"--ratings-from: the table holds {found} ratings, not {system}")
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


def compute_ratings(rows: pl.DataFrame, options: RatingOptions) -> Ratings:
    """The ratings of the rows of every partition (:func:`rating_rows`, stacked), in the order of games. Games of
    a player count other than three or four are not rated."""
    rated = sort_games(rows.filter(pl.col("players").is_in(PLAYER_COUNTS)).with_columns(
        pl.col("player").cast(pl.String), pl.col(SESSION).cast(pl.String)), "place", "seat")
    previous = options.previous if options.previous is not None else pl.DataFrame(schema=STATE_SCHEMA)
    # each (player, player count) is a key 0..K-1; its state before its first game here is the earlier run's
    keys = pl.concat([rated.select("player", pl.col("players").cast(pl.Int64)).unique(),
                      previous.select("player", "players")]).unique(maintain_order=True).with_row_index("key")
    state = keys.join(previous, on=["player", "players"], how="left", maintain_order="left")
    rated = rated.with_columns(pl.col("players").cast(pl.Int64)).join(
        keys, on=["player", "players"], how="left", maintain_order="left")
    key = rated["key"].cast(pl.Int64).to_numpy()
    carried = state["games"].fill_null(0).to_numpy()
    # N: the game's number among the key's games, the earlier run's counted
    number = rated.select(pl.int_range(1, pl.len() + 1).over("key")).to_series().to_numpy() + carried[key]
    new_game = rated.select((pl.col("game_id") != pl.col("game_id").shift(1)).fill_null(True)).to_series()
    game_start = np.append(np.flatnonzero(new_game.to_numpy()), rated.height)
    table = rated.select("player", "players", "game_id", PLAYED_AT, pl.col("place").cast(pl.Int64)).with_columns(
        pl.Series("game", number, pl.Int64))
    if options.system == "tenhou":
        sharing = rated.select(pl.len().over("game_id", "place")).to_series().to_numpy()
        base = tenhou.shared_bases(rated["players"].to_numpy(), rated["place"].cast(pl.Int64).to_numpy(), sharing)
        initial = state["rating"].fill_null(options.start).to_numpy()
        before, after = tenhou.rate(key, game_start, base, number, initial, options.scale)
        table = table.with_columns(pl.Series("rating_before", before), pl.Series("rating_after", after))
        final_extra = [pl.lit(None, pl.Float64).alias("mu"), pl.lit(None, pl.Float64).alias("sigma")]
    else:
        mu0 = state["mu"].fill_null(skill.MU).to_numpy()
        sigma0 = state["sigma"].fill_null(skill.SIGMA).to_numpy()
        mu_b, sigma_b, mu_a, sigma_a = skill.rate(key, game_start, rated["place"].cast(pl.Int64).to_numpy(), mu0,
                                                  sigma0)
        table = table.with_columns(
            pl.Series("rating_before", mu_b - skill.Z * sigma_b), pl.Series("rating_after", mu_a - skill.Z * sigma_a),
            pl.Series("mu_before", mu_b), pl.Series("sigma_before", sigma_b), pl.Series("mu_after", mu_a),
            pl.Series("sigma_after", sigma_a))
        final_extra = [pl.col("mu_after").alias("mu"), pl.col("sigma_after").alias("sigma")]
    columns = {**RATINGS_COLUMNS, **(SKILL_COLUMNS if options.system == "openskill" else {})}
    table = table.with_columns((pl.col("rating_after") - pl.col("rating_before")).alias("change")).select(
        list(columns)).cast(columns)
    played = table.with_columns(pl.Series("key", key)).group_by("key").agg(
        pl.col("rating_after").last().alias("rating"), pl.col("game").last().alias("games"), *[
            e.last() for e in final_extra])
    untouched = state.join(played.select("key"), on="key", how="anti")  # carried, with no game here
    final = pl.concat([
        keys.join(played, on="key").select(list(STATE_SCHEMA)).cast(STATE_SCHEMA),
        untouched.select(list(STATE_SCHEMA)).cast(STATE_SCHEMA),
    ]).sort("players", "player", descending=[True, False])
    return Ratings(table, final, rated.select(SESSION, "player").with_columns(table["rating_after"]))


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
