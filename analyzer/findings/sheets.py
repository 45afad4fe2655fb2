"""Findings on a game-level sheet (:mod:`analyzer.tournament.sheets`), one partition's games at a time.

* ``table`` — a game that cannot be settled: the table has another number of players than its rules play
  (field ``players``), a player is at the table twice (``player``), seats clash (``seat``), the game also has
  hand records (``game_id``); the rows of such a game are rejected, and these findings stand for them (the
  rejects of a row with a bad cell are ``reject`` findings); rows of one game that give different leftover
  sticks (``leftover_sticks``);
* ``money`` — a settled table whose final scores and leftover sticks do not add up to its players' start
  points (``final_score_sum``);
* ``game_end`` — a recorded place or game points that differ from the computed ones (``place``,
  ``game_points``), with the arithmetic; a recorded value that cannot be read (only compared, it leaves its row
  scored: the finding stands for it), with what is computed.

Each finding names the file and row, the game and (where one player holds it) the player and seat.
"""

from __future__ import annotations

import polars as pl

from analyzer.findings.base import FINDING_SCHEMA, NO_LOG, number_text
from analyzer.io.wide import WIDE_INDEX, WIDE_WIND, wide_column
from analyzer.scoring.rejects import REJECT
from analyzer.tournament.sheets import COMPARED, UNREADABLE, SheetPart
from analyzer.core.text import format_text

COMPUTED = ("place", "uma", "oka", "penalty", "game_points", "final_score", "chombo")
POINTS_TOLERANCE = 0.05  # recorded game points are written to a tenth: 15.3 for 15.333…
ORDINALS = ["1st", "2nd", "3rd", "4th"]


def sheet_finding(lf: pl.LazyFrame, field: str | pl.Expr, kind: str, recorded: pl.Expr, computed: pl.Expr,
                  explanation: pl.Expr, player: pl.Expr | None = None, seat: pl.Expr | None = None) -> pl.LazyFrame:
    """Rows of ``lf`` (with ``game_id``, ``_file``, ``_row``) as findings."""
    return lf.select(
        pl.col("game_id"),
        pl.lit(None, pl.String).alias("round"),
        pl.lit(None, pl.Int64).alias("honba"),
        pl.lit(None, pl.Int64).alias("hand_no"),
        (pl.lit(None, pl.Int64) if seat is None else seat.cast(pl.Int64)).alias("seat"),
        (pl.lit(None, pl.String) if player is None else player).alias("player"),
        (pl.lit(field) if isinstance(field, str) else field).alias("field"),
        pl.lit(kind).alias("kind"),
        recorded.cast(pl.String).alias("recorded"),
        computed.cast(pl.String).alias("computed"),
        explanation.alias("explanation"),
        pl.col("_file").alias("source_file"),
        pl.col("_row").alias("source_row"),
        *NO_LOG,
    ).cast(FINDING_SCHEMA)


def _by_spec(sheet: SheetPart, value) -> pl.Expr:
    """A value of each row's game's ruleset."""
    specs = list(sheet.by_spec)
    values = [value(r) for r in sheet.by_spec.values()]
    return pl.col("_rules_spec").replace_strict(specs, values, default=values[0] if values else None)


