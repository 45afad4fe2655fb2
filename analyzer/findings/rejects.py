"""Rows that could not be scored at all, as findings."""

from __future__ import annotations

import polars as pl

from analyzer.scoring.records import OTHER_VERSION, OTHER_VERSION_START
from analyzer.scoring.validate import COPY_REASON_START, DUPLICATE_ROW


def reject_findings(rejects: pl.DataFrame) -> pl.DataFrame:
    copy = pl.col("reason").str.starts_with(COPY_REASON_START)
    other = pl.col("reason").str.starts_with(OTHER_VERSION_START)  # a game recorded twice, otherwise
    return rejects.select(
        "game_id",
        pl.lit(None, pl.String).alias("round"),
        pl.lit(None, pl.Int64).alias("honba"),
        pl.lit(None, pl.Int64).alias("hand_no"),
        pl.lit(None, pl.Int64).alias("seat"),
        pl.lit(None, pl.String).alias("player"),
        pl.when(copy).then(pl.lit(DUPLICATE_ROW)).when(other).then(pl.lit(OTHER_VERSION)).otherwise(pl.col("column"))
        .alias("field"),
        pl.lit("reject").alias("kind"),
        pl.col("value").alias("recorded"),
        pl.lit(None, pl.String).alias("computed"),
        pl.col("reason").alias("explanation"),
        pl.col("file").alias("source_file"),
        pl.col("row").alias("source_row"),
        "log_file",
        "log_row",
    )
