"""Recorded ranks over time: the ``platform_ranks`` table, each player's rank on their platform at the start of each
game as the game's record gives it, in the order of games (:mod:`analyzer.ratings.order`).

The records' columns (:mod:`analyzer.formats.columns`): Tenhou's ``dan_0..3`` (0 新人 … 10 初段 … 20 天鳳) and
``rate_0..3`` (R), Mahjong Soul's ``platform_rank_0..3`` (``雀士★2``, ``魂天Lv3``) and, for raw Mahjong Soul
records, ``recorded_rank_points_0..3`` (the rank-point change the server recorded, on the game's last row), read
from each game's first row with its ``room`` (Mahjong Soul) or ``lobby`` (Tenhou). A game whose record has none of
them has no rows. Beside the recorded change, ``computed_rank_points`` is the change Mahjong Soul's tables give
(:mod:`analyzer.ratings.majsoul_points`) and ``rank_points_agree`` whether the two are equal (null where either is
missing); ``check`` names each seat where they differ.

Mahjong Soul's rank names are also given as a number for charts (``level``): 初心 ★1-3 are 0-2, 雀士 3-5,
雀傑 6-8, 雀豪 9-11, 雀聖 12-14, 魂天 (Lv1, Lv2, …) 15, 16, ….
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.identity import DAN_NAMES
from analyzer.ratings.majsoul_points import with_computed_rank_points
from analyzer.ratings.order import GAME_TIMES_SCHEMA, PLAYED_AT, PLAYED_AT_TYPE, SESSION, sort_games
from analyzer.core.schema import INPUT_POSITION, PLAYER_COLUMNS

SOURCES = ("dan", "rate", "platform_rank", "recorded_rank_points")
PART_SCHEMA = {"game_id": pl.String, "seat": pl.Int64, "player": pl.String, "room": pl.String, "dan": pl.Int64,
               "rate": pl.Float64, "platform_rank": pl.String, "recorded_rank_points": pl.Float64,
               "game_length": pl.String}  # the length: for a room name that does not say it (tensoul's 三金の間赤)
COLUMNS = {"player": pl.String, "players": pl.Int64, "game_id": pl.String, PLAYED_AT: PLAYED_AT_TYPE,
           "room": pl.String, "place": pl.Int64, "dan": pl.Int64, "dan_name": pl.String, "rate": pl.Float64,
           "platform_rank": pl.String, "level": pl.Int64, "final_score": pl.Int64,
           "recorded_rank_points": pl.Float64, "computed_rank_points": pl.Int64, "rank_points_agree": pl.Boolean}
TIERS = {"初心": 0, "雀士": 1, "雀傑": 2, "雀豪": 3, "雀聖": 4}
CELESTIAL = "魂天"
CELESTIAL_LEVEL = 3 * len(TIERS)


def has_ranks(names: list[str]) -> bool:
    return any(f"{source}_{s}" in names for source in SOURCES for s in range(4))


def recorded_ranks(rows: pl.DataFrame) -> pl.DataFrame | None:
    """A partition's recorded ranks (:data:`PART_SCHEMA`): one row per game and seat whose game's first input row
    records any, or None when the input has none of the columns."""
    names = rows.columns
    if not has_ranks(names) or rows.height == 0:
        return None

    def column(source: str, seat: int, dtype: pl.DataType) -> pl.Expr:
        name = f"{source}_{seat}"
        if name not in names:
            return pl.lit(None, dtype).alias(source)
        value = pl.col(name)
        if dtype == pl.String:
            return value.cast(pl.String).str.strip_chars().alias(source)
        return value.cast(pl.String).str.strip_chars().cast(dtype, strict=False).alias(source)

    room = [pl.col(c).cast(pl.String).str.strip_chars() for c in ("room", "lobby") if c in names]
    first = rows.lazy().sort(INPUT_POSITION).with_columns(
        pl.col("game_id").cast(pl.String).str.strip_chars()).unique("game_id", keep="first")
    seats = [
        first.select("game_id", pl.lit(s, pl.Int64).alias("seat"),
                     pl.col(PLAYER_COLUMNS[s]).cast(pl.String).str.strip_chars().alias("player"),
                     (pl.coalesce(room) if room else pl.lit(None, pl.String)).alias("room"),
                     *[column(source, s, PART_SCHEMA[source]) for source in SOURCES],
                     (pl.col("game_length").cast(pl.String).str.strip_chars() if "game_length" in names
                      else pl.lit(None, pl.String)).alias("game_length"))
        for s in range(4) if PLAYER_COLUMNS[s] in names
    ]
    # the server's rank-point change is on the game's last row: each seat's last value in the game
    points = [f"recorded_rank_points_{s}" for s in range(4) if f"recorded_rank_points_{s}" in names]
    if points:
        last = rows.lazy().with_columns(pl.col("game_id").cast(pl.String).str.strip_chars()).sort(
            INPUT_POSITION).group_by("game_id").agg(
            pl.col(c).cast(pl.String).str.strip_chars().cast(pl.Float64, strict=False).drop_nulls().last()
            for c in points)
        seats = [
            frame.drop("recorded_rank_points").join(
                last.select("game_id", pl.col(f"recorded_rank_points_{s}").alias("recorded_rank_points")),
                on="game_id", how="left").select(list(PART_SCHEMA))
            if f"recorded_rank_points_{s}" in points else frame
            for s, frame in zip([s for s in range(4) if PLAYER_COLUMNS[s] in names], seats)
        ]
    recorded = pl.any_horizontal(pl.col(c).is_not_null() for c in SOURCES)
    return pl.concat(seats).filter(pl.col("player").is_not_null() & recorded).select(list(PART_SCHEMA)).cast(
        PART_SCHEMA).collect()


def part_rows(ranks: pl.DataFrame | None, games: pl.DataFrame, times: pl.DataFrame) -> pl.DataFrame | None:
    """A partition's rows of the table: its recorded ranks with each game's player count, the seat's place and
    the keys of the order of games, the final score, and the rank-point change Mahjong Soul's tables give
    (``computed_rank_points``) beside the recorded one (``rank_points_agree``)."""
    if ranks is None or ranks.height == 0:
        return None
    counts = games.group_by("game_id").agg(pl.len().cast(pl.Int64).alias("players"))
    rows = (ranks.join(games.select("game_id", "seat", pl.col("place").cast(pl.Int64),
                                    pl.col("final_score").cast(pl.Int64)), on=["game_id", "seat"], how="inner")
            .join(counts, on="game_id", how="left")
            .join(times.select(list(GAME_TIMES_SCHEMA)), on="game_id", how="left")
            .with_columns(level_of(pl.col("platform_rank")).alias("level")))
    recorded, computed = pl.col("recorded_rank_points"), pl.col("computed_rank_points")
    return with_computed_rank_points(rows).with_columns(
        pl.when(recorded.is_not_null() & computed.is_not_null()).then(recorded == computed.cast(pl.Float64))
        .alias("rank_points_agree"))


def level_of(rank: pl.Expr) -> pl.Expr:
    """Mahjong Soul's rank name as a number (see the module's text); null for any other text."""
    star = rank.str.extract(r"★\s*(\d+)", 1).cast(pl.Int64, strict=False)
    tier = rank.str.slice(0, 2).replace_strict(list(TIERS), list(TIERS.values()), default=None,
                                               return_dtype=pl.Int64)
    celestial = rank.str.starts_with(CELESTIAL)
    celestial_level = rank.str.extract(r"Lv\s*(\d+)", 1).cast(pl.Int64, strict=False).fill_null(1)
    return (pl.when(celestial).then(CELESTIAL_LEVEL + celestial_level - 1)
            .otherwise(tier * 3 + star - 1)).cast(pl.Int64)


def finish_platform_ranks(frames: list[pl.DataFrame]) -> pl.DataFrame | None:
    """The ``platform_ranks`` table (:data:`COLUMNS`) of the parts' rows, in the order of games, each game's
    players by seat; None when no game records a rank."""
    frames = [f for f in frames if f is not None and f.height]
    if not frames:
        return None
    rows = sort_games(pl.concat(frames, how="vertical_relaxed").with_columns(pl.col(SESSION).cast(pl.String)),
                      "seat")
    return rows.with_columns(
        pl.col("dan").replace_strict(list(range(len(DAN_NAMES))), DAN_NAMES, default=None,
                                     return_dtype=pl.String).alias("dan_name"),
        level_of(pl.col("platform_rank")).alias("level"),
    ).select(list(COLUMNS)).cast(COLUMNS)


LATEST = ("dan", "dan_name", "rate", "platform_rank", "level")


def latest_ranks(table: pl.DataFrame) -> pl.DataFrame:
    """Each player's latest recorded values (per value, the last game that records it): ``platform_dan``,
    ``platform_dan_name``, ``platform_rate``, ``platform_rank``, ``platform_level`` and ``platform_games`` (the
    games with a recorded rank)."""
    return table.group_by("player", maintain_order=True).agg(
        *[pl.col(c).drop_nulls().last().alias(f"platform_{c}" if c != "platform_rank" else c) for c in LATEST],
        pl.len().cast(pl.Int64).alias("platform_games"))


def with_latest(players: pl.DataFrame, table: pl.DataFrame | None) -> pl.DataFrame:
    if table is None:
        return players
    return players.join(latest_ranks(table), on="player", how="left", maintain_order="left").with_columns(
        pl.col("platform_games").fill_null(0))
