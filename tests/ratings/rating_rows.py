"""Rows as the ratings read them (analyzer.ratings.ROWS_SCHEMA), written as games: game id, then each player's
(name, place) in seat order."""

from __future__ import annotations

import polars as pl

from analyzer.ratings import ROWS_SCHEMA


def rows_of(games: list[tuple[str, list[tuple[str, int]]]], session: list[str | None] | None = None,
            played_at: list | None = None) -> pl.DataFrame:
    records = []
    for number, (game_id, seats) in enumerate(games):
        for seat, (player, place) in enumerate(seats):
            records.append({"game_id": game_id, "player": player, "seat": seat, "place": place,
                            "players": len(seats),
                            "played_at": played_at[number] if played_at else None,
                            "session": session[number] if session else None, "_file": "games.csv",
                            "_row": number * 10 + seat + 1})
    return pl.DataFrame(records, schema={k: (pl.String if v == pl.Categorical else v) for k, v in ROWS_SCHEMA.items()}
                        ).cast(ROWS_SCHEMA)


def state(rows: list[tuple[str, int, float, int]]) -> pl.DataFrame:
    """An earlier run's state: (player, player count, R, games)."""
    return pl.DataFrame(rows, schema={"player": pl.String, "players": pl.Int64, "rating": pl.Float64,
                                      "games": pl.Int64}, orient="row").with_columns(
        pl.lit(None, pl.Float64).alias("mu"), pl.lit(None, pl.Float64).alias("sigma"))
