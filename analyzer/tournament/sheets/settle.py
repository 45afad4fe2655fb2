"""The settlement of a sheet's games: places, uma, oka, leftover sticks, chombo and penalties, by the same
expressions as the games of hand records (:func:`analyzer.game.games.settle`).

A settled game's rows are contiguous and in seat order, one per seat, so the game's row of columns per seat
(``score_0``, ``player_0``, …) is the sheet's rows taken every N-th from offset ``s``: no pivot, no join.
"""

from __future__ import annotations

import polars as pl

from analyzer.game.games import GAME_LABELS, extra_penalty, settle
from analyzer.scoring.rejects import REJECT
from analyzer.core.rules import Rules
from analyzer.core.schema import GAMES_SCHEMA, PLAYER_COLUMNS, SCORE_COLUMNS
from analyzer.tournament.standings import KIND, game_kind

# The games table's columns, as every part gives them (the labels where the input has them)
GAMES_COLUMNS = {**GAMES_SCHEMA, "leftover_sticks": pl.Int64, "chombo": pl.Int64, "complete": pl.Boolean,
                 "rules": pl.String, KIND: pl.String}


def games_columns(labels: list[str]) -> dict[str, pl.DataType]:
    """The games table's columns and types with the input's ``labels`` (session, table) last."""
    return {**GAMES_COLUMNS, **{c: pl.String for c in GAME_LABELS if c in labels}}


def _wide(rows: pl.DataFrame, players: int) -> pl.DataFrame:
    """One row per game (rows: each game's ``players`` rows in seat order, games in ``game_id`` order) with the
    columns :func:`analyzer.game.games.settle` reads."""
    needed = rows.select("player", "_final", "_chombo", "_penalty", "_sticks")
    seats = [needed.gather_every(players, offset=s) for s in range(players)]
    return pl.DataFrame([
        *[seat["player"].alias(PLAYER_COLUMNS[s]) for s, seat in enumerate(seats)],
        *[seat["_final"].alias(SCORE_COLUMNS[s]) for s, seat in enumerate(seats)],
        *[seat["_chombo"].alias(f"_chombo_{s}") for s, seat in enumerate(seats)],
        *[seat["_penalty"].alias(extra_penalty(s)) for s, seat in enumerate(seats)],
        *[seat["_sticks"].alias(f"_sticks_{s}") for s, seat in enumerate(seats)],
    ]).with_columns(pl.max_horizontal(f"_sticks_{s}" for s in range(players)).fill_null(0).alias("_leftover"))


# the games table's computed columns: (column, the settlement's per-seat column)
SETTLED = {"final_score": "_final", "place": "_place", "uma": "_uma", "oka": "_oka", "penalty": "_penalty",
           "game_points": "_points", "leftover_sticks": "_leftover"}


def _settled_rows(rows: pl.DataFrame, ruleset: Rules, labels: list[str]) -> pl.DataFrame:
    """The games table rows of ``rows`` (whole games, each in seat order, games in ``game_id`` order), in order
    of game, place and seat. Each per-seat column of the settlement, read back row by row (the seats' columns
    stacked, then gathered game by game), lines up with the rows: no join; the rows are put in place order by one gather
    of the permutation the ordinals give (as :func:`analyzer.game.games.games_by_place` does)."""
    players = ruleset.players
    wide = _wide(rows, players)
    settled = settle(wide.lazy(), ruleset, wide.columns).collect()
    # row k is seat k % players of game k // players: in the seats' columns stacked, at (k % players) * games + …
    games = settled.height
    k = pl.int_range(games * players, dtype=pl.Int64, eager=True)
    interleave = (k % players) * games + k // players
    table = rows.select("game_id", "player", pl.col("_seat").alias("seat"), *labels,
                        pl.col("_chombo").alias("chombo")).with_columns(
        pl.concat([settled[f"{c}_{s}"] for s in range(players)]).gather(interleave).alias(name)
        for name, c in {**SETTLED, "_ordinal": "_ordinal"}.items()
    )
    game = pl.int_range(pl.len(), dtype=pl.Int64) // players
    position = table.select(game * players + pl.col("_ordinal") - 1).to_series()
    order = pl.zeros(table.height, dtype=pl.Int64, eager=True).scatter(
        position, pl.int_range(table.height, dtype=pl.Int64, eager=True))
    return table[order].with_columns(pl.lit(True).alias("complete"), pl.lit(ruleset.name).alias("rules"),
                                     pl.lit(game_kind(ruleset)).alias(KIND))


def _in_seat_order(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` (in game order) by game and seat: not sorted again when each game's seats come in order."""
    ordered = rows.select(((pl.col("game_id") != pl.col("game_id").shift(1))
                           | (pl.col("_seat") > pl.col("_seat").shift(1))).fill_null(True).all()).item()
    return rows if ordered else rows.sort("game_id", "_seat")


def settle_games(rows: pl.DataFrame, by_spec: dict[str, Rules], labels: list[str]) -> pl.DataFrame:
    """The games table rows of the sheet's rows without reject reasons (every game whole: see
    :mod:`analyzer.tournament.sheets.tables`), in order of game, place and seat; ``rows`` in game order."""
    valid = rows if rows.select((pl.col(REJECT) == 0).all()).item() else rows.filter(pl.col(REJECT) == 0)
    columns = games_columns(labels)
    by_rules: dict[str, tuple[Rules, list[str]]] = {}
    for spec, ruleset in by_spec.items():
        by_rules.setdefault(ruleset.name, (ruleset, []))[1].append(spec)
    games = []
    for ruleset, specs in by_rules.values():
        part = valid.filter(pl.col("_rules_spec").is_in(specs)) if len(by_rules) > 1 else valid
        if part.height == 0:
            continue
        games.append(_settled_rows(_in_seat_order(part), ruleset, labels).select(list(columns)).cast(columns))
    if not games:
        return pl.DataFrame(schema=columns)
    if len(games) == 1:
        return games[0]
    return pl.concat(games).sort("game_id", "place", "seat")
