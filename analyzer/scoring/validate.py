"""Validation: typed columns, player references resolved to seats, and reject reasons as bits.

Stage ``validate(lf) -> lf`` reads the input columns as :mod:`analyzer.io.load` gives them (the ones it parses
as text, player lists as lists of text; a frame with other types is converted first) and adds:

=================== =====================================================================================
honba, han, fu,     parsed integers (the text values are replaced; unparsable ones give a reject reason;
yakuman             the text stays in ``_raw_honba`` … for the rejects table)
result              lower-cased outcome
dealer              seat of the dealer: hand number - 1
_round_idx          0 for E1 … 3 for E4, 4 for S1 …: the order of rounds
_winner, _loser,    seats 0-3 (null when empty)
_pao
_riichi_mask,       4-bit masks of the seats listed (bit s = seat s)
_tenpai_mask
_reject             bits of the reasons why the row cannot be scored (0 when it can; :mod:`analyzer.scoring.rejects`)
=================== =====================================================================================

A *player* is a name from the row's seating or a seat number 0-3 (text, or a number column); names are matched
first. Whole numbers are read exactly from their text (``3`` or ``3.0``): no detour through floating point.
"""

from __future__ import annotations

import polars as pl

from analyzer.io.load import as_text, read_as_text
from analyzer.scoring.rejects import REJECT, reason, reason_kind, when
from analyzer.scoring.rejects import bits as reject_bits
from analyzer.core.schema import (
    LOSER_RESULTS, PLAYER_COLUMNS, PLAYER_LIST_COLUMNS, PLAYER_REF_COLUMNS, RESULTS, ROUND_NAMES, SEATS, WINNER_RESULTS,
)
from analyzer.core.text import columns_where_every_row, one_of

FU_VALUES = [20, 25, *range(30, 150, 10)]
SCORED_RESULTS = ["ron", "tsumo"]
NUMBER_COLUMNS = ["honba", "han", "fu", "yakuman"]
SEAT_NUMBERS = [str(s) for s in SEATS]  # a player named by seat


def _raw(name: str) -> pl.Expr:
    return pl.col(f"_raw_{name}")


# Every reason a row can be rejected for here, in the order they are listed in the rejects table.
R_GAME_ID = reason("game_id", pl.col("game_id"), "missing game_id")
R_ROUND = reason("round", pl.col("round"), "round must be E1-E4, S1-S4, W1-W4 or N1-N4")
R_HONBA = reason("honba", _raw("honba"), "honba must be a whole number >= 0")
# Beyond these no record is real, and the payments of such values would overflow: rejected, not paid.
MAX_HONBA, MAX_HAN, MAX_FU, MAX_YAKUMAN = 100, 100, 1000, 6
R_HONBA_RANGE = reason("honba", _raw("honba"), f"honba above {MAX_HONBA} is not a real record")
R_HAN_RANGE = reason("han", _raw("han"), f"han above {MAX_HAN} is not a real hand")
R_FU_RANGE = reason("fu", _raw("fu"), f"fu must be between 0 and {MAX_FU}")
R_YAKUMAN_RANGE = reason("yakuman", _raw("yakuman"), f"more than {MAX_YAKUMAN} yakuman is not a real hand")
# A recorded kyotaku (renamed by prepare_input) is only compared with the replay, but a value no table can hold
# (10^20 sticks, -1, 2.5) is a mistake in the sheet, reported like every other bad value.
MAX_KYOTAKU = 100
R_KYOTAKU = reason("kyotaku", pl.col("recorded_kyotaku"), f"kyotaku must be a whole number from 0 to {MAX_KYOTAKU}")
R_RESULT = reason("result", pl.col("result"), f"result must be one of {', '.join(RESULTS)}")
R_PLAYER = {p: reason(p, pl.col(p), "missing player name") for p in PLAYER_COLUMNS}
R_SEATING = reason(
    "player_0", pl.concat_str(PLAYER_COLUMNS, separator=","), "the same name appears twice in the seating"
)
R_NO_WINNER = reason("winner", pl.col("winner"), "a winner is required for this result")
R_NO_LOSER = reason("loser", pl.col("loser"), "a loser is required for this result")
R_UNKNOWN = {c: reason(c, pl.col(c), "not a player of this game (name or seat 0-3)") for c in PLAYER_REF_COLUMNS}
R_RON_SELF = reason("loser", pl.col("loser"), "the loser of a ron cannot be the winner")
R_PAO_SELF = reason("pao", pl.col("pao"), "the liable player cannot be the winner")
R_LIST_UNKNOWN = {
    n: reason(n, pl.col(n).list.join(","), "lists someone who is not a player of this game") for n in PLAYER_LIST_COLUMNS
}
R_NOT_WHOLE = {c: reason(c, _raw(c), "not a whole number") for c in ["han", "fu", "yakuman"]}
R_NEG_YAKUMAN = reason("yakuman", _raw("yakuman"), "the number of yakuman cannot be negative")
R_HAN_MISSING = reason("han", _raw("han"), "han (or yakuman) is required for a win")
R_HAN_LOW = reason("han", _raw("han"), "a winning hand has at least 1 han")
R_FU_MISSING = reason("fu", _raw("fu"), "fu is required below 5 han")
R_FU_VALUE = reason("fu", _raw("fu"), "fu must be 20, 25 or a multiple of 10 from 30 to 140")
# A row given twice (two files, or one game imported twice) is counted once; the code leads its reason, so
# that `grep duplicate_row` or a filter on the rejects' reason finds every copy.
DUPLICATE_ROW = "duplicate_row"
COPY_REASON_START = f"{DUPLICATE_ROW}: "
R_DUPLICATE = reason(
    "game_id", pl.col("game_id"),
    pl.format(COPY_REASON_START + "an exact copy of row {} of {} (the same game and values): counted once",
              "_copy_of_row", "_copy_of_file"),
)
reason_kind(rf"^{COPY_REASON_START}an exact copy of (row \d+ of .*) \(the same game and values\): counted once$",
            COPY_REASON_START + "an exact copy of an earlier row", "${1}", column=False)


