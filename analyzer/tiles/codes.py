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
tc_ura               tile id; 0 bits = none; null = unreadable).  The first dora indicator is the round's,
                     the others kan dora.  ``tc_ura`` is only read for a riichi winner.
tc_error     Int8    0, or what made the text unreadable: 1 ``bad_notation`` (hand, winning tile or an
                     indicator), 2 ``bad_meld`` (a malformed meld or more than four)
============ ======= ==================================================================================
"""

from __future__ import annotations

import polars as pl

from analyzer.tiles.columns import P, C, apply_stages
from analyzer.tiles.notation import normalise_indicators, split_suits, tile_id
from analyzer.tiles.tables import meld_ids

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
    """``"4p"`` -> 1 + tile id of the indicator; anything else (``""``, ``"4"``, ``"4q"``) -> null."""
    return tile_id(token).cast(pl.Int64) + 1


def _several_indicators(frame: pl.LazyFrame, texts: dict[str, pl.Expr], rid: str) -> pl.LazyFrame:
    """The rows whose ``dora`` or ``ura`` text is longer than one tile (kan dora or grouped digits such as
    ``14p``: few), sorted by ``rid``, with ``{name}_code`` (the packed indicator ids, see the module table)
    and ``{name}_ok`` read from the normalised text (``4p1z`` or ``14p`` alike)."""
    long = [pl.col(f"__{name}").str.len_bytes() > 2 for name in texts]
    few = frame.select(rid, **{f"__{name}": text for name, text in texts.items()}).filter(pl.any_horizontal(long))
    cols = {}
    for name in texts:
        text = pl.col(f"__{name}")
        norm = pl.coalesce(normalise_indicators(pl.when(text.str.contains(r"[0-9][0-9]")).then(text)), text)
        few = few.with_columns(norm.alias(f"__{name}_norm"))
        norm = pl.col(f"__{name}_norm")
        # the ids as columns first: both sums below read them (as expressions they were computed twice)
        few = few.with_columns(
            _indicator_id(norm.str.slice(2 * i, 2)).alias(f"__{name}_id{i}") for i in range(MAX_INDICATORS)
        )
        ids = [pl.col(f"__{name}_id{i}") for i in range(MAX_INDICATORS)]
        length = norm.str.len_bytes()
        present = [length > 2 * i for i in range(MAX_INDICATORS)]
        ok = (
            (length % 2 == 0) & (length <= 2 * MAX_INDICATORS) & ids[0].is_not_null()
            & pl.all_horizontal([~present[i] | ids[i].is_not_null() for i in range(MAX_INDICATORS)])
        )
        packed = sum(ids[i].fill_null(0) * 2 ** (INDICATOR_BITS * i) for i in range(MAX_INDICATORS))
        cols[f"{name}_code"] = pl.when(text.is_null()).then(0).when(ok).then(packed)  # null when unreadable
        cols[f"{name}_ok"] = text.is_null() | ok
    return few.select(rid, **{P + ENC + "kan_" + k: v for k, v in cols.items()}).sort(rid)


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
    row_number = pl.int_range(pl.len(), dtype=pl.UInt32).alias(rid)  # the same on every read of base
    work = base.select(row_number, *[e.alias(P + ENC + k) for k, e in text.items()])
    hand = _col("hand")
    work = apply_stages(work, ENC, split_suits(_col, "suit", hand))
    cols: dict[str, pl.Expr] = {}
    cols["n_melds"] = _col("melds").list.len().fill_null(0)
    cols["win"] = tile_id(_col("win_tile"))
    # each meld as 1 + kind*34 + tile + RED_UNIT * red fives if well-formed, -1 if not: one dictionary lookup over
    # the list's elements (much cheaper than four string lookups on list.get columns)
    cols["mlist"] = _col("melds").list.eval(
        pl.element().replace_strict(meld_ids(), default=-1, return_dtype=pl.Int16)
    )
    work = apply_stages(work, ENC, [cols, {f"meld{i}": _col("mlist").list.get(i, null_on_oob=True).fill_null(0)
                                     for i in range(4)}])
    # indicators: a text of one tile is read whole on every row; longer ones (kan dora, few) on a branch,
    # brought back by an exact as-of join on the row number (it keeps the order without a re-sort)
    long_texts = _several_indicators(base.with_columns(row_number), {k: text[k] for k in ("dora", "ura")}, rid)
    kan = base.select(row_number).join_asof(long_texts, on=rid, strategy="backward", tolerance=0)
    work = pl.concat([work, kan.drop(rid)], how="horizontal")
    for name in ("dora", "ura"):
        one = _indicator_id(_col(name))
        work = work.with_columns(
            pl.when(_col(f"kan_{name}_ok").is_not_null()).then(_col(f"kan_{name}_code"))
            .when(_col(name).is_null()).then(0).otherwise(one).alias(P + ENC + f"{name}_code"),
            pl.coalesce(_col(f"kan_{name}_ok"), _col(name).is_null() | one.is_not_null())
            .alias(P + ENC + f"{name}_ok"),
        )
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


