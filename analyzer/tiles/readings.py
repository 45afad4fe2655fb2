"""Stage 3 of tile scoring: one reading of a hand (a split of its suits, chiitoitsu or kokushi) to han, fu,
yakuman, payment and the keys of its yaku / fu lists."""

from __future__ import annotations

import polars as pl

from analyzer.rules import Rules
from analyzer.scoring.points import base_points, hand_points
from analyzer.tiles import fu as F
from analyzer.tiles import yaku as Y
from analyzer.tiles.columns import C, Stages, _any, _bit, _flag
from analyzer.tiles.tables import lut

NFLAT = 23533  # rows of the split table

# A reading's stages use their own earlier columns through ``R(name)`` (the reading's column prefix).


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