def _text(name: str, schema: pl.Schema) -> pl.Expr:
    """A column's text, stripped (a player reference may be a number column: seat numbers)."""
    return as_text(pl.col(name), schema[name]).str.strip_chars() if name in schema else pl.lit(None, pl.String)


def parse_int(text: pl.Expr) -> pl.Expr:
    """Whole numbers written as text ('3', '3.0'); anything else (or beyond Int64) is null."""
    return text.str.strip_suffix(".0").str.to_integer(strict=False)


def _round_index(text: pl.Expr) -> pl.Expr:
    """The round's index (E1 = 0 … N4 = 15) looked up by its name: one hash lookup, no pattern or slices."""
    return text.replace_strict(ROUND_NAMES, list(range(len(ROUND_NAMES))), default=None, return_dtype=pl.Int64)


def _plainly_written(lf: pl.LazyFrame) -> set[str]:
    """The columns among ``result``, ``round`` and the numbers whose every value is written as cleaning would
    leave it (``ron``, ``E1``, ``3``): those skip the stripping, case folding and suffix removal, which cost
    three to five times the test. Exports and the importers write them so. And ``{list}_by_name`` for each
    player list none of whose entries is a seat number."""
    return columns_where_every_row(lf, {
        "result": one_of(pl.col("result"), RESULTS) | pl.col("result").is_null(),
        "round": _round_index(pl.col("round")).is_not_null() | pl.col("round").is_null(),
        **{c: pl.col(c).str.to_integer(strict=False).is_not_null() | pl.col(c).is_null() for c in NUMBER_COLUMNS},
        # player lists naming nobody by seat number skip the four tests for seat numbers
        **{f"{n}_by_name": ~pl.col(n).list.eval(one_of(pl.element(), SEAT_NUMBERS)).list.any().fill_null(False)
           for n in PLAYER_LIST_COLUMNS},
    })


def seat_of(text: pl.Expr) -> pl.Expr:
    """Seat 0-3 of a player reference, -1 when it names nobody at the table, null when empty.

    One chain of tests, names first: half the cost of a lookup of seat numbers beside a match of names."""
    seat = pl.when(text.is_null() | (text == "")).then(pl.lit(None, pl.Int64))
    for s in SEATS:
        seat = seat.when(text == pl.col(PLAYER_COLUMNS[s])).then(pl.lit(s, pl.Int64))
    for s in SEATS:
        seat = seat.when(text == str(s)).then(pl.lit(s, pl.Int64))
    return seat.otherwise(pl.lit(-1, pl.Int64))


