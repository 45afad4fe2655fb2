"""The settlement of a sheet's games: places, uma, oka, leftover sticks, chombo and penalties, by the same
expressions as the games of hand records (:func:`analyzer.games.settle`).

A settled game's rows are contiguous and in seat order, one per seat, so the game's row of columns per seat
(``score_0``, ``player_0``, …) is the sheet's rows taken every N-th from offset ``s``: no pivot, no join.
"""

from __future__ import annotations

import polars as pl

from analyzer.games import GAME_LABELS, extra_penalty, games_by_place, settle
from analyzer.rejects import REJECT
from analyzer.rules import Rules
from analyzer.schema import GAMES_SCHEMA, PLAYER_COLUMNS, SCORE_COLUMNS
from analyzer.standings import KIND, game_kind

# The games table's columns, as every part gives them (the labels where the input has them)
GAMES_COLUMNS = {**GAMES_SCHEMA, "leftover_sticks": pl.Int64, "chombo": pl.Int64, "complete": pl.Boolean,
                 "rules": pl.String, KIND: pl.String}


def games_columns(labels: list[str]) -> dict[str, pl.DataType]:
    """The games table's columns and types with the input's ``labels`` (session, table) last."""
    return {**GAMES_COLUMNS, **{c: pl.String for c in GAME_LABELS if c in labels}}


def _wide(rows: pl.DataFrame, players: int, labels: list[str]) -> pl.DataFrame:
    """One row per game (rows: each game's ``players`` rows in seat order, games in ``game_id`` order)."""
    seats = [rows.gather_every(players, offset=s) for s in range(players)]
    sticks = pl.DataFrame([seat["_sticks"].alias(f"s{s}") for s, seat in enumerate(seats)]).select(
        pl.max_horizontal(pl.all()).fill_null(0).alias("_leftover")).to_series()
    return pl.DataFrame([
        seats[0]["game_id"],
        *[seats[0][c] for c in labels],
        sticks,
        *[seat["player"].alias(PLAYER_COLUMNS[s]) for s, seat in enumerate(seats)],
        *[seat["_final"].alias(SCORE_COLUMNS[s]) for s, seat in enumerate(seats)],
        *[seat["_chombo"].alias(f"_chombo_{s}") for s, seat in enumerate(seats)],
        *[seat["_penalty"].alias(extra_penalty(s)) for s, seat in enumerate(seats)],
    ]).with_columns(pl.lit(True).alias("_complete"))


def settle_games(rows: pl.DataFrame, by_spec: dict[str, Rules], labels: list[str]) -> pl.DataFrame:
    """The games table rows of the sheet's rows without reject reasons (every game whole: see
    :mod:`analyzer.sheets.tables`), in order of game, place and seat."""
    valid = rows.filter(pl.col(REJECT) == 0)
    columns = games_columns(labels)
    by_rules: dict[str, tuple[Rules, list[str]]] = {}
    for spec, ruleset in by_spec.items():
        by_rules.setdefault(ruleset.name, (ruleset, []))[1].append(spec)
    games = []
    for ruleset, specs in by_rules.values():
        part = valid.filter(pl.col("_rules_spec").is_in(specs)) if len(by_rules) > 1 else valid
        if part.height == 0:
            continue
        wide = _wide(part.sort("game_id", "_seat"), ruleset.players, labels)
        settled = settle(wide.lazy(), ruleset, wide.columns).collect()
        placed = games_by_place(settled, ruleset, settled.columns)
        games.append(placed.with_columns(pl.lit(ruleset.name).alias("rules"), pl.lit(game_kind(ruleset)).alias(KIND))
                     .select(list(columns)).cast(columns))
    if not games:
        return pl.DataFrame(schema=columns)
    if len(games) == 1:
        return games[0]
    return pl.concat(games).sort("game_id", "place", "seat")
