"""Team standings: each team's players' results added up.

A player's team comes from a game-level sheet's ``team`` column (the first row of the player that names one)
or from a teams file (``--teams FILE``: columns ``player`` and ``team``), which wins where both name one. The
sheet's teams are kept as partial rows, (player, team, first input position), merged across partitions
(:func:`team_partials`, :func:`merge_teams`); :func:`team_of` chooses each player's team, and
:func:`team_standings` adds the players table up per team and ranks the teams by ``--rank-by`` (the keys a
team has: total and average points, average place, first places, games).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analyzer.io.columns import InputError
from analyzer.players import DEFAULT_RANK_BY, rank_expr
from analyzer.core.schema import INPUT_POSITION

# player and team as categoricals: process-wide integer codes, so a pair is one integer to tell apart
# each (player, team) pair with its first row: input position, and the game, file and row a finding names
PARTIALS_SCHEMA = {"player": pl.Categorical, "team": pl.Categorical, "_first": pl.Int64, "_game": pl.String,
                   "_file": pl.String, "_row": pl.Int64}
TEAM_COLUMNS = ["rank", "team", "members", "players", "games", "total_points", "avg_points", "avg_place",
                "place_1", "place_2", "place_3", "place_4"]
TEAM_RANK_KEYS = ("total_points", "avg_points", "avg_place", "place_1", "games")


def team_partials(rows: pl.DataFrame) -> pl.DataFrame:
    """(player, team, first input position) of a sheet's rows that name a team."""
    if "team" not in rows.columns or rows.height == 0:
        return pl.DataFrame(schema=PARTIALS_SCHEMA)
    named = rows.filter(pl.col("team").is_not_null() & (pl.col("player").fill_null("") != "")).select(
        pl.col("player").cast(pl.String).cast(pl.Categorical), pl.col("team").cast(pl.String).cast(pl.Categorical),
        pl.col(INPUT_POSITION).alias("_first"), pl.col("game_id").alias("_game"), pl.col("_file"), pl.col("_row"))
    if not named.select(pl.col("_first").is_sorted()).item():
        named = named.sort("_first")
    # each pair once, at its first row: the pair's two codes packed in one integer (no hashing of text)
    return named.filter(_pair_key().is_first_distinct()).cast(PARTIALS_SCHEMA)


def _pair_key() -> pl.Expr:
    return (pl.col("player").to_physical().cast(pl.UInt64) * 2**32) + pl.col("team").to_physical().cast(pl.UInt64)


def merge_teams(partials: list[pl.DataFrame]) -> pl.DataFrame:
    frames = [p for p in partials if p.height]
    if not frames:
        return pl.DataFrame(schema=PARTIALS_SCHEMA)
    stacked = pl.concat(frames).cast(PARTIALS_SCHEMA)
    return stacked.group_by(_pair_key().alias("_pair")).agg(
        pl.col("player", "team").first(), pl.col("_first").min(),
        pl.col("_game", "_file", "_row").sort_by("_first").first(),
    ).select(list(PARTIALS_SCHEMA))


def read_teams(path: str | Path) -> pl.DataFrame:
    """A teams file: CSV (or Parquet) with the columns ``player`` and ``team``, one row per player."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path) if path.suffix.lower() in (".parquet", ".pq") else pl.read_csv(
            path, infer_schema=False)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read the teams file {path}: {str(exc).splitlines()[0]}") from exc
    names = {c.strip().lower(): c for c in frame.columns}
    missing = [c for c in ("player", "team") if c not in names]
    if missing:
        raise InputError(f"the teams file {path} needs the columns player and team; it has {', '.join(frame.columns)}")
    frame = frame.select(pl.col(names[c]).cast(pl.String).str.strip_chars().alias(c) for c in ("player", "team"))
    frame = frame.filter((pl.col("player") != "") & (pl.col("team") != ""))
    twice = frame.group_by("player").agg(pl.col("team").n_unique().alias("n")).filter(pl.col("n") > 1)
    if twice.height:
        raise InputError(f"the teams file {path} puts {', '.join(sorted(twice['player']))} in two teams: keep one")
    return frame.unique("player", keep="first", maintain_order=True)


def team_of(merged: pl.DataFrame, teams_file: pl.DataFrame | None = None) -> pl.DataFrame:
    """player -> team: the teams file's, else the sheet's first (by input position)."""
    chosen = merged.sort("_first").unique("player", keep="first", maintain_order=True).select(
        pl.col("player", "team").cast(pl.String))
    if teams_file is None or teams_file.height == 0:
        return chosen.sort("player")
    rest = chosen.join(teams_file, on="player", how="anti")
    return pl.concat([teams_file.select("player", "team"), rest]).sort("player")


def two_teams(merged: pl.DataFrame) -> pl.DataFrame:
    """Players the sheet puts in more than one team: player, teams (in order of first appearance), and the game,
    file and row where the second team first appears (``_game``, ``_file``, ``_row``)."""
    return merged.sort("_first").select(pl.col("player", "team").cast(pl.String), "_game", "_file", "_row").group_by(
        "player", maintain_order=True).agg(pl.col("team").alias("teams"), pl.col("_game", "_file", "_row").get(1, null_on_oob=True)
                                           ).filter(pl.col("teams").list.len() > 1)


def team_standings(players: pl.DataFrame, teams: pl.DataFrame,
                   rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.DataFrame:
    """The teams ranked (columns :data:`TEAM_COLUMNS`): members, their players by rank, their games, points
    and places added up. ``teams``: player -> team (:func:`team_of`). Empty without teams."""
    keys = [k for k in rank_by if k in TEAM_RANK_KEYS] or ["total_points"]
    places = [f"place_{p}" for p in range(1, 5)]
    joined = players.join(teams, on="player", how="inner").sort("rank", "player")
    if joined.height == 0:
        schema = {"rank": pl.Int64, "team": pl.String, "members": pl.Int64, "players": pl.List(pl.String),
                  "games": pl.Int64, "total_points": pl.Float64, "avg_points": pl.Float64, "avg_place": pl.Float64,
                  **{p: pl.Int64 for p in places}}
        return pl.DataFrame(schema=schema)
    table = joined.group_by("team", maintain_order=True).agg(
        pl.len().cast(pl.Int64).alias("members"), pl.col("player").alias("players"),
        pl.col("games").sum(), pl.col("total_points").sum().round(6), (pl.col("avg_place") * pl.col("games")).sum()
        .alias("_place_sum"), *[pl.col(p).sum() for p in places],
    ).with_columns(
        pl.when(pl.col("games") > 0).then(pl.col("total_points") / pl.col("games")).alias("avg_points"),
        pl.when(pl.col("games") > 0).then(pl.col("_place_sum") / pl.col("games")).alias("avg_place"),
    )
    return table.with_columns(rank_expr(keys).alias("rank")).sort("rank", "team").select(TEAM_COLUMNS)
