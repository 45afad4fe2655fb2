"""Validation: typed columns, player references resolved to seats, and reject reasons as values.

Stage ``validate(lf) -> lf`` needs the raw text columns from :mod:`analyzer.io.load` and adds:

=================== =====================================================================================
honba, han, fu,     parsed integers (the text values are replaced; unparsable ones give a reject reason)
yakuman
result              lower-cased outcome
dealer              seat of the dealer: hand number - 1
_round_idx          0 for E1 … 3 for E4, 4 for S1 …: the order of rounds
_winner, _loser,    seats 0-3 (null when empty)
_pao
_riichi_mask,       4-bit masks of the seats listed (bit s = seat s)
_tenpai_mask
_reasons            list of {column, value, reason}: why the row cannot be scored (empty when it can)
=================== =====================================================================================

A *player* is a name from the row's seating or a seat number 0-3; names are matched first.
"""

from __future__ import annotations

import polars as pl

from analyzer.schema import PLAYER_COLUMNS, PLAYER_LIST_COLUMNS, PLAYER_REF_COLUMNS, RESULTS, SEATS, WINDS

FU_VALUES = [20, 25, *range(30, 150, 10)]
WINNER_RESULTS = ["ron", "tsumo", "nagashi"]
SCORED_RESULTS = ["ron", "tsumo"]


def _text(name: str, schema: pl.Schema) -> pl.Expr:
    return pl.col(name).str.strip_chars() if name in schema else pl.lit(None, pl.String)


def _reason(condition: pl.Expr, column: str, value: pl.Expr, reason: str | pl.Expr) -> pl.Expr:
    reason = pl.lit(reason) if isinstance(reason, str) else reason
    return pl.when(condition.fill_null(False)).then(
        pl.struct(column=pl.lit(column), value=value.cast(pl.String), reason=reason)
    )


def _parse_int(text: pl.Expr) -> pl.Expr:
    """Whole numbers written as text ('3', '3.0'); anything else is null."""
    number = text.cast(pl.Float64, strict=False)
    return pl.when(number == number.round()).then(number.cast(pl.Int64))


def seat_of(text: pl.Expr) -> pl.Expr:
    """Seat 0-3 of a player reference, -1 when it names nobody at the table, null when empty."""
    expr = pl.when(text.is_null() | (text == "")).then(pl.lit(None, pl.Int64))
    for s in SEATS:
        expr = expr.when(text == pl.col(PLAYER_COLUMNS[s])).then(s)
    for s in SEATS:
        expr = expr.when(text == str(s)).then(s)
    return expr.otherwise(-1)


