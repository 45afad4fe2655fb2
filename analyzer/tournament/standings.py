"""Standings per kind of game: four-player hanchan, four-player East-only, three-player hanchan, three-player
East-only, each ranked on its own.

A player's results in different kinds of game do not add up to one ranking (an East-only game is half a
hanchan, a three-player game has other points and places), so the standings rank players per *kind*, the
``kind`` column of the games table: the number of players and the game length of the game's ruleset
(:func:`game_kind`; for a games table without the column, it is read from the ``rules`` names). The full
players table (:mod:`analyzer.players`) stays one row per player over all games.

Like the players table, the standings are built from partial sums that merge across any split of the games:
:func:`standings_partials` gives one row per kind and player of a part (counts and sums only, game points in
integer millionths), :func:`merge_standings` adds partial rows up, :func:`finish_standings` divides and ranks.
A run keeps the partials, not the games: they are as small as the player pool times the kinds, however many
games the run has. :func:`standings` is the three in one, for a games table in memory.

Players with fewer than ``min_games`` games of a kind are listed after that kind's ranked players, unranked
(``rank`` null). ``rank_by`` takes the keys of :data:`analyzer.players.RANK_KEYS`; ``win_rate`` and
``deal_in_rate`` are hand statistics, which the games table does not have: they come from the players table
when one is given (then they are over all the player's games, not per kind) and are refused otherwise.
"""

from __future__ import annotations

import polars as pl

from analyzer.players import DEFAULT_RANK_BY, rank_expr
from analyzer.players.columns import POINT_UNITS
from analyzer.core.rules import Rules, RulesError, load_rules

KIND = "kind"
# (players, game_length) -> the kind's name, in the order the kinds are listed
KINDS = {
    (4, "hanchan"): "4-player hanchan",
    (4, "east"): "4-player east-only",
    (3, "hanchan"): "3-player hanchan",
    (3, "east"): "3-player east-only",
}
PLACES = range(1, 5)
SUMS = ["games", "incomplete_games", "_points_units", "_place_sum", *[f"place_{p}" for p in PLACES]]
# hand statistics a standings table takes from the players table (over all of a player's games)
HAND_RATES = ["win_rate", "deal_in_rate", "riichi_rate", "call_rate"]
STANDINGS_COLUMNS = [
    KIND, "rank", "player", "games", "incomplete_games", "total_points", "avg_points",
    *[f"place_{p}" for p in PLACES], *[f"place_{p}_rate" for p in PLACES], "avg_place",
]


def game_kind(rules: Rules) -> str:
    """The kind of game a ruleset plays: '4-player hanchan', '3-player east-only', …"""
    return KINDS[(rules.players, rules.game_length)]


def kind_seats(kind: str) -> int:
    """The players at a table of this kind (4 for a kind not in :data:`KINDS`)."""
    return next((players for (players, _), name in KINDS.items() if name == kind), 4)


def kind_of_rules_names(names: list[str]) -> dict[str, str]:
    """Each ruleset name of a games table's ``rules`` column -> its kind (one ruleset loaded per name).

    A name that is no preset or spec (a TOML file's stem, a custom Rules object) has no known kind: it keeps
    its own name as its kind."""
    kinds = {}
    for name in names:
        try:
            kinds[name] = game_kind(load_rules(name))
        except (RulesError, OSError, KeyError):
            kinds[name] = name
    return kinds


def _with_kind(games: pl.LazyFrame) -> pl.LazyFrame:
    names = games.collect_schema().names()
    if KIND in names:
        return games
    if "rules" not in names:
        raise ValueError("the games table needs a 'kind' or a 'rules' column to tell the kinds of game apart")
    rules_names = games.select(pl.col("rules").unique()).collect()["rules"].drop_nulls().to_list()
    kinds = kind_of_rules_names(rules_names)
    return games.with_columns(
        pl.col("rules").replace_strict(list(kinds), list(kinds.values()), default=None, return_dtype=pl.String)
        .alias(KIND)
    )


