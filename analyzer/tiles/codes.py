"""Tile codes: a winning hand as a handful of integers, the form the scorer works on.

``encode_tiles(lf)`` reads the MPSZ text columns (``hand``, ``melds``, ``win_tile``, ``dora``, ``ura``) into
the code columns below, with string expressions only (no per-row Python).  ``score_tiles`` encodes text
input itself; a table that already holds the code columns (``analyzer tiles encode``, or a log importer
that writes them) is scored from them directly, with about 40% less CPU than reading the text again
(``benchmarks/tiles.py``).  Code columns, all integers (null ``tc_m`` = no hand, the row is not scored):

============ ======= ==================================================================================
tc_m, tc_p,  Int64   concealed tiles *including the winning tile*, one 5-bit count per rank: rank r
tc_s, tc_z           (0-based; honours E S W N white green red) is ``(code >> 5*r) & 31``
tc_win       Int8    the winning tile, ``suit*9 + rank`` with suits m p s z = 0 1 2 3
tc_aka       Int8    red fives among the concealed tiles
tc_meld0..3  Int16   called / declared melds in input order: ``1 + kind*34 + tile + 256*red_fives`` with
                     kinds chi pon minkan kakan ankan = 0..4 and ``tile`` the lowest tile; 0 = no meld,
                     -1 = a malformed meld
tc_dora,     Int64   indicators in order, 6 bits each: indicator i is ``((code >> 6*i) & 63) - 1`` (a
tc_ura               tile id; 0 bits = none).  The first dora indicator is the round's, the others kan
                     dora.  ``tc_ura`` is only read for a riichi winner.
tc_error     Int8    0, or what made the text unreadable: 1 ``bad_notation`` (hand, winning tile or an
                     indicator), 2 ``bad_meld`` (a malformed meld or more than four)
============ ======= ==================================================================================
"""

from __future__ import annotations

import polars as pl

from analyzer.tiles.columns import P, C, _apply
from analyzer.tiles.notation import normalise_indicators, split_suits, tile_id
from analyzer.tiles.tables import TILE_TOKENS, meld_ids

CODE_SCHEMA: dict[str, pl.DataType] = {
    "tc_m": pl.Int64(), "tc_p": pl.Int64(), "tc_s": pl.Int64(), "tc_z": pl.Int64(),
    "tc_win": pl.Int8(), "tc_aka": pl.Int8(),
    **{f"tc_meld{i}": pl.Int16() for i in range(4)},
    "tc_dora": pl.Int64(), "tc_ura": pl.Int64(),
    "tc_error": pl.Int8(),
}
CODE_COLUMNS = tuple(CODE_SCHEMA)
TEXT_COLUMNS = ("hand", "melds", "win_tile", "dora", "ura")
ENCODE_ERRORS = ("", "bad_notation", "bad_meld")
MAX_INDICATORS = 5
INDICATOR_BITS = 6
ENC = "enc_"  # scratch columns of the encoder: the scorer's scratch prefix (columns.P) + this


def has_codes(schema: pl.Schema) -> bool:
    """True when the frame carries the code columns (and so needs no text parsing)."""
    return all(c in schema for c in CODE_COLUMNS)


def _col(name: str) -> pl.Expr:
    return C(ENC + name)


def _indicator_id(token: pl.Expr) -> pl.Expr:
    """``"4p"`` -> 1 + tile id of the indicator (0 for null); invalid -> null."""
    return token.replace_strict(TILE_TOKENS, default=None, return_dtype=pl.Int64) + 1


def _indicators(lf: pl.LazyFrame, name: str, text: pl.Expr, rid: str) -> pl.LazyFrame:
    """Adds ``{name}_code`` (packed indicator ids, see the module table) and ``{name}_ok``.

    The first indicator is read inline; the rows with more (kan dora: few) are exploded on a side branch and
    joined back on a narrow frame.
    """
    grouped = pl.when(text.str.contains(r"[0-9][0-9]")).then(text)
    lf = _apply(lf, ENC, [
        {f"{name}_norm": pl.coalesce(normalise_indicators(grouped), text)},
        {f"{name}_first": _indicator_id(_col(f"{name}_norm").str.slice(0, 2)),
         f"{name}_len": _col(f"{name}_norm").str.len_bytes()},
    ]).cache()
    more = (
        lf.filter(_col(f"{name}_len") > 2)
        .select(rid, _col(f"{name}_norm").str.slice(2).str.extract_all("..").alias("__tok"))
        .with_columns(__pos=pl.int_ranges(1, pl.col("__tok").list.len() + 1))
        .explode("__tok", "__pos")
        .with_columns(__id=_indicator_id(pl.col("__tok")))
        .group_by(rid)
        .agg(
            (pl.col("__id").fill_null(0) * pl.lit(2, pl.Int64).pow(INDICATOR_BITS * pl.col("__pos"))).sum()
            .alias("__more"),
            (pl.col("__id").is_null() & pl.col("__tok").is_not_null()).sum().alias("__bad"),
        )
    )
    # an exact as-of join on the row number keeps the order without the re-sort of an order-keeping hash join
    extra = lf.select(rid).join_asof(more.sort(rid), on=rid, strategy="backward", tolerance=0).select(
        pl.col("__more").fill_null(0).alias(P + ENC + f"{name}_more"),
        pl.col("__bad").fill_null(0).alias(P + ENC + f"{name}_bad"),
    )
    lf = pl.concat([lf, extra], how="horizontal")
    length = _col(f"{name}_len")
    ok = text.is_null() | (
        (length % 2 == 0) & (length <= 2 * MAX_INDICATORS) & _col(f"{name}_first").is_not_null()
        & (_col(f"{name}_bad") == 0)
    )
    return lf.with_columns(
        pl.when(text.is_null()).then(0).otherwise(_col(f"{name}_first") + _col(f"{name}_more"))
        .alias(P + ENC + f"{name}_code"),
        ok.fill_null(False).alias(P + ENC + f"{name}_ok"),
    )


