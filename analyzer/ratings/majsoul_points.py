"""Mahjong Soul's rank points: the change a ranked game makes to each player's rank points, computed from the
room, the length, the player count, the player's level before the game, the place and the final score.

    change = ceil((final − start) / 1000 + uma) + the room's place points        (− the level's loss, last place)

start 25,000 (three players 35,000); uma 15/5/−5/−15 (three players 15/0/−15); the sum rounded up to a whole
point (−28.7 → −28; the room's points and the loss are whole). A Celestial (魂天) player counts soul points by
place only (in hundredths of a soul point, as the record's ``grading_score`` holds them: +0.5 SP is 50), doubled
when every player at the table is Celestial. Rooms without a table (the casual match, friendly rooms,
tournaments, the three-player Bronze and Silver rooms) and games played before the first period give none.

The tables are data (below), by period: each row of :data:`PERIODS` holds from its date (UTC) on. One period is
implemented: the tables in force since Mahjong Soul's Celestial revision of August 2021 (soul points by place),
from 2021-08-24, the day riichi.wiki first describes it (the day of the server update is not in the sources).
They are as amae-koromo's source gives them (``src/data/types/metadata.ts``: ``RANK_DELTA``, ``MODE_DELTA``,
``MODE_BASE_POINT``, ``KONTEN_DELTA``; ``src/data/types/level.ts``: ``LEVEL_PENALTY``, ``LEVEL_PENALTY_3``,
``LEVEL_PENALTY_E``, ``LEVEL_PENALTY_E_3``) and riichi.wiki's Majsoul page (the Bronze and Silver rooms, the
formula, rounding up, the all-Celestial doubling). A game with no known time is computed with the latest
period's tables. See docs/ratings.md, "Mahjong Soul rank points".
"""

from __future__ import annotations

import polars as pl

from analyzer.formats.majsoul.rooms import room_from_name

# period -> from when (UTC date) its tables hold
PERIODS = {"2021-08": "2021-08-24"}
START = {4: 25000, 3: 35000}
UMA = {4: (15, 5, -5, -15), 3: (15, 0, -15)}
# (period, players, room, length) -> the room's points by place (last place: the level's loss instead, below)
ROOM_POINTS = {
    ("2021-08", 4, "銅の間", "tonpuu"): (10, 5, 0, 0),
    ("2021-08", 4, "銅の間", "hanchan"): (20, 10, 0, 0),
    ("2021-08", 4, "銀の間", "tonpuu"): (20, 10, 0, 0),
    ("2021-08", 4, "銀の間", "hanchan"): (40, 20, 0, 0),
    ("2021-08", 4, "金の間", "tonpuu"): (40, 20, 0, 0),
    ("2021-08", 4, "金の間", "hanchan"): (80, 40, 0, 0),
    ("2021-08", 4, "玉の間", "tonpuu"): (55, 30, 0, 0),
    ("2021-08", 4, "玉の間", "hanchan"): (110, 55, 0, 0),
    ("2021-08", 4, "王座の間", "tonpuu"): (60, 30, 0, 0),
    ("2021-08", 4, "王座の間", "hanchan"): (120, 60, 0, 0),
    ("2021-08", 3, "金の間", "tonpuu"): (55, 0, 0),
    ("2021-08", 3, "金の間", "hanchan"): (105, 0, 0),
    ("2021-08", 3, "玉の間", "tonpuu"): (75, 0, 0),
    ("2021-08", 3, "玉の間", "hanchan"): (160, 0, 0),
    ("2021-08", 3, "王座の間", "tonpuu"): (120, 0, 0),
    ("2021-08", 3, "王座の間", "hanchan"): (240, 0, 0),
}  # fmt: skip
# (period, players, length) -> the loss of last place by level (platform.level_of: 初心★1 0 … 雀聖★3 14)
LOSS = {
    ("2021-08", 4, "hanchan"): (0, 0, 0, 20, 40, 60, 80, 100, 120, 165, 180, 195, 210, 225, 240),
    ("2021-08", 3, "hanchan"): (0, 0, 0, 20, 40, 60, 80, 100, 120, 165, 190, 215, 240, 265, 290),
    ("2021-08", 4, "tonpuu"): (0, 0, 0, 10, 20, 30, 40, 50, 60, 80, 90, 100, 110, 120, 130),
    ("2021-08", 3, "tonpuu"): (0, 0, 0, 10, 20, 30, 40, 50, 60, 80, 95, 110, 125, 140, 160),
}  # fmt: skip
# (period, players, length) -> a Celestial player's soul points by place (hundredths), in the Throne Room
CELESTIAL_POINTS = {
    ("2021-08", 4, "tonpuu"): (30, 10, -10, -30),
    ("2021-08", 4, "hanchan"): (50, 20, -20, -50),
    ("2021-08", 3, "tonpuu"): (30, 0, -30),
    ("2021-08", 3, "hanchan"): (50, 0, -50),
}  # fmt: skip
CELESTIAL_ROOM = "王座の間"
CELESTIAL_LEVEL = 15  # platform.level_of: 魂天 (Lv1) and up
ALL_CELESTIAL_FACTOR = 2


def _periods() -> pl.DataFrame:
    return pl.DataFrame({"_period": list(PERIODS), "_from": list(PERIODS.values())}).with_columns(
        pl.col("_from").str.to_datetime("%Y-%m-%d", time_unit="us", time_zone="UTC")).sort("_from")


