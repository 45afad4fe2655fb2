"""score_tiles: the vectorised scorer (see the package docstring for the design)."""

from __future__ import annotations

import polars as pl

from analyzer.rules import Rules
from analyzer.scoring.points import base_points, hand_points
from analyzer.tiles import fu as F
from analyzer.tiles import yaku as Y
from analyzer.tiles.dora import first_indicator_stages, further_indicators
from analyzer.tiles.notation import digits_codes, split_suits, tile_id
from analyzer.tiles.tables import MELD_CAT_SHIFT, RED_UNIT, lut, meld_ids

P = "__tt_"  # prefix of the scratch columns
NFLAT = 23533


def C(name: str) -> pl.Expr:
    return pl.col(P + name)


def _flag(name: str) -> pl.Expr:
    return I(name)


def _bit(x: pl.Expr, i: pl.Expr) -> pl.Expr:
    return (x // lut("POW2", i)) % 2 == 1


def _any(exprs: list[pl.Expr]) -> pl.Expr:
    return pl.any_horizontal(exprs)


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


def I(name: str) -> pl.Expr:  # noqa: E743 - an input column, normalised by _inputs
    return pl.col(P + "in_" + name)


def _parse(lf: pl.LazyFrame) -> pl.LazyFrame:
    hand = I("hand")
    lf = _apply(lf, "", split_suits(C, "suit", hand))
    cols: dict[str, pl.Expr] = {}
    for s in range(4):
        cols[f"c5_{s}"], cols[f"c32_{s}"] = digits_codes(C(f"suitnum{s}"))
    cols["aka_h"] = hand.str.count_matches("0", literal=True)
    cols["n_melds"] = I("melds").list.len().fill_null(0).cast(pl.Int32)
    cols["win_t"] = tile_id(I("win_tile"))
    ids = meld_ids()
    for i in range(4):
        m = I("melds").list.get(i, null_on_oob=True)
        # 1 + kind*34 + tile for a well-formed meld, -1 for a malformed one, null for none
        cols[f"mraw{i}"] = pl.when(m.is_not_null()).then(m.replace_strict(ids, default=-1, return_dtype=pl.Int32))
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
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
    return lf.with_columns(
        (C("nd_0") * C("nd_1") * C("nd_2")).alias(P + "n_read"),
        (ok & (pairs == 7)).alias(P + "cvalid"),
        (ok & (tiles == 14)).alias(P + "kvalid"),
    )


# -------------------------------------------------------------------------------- stage 3: readings and points
# A reading is a list of stages (dicts of expressions); each stage may use the columns of the previous ones
# through ``R(name)``.  Materialising the stages keeps the expression trees small.
Stages = list[dict[str, pl.Expr]]


def _apply(lf: pl.LazyFrame, prefix: str, stages: Stages) -> pl.LazyFrame:
    for stage in stages:
        lf = lf.with_columns(**{P + prefix + k: v for k, v in stage.items()})
    return lf


def _finish(R, present: dict[str, pl.Expr], ym: dict[str, pl.Expr], rules: Rules) -> Stages:
    """han / yakuman / points / sort score / yaku key of one reading (needs columns valid, fu)."""
    if rules.renhou == "yakuman":
        ym = ym | {"renhou_yakuman": C("renhou_flag")}
    renhou_m = C("renhou_flag") if rules.renhou == "mangan" else pl.lit(False)
    st0 = {"ymask": Y.mask(present), "ymmask": Y.mask(ym)}
    st1 = {"yakuman": Y.yakuman_from_mask(R("ymmask"), rules), "yhan": Y.han_from_mask(R("ymask"), C("closed"))}
    st2 = {
        "has_yaku": (R("yhan") > 0) | (R("yakuman") > 0) | renhou_m,
        "renhou_han": pl.when(renhou_m & (R("yakuman") == 0))
        .then((5 - R("yhan") - C("dora_n") - C("ura_n") - C("aka_n")).clip(lower_bound=0))
        .otherwise(0),
    }
    st3 = {"han": pl.when(R("yakuman") > 0).then(0).otherwise(
        R("yhan") + C("dora_n") + C("ura_n") + C("aka_n") + R("renhou_han"))}
    st4 = {"base": base_points(R("han"), R("fu"), R("yakuman"), rules)}
    st5 = {"pts": hand_points(R("base"), _flag("_winner_is_dealer"), C("tsumo"))}
    st6 = {
        "score": pl.when(R("valid") & R("has_yaku"))
        .then(R("pts") * 1_000_000 + (R("yakuman") > 0).cast(pl.Int64) * 100_000 + R("han") * 1000 + R("fu"))
        .when(R("valid")).then(0)
        .otherwise(-1),
        "ykey": pl.when(R("yakuman") > 0).then(R("ymmask")).otherwise(
            R("ymask") + (~C("closed")).cast(pl.Int64) * Y.OPEN_BIT + R("renhou_han") * Y.RENHOU_UNIT
            + pl.when(renhou_m).then(2 ** Y.BIT["renhou"]).otherwise(0)
        ),
    }
    return [st0, st1, st2, st3, st4, st5, st6]


def _standard(prefix: str, k: pl.Expr | None, rules: Rules) -> Stages:
    """Stages of the standard (4 groups + pair) reading number ``k`` (None = the first split)."""
    def R(name: str) -> pl.Expr:
        return C(prefix + name)

    st: dict[str, pl.Expr] = {}
    for s in range(3):
        i = C(f"off_{s}") if k is None else C(f"off_{s}") + k % C(f"nd_{s}").clip(lower_bound=1)
        st[f"idx{s}"] = i.clip(0, NFLAT - 1)
    g: dict[str, list[pl.Expr]] = {}
    st2: dict[str, pl.Expr] = {}
    for name in ("chi", "nchi", "peikou", "pon", "pon_simple", "pon_term", "pair", "outside"):
        for s in range(3):
            st2[f"{name}{s}"] = lut(name, R(f"idx{s}"))
            g.setdefault(name, []).append(R(f"{name}{s}"))
    ws, wr = C("ws"), C("wr")
    st2["idx_w"] = pl.when(ws == 0).then(R("idx0")).when(ws == 1).then(R("idx1")).otherwise(R("idx2"))
    in_suit = ws < 3
    hpair = C("hpair")
    st3 = {
        "R": in_suit & _bit(lut("ryan", R("idx_w")), wr),
        "K": in_suit & _bit(lut("kan", R("idx_w")), wr),
        "Pn": in_suit & _bit(lut("pen", R("idx_w")), wr),
        "T": pl.when(ws == 0).then(g["pair"][0] == wr).when(ws == 1).then(g["pair"][1] == wr)
        .when(ws == 2).then(g["pair"][2] == wr).otherwise(hpair == wr),
        "nchi": g["nchi"][0] + g["nchi"][1] + g["nchi"][2] + C("n_mchi"),
        "pairs": sum((p != 9).cast(pl.Int32) for p in g["pair"]) + (hpair != 7).cast(pl.Int32),
        "ps": g["pon_simple"][0] + g["pon_simple"][1] + g["pon_simple"][2],
        "pt": g["pon_term"][0] + g["pon_term"][1] + g["pon_term"][2] + C("hpon"),
        "chi_all": (g["chi"][0] + g["chi"][1] * 128 + g["chi"][2] * 16384) | C("m_chi"),
        "pon_all": (g["pon"][0] + g["pon"][1] * 512 + g["pon"][2] * 262144) | C("m_pon"),
        "peikou": g["peikou"][0] + g["peikou"][1] + g["peikou"][2],
        "outside": (g["outside"][0] == 1) & (g["outside"][1] == 1) & (g["outside"][2] == 1)
        & (C("n_mout") == C("n_melds")),
        "seat_pair": hpair == C("seat"),
        "round_pair": hpair == C("rnd"),
        "dragon_pair": (hpair >= 4) & (hpair <= 6),
    }
    closed, tsumo = C("closed"), C("tsumo")
    st4 = {
        "valid": (C("nd_0") > 0) & (C("nd_1") > 0) & (C("nd_2") > 0) & C("hvalid") & (R("pairs") == 1)
        & (C("problem0") == 0),
        "pinfu_shape": closed & (R("nchi") == 4) & ~R("dragon_pair") & ~R("seat_pair") & ~R("round_pair"),
    }
    st5 = {
        "wait": pl.when(~in_suit).then(pl.when(R("T")).then(3).otherwise(4))
        .when(R("pinfu_shape") & R("R")).then(0).when(R("K")).then(1).when(R("Pn")).then(2)
        .when(R("T")).then(3).when(R("R")).then(0)
        .otherwise(4).cast(pl.Int32)
    }
    st6 = {
        "pinfu": R("pinfu_shape") & (R("wait") == 0),
        "sr": ((R("wait") == 4) & ~tsumo).cast(pl.Int64),  # shanpon ron: that triplet is open
        "win_yao": (~in_suit | (wr == 0) | (wr == 8)).cast(pl.Int64),
    }
    sr, win_yao = R("sr"), R("win_yao")
    cs, ct = R("ps") - sr * (1 - win_yao), R("pt") - sr * win_yao
    os_, ot = sr * (1 - win_yao), sr * win_yao
    menzen_ron = closed & ~tsumo
    tsumo_fu = tsumo & (~_flag("rinshan") | pl.lit(rules.rinshan_tsumo_fu)) & (~R("pinfu") | pl.lit(rules.pinfu_tsumo_fu))
    wind_fu = (
        pl.when(R("seat_pair") & R("round_pair")).then(rules.double_wind_pair_fu)
        .when(R("seat_pair") | R("round_pair")).then(2).otherwise(0)
    )
    st7 = {
        "ankou": R("ps") + R("pt") + C("n_ankan") - sr,
        "catpack": C("meld_cat") + os_ + ot * 8 + cs * 64 + ct * 512,
        "raw": 20 + menzen_ron.cast(pl.Int64) * 10 + tsumo_fu.cast(pl.Int64) * 2
        + pl.when(R("wait").is_in([1, 2, 3])).then(2).otherwise(0)
        + pl.when(R("dragon_pair")).then(2).otherwise(0) + wind_fu
        + C("meld_fu") + 2 * os_ + 4 * ot + 4 * cs + 8 * ct,
        "tsumo_fu": tsumo_fu,
    }
    rounded = (R("raw") + 9) // 10 * 10
    open_bump = ~closed & (rounded == 20)
    st8 = {
        "fu": pl.when(open_bump).then(30).otherwise(rounded),
        "fukey": menzen_ron.cast(pl.Int64) * 4 + R("tsumo_fu").cast(pl.Int64) * 8 + R("wait").cast(pl.Int64) * 16
        + R("dragon_pair").cast(pl.Int64) * 128 + R("seat_pair").cast(pl.Int64) * 256
        + R("round_pair").cast(pl.Int64) * 512 + open_bump.cast(pl.Int64) * 1024 + R("catpack") * F.CAT_SHIFT,
    }
    chi_all, pon_all = R("chi_all"), R("pon_all")
    chanta_shape = R("outside") & (R("nchi") > 0)
    present = {
        "riichi": C("riichi"), "double_riichi": C("double_riichi"), "ippatsu": C("ippatsu"),
        "menzen_tsumo": C("menzen_tsumo"), "pinfu": R("pinfu"),
        "tanyao": C("tanyao") & (closed | pl.lit(rules.open_tanyao)),
        "iipeikou": closed & (R("peikou") == 1), "ryanpeikou": closed & (R("peikou") >= 2),
        "haku": C("haku"), "hatsu": C("hatsu"), "chun": C("chun"),
        "seat_wind": C("seat_wind"), "round_wind": C("round_wind"),
        "sanshoku": ((chi_all & (chi_all // 128) & (chi_all // 16384)) % 128) != 0,
        "sanshoku_doukou": ((pon_all & (pon_all // 512) & (pon_all // 262144)) % 512) != 0,
        "ittsu": _any([((chi_all // 128**s) % 128 & 73) == 73 for s in range(3)]),
        "chanta": chanta_shape & ~C("no_honours"), "junchan": chanta_shape & C("no_honours"),
        "honitsu": C("honitsu"), "chinitsu": C("chinitsu"),
        "toitoi": R("nchi") == 0, "sanankou": R("ankou") == 3, "sankantsu": C("n_kan") == 3,
        "honroutou": C("honroutou"), "shousangen": (C("dragon_trip") == 2) & (C("dragon_pair") == 1),
        "haitei": C("haitei"), "houtei": C("houtei"), "rinshan": C("rinshan"), "chankan": C("chankan"),
    }
    junsei = C("win_count") == pl.when(wr.is_in([0, 8])).then(4).otherwise(2)
    ym = {
        "suuankou": (R("ankou") == 4) & (R("wait") != 3), "suuankou_tanki": (R("ankou") == 4) & (R("wait") == 3),
        "daisangen": C("dragon_trip") == 3,
        "shousuushii": (C("wind_trip") == 3) & (C("wind_pair") == 1), "daisuushii": C("wind_trip") == 4,
        "tsuuiisou": C("tsuuiisou"), "ryuuiisou": C("ryuuiisou"), "chinroutou": C("chinroutou"),
        "chuuren": C("chuuren") & ~junsei, "junsei_chuuren": C("chuuren") & junsei,
        "suukantsu": C("n_kan") == 4, "tenhou": C("tenhou"), "chiihou": C("chiihou"),
    }
    return [st, st2, st3, st4, st5, st6, st7, st8, *_finish(R, present, ym, rules)]


def _chiitoitsu(prefix: str, rules: Rules) -> Stages:
    def R(name: str) -> pl.Expr:
        return C(prefix + name)

    st = {
        "valid": C("cvalid"),
        "fu": pl.lit(25, pl.Int64), "fukey": pl.lit(1, pl.Int64), "wait": pl.lit(5, pl.Int32),
    }
    present = {
        "riichi": C("riichi"), "double_riichi": C("double_riichi"), "ippatsu": C("ippatsu"),
        "menzen_tsumo": C("menzen_tsumo"), "tanyao": C("tanyao"), "honitsu": C("honitsu"),
        "chinitsu": C("chinitsu"), "honroutou": C("honroutou"), "chiitoitsu": pl.lit(True),
        "haitei": C("haitei"), "houtei": C("houtei"), "rinshan": C("rinshan"), "chankan": C("chankan"),
    }
    ym = {"tsuuiisou": C("tsuuiisou"), "tenhou": C("tenhou"), "chiihou": C("chiihou")}
    return [st, *_finish(R, present, ym, rules)]


def _kokushi(prefix: str, rules: Rules) -> Stages:
    def R(name: str) -> pl.Expr:
        return C(prefix + name)

    thirteen = C("win_count") == 2
    st = {
        "valid": C("kvalid"),
        "fu": pl.lit(0, pl.Int64), "fukey": pl.lit(2, pl.Int64),
        "wait": pl.when(thirteen).then(7).otherwise(6).cast(pl.Int32),
    }
    ym = {"kokushi": ~thirteen, "kokushi_13": thirteen, "tenhou": C("tenhou"), "chiihou": C("chiihou")}
    return [st, *_finish(R, {}, ym, rules)]


PROBLEMS = ["", "bad_notation", "bad_meld", "tile_count", "fifth_copy", "win_tile_not_in_hand", "not_complete",
            "no_yaku"]
WAIT_NAMES = [*F.WAITS, "chiitoitsu", "kokushi", "kokushi_13"]
OUT = ("score", "han", "fu", "yakuman", "ykey", "fukey", "wait")


def score_tiles(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Add yaku, han, fu, fu_detail, yakuman, dora_count, ura_dora, aka_dora, wait, tile_problem.

    Joins only ever carry narrow frames (row id + a few columns, left order kept); their results are put
    back beside the wide frame with a horizontal concat, so the many scratch and pass-through columns are
    never gathered.
    """
    original = lf.collect_schema().names()
    lf = lf.with_row_index(P + "rid").with_columns(_inputs())
    lf = _features(_parse(lf), rules).cache()  # shared by the first-split and the ambiguous-split branches

    # every hand with its first split
    std = _apply(lf, "s_", _standard("s_", None, rules)).cache()

    # the few hands with other readings: further splits of their one ambiguous suit (~1%), chiitoitsu (incl.
    # ryanpeikou shapes) and kokushi; best per hand (ties: lowest reading number), joined on a narrow frame
    def reading(frame: pl.LazyFrame, stages: Stages, order: pl.Expr) -> pl.LazyFrame:
        return _apply(frame, "a_", stages).select(
            P + "rid",
            *[C("a_" + k).cast(pl.Int32 if k == "wait" else pl.Int64) for k in OUT],
            (C("a_score") * 8 + 7 - order).cast(pl.Int64).alias(P + "a_order"),
        )

    splits = lf.filter(C("n_read") > 1).with_columns(pl.int_ranges(1, C("n_read")).alias(P + "k")).explode(P + "k")
    amb = pl.concat(
        [
            reading(splits, _standard("a_", C("k"), rules), C("k")),
            reading(lf.filter(C("cvalid")), _chiitoitsu("a_", rules), pl.lit(4)),
            reading(lf.filter(C("kvalid")), _kokushi("a_", rules), pl.lit(5)),
        ],
        how="vertical",
    )
    amb = amb.group_by(P + "rid").agg([C("a_" + k).sort_by(C("a_order")).last() for k in OUT])
    better = C("a_score").fill_null(-2) > C("s_score")
    narrow = (
        std.select(P + "rid", *[P + "s_" + k for k in OUT])
        .join(amb, on=P + "rid", how="left", maintain_order="left")
        .select(**{P + "f_" + k: pl.when(better).then(C("a_" + k)).otherwise(C("s_" + k)) for k in OUT})
    )
    keep = [*original, *[P + k for k in ("problem0", "dora_n", "ura_n", "aka_n")]]
    lf = pl.concat([std.select(keep), narrow], how="horizontal")

    code = (
        pl.when(C("problem0").is_null()).then(None)
        .when(C("problem0") != 0).then(C("problem0"))
        .when(C("f_score") < 0).then(PROBLEMS.index("not_complete"))
        .when(C("f_score") == 0).then(PROBLEMS.index("no_yaku"))
        .otherwise(0)
    )
    problem = pl.when(code > 0).then(pl.lit(pl.Series(PROBLEMS, dtype=pl.String)).gather(code.fill_null(0)))
    scored = C("f_score") > 0
    no_ym = scored & (C("f_yakuman") == 0)
    lf = lf.with_columns(
        tile_problem=problem,
        han=pl.when(scored).then(C("f_han")).cast(pl.Int64),
        fu=pl.when(scored).then(C("f_fu")).cast(pl.Int64),
        yakuman=pl.when(scored).then(C("f_yakuman")).cast(pl.Int64),
        dora_count=pl.when(no_ym).then(C("dora_n")).when(scored).then(0).cast(pl.Int64),
        ura_dora=pl.when(no_ym).then(C("ura_n")).when(scored).then(0).cast(pl.Int64),
        aka_dora=pl.when(no_ym).then(C("aka_n")).when(scored).then(0).cast(pl.Int64),
        wait=pl.when(C("f_score") >= 0).then(
            pl.lit(pl.Series(WAIT_NAMES)).gather(C("f_wait").fill_null(0).clip(0, len(WAIT_NAMES) - 1))
        ),
        **{P + "ykey": pl.when(scored).then(C("f_ykey")), P + "fukey": pl.when(scored).then(C("f_fukey"))},
    ).cache()  # shared by the key tables and the list joins

    # yaku and fu_detail lists: built once per distinct key, joined on a narrow frame
    ykeys = Y.yaku_lists(lf.select(C("ykey")).unique().drop_nulls(), P + "ykey", rules)
    fkeys = F.fu_details(lf.select(C("fukey")).unique().drop_nulls(), P + "fukey", rules)
    lists = (
        lf.select(P + "ykey", P + "fukey")
        .join(ykeys, on=P + "ykey", how="left", maintain_order="left")
        .join(fkeys, on=P + "fukey", how="left", maintain_order="left")
        .select("yaku", "fu_detail")
    )
    out = pl.concat([lf, lists], how="horizontal")
    return out.select(
        *original, "yaku", "han", "fu", "fu_detail", "yakuman", "dora_count", "ura_dora", "aka_dora", "wait",
        "tile_problem",
    )