def encode_tiles(lf: pl.LazyFrame, ura_read: pl.Expr | None = None) -> pl.LazyFrame:
    """Add the code columns (see the module docstring) read from the MPSZ text columns.

    ``ura_read`` (a boolean expression) says on which rows ``ura`` is read; by default on every row.  Missing
    text columns count as null (``melds`` as none).  Only code columns are added: the text columns stay.
    """
    schema = lf.collect_schema()
    rid = P + ENC + "rid"
    dtypes = {name: pl.List(pl.String) if name == "melds" else pl.String for name in TEXT_COLUMNS}
    text = {name: pl.col(name).cast(dtype) if name in schema else pl.lit(None, dtype) for name, dtype in dtypes.items()}
    text["hand"] = text["hand"].str.strip_chars()
    if ura_read is not None:
        text["ura"] = pl.when(ura_read).then(text["ura"])
    base = lf.cache()
    work = base.select(
        pl.int_range(pl.len(), dtype=pl.UInt32).alias(rid), *[e.alias(P + ENC + k) for k, e in text.items()]
    )
    hand = _col("hand")
    work = _apply(work, ENC, split_suits(_col, "suit", hand))
    cols: dict[str, pl.Expr] = {}
    cols["n_melds"] = _col("melds").list.len().fill_null(0)
    cols["win"] = tile_id(_col("win_tile"))
    # each meld as 1 + kind*34 + tile + RED_UNIT * red fives if well-formed, -1 if not: one dictionary lookup over
    # the list's elements (much cheaper than four string lookups on list.get columns)
    cols["mlist"] = _col("melds").list.eval(
        pl.element().replace_strict(meld_ids(), default=-1, return_dtype=pl.Int16)
    )
    work = _apply(work, ENC, [cols, {f"meld{i}": _col("mlist").list.get(i, null_on_oob=True).fill_null(0)
                                     for i in range(4)}])
    work = _indicators(work, "dora", _col("dora"), rid)
    work = _indicators(work, "ura", _col("ura"), rid)
    readable = (
        _col("suitok") & _col("win").is_not_null() & _col("dora_ok") & _col("ura_ok")
        & pl.all_horizontal([_col(f"suitc32_{s}").is_not_null() for s in range(4)])
        & (_col("suitc32_3") // 32**7 == 0)  # no 8z / 9z
    )
    bad_meld = pl.any_horizontal([_col(f"meld{i}") == -1 for i in range(4)]) | (_col("n_melds") > 4)
    error = pl.when(~readable).then(1).when(bad_meld).then(2).otherwise(0)
    is_hand = hand.is_not_null()
    codes = work.select(
        *[pl.when(is_hand).then(_col(f"suitc32_{s}")).cast(pl.Int64).alias(f"tc_{'mpsz'[s]}") for s in range(4)],
        pl.when(is_hand).then(_col("win")).cast(pl.Int8).alias("tc_win"),
        pl.when(is_hand).then(_col("suitaka")).cast(pl.Int8).alias("tc_aka"),
        *[pl.when(is_hand).then(_col(f"meld{i}")).cast(pl.Int16).alias(f"tc_meld{i}") for i in range(4)],
        pl.when(is_hand).then(_col("dora_code")).cast(pl.Int64).alias("tc_dora"),
        pl.when(is_hand).then(_col("ura_code")).cast(pl.Int64).alias("tc_ura"),
        pl.when(is_hand).then(error).cast(pl.Int8).alias("tc_error"),
    )
    return pl.concat([base.drop(CODE_COLUMNS, strict=False), codes], how="horizontal")