def _place_table(table: dict, key_names: list[str], value: str) -> pl.DataFrame:
    rows = [(*key, place, points) for key, by_place in table.items() for place, points in enumerate(by_place, 1)]
    return pl.DataFrame(rows, schema=[*key_names, "place", value], orient="row").cast(
        {"players": pl.Int64, "place": pl.Int64, value: pl.Int64})


def room_points_table() -> pl.DataFrame:
    """period, players, room name, length, place -> the room's points (data of :data:`ROOM_POINTS`)."""
    return _place_table(ROOM_POINTS, ["_period", "players", "_room_name", "_length"], "_room_points")


def loss_table() -> pl.DataFrame:
    """period, players, length, level -> the last place's loss (:data:`LOSS`)."""
    rows = [(*key, level, loss) for key, losses in LOSS.items() for level, loss in enumerate(losses)]
    return pl.DataFrame(rows, schema=["_period", "players", "_length", "_level", "_loss"], orient="row").cast(
        {"players": pl.Int64, "_level": pl.Int64, "_loss": pl.Int64})


def celestial_table() -> pl.DataFrame:
    return _place_table(CELESTIAL_POINTS, ["_period", "players", "_length"], "_soul_points")


def uma_table() -> pl.DataFrame:
    rows = [(n, place, uma, START[n]) for n, umas in UMA.items() for place, uma in enumerate(umas, 1)]
    return pl.DataFrame(rows, schema=["players", "place", "_uma", "_start"], orient="row").cast(pl.Int64)


def rooms_of(names: pl.Series) -> pl.DataFrame:
    """Each distinct room text (``金の間東喰赤``) as the room's Japanese name and its length (a handful of rows:
    read once per distinct name, not per row)."""
    distinct = names.drop_nulls().unique().to_list()
    parsed = [room_from_name(n) for n in distinct]
    return pl.DataFrame({"room": distinct,
                         "_room_name": [r.name if r.kind == "ranked" else None for r in parsed],
                         "_length": [r.length for r in parsed]}, schema={"room": pl.String, "_room_name": pl.String,
                                                                       "_length": pl.String})


def with_computed_rank_points(frame: pl.DataFrame, played_at: str = "played_at") -> pl.DataFrame:
    """``frame`` (one row per game and seat: ``game_id``, ``room``, ``players``, ``level``, ``place``,
    ``final_score``, ``played_at`` and, optionally, ``game_length``: hanchan | tonpuu, for a room name that does
    not say its length) with ``computed_rank_points``: the change Mahjong Soul's tables give (null
    where they give none), by joins against the small tables above."""
    if frame.height == 0:
        return frame.with_columns(pl.lit(None, pl.Int64).alias("computed_rank_points"))
    n = pl.col("players")
    rows = frame.with_row_index("_i").with_columns(
        (pl.col("level") >= CELESTIAL_LEVEL).alias("_celestial"),
        ((pl.col("level") >= CELESTIAL_LEVEL).sum().over("game_id") == n).alias("_all_celestial"),
        pl.col(played_at).cast(pl.Datetime("us", "UTC")).alias("_at"),
    )
    periods = _periods()
    latest = periods["_period"][-1]
    timed = rows.filter(pl.col("_at").is_not_null()).sort("_at")
    if timed.height:
        timed = timed.join_asof(periods, left_on="_at", right_on="_from", strategy="backward")
    else:
        timed = timed.with_columns(pl.lit(None, pl.String).alias("_period"), pl.lit(None, pl.Datetime("us", "UTC"))
                                   .alias("_from"))
    untimed = rows.filter(pl.col("_at").is_null()).with_columns(
        pl.lit(latest).alias("_period"), pl.lit(None, pl.Datetime("us", "UTC")).alias("_from"))
    rows = (pl.concat([timed, untimed.select(timed.columns)], how="vertical_relaxed").sort("_i")
            .join(rooms_of(frame["room"]), on="room", how="left")
            .with_columns(pl.coalesce("_length", *(["game_length"] if "game_length" in frame.columns else [])))
            .join(room_points_table(), on=["_period", "players", "_room_name", "_length", "place"], how="left")
            .join(uma_table(), on=["players", "place"], how="left")
            .join(loss_table(), left_on=["_period", "players", "_length", "level"],
                  right_on=["_period", "players", "_length", "_level"], how="left")
            .join(celestial_table(), on=["_period", "players", "_length", "place"], how="left"))
    # ceil(x / 1000) in whole numbers: -((-x) // 1000), x = final − start + 1000 × uma
    score_part = -((-(pl.col("final_score") - pl.col("_start") + 1000 * pl.col("_uma"))).floordiv(1000))
    last = pl.col("place") == n
    ordinary = score_part + pl.col("_room_points") - pl.when(last).then(pl.col("_loss")).otherwise(0)
    soul = pl.when(pl.col("_room_name") == CELESTIAL_ROOM).then(
        pl.col("_soul_points") * pl.when(pl.col("_all_celestial")).then(ALL_CELESTIAL_FACTOR).otherwise(1))
    computed = pl.when(pl.col("_room_name").is_null() | pl.col("level").is_null()).then(None).when(
        pl.col("_celestial")).then(soul).otherwise(ordinary)
    return rows.sort("_i").with_columns(computed.cast(pl.Int64).alias("computed_rank_points")).select(
        *frame.columns, "computed_rank_points")