def _list_mask(names: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """(4-bit seat mask, number of entries that name nobody) of a list of player references."""
    mask = pl.lit(0, pl.Int64)
    matched = pl.lit(0, pl.Int64)
    for s in SEATS:
        by_name = names.list.contains(pl.col(PLAYER_COLUMNS[s])).fill_null(False)
        by_seat = names.list.contains(pl.lit(str(s))).fill_null(False)
        mask = mask + pl.when(by_name | by_seat).then(1 << s).otherwise(0)
        matched = matched + by_name.cast(pl.Int64) + by_seat.cast(pl.Int64)
    unknown = (names.list.unique().list.len().fill_null(0) - matched).clip(lower_bound=0)
    return mask, unknown


def validate(lf: pl.LazyFrame) -> pl.LazyFrame:
    schema = lf.collect_schema()
    for name in ["game_id", "round", "honba", "result", *PLAYER_COLUMNS, *PLAYER_REF_COLUMNS, "han", "fu", "yakuman"]:
        if name not in schema:
            lf = lf.with_columns(pl.lit(None, pl.String).alias(name))
    for name in PLAYER_LIST_COLUMNS:
        if name not in schema:
            lf = lf.with_columns(pl.lit(None, pl.List(pl.String)).alias(name))
    schema = lf.collect_schema()
    has_tiles = "hand" in schema or "tc_m" in schema

    round_text = _text("round", schema).str.to_uppercase()
    round_ok = round_text.str.contains(r"^[ESWN][1-4]$")
    wind = round_text.str.slice(0, 1).replace_strict(list(WINDS), list(range(4)), default=None, return_dtype=pl.Int64)
    number = round_text.str.slice(1, 1).cast(pl.Int64, strict=False)

    typed = lf.with_columns(
        pl.col("game_id").str.strip_chars(),
        *[pl.col(p).str.strip_chars() for p in PLAYER_COLUMNS],
        _text("result", schema).str.to_lowercase().alias("result"),
        pl.when(round_ok).then(round_text).otherwise(pl.col("round")).alias("round"),
        pl.when(round_ok).then(wind * 4 + number - 1).alias("_round_idx"),
        pl.when(round_ok).then(number - 1).alias("dealer"),
        *[_parse_int(_text(c, schema)).alias(f"_{c}_int") for c in ["honba", "han", "fu", "yakuman"]],
        *[seat_of(_text(c, schema)).alias(f"_{c}") for c in PLAYER_REF_COLUMNS],
    )
    masks = {name: _list_mask(pl.col(name)) for name in PLAYER_LIST_COLUMNS}
    typed = typed.with_columns(
        *[masks[n][0].alias(f"_{n}_mask") for n in PLAYER_LIST_COLUMNS],
        *[masks[n][1].alias(f"_{n}_unknown") for n in PLAYER_LIST_COLUMNS],
    )

    result = pl.col("result")
    yakuman = pl.col("_yakuman_int").fill_null(0)
    han = pl.col("_han_int")
    tiles_given = (  # text (hand) or tile codes (analyzer.tiles.codes)
        pl.any_horizontal([pl.col(c).is_not_null() for c in ("hand", "tc_m") if c in schema]) if has_tiles
        else pl.lit(False)
    )
    needs_value = result.is_in(SCORED_RESULTS) & (yakuman == 0) & ~tiles_given
    reasons = [
        _reason(pl.col("game_id").is_null() | (pl.col("game_id") == ""), "game_id", pl.col("game_id"), "missing game_id"),
        _reason(~round_ok | round_text.is_null(), "round", pl.col("round"), "round must be E1-E4, S1-S4, W1-W4 or N1-N4"),
        _reason(
            pl.col("_honba_int").is_null() | (pl.col("_honba_int") < 0),
            "honba",
            pl.col("honba"),
            "honba must be a whole number >= 0",
        ),
        _reason(~result.is_in(RESULTS) | result.is_null(), "result", pl.col("result"), f"result must be one of {', '.join(RESULTS)}"),
        *[
            _reason(pl.col(p).is_null() | (pl.col(p) == ""), p, pl.col(p), "missing player name")
            for p in PLAYER_COLUMNS
        ],
        _reason(
            pl.concat_list(PLAYER_COLUMNS).list.unique().list.len() < 4,
            "player_0",
            pl.concat_str(PLAYER_COLUMNS, separator=","),
            "the same name appears twice in the seating",
        ),
        _reason(result.is_in(WINNER_RESULTS) & pl.col("_winner").is_null(), "winner", pl.col("winner"), "a winner is required for this result"),
        _reason(result.is_in(["ron", "chombo"]) & pl.col("_loser").is_null(), "loser", pl.col("loser"), "a loser is required for this result"),
        *[
            _reason(pl.col(f"_{c}") == -1, c, pl.col(c), "not a player of this game (name or seat 0-3)")
            for c in PLAYER_REF_COLUMNS
        ],
        _reason(
            (result == "ron") & (pl.col("_loser") == pl.col("_winner")),
            "loser",
            pl.col("loser"),
            "the loser of a ron cannot be the winner",
        ),
        _reason(
            pl.col("_pao").is_not_null() & (pl.col("_pao") == pl.col("_winner")),
            "pao",
            pl.col("pao"),
            "the liable player cannot be the winner",
        ),
        *[
            _reason(pl.col(f"_{n}_unknown") > 0, n, pl.col(n).list.join(","), "lists someone who is not a player of this game")
            for n in PLAYER_LIST_COLUMNS
        ],
        *[
            _reason(pl.col(c).is_not_null() & pl.col(f"_{c}_int").is_null(), c, pl.col(c), "not a whole number")
            for c in ["han", "fu", "yakuman"]
        ],
        _reason(yakuman < 0, "yakuman", pl.col("yakuman"), "the number of yakuman cannot be negative"),
        _reason(needs_value & han.is_null() & pl.col("han").is_null(), "han", pl.col("han"), "han (or yakuman) is required for a win"),
        _reason(needs_value & (han < 1), "han", pl.col("han"), "a winning hand has at least 1 han"),
        _reason(
            needs_value & han.is_between(1, 4) & pl.col("fu").is_null(),
            "fu",
            pl.col("fu"),
            "fu is required below 5 han",
        ),
        _reason(
            needs_value & han.is_between(1, 4) & pl.col("_fu_int").is_not_null() & ~pl.col("_fu_int").is_in(FU_VALUES),
            "fu",
            pl.col("fu"),
            "fu must be 20, 25 or a multiple of 10 from 30 to 140",
        ),
    ]
    return typed.with_columns(
        pl.concat_list([r for r in reasons]).list.drop_nulls().alias("_reasons"),
    ).with_columns(
        pl.col("_honba_int").alias("honba"),
        pl.col("_han_int").alias("han"),
        pl.col("_fu_int").alias("fu"),
        pl.col("_yakuman_int").alias("yakuman"),
    ).drop(
        [f"_{c}_int" for c in ["honba", "han", "fu", "yakuman"]] + [f"_{n}_unknown" for n in PLAYER_LIST_COLUMNS]
    )


def rejects_of(lf: pl.LazyFrame) -> pl.LazyFrame:
    """One row per reason of every rejected row: file, row, game_id, column, value, reason."""
    return (
        lf.filter(pl.col("_reasons").list.len() > 0)
        .select(pl.col("_file").alias("file"), pl.col("_row").alias("row"), "game_id", "_pos", "_reasons")
        .explode("_reasons")
        .unnest("_reasons")
        .sort("_pos", "column")
        .drop("_pos")
    )