def _list_membership(name: str, by_seat: bool) -> list[pl.Expr]:
    """Per seat, whether the list ``name`` holds the seat's player by name (``_{name}_by_name_s``) and, with
    ``by_seat``, by seat number (``_{name}_by_seat_s``): columns, read twice by :func:`_list_mask`."""
    names = pl.col(name)
    return [
        *[names.list.contains(pl.col(PLAYER_COLUMNS[s])).fill_null(False).alias(f"_{name}_by_name_{s}") for s in SEATS],
        *[names.list.contains(pl.lit(SEAT_NUMBERS[s])).fill_null(False).alias(f"_{name}_by_seat_{s}")
          for s in SEATS if by_seat],
    ]


def _list_mask(name: str, by_seat: bool) -> tuple[pl.Expr, pl.Expr]:
    """(4-bit seat mask, number of entries that name nobody) of a list of player references."""
    by_name = [pl.col(f"_{name}_by_name_{s}") for s in SEATS]
    numbers = [pl.col(f"_{name}_by_seat_{s}") for s in SEATS] if by_seat else []
    held = [by_name[s] | numbers[s] if by_seat else by_name[s] for s in SEATS]
    mask = pl.sum_horizontal(pl.when(held[s]).then(1 << s).otherwise(0) for s in SEATS)
    matched = pl.sum_horizontal(*[c.cast(pl.Int64) for c in by_name + numbers])
    unknown = (pl.col(name).list.n_unique().fill_null(0).cast(pl.Int64) - matched).clip(lower_bound=0)
    return mask.cast(pl.Int64), unknown


def _seating_repeats() -> pl.Expr:
    """Some name appears twice among the four seats (pairwise: no per-row list)."""
    players = [pl.col(p) for p in PLAYER_COLUMNS]
    return pl.any_horizontal([players[a] == players[b] for a in SEATS for b in SEATS if a < b])


def _kyotaku_out_of_range(schema: pl.Schema) -> pl.Expr:
    """A recorded kyotaku given but not a whole number from 0 to :data:`MAX_KYOTAKU` (read from its text, whatever
    type the column has: a CSV file's is inferred, Int128 for 10^20)."""
    if "recorded_kyotaku" not in schema:
        return pl.lit(False)
    text = _text("recorded_kyotaku", schema)
    sticks = parse_int(text)
    given = text.is_not_null() & (text != "")
    return given & (sticks.is_null() | (sticks < 0) | (sticks > MAX_KYOTAKU))