def table_findings(rows: pl.LazyFrame) -> list[pl.LazyFrame]:
    """Games that cannot be settled (one finding per game, at its first row; a player twice: at each later row of
    the player) and leftover sticks that differ between the rows of a game."""
    field = pl.col("_table_field")
    per_game = rows.filter(field.is_in(["players", "seat", "game_id"])).sort(
        "game_id", "_pos").unique("game_id", keep="first", maintain_order=True)
    # where the player is: the rows of a long sheet, the seats' columns of a wide sheet's row
    wide = pl.col(WIDE_INDEX).is_not_null() | pl.col(WIDE_WIND).is_not_null()
    twice = rows.filter(field == "player").with_columns(
        pl.when(wide.first().over("game_id")).then(pl.concat_str(
            pl.lit("row "), pl.col("_row").first().cast(pl.String), pl.lit(": "),
            wide_column(pl.lit("player")).str.join(", ")).over("game_id", "player"))
        .otherwise(pl.concat_str(pl.lit("rows "), pl.col("_row").cast(pl.String).str.join(", ")
                                 .over("game_id", "player"))).alias("_rows"),
        pl.int_range(pl.len()).over("game_id", "player", order_by="_pos").alias("_nth"),
    ).filter(pl.col("player").is_duplicated().over("game_id") & (pl.col("_nth") > 0))
    sticks = rows.filter(~pl.col("_copy") & pl.col("_sticks").is_not_null()).group_by("game_id").agg(
        pl.col("_sticks").unique().sort().cast(pl.String).str.join(" and ").alias("_given"),
        pl.col("_sticks").n_unique().alias("_n"), pl.col("_sticks").max().alias("_used"),
        pl.col("_file").sort_by("_pos").first(), pl.col("_row").sort_by("_pos").first(),
    ).filter(pl.col("_n") > 1)
    return [
        sheet_finding(per_game, field, "table", pl.lit(None), pl.lit(None), pl.col("_table_reason")),
        sheet_finding(twice, "player", "table", pl.col("player"), pl.lit(None),
                      format_text("{} ({})", "_table_reason", "_rows"), pl.col("player"), pl.col("_seat")),
        sheet_finding(sticks, "leftover_sticks", "table", pl.col("_given"), pl.col("_used"),
                      format_text("the rows of the game give {} leftover sticks: the largest ({}) is used", "_given",
                                  "_used")),
    ]


def _terms(scores: pl.Expr) -> pl.Expr:
    """'46400 + 41200 - 600' (an aggregation: the scores of a table)."""
    signed = pl.concat_str(pl.when(scores < 0).then(pl.lit(" - ")).otherwise(pl.lit(" + ")),
                           scores.abs().cast(pl.String))
    return signed.str.join("").str.strip_prefix(" + ").str.replace(r"^ - ", "-")


def money_findings(sheet: SheetPart, valid: pl.LazyFrame) -> pl.LazyFrame:
    """A settled table whose final scores and leftover sticks do not add up to its players' start points."""
    deposit = _by_spec(sheet, lambda r: r.riichi_deposit)
    start = _by_spec(sheet, lambda r: r.start_points)
    tables = valid.sort("game_id", "_seat").group_by("game_id", maintain_order=True).agg(
        pl.col("_final").sum().alias("_sum"), _terms(pl.col("_final")).alias("_terms"),
        pl.col("_sticks").max().fill_null(0).alias("_sticks"), pl.len().alias("_n"),
        (deposit * 1).first().alias("_deposit"), (start * 1).first().alias("_start"),
        pl.col("_file").sort_by("_pos").first(), pl.col("_row").sort_by("_pos").first(),
    ).with_columns(
        (pl.col("_sum") + pl.col("_sticks") * pl.col("_deposit")).alias("_total"),
        (pl.col("_n") * pl.col("_start")).alias("_expected"),
    ).filter(pl.col("_total") != pl.col("_expected"))
    sticks = pl.when(pl.col("_sticks") > 0).then(
        format_text(" + {} stick(s) x {}", "_sticks", "_deposit")).otherwise(pl.lit(""))
    return sheet_finding(
        tables, "final_score_sum", "money", pl.col("_total"), pl.col("_expected"),
        pl.concat_str(pl.col("_terms"), sticks, format_text(" = {}; {} players x {} start = {}", "_total", "_n",
                                                            "_start", "_expected")))


def _signed(value: pl.Expr, label: str) -> pl.Expr:
    """' + 15 uma' / ' - 5 uma' ('' for 0)."""
    return pl.when(value > 0).then(pl.concat_str(pl.lit(" + "), number_text(value), pl.lit(f" {label}"))).when(
        value < 0).then(pl.concat_str(pl.lit(" - "), number_text(-value), pl.lit(f" {label}"))).otherwise(pl.lit(""))


