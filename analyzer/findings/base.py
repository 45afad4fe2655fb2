"""What every finding has: its columns, and how a condition over scored rows becomes findings."""

from __future__ import annotations

import polars as pl

from analyzer.players.seats import at_seat
from analyzer.core.schema import PLAYER_COLUMNS
from analyzer.core.text import one_of

FINDING_SCHEMA = {
    "game_id": pl.String,
    "round": pl.String,
    "honba": pl.Int64,
    "hand_no": pl.Int64,
    "seat": pl.Int64,
    "player": pl.String,
    "field": pl.String,
    "kind": pl.String,
    "recorded": pl.String,
    "computed": pl.String,
    "explanation": pl.String,
    "source_file": pl.String,
    "source_row": pl.Int64,
    "log_file": pl.String,
    "log_row": pl.Int64,
}
# findings on rows that were not imported from a log (a score sheet's): no log file, no hand in it
NO_LOG = (pl.lit(None, pl.String).alias("log_file"), pl.lit(None, pl.Int64).alias("log_row"))
NOT_A_MISMATCH = ("note",)
# The order findings are listed in, most serious first: money that does not balance, then wrong payments, wrong
# hand values, wrong game results, table state (honba, sticks, dealer), impossible combinations, tiles that
# cannot be scored, rows that could not be scored at all, and last the notes (not mismatches). A kind not
# listed here comes after the listed mismatches, before the notes.
KIND_ORDER = ("money", "payment", "value", "game_end", "table", "plausibility", "tiles", "reject", "note")
WIN = one_of(pl.col("result"), ["ron", "tsumo"])


def finding(
    lf: pl.LazyFrame, condition: pl.Expr, field: str | pl.Expr, kind: str | pl.Expr, recorded: pl.Expr,
    computed: pl.Expr, explanation: pl.Expr | str, seat: pl.Expr | int | None = None,
) -> pl.LazyFrame:
    """Rows of ``lf`` where ``condition`` holds, as findings; ``player`` is the name at ``seat`` on the row."""
    seat_expr = seat.cast(pl.Int64) if isinstance(seat, pl.Expr) else pl.lit(seat, pl.Int64)
    return lf.filter(condition.fill_null(False)).select(
        "game_id",
        "round",
        "honba",
        "hand_no",
        seat_expr.alias("seat"),
        at_seat([pl.col(p) for p in PLAYER_COLUMNS], seat_expr).alias("player"),
        (pl.lit(field) if isinstance(field, str) else field).alias("field"),
        (pl.lit(kind) if isinstance(kind, str) else kind).alias("kind"),
        recorded.cast(pl.String).alias("recorded"),
        computed.cast(pl.String).alias("computed"),
        (pl.lit(explanation) if isinstance(explanation, str) else explanation).alias("explanation"),
        "source_file",
        "source_row",
        "log_file",
        "log_row",
    )


def as_int(name: str) -> pl.Expr:
    """A recorded number (text or any numeric type) as a whole number; null where it is none."""
    return pl.col(name).cast(pl.Float64, strict=False).round().cast(pl.Int64)


def number_text(x: pl.Expr) -> pl.Expr:
    """44.0 -> '44', 10.7 -> '10.7': recorded and computed numbers read alike."""
    return pl.when(x == x.round()).then(x.cast(pl.Int64).cast(pl.String)).otherwise(x.round(2).cast(pl.String))




def severity(kind: pl.Expr) -> pl.Expr:
    """A finding's place in :data:`KIND_ORDER` (0 = most serious); an unlisted kind comes after the listed
    mismatches and before the notes."""
    mismatches = [k for k in KIND_ORDER if k not in NOT_A_MISMATCH]
    notes = {k: len(mismatches) + 1 + i for i, k in enumerate(NOT_A_MISMATCH)}
    ranks = {k: i for i, k in enumerate(mismatches)} | notes
    return kind.replace_strict(list(ranks), list(ranks.values()), default=len(mismatches), return_dtype=pl.Int64)