def validate(lf: pl.LazyFrame) -> pl.LazyFrame:
    lf = read_as_text(lf, ["game_id", "round", "honba", "result", *PLAYER_COLUMNS, *NUMBER_COLUMNS, *PLAYER_LIST_COLUMNS])
    schema = lf.collect_schema()
    for name in ["game_id", "round", "honba", "result", *PLAYER_COLUMNS, *PLAYER_REF_COLUMNS, *NUMBER_COLUMNS]:
        if name not in schema:
            lf = lf.with_columns(pl.lit(None, pl.String).alias(name))
    for name in PLAYER_LIST_COLUMNS:
        if name not in schema:
            lf = lf.with_columns(pl.lit(None, pl.List(pl.String)).alias(name))
    schema = lf.collect_schema()
    has_tiles = "hand" in schema or "tc_m" in schema
    plain = _plainly_written(lf)

    # Cleaned text first, as columns: an expression used several times is otherwise evaluated each time.
    lf = lf.with_columns(
        pl.col("game_id").str.strip_chars(),
        *[pl.col(p).str.strip_chars() for p in PLAYER_COLUMNS],
        (pl.col("result") if "result" in plain else _text("result", schema).str.to_lowercase()).alias("result"),
        (pl.col("round") if "round" in plain else _text("round", schema).str.to_uppercase()).alias("_round_text"),
        *[_text(c, schema).alias(f"_ref_{c}") for c in PLAYER_REF_COLUMNS],
        *[pl.col(c).alias(f"_raw_{c}") for c in NUMBER_COLUMNS],
    )
    lf = lf.with_columns(_round_index(pl.col("_round_text")).alias("_round_idx"))
    round_ok = pl.col("_round_idx").is_not_null()

    typed = lf.with_columns(
        pl.when(round_ok).then(pl.col("_round_text")).otherwise(pl.col("round")).alias("round"),
        (pl.col("_round_idx") % 4).alias("dealer"),
        *[(pl.col(c).str.to_integer(strict=False) if c in plain else parse_int(_text(c, schema))).alias(c)
          for c in NUMBER_COLUMNS],
        # player references after the seat names are stripped, so `Lev ` in the seating is loser `Lev`
        *[seat_of(pl.col(f"_ref_{c}")).alias(f"_{c}") for c in PLAYER_REF_COLUMNS],
    )
    by_seat = {name: f"{name}_by_name" not in plain for name in PLAYER_LIST_COLUMNS}
    typed = typed.with_columns(*[e for name in PLAYER_LIST_COLUMNS for e in _list_membership(name, by_seat[name])])
    masks = {name: _list_mask(name, by_seat[name]) for name in PLAYER_LIST_COLUMNS}
    typed = typed.with_columns(
        *[masks[n][0].alias(f"_{n}_mask") for n in PLAYER_LIST_COLUMNS],
        *[masks[n][1].alias(f"_{n}_unknown") for n in PLAYER_LIST_COLUMNS],
    )

    result = pl.col("result")
    yakuman = pl.col("yakuman").fill_null(0)
    han = pl.col("han")
    tiles_given = (  # text (hand) or tile codes (analyzer.tiles.codes)
        pl.any_horizontal([pl.col(c).is_not_null() for c in ("hand", "tc_m") if c in schema]) if has_tiles
        else pl.lit(False)
    )
    needs_value = one_of(result, SCORED_RESULTS) & (yakuman == 0) & ~tiles_given
    terms = [
        when(pl.col("game_id").is_null() | (pl.col("game_id") == ""), R_GAME_ID),
        when(pl.col("_round_idx").is_null(), R_ROUND),
        when(pl.col("honba").is_null() | (pl.col("honba") < 0), R_HONBA),
        when(~one_of(result, RESULTS) | result.is_null(), R_RESULT),
        *[when(pl.col(p).is_null() | (pl.col(p) == ""), R_PLAYER[p]) for p in PLAYER_COLUMNS],
        when(_seating_repeats(), R_SEATING),
        when(one_of(result, WINNER_RESULTS) & pl.col("_winner").is_null(), R_NO_WINNER),
        when(one_of(result, LOSER_RESULTS) & pl.col("_loser").is_null(), R_NO_LOSER),
        *[when(pl.col(f"_{c}") == -1, R_UNKNOWN[c]) for c in PLAYER_REF_COLUMNS],
        when((result == "ron") & (pl.col("_loser") == pl.col("_winner")), R_RON_SELF),
        when(pl.col("_pao").is_not_null() & (pl.col("_pao") == pl.col("_winner")), R_PAO_SELF),
        *[when(pl.col(f"_{n}_unknown") > 0, R_LIST_UNKNOWN[n]) for n in PLAYER_LIST_COLUMNS],
        *[when(_raw(c).is_not_null() & pl.col(c).is_null(), R_NOT_WHOLE[c]) for c in ["han", "fu", "yakuman"]],
        when(yakuman < 0, R_NEG_YAKUMAN),
        when(pl.col("honba") > MAX_HONBA, R_HONBA_RANGE),
        when(han.abs() > MAX_HAN, R_HAN_RANGE),
        when((pl.col("fu") < 0) | (pl.col("fu") > MAX_FU), R_FU_RANGE),
        when(yakuman > MAX_YAKUMAN, R_YAKUMAN_RANGE),
        when(_kyotaku_out_of_range(schema), R_KYOTAKU),
        when(needs_value & han.is_null() & _raw("han").is_null(), R_HAN_MISSING),
        when(needs_value & (han < 1), R_HAN_LOW),
        when(needs_value & han.is_between(1, 4) & _raw("fu").is_null(), R_FU_MISSING),
        when(needs_value & han.is_between(1, 4) & pl.col("fu").is_not_null() & ~pl.col("fu").is_in(FU_VALUES), R_FU_VALUE),
    ]
    return typed.with_columns(reject_bits(terms).alias(REJECT)).drop(
        "_round_text", *[f"_ref_{c}" for c in PLAYER_REF_COLUMNS], *[f"_{n}_unknown" for n in PLAYER_LIST_COLUMNS],
        *[f"_{n}_by_{k}_{s}" for n in PLAYER_LIST_COLUMNS for k in ("name", "seat") for s in SEATS
          if k == "name" or by_seat[n]],
    )