def recorded_findings(sheet: SheetPart, rows: pl.LazyFrame, valid: pl.LazyFrame) -> list[pl.LazyFrame]:
    """Recorded places and game points against the computed ones, with the arithmetic; recorded values that
    cannot be read (on any row but a copy), with the computed value where the game is settled."""
    games = sheet.games.lazy().select(  # the computed columns under names no input column has
        "game_id", pl.col("seat").alias("_seat"), *[pl.col(c).alias(f"_computed_{c}") for c in COMPUTED],
    )
    place, uma, oka, penalty, points, final, chombo = (pl.col(f"_computed_{c}") for c in COMPUTED)
    joined = valid.join(games, on=["game_id", "_seat"], how="inner").with_columns(
        _by_spec(sheet, lambda r: r.return_points).alias("_return"),
        _by_spec(sheet, lambda r: r.game_points_rounding).alias("_rounding"),
        pl.col("_final").sort(descending=True).cast(pl.String).str.join(", ").over("game_id").alias("_table"),
    )
    place_name = place.replace_strict(list(range(1, 5)), ORDINALS, default=None, return_dtype=pl.String)
    arithmetic = pl.concat_str(
        format_text("({} - {})/1000", final, "_return"),
        _signed(uma, "uma"), pl.concat_str(pl.lit(" ("), place_name, pl.lit(")")),
        _signed(oka, "oka"), _signed(-penalty, "penalty"),
        pl.when(chombo > 0).then(format_text(" ({} chombo)", chombo)).otherwise(pl.lit("")),
        pl.when(pl.col("_rounding") != "exact").then(format_text(", rounded ({})", "_rounding")).otherwise(pl.lit("")),
        pl.lit(" = "), number_text(points),
    )
    differs = joined.filter(pl.col("_recorded_points").is_not_null()
                            & ((pl.col("_recorded_points") - points).abs() >= POINTS_TOLERANCE))
    places = joined.filter(pl.col("_recorded_place").is_not_null() & (pl.col("_recorded_place") != place))
    place_why = format_text("{} is {} of the final scores {}", "_final", place_name, "_table")
    return [
        sheet_finding(differs, "game_points", "game_end", number_text(pl.col("_recorded_points")),
                      number_text(points), arithmetic, pl.col("player"), pl.col("_seat")),
        sheet_finding(places, "place", "game_end", pl.col("_recorded_place"), place, place_why,
                      pl.col("player"), pl.col("_seat")),
        *_unreadable_findings(rows, joined.select(
            "game_id", "_seat", number_text(points).alias("_points"), place.cast(pl.String).alias("_place"),
            arithmetic.alias("_points_why"), place_why.alias("_place_why"))),
    ]


def _unreadable_findings(rows: pl.LazyFrame, computed: pl.LazyFrame) -> list[pl.LazyFrame]:
    """A recorded value that cannot be read (:data:`analyzer.tournament.sheets.UNREADABLE`) on a row that is not
    a copy: its text, the computed value and how it is computed (where the game is settled: ``computed``, one
    row per game and seat)."""
    found = []
    for column, field, value, why in (("recorded_points", "game_points", "_points", "_points_why"),
                                      ("recorded_place", "place", "_place", "_place_why")):
        text = pl.col(UNREADABLE[column])
        unread = rows.filter(text.is_not_null() & ~pl.col("_copy")).join(
            computed, on=["game_id", "_seat"], how="left", maintain_order="left")
        explanation = pl.concat_str(pl.lit(f"{COMPARED[column][1]}, so it cannot be compared"),
                                    pl.lit(": ") + pl.col(why), ignore_nulls=True)
        found.append(sheet_finding(unread, field, "game_end", text, pl.col(value), explanation, pl.col("player"),
                                   pl.col("_seat")))
    return found


def sheet_findings(sheet: SheetPart) -> list[pl.DataFrame]:
    """Every finding on the sheet rows of one partition."""
    rows = sheet.rows.lazy()
    valid = rows.filter(pl.col(REJECT) == 0)
    frames = [*table_findings(rows), money_findings(sheet, valid), *recorded_findings(sheet, rows, valid)]
    return pl.collect_all(frames)


def table_rejects(sheet: SheetPart) -> pl.DataFrame:
    """(file, row, reason) of the rows rejected because their game cannot be settled (not for a bad cell of their
    own): the table findings stand for them, and a bad cell's own reject finding for the rest of its game."""
    return sheet.rows.filter(pl.col("_table_field").is_not_null()).select(
        pl.col("_file").alias("source_file"), pl.col("_row").alias("source_row"),
        pl.col("_table_reason").alias("explanation"))
