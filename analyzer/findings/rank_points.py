"""Mahjong Soul's rank points: a seat whose recorded rank-point change (the raw record's ``grading_score``,
``recorded_rank_points_*``) differs from the change Mahjong Soul's tables give (``computed_rank_points`` of the
``platform_ranks`` rows, :mod:`analyzer.ratings.majsoul_points`). Kind ``game_end``, field ``rank_points``, one
finding per game and seat, pointing at the game's last row (where the record's result is)."""

from __future__ import annotations

import polars as pl

from analyzer.findings.base import FINDING_SCHEMA, number_text
from analyzer.scoring.parts import ScoredPart
from analyzer.ratings.majsoul_points import CELESTIAL_LEVEL
from analyzer.core.schema import log_columns


def _where(parts: list[ScoredPart]) -> pl.DataFrame:
    """Each game's last scored row: its input file and row and its log file and row."""
    frames = []
    for p in parts:
        names = p.scored.collect_schema().names()
        frames.append(p.scored.sort("_seq").group_by("game_id").agg(
            pl.col("_file").last().cast(pl.String).alias("source_file"),
            pl.col("_row").last().cast(pl.Int64).alias("source_row"),
            *[c.last() for c in log_columns(names)]))
    if not frames:
        return pl.DataFrame(schema={"game_id": pl.String, "source_file": pl.String, "source_row": pl.Int64,
                                    "log_file": pl.String, "log_row": pl.Int64})
    return pl.concat(pl.collect_all(frames), how="vertical_relaxed").with_columns(pl.col("game_id").cast(pl.String))


def rank_point_findings(ranks: list[pl.DataFrame], parts: list[ScoredPart]) -> pl.DataFrame | None:
    """The findings (:data:`FINDING_SCHEMA`) of the seats whose recorded and computed rank points differ; None
    when no partition row has both."""
    rows = [r for r in ranks if r is not None and r.height and "rank_points_agree" in r.columns]
    if not rows:
        return None
    differ = pl.concat(rows, how="vertical_relaxed").filter(pl.col("rank_points_agree").not_())
    if differ.height == 0:
        return None
    last_place = pl.col("place") == pl.col("players")
    explanation = pl.format(
        "{} in {} ({} players), place {} with {}: Mahjong Soul's tables give {}{}", pl.col("platform_rank"),
        pl.col("room"), pl.col("players"), pl.col("place"), pl.col("final_score"),
        pl.col("computed_rank_points"),
        pl.when(pl.col("level") >= CELESTIAL_LEVEL).then(pl.lit(" (a Celestial: soul points by place)"))
        .when(last_place).then(pl.lit(" (last place: the level's loss included)")).otherwise(pl.lit("")))
    return differ.join(_where(parts), on="game_id", how="left").select(
        "game_id", pl.lit(None, pl.String).alias("round"), pl.lit(None, pl.Int64).alias("honba"),
        pl.lit(None, pl.Int64).alias("hand_no"), "seat", "player", pl.lit("rank_points").alias("field"),
        pl.lit("game_end").alias("kind"), number_text(pl.col("recorded_rank_points")).alias("recorded"),
        pl.col("computed_rank_points").cast(pl.String).alias("computed"), explanation.alias("explanation"),
        "source_file", "source_row", "log_file", "log_row",
    ).cast(FINDING_SCHEMA)
