"""Stages 1-2 of tile scoring: parse the input strings, then per-hand features (counts, melds, checks, dora,
yaku that do not depend on the reading, table lookups for the splits)."""

from __future__ import annotations

import polars as pl

from analyzer.rules import Rules
from analyzer.tiles.columns import PROBLEMS, P, C, I, _any, _apply, _flag
from analyzer.tiles.dora import first_indicator_stages, further_indicators
from analyzer.tiles.notation import digits_codes, split_suits, tile_id
from analyzer.tiles.readings import hand_level
from analyzer.tiles.tables import MELD_CAT_SHIFT, RED_UNIT, lut, meld_ids


# ------------------------------------------------------------------------------------------------ stage 1: parse
FLAGS = ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou",
         "_is_tsumo", "_is_riichi", "_winner_is_dealer")


def _inputs() -> list[pl.Expr]:
    """The input columns as scratch copies with the expected dtypes (an all-null column may come as Null)."""
    return [
        *[pl.col(c).cast(pl.String).alias(P + "in_" + c) for c in ("hand", "win_tile", "dora", "ura")],
        pl.col("melds").cast(pl.List(pl.String)).alias(P + "in_melds"),
        *[pl.col(c).cast(pl.Boolean).fill_null(False).alias(P + "in_" + c) for c in FLAGS],
        *[pl.col(c).cast(pl.Int64).fill_null(0).alias(P + "in_" + c) for c in ("_seat_wind", "_round_wind")],
    ]




