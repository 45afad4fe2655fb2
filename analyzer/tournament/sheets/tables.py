"""A sheet's games as tables: each game's ruleset, each row's seat, and what stops a game from being settled.

A game is settled from all of its players' rows at once, so a game some of whose rows cannot be used is not
settled at all: every row of it is rejected (:data:`R_SHEET_TABLE`), with the reason, and ``check`` lists it
as a finding of the table (:mod:`analyzer.findings.sheets`). In order:

* the game also has hand records in the input: those are scored, the sheet's rows are rejected;
* the table has another number of players than the game's rules play (4, or 3);
* a player is at the table twice;
* seats given on some rows only, two players in one seat, or a seat the table does not have;
* another row of the game was rejected (a bad cell): the game cannot be settled without it.

A row that repeats an earlier row of its game exactly is rejected as a copy (``duplicate_row``) and the game
is settled without it, as for hand records.

The rules of a game: the ruleset given to the run, else the first ``rules`` value of the game's rows (a preset
or spec, as for hand records), else the default preset — its three-player preset when the game's ``players``
column says 3. A game of three rows under four-player rules is a table missing a player, never a guess at
three-player rules.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analyzer.core import segments as seg
from analyzer.io.wide import WIDE_INDEX, WIDE_WIND, wide_column
from analyzer.scoring.parts import R_RULES, RULES_COLUMN
from analyzer.scoring.rejects import REJECT, add_bits, reason, reason_kind, when
from analyzer.core.rules import Rules, RulesError, from_spec, load_rules, preset_names
from analyzer.core.schema import INPUT_POSITION
from analyzer.core.text import format_text
from analyzer.scoring.validate import R_DUPLICATE

R_SHEET_TABLE = reason(wide_column(pl.col("_table_column")), pl.col("_table_value"), pl.col("_table_reason"))
# per row of a game that cannot be settled: the column, value and reason of its reject, and what is wrong with
# the table (`_table_field`: game_id, players, player, seat, or rows for a game with a rejected row)
TABLE_COLUMNS = ("_table_column", "_table_value", "_table_reason", "_table_field")
# The reasons a table cannot be settled, each of a kind (a summary counts the rows of one kind together)
reason_kind(r"^game (.*) also has hand records in the input: they are scored, not this sheet's rows$",
            "the game also has hand records in the input: they are scored, not this sheet's rows", "game ${1}")
reason_kind(r"^the table has \d+ players \(.*\); the rules \(.*\) play \d+$",
            "the table has another number of players than its rules play")
reason_kind(r"^(.*) is at this table twice$", "a player is at the table twice", "${1}")
reason_kind(r"^two players in seat (.*)$", "two players in one seat", "seat ${1}")
reason_kind(r"^seat \d+ at a table of \d+ players$", "a seat beyond the table's players")
reason_kind(r"^the game cannot be settled without its rejected row\(s\) (.*)$",
            "the game cannot be settled without its rejected row(s)", "row(s) ${1}")


def game_rules(rows: pl.DataFrame, rules: Rules | str | Path | None) -> tuple[pl.DataFrame, dict[str, Rules]]:
    """Each row's game's ruleset spec (``_rules_spec``) and player count (``_players``); rows of a game whose
    spec is not a ruleset are rejected (the default ruleset stands in for it). Returns the rulesets by spec."""
    if rules is not None:
        chosen = load_rules(rules)
        return rows.with_columns(pl.lit(chosen.name).alias("_rules_spec"), pl.lit(None, pl.String)
                                 .alias("_rules_problem"), pl.lit(chosen.players).alias("_players")), {
            chosen.name: chosen}
    default = load_rules(None)
    sanma = f"{default.name}_sanma" if f"{default.name}_sanma" in preset_names() else default.name
    stated = pl.col("players").cast(pl.String).str.strip_chars().replace("", None)

    def first_of_game(value: pl.Expr) -> pl.Expr:
        return value.sort_by(INPUT_POSITION).drop_nulls().first().over("game_id")

    if rows.select(pl.col(RULES_COLUMN).is_null().all() & pl.col("players").is_null().all()).item():
        rows = rows.with_columns(pl.lit(default.name).alias("_rules_spec"))  # no game says: no window needed
    else:
        spec = first_of_game(pl.col(RULES_COLUMN).cast(pl.String).str.strip_chars().replace("", None))
        fallback = pl.when(first_of_game(stated) == "3").then(pl.lit(sanma)).otherwise(pl.lit(default.name))
        rows = rows.with_columns(spec.fill_null(fallback).alias("_rules_spec"))
    by_spec: dict[str, Rules] = {}
    problems: dict[str, str] = {}
    for text in sorted(rows["_rules_spec"].unique().drop_nulls().to_list()):
        try:
            by_spec[text] = from_spec(text)
        except (RulesError, OSError) as exc:
            problems[text], by_spec[text] = f"not a ruleset: {exc}", default
    return rows.with_columns(
        pl.col("_rules_spec").replace_strict(problems, default=None, return_dtype=pl.String).alias("_rules_problem"),
        pl.col("_rules_spec").replace_strict({k: r.players for k, r in by_spec.items()}, default=4,
                                             return_dtype=pl.Int64).alias("_players"),
    ).with_columns(add_bits([when(pl.col("_rules_problem").is_not_null(), R_RULES)])), by_spec


def _copies(rows: pl.DataFrame) -> pl.DataFrame:
    """``_copy``: the row repeats an earlier row of its game in every input column (``_copy_of_row`` and
    ``_copy_of_file`` say which)."""
    values = [c for c, t in rows.schema.items() if not c.startswith("_") and not t.is_nested()]
    key = pl.struct(values)
    rows = rows.with_columns((~key.is_first_distinct()).alias("_copy"))
    if not rows["_copy"].any():
        return rows.with_columns(pl.lit(None, pl.Int64).alias("_copy_of_row"),
                                 pl.lit(None, pl.String).alias("_copy_of_file"))
    return rows.with_columns(pl.col("_row").first().over(key).alias("_copy_of_row"),
                             pl.col("_file").first().over(key).alias("_copy_of_file"))


def _row_label() -> pl.Expr:
    """A row as a reason names it: its number, and on a wide sheet the seat's column of its bad cell (``3
    (final_score_2)``: the row holds every seat of the game)."""
    row = pl.col("_row").cast(pl.String)
    seat_column = wide_column(pl.col("_bad_column"))
    on_wide = (pl.col(WIDE_INDEX).is_not_null() | pl.col(WIDE_WIND).is_not_null()) & pl.col("_bad_column").is_not_null()
    return pl.when(on_wide).then(pl.concat_str(row, pl.lit(" ("), seat_column, pl.lit(")"))).otherwise(row)


def _names(expr: pl.Expr) -> pl.Expr:
    return expr.unique(maintain_order=True).str.join(", ")


def _in_game_order(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` by game, then input order: not sorted again when they come so (an export, game by game; the
    seats of a wide sheet's row share its position and come in seat order)."""
    ordered = rows.select(((pl.col("game_id") >= pl.col("game_id").shift(1))
                           & (pl.col(INPUT_POSITION) >= pl.col(INPUT_POSITION).shift(1))).fill_null(True).all()).item()
    return rows if ordered else rows.sort("game_id", INPUT_POSITION)