def standings_partials(games: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """One row per kind and player of a part (whole games): the counts and sums of :data:`SUMS`."""
    lf = _with_kind(games.lazy())
    complete = "complete" in lf.collect_schema().names()
    place = pl.col("place")
    return lf.select(
        KIND, "player",
        pl.lit(1, pl.Int64).alias("games"),
        ((~pl.col("complete")).cast(pl.Int64) if complete else pl.lit(0, pl.Int64)).alias("incomplete_games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).alias("_points_units"),
        place.cast(pl.Int64).alias("_place_sum"),
        *[(place == p).cast(pl.Int64).alias(f"place_{p}") for p in PLACES],
    ).group_by(KIND, "player").agg(pl.all().sum())


def standings_partials_of_part(games: pl.DataFrame, players: pl.DataFrame | None) -> pl.DataFrame:
    """:func:`standings_partials` of a part whose players' partial rows are at hand: where its games are all of
    one kind, those rows are the kind's partial rows already (the same sums), with no second group-by."""
    if players is not None and KIND in games.columns and games.height and games[KIND].n_unique() == 1:
        return players.select(pl.lit(games[KIND][0]).alias(KIND), "player", *SUMS)
    return standings_partials(games).collect()


def merge_standings(partials: list[pl.DataFrame]) -> pl.DataFrame:
    """Partial rows of several parts as one row per kind and player (associative: merged rows merge again)."""
    if not partials:
        return pl.DataFrame(schema={KIND: pl.String, "player": pl.String, **{c: pl.Int64 for c in SUMS}})
    return pl.concat(partials, how="vertical").group_by(KIND, "player").agg(pl.col(SUMS).sum())


def _kind_order() -> pl.Expr:
    known = list(KINDS.values())
    return pl.col(KIND).replace_strict(known, list(range(len(known))), default=len(known), return_dtype=pl.Int64)


def finish_standings(merged: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY, min_games: int = 1,
                     players: pl.DataFrame | None = None) -> pl.DataFrame:
    """The standings from merged partial rows: per kind, its players with ``min_games`` games or more ranked
    by ``rank_by`` (1 = best; equal on every key, equal rank), then the others unranked. ``players``: the
    players table, whose :data:`HAND_RATES` are joined (and may be ranked by)."""
    table = merged.lazy().with_columns((pl.col("_points_units") / POINT_UNITS).alias("total_points")).with_columns(
        (pl.col("total_points") / pl.col("games")).alias("avg_points"),
        (pl.col("_place_sum") / pl.col("games")).alias("avg_place"),
        *[(pl.col(f"place_{p}") / pl.col("games")).alias(f"place_{p}_rate") for p in PLACES],
    )
    extra = []
    if players is not None:
        extra = [c for c in HAND_RATES if c in players.columns]
        table = table.join(players.lazy().select("player", *extra), on="player", how="left")
    missing = [k for k in rank_by if k not in STANDINGS_COLUMNS + extra]
    if missing:
        raise ValueError(f"standings cannot rank by {', '.join(missing)} without the players table")
    ranked = pl.col("games") >= min_games
    # ranked players are ranked among themselves per kind; the others are ordered by the same keys
    order = rank_expr(rank_by).over(KIND, ranked)
    return (
        table.with_columns(order.alias("_order"), ranked.alias("_ranked"))
        .with_columns(pl.when("_ranked").then(pl.col("_order")).alias("rank"))
        .sort(_kind_order(), KIND, pl.col("_ranked"), "_order", "player", descending=[False, False, True, False, False])
        .select(*STANDINGS_COLUMNS, *extra)
        .collect()
    )


def standings(games: pl.DataFrame | pl.LazyFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY,
              min_games: int = 1, players: pl.DataFrame | None = None) -> pl.DataFrame:
    """The standings of a games table (one row per game and seat, as :func:`analyzer.score` gives): one
    ranking per kind of game, players with fewer than ``min_games`` games of the kind after it, unranked."""
    return finish_standings(merge_standings([standings_partials(games).collect()]), rank_by, min_games, players)


def kinds_of(table: pl.DataFrame) -> list[str]:
    """The kinds of a standings table, in the order it lists them."""
    return table[KIND].unique(maintain_order=True).to_list()
