"""The tables a report reads, as lazy frames: a run's tables in memory or scans of the files it wrote.

Nothing here holds every game's rows: counts and dates are aggregates of a scan, and only the rows of what the
page shows (the games with a section, the first problems and rejects) are collected. Which games get a
section past ``max_games`` (:func:`chosen_games`): those the page refers to first — the best hands and the
biggest deal-ins of the players with a section, then the incomplete games, then the games of the first
problems — then the others in input order; the page shows them in input order.
"""

from __future__ import annotations

import polars as pl

from analyzer.core.selection import game_date

ORDER = "_order"


def lazy(frame: pl.DataFrame | pl.LazyFrame | None) -> pl.LazyFrame | None:
    return None if frame is None else frame.lazy()


def columns(frame: pl.DataFrame | pl.LazyFrame) -> list[str]:
    return frame.collect_schema().names()


def count(frame: pl.LazyFrame) -> int:
    return frame.select(pl.len()).collect().item()


def of_games(frame: pl.LazyFrame, game_ids: pl.Series | list[str]) -> pl.LazyFrame:
    """The rows of ``frame`` whose ``game_id`` is one of ``game_ids``."""
    return frame.filter(pl.col("game_id").is_in(pl.Series(game_ids, dtype=pl.String).implode()))


def of_players(frame: pl.LazyFrame, players: pl.Series | list[str]) -> pl.LazyFrame:
    return frame.filter(pl.col("player").is_in(pl.Series(players, dtype=pl.String).implode()))


def game_order(games: pl.LazyFrame) -> pl.DataFrame:
    """Every game id once, in input order, with its position (``_order``)."""
    return games.select("game_id").unique(maintain_order=True).with_row_index(ORDER).collect()


def incomplete_ids(games: pl.LazyFrame) -> pl.Series:
    """The games whose ``complete`` is false, in input order."""
    if "complete" not in columns(games):
        return pl.Series("game_id", [], pl.String)
    return (games.filter(~pl.col("complete").fill_null(True)).select("game_id").unique(maintain_order=True)
            .collect()["game_id"])


def chosen_games(order: pl.DataFrame, first: list[pl.Series], limit: int | None) -> pl.Series:
    """The games with a section: all of ``order`` within ``limit``, else ``limit`` of them — those of each of
    ``first`` before the others, the games of a group in input order — listed in input order."""
    if limit is None or order.height <= limit:
        return order["game_id"]
    wanted = pl.concat([pl.DataFrame({"game_id": ids.cast(pl.String), "_first": k},
                                     schema={"game_id": pl.String, "_first": pl.Int64})
                        for k, ids in enumerate(first)] or [pl.DataFrame(schema={"game_id": pl.String,
                                                                                  "_first": pl.Int64})])
    wanted = wanted.group_by("game_id").agg(pl.col("_first").min())
    return (order.join(wanted, on="game_id", how="left")
            .sort(pl.col("_first").fill_null(len(first)), ORDER).head(limit).sort(ORDER)["game_id"])


def days_played(hands: pl.LazyFrame) -> tuple[object, object] | None:
    """The first and last day played (a ``date`` column, else the date of a Tenhou log id), or None: from the
    first row of each game, which decides its date."""
    names = columns(hands)
    firsts = hands.select("game_id", *(["date"] if "date" in names else [])).unique("game_id", keep="first")
    first, last = firsts.select(game_date(names).alias("d")).select(
        pl.col("d").min().alias("first"), pl.col("d").max().alias("last")).collect().row(0)
    return None if first is None else (first, last)


def rejected_rows(rejects: pl.LazyFrame) -> int:
    """Input rows rejected (a row with several reasons counts once)."""
    return rejects.select(pl.struct("file", "row").n_unique()).collect().item()