def _all_tables_whole(rows: pl.DataFrame, hand_games: pl.Series) -> bool:
    """Whether every game of ``rows`` (in game order) can be settled as it is: no bad cell, as many rows as its
    rules' players, every player once, seats given on every row or none and then each once — the usual sheet,
    told by run lengths and comparisons with the rows before, with no hashing of text."""
    game = pl.col("_run")
    seat_bits = seg.seat_bit(pl.col("_seat_given"))
    full = pl.when(pl.col("_players") == 3).then(0b111).otherwise(0b1111)
    checks = rows.select(pl.col("game_id").rle_id().alias("_run"), "player", "_seat_given", "_players", REJECT).select(
        (pl.col(REJECT) == 0).all().alias("clean"),
        (pl.len().over(game) == pl.col("_players")).all().alias("sizes"),
        # tables of at most four rows: a player twice is a row equal to one of the three before it in its game
        ~pl.any_horizontal((pl.col("player") == pl.col("player").shift(k)) & (game == game.shift(k))
                           for k in (1, 2, 3)).any().alias("once"),
        ((seat_bits.sum().over(game) == full) | (pl.col("_seat_given").count().over(game) == 0)).all().alias("seats"),
    ).row(0)
    return all(checks) and not (hand_games.len() and rows["game_id"].is_in(hand_games.implode()).any())


