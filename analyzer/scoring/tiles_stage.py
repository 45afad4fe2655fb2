"""Hands given as tiles flow through the same pipeline: ``apply_tiles`` turns tiles into han, fu and yakuman.

Needs the validated columns (``result``, ``_winner``, ``dealer``, ``_round_idx``, ``_riichi_mask``, ``han``,
``fu``, ``yakuman``, ``_reject``) and the tile columns (``hand``, ``melds``, ``win_tile``, ``dora``, ``ura``
and the situation flags). Only ron and tsumo rows with a ``hand`` are scored from tiles. Adds:

================ ==========================================================================================
yaku, fu_detail  the chosen reading's yaku (name, han) and fu items (fu, reason)
dora_count,      dora, ura dora and red fives counted (``dora_count`` because ``dora`` holds the indicators)
ura_dora,
aka_dora
wait             the wait of the chosen reading
given_han,       the han / fu / yakuman the row gave, when tiles replaced them (the tiles win)
given_fu,
given_yakuman
_tile_problems   codes joined by ';': the tile problem (``not_complete``, ``no_yaku``, …) and ``han_mismatch``,
                 ``fu_mismatch``, ``yakuman_mismatch`` against given or ``recorded_*`` values
================ ==========================================================================================

A row whose tiles cannot be scored keeps the han/fu it gave (with the problem code); without them it is
rejected with the tile problem as the reason.
"""

from __future__ import annotations

import polars as pl

from analyzer.scoring.rejects import add_bits, is_clean, reason, when
from analyzer.core.rules import Rules
from analyzer.core.segments import seat_bit
from analyzer.core.schema import SITUATION_FLAGS
from analyzer.core.text import columns_where_every_row, format_text, one_of
from analyzer.tiles import score_tiles
from analyzer.tiles.codes import CODE_COLUMNS, has_codes

TRUE_TEXT = ["true", "1", "yes", "y", "t"]
FALSE_TEXT = ["false", "0", "no", "n", "f", ""]
TILE_OUTPUTS = ["yaku", "fu_detail", "dora_count", "ura_dora", "aka_dora", "wait"]


def _flag(name: str, schema: pl.Schema, loose: bool = True) -> pl.Expr:
    """A situation flag as a boolean; unless ``loose`` its text is one of the flag words exactly."""
    if name not in schema:
        return pl.lit(False)
    if schema[name] == pl.Boolean:
        return pl.col(name).fill_null(False)
    text = pl.col(name).cast(pl.String).str.strip_chars().str.to_lowercase() if loose else pl.col(name)
    return one_of(text, TRUE_TEXT).fill_null(False)


def _loose_flags(lf: pl.LazyFrame, schema: pl.Schema) -> list[str]:
    """The text flag columns not written plainly: some value is not one of the flag words exactly (the usual
    input — a boolean column reads as ``true``/``false`` — is plain and needs no stripping, case folding or
    check of its words)."""
    text = [name for name in SITUATION_FLAGS if name in schema and schema[name] == pl.String]
    plain = columns_where_every_row(
        lf, {name: pl.col(name).is_null() | one_of(pl.col(name), TRUE_TEXT + FALSE_TEXT) for name in text}
    )
    return [name for name in text if name not in plain]


# the flag as written: the flag column itself is a boolean from this stage on
R_FLAG = {name: reason(name, pl.col(f"_text_{name}"), "not true/false") for name in SITUATION_FLAGS}
_UNSCORABLE = format_text("tiles cannot be scored: {}", pl.col("_tile_problem"))
R_TILES = reason("hand", pl.col("hand"), _UNSCORABLE)
_CODES_TEXT = format_text(
    "tile codes m={} p={} s={} z={} win={} melds={}/{}/{}/{}", *[pl.col(c) for c in CODE_COLUMNS[:5]],
    *[pl.col(f"tc_meld{i}") for i in range(4)])
R_TILE_CODES = reason("tc_m", _CODES_TEXT, _UNSCORABLE)


def _bad_flags(loose: list[str]) -> list[pl.Expr]:
    terms = []
    for name in loose:
        text = pl.col(name).str.strip_chars().str.to_lowercase()
        terms.append(when(text.is_not_null() & ~one_of(text, TRUE_TEXT + FALSE_TEXT), R_FLAG[name]))
    return terms


def scores_tiles(names) -> bool:
    """Whether rows with these columns carry tiles to score (a ``hand`` column, or tile codes)."""
    return "hand" in names or has_codes(names)