def _parse(lf: pl.LazyFrame) -> pl.LazyFrame:
    hand = I("hand")
    lf = _apply(lf, "", split_suits(C, "suit", hand))
    cols: dict[str, pl.Expr] = {}
    for s in range(4):
        cols[f"c5_{s}"], cols[f"c32_{s}"] = digits_codes(C(f"suitnum{s}"))
    cols["aka_h"] = hand.str.count_matches("0", literal=True)
    cols["n_melds"] = I("melds").list.len().fill_null(0).cast(pl.Int32)
    cols["win_t"] = tile_id(I("win_tile"))
    # each meld as 1 + kind*34 + tile (+ RED_UNIT * red fives) if well-formed, -1 if not: one dictionary lookup
    # over the list's elements (much cheaper than four string lookups on list.get columns)
    cols["mlist"] = I("melds").list.eval(pl.element().replace_strict(meld_ids(), default=-1, return_dtype=pl.Int32))
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    lf = lf.with_columns(**{P + f"mraw{i}": C("mlist").list.get(i, null_on_oob=True) for i in range(4)})
    cols = {f"mid{i}": pl.when(C(f"mraw{i}") >= 0).then(C(f"mraw{i}") % RED_UNIT).otherwise(C(f"mraw{i}"))
            for i in range(4)}
    cols["aka_m"] = sum((C(f"mraw{i}").fill_null(0).clip(lower_bound=0) // RED_UNIT) for i in range(4))
    return lf.with_columns(**{P + k: v for k, v in cols.items()})


# --------------------------------------------------------------------------------------- stage 2: hand features
def _features(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    cols: dict[str, pl.Expr] = {}
    mids = [C(f"mid{i}").fill_null(0).clip(0, 170) for i in range(4)]
    pack = sum(lut("MPACK", m) for m in mids)
    chi_bits = pon_bits = pl.lit(0, pl.Int64)
    for m in mids:
        chi_bits = chi_bits | lut("MCHI", m)
        pon_bits = pon_bits | lut("MPON", m)
    cols.update(
        bad_meld=_any([C(f"mid{i}") == -1 for i in range(4)]) | (C("n_melds") > 4),
        m_chi=chi_bits, m_pon=pon_bits, mpack=pack,
    )
    for s in range(4):
        cols[f"f32_{s}"] = C(f"c32_{s}") + sum(lut(f"MC{s}", m) for m in mids)
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    cols = {}
    for j, name in enumerate(("n_open", "n_kan", "n_ankan", "n_mchi", "n_mout")):
        cols[name] = (C("mpack") // 8**j) % 8
    cols["meld_fu"] = (C("mpack") // 2**15) % 2**11
    cols["meld_cat"] = C("mpack") // MELD_CAT_SHIFT
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})


    # ---- dora (hand level; only used when the reading has a yaku and no yakuman); ura only read on riichi rows
    full = [C(f"f32_{s}") for s in range(4)]
    riichi_declared = _flag("_is_riichi") | _flag("double_riichi")
    lf = _apply(lf, "", first_indicator_stages(C, "dora", I("dora"), full))
    lf = _apply(lf, "", first_indicator_stages(C, "ura", pl.when(riichi_declared).then(I("ura")), full))
    lf = lf.cache()
    extra = (
        further_indicators(lf, C, "dora", P + "rid", full)
        .join(further_indicators(lf, C, "ura", P + "rid", full), on=P + "rid", how="full", coalesce=True)
    )
    extra_cols = [P + f"{w}_{k}" for w in ("dora", "ura") for k in ("kan", "bad")]
    narrow = (
        lf.select(P + "rid")
        .join(extra, on=P + "rid", how="left", maintain_order="left")
        .select([pl.col(c).fill_null(0) for c in extra_cols])
    )
    lf = pl.concat([lf, narrow], how="horizontal")
    kan = (lambda w: C(f"{w}_kan")) if rules.kan_dora else (lambda w: pl.lit(0, pl.Int64))
    lf = lf.with_columns(
        (C("dora_first") + kan("dora")).alias(P + "dora_n"),
        ((C("ura_first") + kan("ura")) if rules.ura_dora else pl.lit(0, pl.Int64)).alias(P + "ura_n"),
        (C("dora_ok0") & (C("dora_bad") == 0)).alias(P + "dora_n_ok"),
        (C("ura_ok0") & (C("ura_bad") == 0)).alias(P + "ura_all_ok"),
    )

    # ---- checks and count-based features
    cols = {}
    notation_ok = (
        C("suitok")
        & C("win_t").is_not_null()
        & C("dora_n_ok")
        & C("ura_all_ok")
        & pl.all_horizontal([C(f"c32_{s}").is_not_null() for s in range(4)])
        & (C("c32_3") // 32**7 == 0)  # no 8z / 9z
    )
    n_conc = sum(C(f"c32_{s}") % 31 for s in range(4))
    b = [sum(2 ** (5 * r + k) for r in range(9)) for k in range(5)]
    fifth = _any(
        [
            ((C(f"f32_{s}") & (b[3] | b[4])) != 0)
            | ((((C(f"f32_{s}") & b[2]) // 4) & (((C(f"f32_{s}") & b[1]) // 2) | (C(f"f32_{s}") & b[0]))) != 0)
            for s in range(4)
        ]
    )
    ws, wr = C("win_t") // 9, C("win_t") % 9
    conc_w = pl.when(ws == 0).then(C("c32_0")).when(ws == 1).then(C("c32_1")).when(ws == 2).then(C("c32_2"))
    win_count = (conc_w.otherwise(C("c32_3")) // lut("POW32", wr.fill_null(0).clip(0, 8))) % 32
    code = PROBLEMS.index
    problem = (  # an index into PROBLEMS (0 = fine so far), null for a null hand
        pl.when(I("hand").is_null()).then(None)
        .when(~notation_ok).then(code("bad_notation"))
        .when(C("bad_meld")).then(code("bad_meld"))
        .when(n_conc + 3 * C("n_melds") != 14).then(code("tile_count"))
        .when(fifth).then(code("fifth_copy"))
        .when(win_count == 0).then(code("win_tile_not_in_hand"))
        .otherwise(0)
        .cast(pl.Int32)
    )
    cols["problem0"] = problem
    cols["ws"], cols["wr"], cols["win_count"] = ws.fill_null(0), wr.fill_null(0), win_count.fill_null(0)
    tot = [C(f"f32_{s}") % 31 for s in range(4)]
    yao = [(C(f"f32_{s}") % 32) + (C(f"f32_{s}") // 32**8) % 32 for s in range(3)]
    simples = sum(tot[s] - yao[s] for s in range(3))
    nsuits = sum((tot[s] > 0).cast(pl.Int32) for s in range(3))
    numbers = tot[0] + tot[1] + tot[2]
    fz = [(C("f32_3") // 32**t) % 32 for t in range(7)]
    nongreen_s = sum(31 * 32**r for r in (0, 4, 6, 8))
    seat, rnd = I("_seat_wind").fill_null(0), I("_round_wind").fill_null(0)
    seat_count = (C("f32_3") // lut("POW32", seat.clip(0, 3))) % 32
    round_count = (C("f32_3") // lut("POW32", rnd.clip(0, 3))) % 32
    cols.update(
        closed=C("n_open") == 0,
        tanyao=(sum(yao) + tot[3]) == 0,
        honitsu=(nsuits == 1) & (tot[3] > 0),
        chinitsu=(nsuits == 1) & (tot[3] == 0),
        tsuuiisou=numbers == 0,
        chinroutou=(simples == 0) & (tot[3] == 0),
        honroutou=(simples == 0) & (tot[3] > 0) & (numbers > 0),
        ryuuiisou=(tot[0] == 0) & (tot[1] == 0) & ((C("f32_2") & nongreen_s) == 0)
        & ((C("f32_3") & (32**7 - 1 - 31 * 32**5)) == 0),
        no_honours=tot[3] == 0,
        haku=fz[4] >= 3, hatsu=fz[5] >= 3, chun=fz[6] >= 3,
        seat_wind=seat_count >= 3, round_wind=round_count >= 3,
        dragon_trip=sum((fz[t] >= 3).cast(pl.Int32) for t in (4, 5, 6)),
        dragon_pair=sum((fz[t] == 2).cast(pl.Int32) for t in (4, 5, 6)),
        wind_trip=sum((fz[t] >= 3).cast(pl.Int32) for t in range(4)),
        wind_pair=sum((fz[t] == 2).cast(pl.Int32) for t in range(4)),
        seat=seat, rnd=rnd,
    )
    riichi = _flag("_is_riichi") | _flag("double_riichi")
    cols["aka_n"] = (C("aka_h") + C("aka_m")) if rules.aka_dora else pl.lit(0, pl.Int64)
    # situational yaku (hand level)
    tsumo = _flag("_is_tsumo")
    closed = C("n_open") == 0
    dr = _flag("double_riichi") & closed
    cols.update(
        tsumo=tsumo,
        riichi=riichi & ~dr & closed,
        double_riichi=dr,
        ippatsu=_flag("ippatsu") & riichi & closed,
        menzen_tsumo=tsumo & closed,
        haitei=_flag("haitei") & tsumo,
        houtei=_flag("houtei") & ~tsumo,
        rinshan=_flag("rinshan") & tsumo,
        chankan=_flag("chankan") & ~tsumo,
        tenhou=_flag("tenhou") & tsumo & _flag("_winner_is_dealer"),
        chiihou=_flag("chiihou") & tsumo & ~_flag("_winner_is_dealer"),
        renhou_flag=_flag("renhou") & ~tsumo,
    )
    for s in range(3):
        cols[f"stat_{s}"] = lut("SUITSTAT", C(f"c5_{s}").fill_null(0).clip(0, 5**9 - 1))
    cols["hstat"] = lut("HONSTAT", C("c5_3").fill_null(0).clip(0, 5**7 - 1))
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    cols = {}
    for s in range(3):
        cols[f"nd_{s}"] = C(f"stat_{s}") % 8
        cols[f"off_{s}"] = (C(f"stat_{s}") // 8) % 2**15
    cols.update(
        hvalid=C("hstat") % 2 == 1, hpair=(C("hstat") // 2) % 8, hpon=(C("hstat") // 16) % 8,
        chuuren=(C("n_melds") == 0) & (sum((C(f"stat_{s}") // 2**18) % 2 for s in range(3)) > 0),
    )
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    # chiitoitsu: pairs (packed +1, 0 = impossible); kokushi: tiles (packed as 2 -> 1, 3 -> 2; honours 7 -> 1, 8 -> 2)
    p7 = [(C(f"stat_{s}") // 2**19) % 16 for s in range(3)] + [(C("hstat") // 2**7) % 16]
    kk = [(C(f"stat_{s}") // 2**24) % 4 for s in range(3)] + [(C("hstat") // 2**11) % 4]
    pairs = pl.when(pl.all_horizontal([x > 0 for x in p7])).then(sum(x - 1 for x in p7)).otherwise(-1)
    tiles = pl.when(pl.all_horizontal([x > 0 for x in kk])).then(sum(kk) + 3 + 6).otherwise(-1)
    ok = (C("n_melds") == 0) & (C("problem0") == 0)
    lf = lf.with_columns(
        (C("nd_0") * C("nd_1") * C("nd_2")).alias(P + "n_read"),
        (ok & (pairs == 7)).alias(P + "cvalid"),
        (ok & (tiles == 14)).alias(P + "kvalid"),
    )
    return _apply(lf, "", hand_level(rules))