def table_problems(rows: pl.DataFrame, hand_games: pl.Series) -> pl.DataFrame:
    """``rows`` (typed, with :func:`game_rules`) in game order with ``_seat`` (the seat given, else the row's
    order in its game) and the reasons a game cannot be settled (see the module doc) as reject bits."""
    rows = _in_game_order(rows)
    if _all_tables_whole(rows, hand_games):
        start = seg.starts("game_id")
        index = pl.int_range(pl.len(), dtype=pl.Int64)
        return rows.with_columns(
            pl.lit(False).alias("_copy"), pl.lit(None, pl.Int64).alias("_copy_of_row"),
            pl.lit(None, pl.String).alias("_copy_of_file"),
            pl.coalesce("_seat_given", index - seg.first(index, start)).alias("_seat"),
            pl.lit(False).alias("_own_reason"),
            *[pl.lit(None, pl.String).alias(c) for c in TABLE_COLUMNS],
        )
    rows = _copies(rows).with_columns(add_bits([when(pl.col("_copy"), R_DUPLICATE)]))
    counted = ~pl.col("_copy") & (pl.col("game_id") != "")
    start = seg.starts("game_id")
    index = pl.int_range(pl.len(), dtype=pl.Int64)
    rows = rows.with_columns(
        pl.coalesce("_seat_given", index - seg.first(index, start)).alias("_seat"),
        (pl.col(REJECT) != 0).alias("_own_reason"),
    )
    per_game = rows.filter(counted).group_by("game_id").agg(
        pl.len().alias("_n"),
        pl.col("player").n_unique().alias("_distinct"),
        pl.col("_seat_given").count().alias("_seats_given"),
        pl.col("_seat_given").drop_nulls().n_unique().alias("_seats_distinct"),
        pl.col("_seat_given").max().alias("_seat_max"),
        pl.col("_players").first(),
        pl.col("_rules_spec").first(),
        pl.col("_own_reason").any().alias("_some_rejected"),
    ).with_columns(pl.col("game_id").is_in(hand_games.implode()).alias("_in_hands"))
    given = pl.col("_seats_given")
    seat_problem = (given > 0) & ((given < pl.col("_n")) | (pl.col("_seats_distinct") < given)
                                  | (pl.col("_seat_max") >= pl.col("_players")))
    problem = (pl.col("_in_hands") | (pl.col("_n") != pl.col("_players")) | (pl.col("_distinct") < pl.col("_n"))
               | seat_problem | pl.col("_some_rejected"))
    if not per_game.select(problem.fill_null(False).any()).item():
        return rows.with_columns(pl.lit(None, pl.String).alias(c) for c in TABLE_COLUMNS)
    bad = per_game.filter(problem.fill_null(False)).select("game_id")
    texts = rows.filter(counted).join(bad, on="game_id", how="semi").group_by("game_id").agg(
        _names(pl.col("player")).alias("_all_names"),
        _names(pl.col("player").filter(pl.col("player").is_duplicated())).alias("_twice"),
        _names(pl.col("_seat_given").filter(pl.col("_seat_given").is_duplicated()).cast(pl.String))
        .alias("_seat_twice"),
        _names(_row_label().filter(pl.col("_own_reason"))).alias("_rejected_rows"),
    ).join(per_game, on="game_id", how="left")
    n, players = pl.col("_n"), pl.col("_players")
    seat_given = pl.col("_seats_given") > 0
    seat_bad = seat_given & ((pl.col("_seats_given") < n) | (pl.col("_seat_twice") != "")
                             | (pl.col("_seat_max") >= players))
    column = (
        pl.when(pl.col("_in_hands")).then(pl.lit("game_id"))
        .when(n != players).then(pl.lit("player"))
        .when(pl.col("_twice") != "").then(pl.lit("player"))
        .when(seat_bad).then(pl.lit("seat"))
        .otherwise(pl.lit("game_id"))
    )
    why = (
        pl.when(pl.col("_in_hands")).then(
            format_text("game {} also has hand records in the input: they are scored, not this sheet's rows",
                        "game_id"))
        .when(n != players).then(format_text("the table has {} players ({}); the rules ({}) play {}", n,
                                             "_all_names", "_rules_spec", players))
        .when(pl.col("_twice") != "").then(format_text("{} is at this table twice", "_twice"))
        .when(seat_given & (pl.col("_seats_given") < n)).then(pl.lit("a seat is given on some rows of the game only"))
        .when(seat_given & (pl.col("_seat_twice") != "")).then(format_text("two players in seat {}", "_seat_twice"))
        .when(seat_given & (pl.col("_seat_max") >= players)).then(
            format_text("seat {} at a table of {} players", "_seat_max", players))
        .otherwise(format_text("the game cannot be settled without its rejected row(s) {}", "_rejected_rows"))
    )
    field = (
        pl.when(pl.col("_in_hands")).then(pl.lit("game_id"))
        .when(n != players).then(pl.lit("players"))
        .when(pl.col("_twice") != "").then(pl.lit("player"))
        .when(seat_bad).then(pl.lit("seat"))
        .otherwise(pl.lit("rows"))
    )
    texts = texts.select("game_id", column.alias("_table_column"), why.alias("_table_reason"),
                         field.alias("_table_field"),
                         (pl.col("_some_rejected") & (n == players) & (pl.col("_twice") == "") & ~seat_bad
                          & ~pl.col("_in_hands")).alias("_only_rejected"))
    rows = rows.join(texts, on="game_id", how="left", maintain_order="left")
    # the seats of a wide sheet's row share its number: each is named by its own player column instead
    on_wide = pl.col(WIDE_INDEX).is_not_null() | pl.col(WIDE_WIND).is_not_null()
    rows = rows.with_columns(pl.when(on_wide & (pl.col("_table_column") == "game_id")).then(pl.lit("player"))
                             .otherwise(pl.col("_table_column")).alias("_table_column"))
    applies = counted & pl.col("_table_reason").is_not_null() & ~(pl.col("_only_rejected") & pl.col("_own_reason"))
    value = pl.when(pl.col("_table_column") == "seat").then(pl.col("seat").cast(pl.String)).when(
        pl.col("_table_column") == "player").then(pl.col("player")).otherwise(pl.col("game_id"))
    return rows.with_columns(value.alias("_table_value")).with_columns(
        add_bits([when(applies, R_SHEET_TABLE)]),
        pl.when(applies).then(pl.col("_table_reason")).alias("_table_reason"),
        pl.when(applies).then(pl.col("_table_field")).alias("_table_field"),
    ).drop("_only_rejected")