def apply_tiles(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    schema = lf.collect_schema()
    coded = has_codes(schema)  # tile codes (analyzer.tiles.codes) are scored as they are, text is encoded first
    if not scores_tiles(schema):
        return lf
    if not coded:
        for name, dtype in {"melds": pl.List(pl.String), "win_tile": pl.String, "dora": pl.String,
                            "ura": pl.String}.items():
            if name not in schema:
                lf = lf.with_columns(pl.lit(None, dtype).alias(name))
    # only winning rows are scored: the others get a null hand (or null codes) for the scorer
    key = "tc_m" if coded else "hand"
    win = one_of(pl.col("result"), ["ron", "tsumo"]) & is_clean()
    winner_bit = seat_bit(pl.col("_winner").fill_null(0))
    loose = _loose_flags(lf, schema)
    double_riichi = _flag("double_riichi", schema, "double_riichi" in loose)
    prepared = lf.with_columns(
        pl.col(key).alias("_key_in"),
        pl.when(win).then(pl.col("hand").str.strip_chars() if key == "hand" else pl.col(key)).alias(key),
        *[pl.col(name).alias(f"_text_{name}") for name in loose],
        *[_flag(name, schema, name in loose).alias(name) for name in SITUATION_FLAGS],
        (pl.col("result") == "tsumo").alias("_is_tsumo"),
        ((pl.col("_riichi_mask").and_(winner_bit) != 0) | double_riichi).alias("_is_riichi"),
        ((pl.col("_winner") - pl.col("dealer")) % rules.players).alias("_seat_wind"),
        (pl.col("_round_idx") // 4).alias("_round_wind"),
        (pl.col("_winner") == pl.col("dealer")).alias("_winner_is_dealer"),
        pl.col("han").alias("given_han"),
        pl.col("fu").alias("given_fu"),
        pl.col("yakuman").alias("given_yakuman"),
        add_bits(_bad_flags(loose)),
    )
    scored = score_tiles(prepared.drop("han", "fu", "yakuman"), rules)
    scored_names = scored.collect_schema().names()
    present = pl.col(key).is_not_null()
    tiles_ok = present & pl.col("tile_problem").is_null()
    given_value = pl.col("given_han").is_not_null() | (pl.col("given_yakuman").fill_null(0) > 0)

    def mismatch(given: pl.Expr, computed: pl.Expr, code: str) -> pl.Expr:
        return pl.when(tiles_ok & given.is_not_null() & (given != computed)).then(pl.lit(code))

    checks = [
        pl.when(present).then(pl.col("tile_problem")),
        mismatch(pl.col("given_han"), pl.col("_tile_han"), "han_mismatch"),
        mismatch(pl.col("given_fu"), pl.col("_tile_fu"), "fu_mismatch"),
        mismatch(
            pl.when(given_value).then(pl.col("given_yakuman").fill_null(0)), pl.col("_tile_yakuman"), "yakuman_mismatch"
        ),
    ]
    for recorded, computed in (("recorded_han", "_tile_han"), ("recorded_fu", "_tile_fu")):
        if recorded in scored_names:
            given = pl.col(recorded).cast(pl.Int64, strict=False)
            checks.append(mismatch(given, pl.col(computed), f"{recorded}_mismatch"))
    unscorable = present & pl.col("tile_problem").is_not_null() & ~given_value
    if rules.limits == "aotenjou":
        # aotenjou prices yakuman from fu too: kokushi has no groups to count, riichi.wiki's "Aotenjou" scores it
        # at 30 fu by tsumo and 40 by ron (20 + menzen ron 10 or tsumo 2 + single wait 2, rounded up)
        kokushi_fu = pl.when(pl.col("_is_tsumo")).then(30).otherwise(40)
        scored = scored.with_columns(
            pl.when((pl.col("yakuman") > 0) & (pl.col("fu") == 0)).then(kokushi_fu).otherwise(pl.col("fu")).alias("fu")
        )
    return (
        scored.rename({"han": "_tile_han", "fu": "_tile_fu", "yakuman": "_tile_yakuman"})
        .with_columns(
            pl.when(tiles_ok).then(pl.col("_tile_han")).otherwise(pl.col("given_han")).alias("han"),
            pl.when(tiles_ok).then(pl.col("_tile_fu")).otherwise(pl.col("given_fu")).alias("fu"),
            pl.when(tiles_ok).then(pl.col("_tile_yakuman")).otherwise(pl.col("given_yakuman")).alias("yakuman"),
            # text, not a list per row: the codes joined by ';' (empty when none)
            pl.concat_str(checks, separator=";", ignore_nulls=True).fill_null("").alias("_tile_problems"),
            add_bits([when(unscorable, R_TILE_CODES if coded else R_TILES)]),
        )
        .with_columns(pl.col("_key_in").alias(key))
        .rename({"tile_problem": "_tile_problem"})
        .drop("_key_in", "_tile_han", "_tile_fu", "_tile_yakuman")
    )
