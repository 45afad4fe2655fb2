"""Stage 3 of tile scoring: one reading of a hand (a split of its suits, chiitoitsu or kokushi) to han, fu,
yakuman and the keys of its yaku / fu lists (and, for hands with several readings, the payment that picks one).

Everything that does not depend on the reading (hand-level yaku, fu of the melds and of the pair, the wait
context) is computed once per hand in :mod:`.features`; a standard reading only adds its suits' split words
(one gather per suit, see ``SPLIT*`` in :mod:`.tables`), its wait flags (one gather) and a few small lookups.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl

from analyzer.scoring.points import base_points, hand_points
from analyzer.core.rules import Rules
from analyzer.tiles import fu as F
from analyzer.tiles import yaku as Y
from analyzer.tiles.columns import C, Stages, input_flag, where
from analyzer.tiles.tables import (
    NFLAT, SPLIT_CHI_BITS, SPLIT_NCHI, SPLIT_OUTSIDE, SPLIT_PEIKOU, SPLIT_PON_SHIFT, SPLIT_PON_SIMPLE, SPLIT_PON_TERM,
    SUITSTAT_PAIR_BIT,
    WAIT_KANCHAN, WAIT_PENCHAN, WAIT_RYANMEN, WAIT_TANKI, lut,
)

# ---------------------------------------------------------------------------------------------- reading tables
# The reading context key: wait flags (4 bits) + 16 * concealed sequences (3 bits) + 128 * hand context, where
# the hand context (features: ``rctx``) is tsumo + 2 rinshan + 4 win tile is a terminal/honour + 8 pinfu allowed
# (closed, pair not yakuhai).  Every entry is what the reading's wait choice implies.
CTX_TSUMO, CTX_RINSHAN, CTX_WIN_YAO, CTX_PINFU_OK = 1, 2, 4, 8
RCTX_UNIT = 128
FU_RAW_SPAN = 512  # raw fu (before rounding) < 512; FU_ROUND is indexed by raw + closed * 512
# the yaku that depend on the reading (bits 4..21 of the yaku mask); their han by one lookup
READING_YAKU = ("pinfu", "iipeikou", "ryanpeikou", "sanshoku", "sanshoku_doukou", "ittsu", "chanta", "junchan",
                "toitoi", "sanankou")
READING_LOW_BIT = 4
READING_SPAN = 2**18  # reading yaku bits >> 4 fit in 18 bits; READING_HAN is indexed by bits + closed * 2**18
assert all(READING_LOW_BIT <= Y.BIT[n] < READING_LOW_BIT + 18 for n in READING_YAKU)


@cache
def _context_tables(rinshan_tsumo_fu: bool, pinfu_tsumo_fu: bool) -> dict[str, pl.Series]:
    """Per reading context key: wait code, yaku bits (pinfu), fu delta, fu key delta, shanpon-ron flag."""
    key = np.arange(16 * 8 * 16)
    flags, nchi, ctx = key % 16, (key // 16) % 8, key // RCTX_UNIT
    ryan, kan, pen, tanki = (flags & WAIT_RYANMEN) > 0, (flags & WAIT_KANCHAN) > 0, (flags & WAIT_PENCHAN) > 0, (
        flags & WAIT_TANKI) > 0
    tsumo, rinshan = (ctx & CTX_TSUMO) > 0, (ctx & CTX_RINSHAN) > 0
    win_yao, pinfu_shape = (ctx & CTX_WIN_YAO) > 0, ((ctx & CTX_PINFU_OK) > 0) & (nchi == 4)
    # pinfu ryanmen > kanchan > penchan > tanki > other ryanmen > shanpon (codes of fu.WAITS)
    wait = np.select([pinfu_shape & ryan, kan, pen, tanki, ryan], [0, 1, 2, 3, 0], 4)
    pinfu = pinfu_shape & ryan
    shanpon_ron = (wait == 4) & ~tsumo  # that triplet counts as open
    open_simple, open_term = shanpon_ron & ~win_yao, shanpon_ron & win_yao
    tsumo_fu = tsumo & (~rinshan | rinshan_tsumo_fu) & (~pinfu | pinfu_tsumo_fu)
    # raw fu = hand fu + 4 * concealed simple triplets + 8 * concealed terminal ones + this delta (the shanpon
    # ron triplet is 2 / 4 instead of 4 / 8)
    fu_delta = 2 * tsumo_fu + 2 * np.isin(wait, (1, 2, 3)) - 2 * open_simple - 4 * open_term
    fukey_delta = (8 * tsumo_fu + 16 * wait
                   + (open_simple + 8 * open_term - 64 * open_simple - 512 * open_term) * F.CAT_SHIFT)
    return {
        "wait": pl.Series(wait.astype(np.int32)),
        "ybits": pl.Series(pinfu.astype(np.int32) * 2 ** Y.BIT["pinfu"]),
        "fu_delta": pl.Series(fu_delta.astype(np.int64)),
        "fukey_delta": pl.Series(fukey_delta.astype(np.int64)),
        "shanpon_ron": pl.Series(shanpon_ron.astype(np.int64)),
    }


@cache
def _shape_tables() -> dict[str, pl.Series]:
    """Small lookups of the standard reading (rule independent)."""
    out: dict[str, pl.Series] = {}
    fu = np.zeros(2 * FU_RAW_SPAN, np.int64)
    bump = np.zeros(2 * FU_RAW_SPAN, np.int64)
    raw = np.arange(FU_RAW_SPAN)
    rounded = (raw + 9) // 10 * 10
    fu[:FU_RAW_SPAN] = np.where(rounded == 20, 30, rounded)  # open: 20 fu becomes 30 ("open pinfu")
    bump[:FU_RAW_SPAN] = np.where(rounded == 20, 1024, 0)  # fu key bit 10
    fu[FU_RAW_SPAN:] = rounded
    out["FU_ROUND"], out["FU_BUMP"] = pl.Series(fu), pl.Series(bump)
    # peikou count (0..3) + 4 * closed -> iipeikou / ryanpeikou bits
    pei = np.zeros(8, np.int32)
    pei[4 + 1] = 2 ** Y.BIT["iipeikou"]
    pei[4 + 2] = pei[4 + 3] = 2 ** Y.BIT["ryanpeikou"]
    out["PEIKOU"] = pl.Series(pei)
    # 21 chi bits (7 per suit) -> sanshoku / ittsu bits
    chi = np.arange(SPLIT_CHI_BITS, dtype=np.int64)
    sanshoku = (chi & (chi >> 7) & (chi >> 14) & 127) != 0
    ittsu = np.zeros(SPLIT_CHI_BITS, bool)
    for s in range(3):
        ittsu |= ((chi >> (7 * s)) & 73) == 73
    out["CHI_YAKU"] = pl.Series((sanshoku * 2 ** Y.BIT["sanshoku"] + ittsu * 2 ** Y.BIT["ittsu"]).astype(np.int32))
    # han of the reading yaku bits (>> 4) + 2**18 * closed
    bits = np.arange(READING_SPAN, dtype=np.int64)
    han = np.zeros(2 * READING_SPAN, np.int64)
    for name in READING_YAKU:
        has = (bits >> (Y.BIT[name] - READING_LOW_BIT)) & 1
        closed_han, open_han = next((c, o) for n, c, o in Y.NORMAL if n == name)
        han[:READING_SPAN] += has * open_han
        han[READING_SPAN:] += has * closed_han
    out["READING_HAN"] = pl.Series(han.astype(np.int32))
    return out


def _slut(name: str, idx: pl.Expr) -> pl.Expr:
    return pl.lit(_shape_tables()[name]).gather(idx)


# ------------------------------------------------------------------------------------------------- the readings
def _finish(R, ymask: pl.Expr, ymmask: pl.Expr, yhan: pl.Expr | None, rules: Rules, points: bool) -> Stages:
    """han / yakuman / has_yaku / yaku key of one reading (needs columns valid, fu), and its sort score when
    ``points`` (only the hands with several readings need it).  ``yhan`` None: han from the mask."""
    renhou_m = rules.renhou == "mangan"
    aotenjou = rules.limits == "aotenjou"  # a yakuman hand keeps its other yaku and dora (Y.IMPLIED aside)
    if rules.renhou == "yakuman":
        ymmask = ymmask + where(C("renhou_flag"), 2 ** Y.BIT["renhou_yakuman"])
    st0 = {"ymask": ymask, "ymmask": ymmask}
    st1 = {"yakuman": Y.yakuman_from_mask(R("ymmask"), rules),
           "yhan": Y.han_from_mask(R("ymask"), C("closed")) if yhan is None else yhan}
    if aotenjou:
        st1["ymask_ao"] = Y.without_implied(R("ymask"), R("ymmask"))
    has_yaku = (R("yhan") > 0) | (R("yakuman") > 0)
    st2 = {"has_yaku": (has_yaku | C("renhou_flag")) if renhou_m else has_yaku}
    if aotenjou:  # a yakuman hand's han from the yaku left beside it (no yakuman: the same han)
        st2["yhan_ao"] = pl.when(R("yakuman") > 0).then(Y.han_from_mask(R("ymask_ao"), C("closed"))).otherwise(
            R("yhan"))
    if renhou_m:
        st2["renhou_han"] = pl.when(C("renhou_flag") & (R("yakuman") == 0)).then(
            (5 - R("yhan") - C("dora_total")).clip(lower_bound=0)).otherwise(0)
    renhou_han = R("renhou_han") if renhou_m else None
    if aotenjou:
        han, ykey = R("yhan_ao") + C("dora_total"), R("ymask_ao") + C("open_bit") + R("ymmask")
    else:
        han, ykey = R("yhan") + C("dora_total"), R("ymask") + C("open_bit")
    if renhou_m:
        han = han + renhou_han
        ykey = ykey + renhou_han * Y.RENHOU_UNIT + where(C("renhou_flag"), 2 ** Y.BIT["renhou"])
    if aotenjou:
        st3 = {"han": han, "ykey": ykey}
    else:
        st3 = {
            "han": pl.when(R("yakuman") > 0).then(0).otherwise(han),
            "ykey": pl.when(R("yakuman") > 0).then(R("ymmask")).otherwise(ykey),
        }
    stages = [st0, st1, st2, st3]
    if points:
        stages.append({"base": base_points(R("han"), R("fu"), R("yakuman"), rules)})
        stages.append({"pts": hand_points(R("base"), input_flag("_winner_is_dealer"), C("tsumo"))})
        # aotenjou payments reach 2^59: the ranking key goes to Int128 there (Int64 would wrap)
        pts = R("pts").cast(pl.Int128) if aotenjou else R("pts")
        stages.append({
            "score": pl.when(R("valid") & R("has_yaku"))
            .then(pts * 1_000_000 + where(R("yakuman") > 0, 100_000) + R("han") * 1000 + R("fu"))
            .when(R("valid")).then(0)
            .otherwise(-1),
        })
    return stages


def standard_reading(prefix: str, k: pl.Expr | None, rules: Rules, points: bool = False) -> Stages:
    """Stages of the standard (4 groups + pair) reading number ``k`` (None = the first split)."""
    def R(name: str) -> pl.Expr:
        return C(prefix + name)

    if k is None:  # the first split of each suit, and the wait flags of the win suit's first split
        idx = [C(f"off_{s}") for s in range(3)]
        wkey = C("wbase")
    else:  # split number k of the hand (at most one suit has several)
        idx = [C(f"off_{s}") + k % C(f"nd_{s}").clip(lower_bound=1) for s in range(3)]
        wkey = C("wbase") + 9 * (k % C("wnd"))
    ctx = lambda name: pl.lit(_context_tables(rules.rinshan_tsumo_fu, rules.pinfu_tsumo_fu)[name])  # noqa: E731
    st1 = {
        "g": lut("SPLIT0", idx[0]) + lut("SPLIT1", idx[1]) + lut("SPLIT2", idx[2]),  # the three suits' split words
        "wflags": lut("WAITFLAGS", wkey),
    }
    st2 = {"nchi_c": (R("g") // SPLIT_NCHI) & 7}
    st3 = {"rk": R("wflags") + R("nchi_c") * 16 + C("rctx")}
    st4 = {
        "wait": ctx("wait").gather(R("rk")),
        "ps": (R("g") // SPLIT_PON_SIMPLE) & 7,
        "pt": ((R("g") // SPLIT_PON_TERM) & 7) + C("hpon"),
        "nchi": R("nchi_c") + C("n_mchi"),
    }
    st5 = {
        "ankou": R("ps") + R("pt") + C("n_ankan") - ctx("shanpon_ron").gather(R("rk")),
        "raw": C("fu_hand") + 4 * R("ps") + 8 * R("pt") + ctx("fu_delta").gather(R("rk")),
    }
    fu_idx = R("raw") + C("closed_fu")
    chi_all = (R("g") & (SPLIT_CHI_BITS - 1)) | C("m_chi")
    pon_all = ((R("g") // SPLIT_PON_SHIFT) & (2**27 - 1)) | C("m_pon")
    sanshoku_doukou = ((pon_all & (pon_all // 512) & (pon_all // 262144)) & 511) != 0
    outside = ((R("g") // SPLIT_OUTSIDE) & 3) == 3
    # the reading's yaku bits are all below bit 31: summed in Int32 (cheaper), widened once
    ybits = pl.sum_horizontal(
        ctx("ybits").gather(R("rk")),
        _slut("PEIKOU", ((R("g") // SPLIT_PEIKOU) & 3) + C("closed4")),
        _slut("CHI_YAKU", chi_all),
        where(sanshoku_doukou, 2 ** Y.BIT["sanshoku_doukou"], pl.Int32),
        where(outside & (R("nchi") > 0), C("chanta_bit"), pl.Int32),  # chanta or junchan (0: an open meld isn't)
        where(R("nchi") == 0, 2 ** Y.BIT["toitoi"], pl.Int32),
        where(R("ankou") == 3, 2 ** Y.BIT["sanankou"], pl.Int32),
    ).cast(pl.Int64)
    st6 = {
        "fu": _slut("FU_ROUND", fu_idx),
        "fukey": C("fukey_hand") + ctx("fukey_delta").gather(R("rk")) + _slut("FU_BUMP", fu_idx)
        + (R("ps") * 64 + R("pt") * 512) * F.CAT_SHIFT,
        "ybits": ybits,
        "valid": C("std_valid"),
    }
    suuankou = pl.when(R("wait") == 3).then(2 ** Y.BIT["suuankou_tanki"]).otherwise(2 ** Y.BIT["suuankou"])
    ymask = C("ymask_hand") + R("ybits")
    ymmask = C("ymmask_hand") + pl.when(R("ankou") == 4).then(suuankou).otherwise(0)
    yhan = C("han_hand") + _slut("READING_HAN", R("ybits") // 2**READING_LOW_BIT + C("closed_reading"))
    return [st1, st2, st3, st4, st5, st6, *_finish(R, ymask, ymmask, yhan, rules, points)]


def _mask(present: dict[str, pl.Expr]) -> pl.Expr:
    return Y.mask(present)


def chiitoitsu_reading(prefix: str, rules: Rules) -> Stages:
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
    return [st, *_finish(R, _mask(present), _mask(ym), None, rules, True)]


def kokushi_reading(prefix: str, rules: Rules) -> Stages:
    def R(name: str) -> pl.Expr:
        return C(prefix + name)

    thirteen = C("win_count") == 2
    st = {
        "valid": C("kvalid"),
        "fu": pl.lit(0, pl.Int64), "fukey": pl.lit(2, pl.Int64),
        "wait": pl.when(thirteen).then(7).otherwise(6).cast(pl.Int32),
    }
    ym = {"kokushi": ~thirteen, "kokushi_13": thirteen, "tenhou": C("tenhou"), "chiihou": C("chiihou")}
    if rules.limits == "aotenjou":  # beside the yakuman: the yaku of the way it was won (riichi.wiki counts tsumo)
        normal = _mask({"riichi": C("riichi"), "double_riichi": C("double_riichi"), "ippatsu": C("ippatsu"),
                        "menzen_tsumo": C("menzen_tsumo"), "haitei": C("haitei"), "houtei": C("houtei"),
                        "chankan": C("chankan")})
    else:
        normal = pl.lit(0, pl.Int64)
    return [st, *_finish(R, normal, _mask(ym), None, rules, True)]


def hand_level(rules: Rules) -> Stages:
    """Stages (run once per hand, in :mod:`.features`) of everything a standard reading shares."""
    closed, tsumo = C("closed"), C("tsumo")
    hpair = C("hpair")
    dragon_pair, seat_pair, round_pair = (hpair >= 4) & (hpair <= 6), hpair == C("seat"), hpair == C("rnd")
    menzen_ron = closed & ~tsumo
    wind_fu = (
        pl.when(seat_pair & round_pair).then(rules.double_wind_pair_fu)
        .when(seat_pair | round_pair).then(2).otherwise(0)
    )
    in_suit, wr = C("ws") < 3, C("wr")
    win_yao = ~in_suit | (wr == 0) | (wr == 8)
    pinfu_ok = closed & ~dragon_pair & ~seat_pair & ~round_pair
    # a suit's split has the pair iff its tile count is 2 mod 3; exactly one pair in the hand
    pairs = sum((C(f"stat_{s}") // 2**SUITSTAT_PAIR_BIT) & 1 for s in range(3)) + where(hpair != 7, 1)
    hand_yaku = {
        "riichi": C("riichi"), "double_riichi": C("double_riichi"), "ippatsu": C("ippatsu"),
        "menzen_tsumo": C("menzen_tsumo"),
        "tanyao": C("tanyao") & (closed | pl.lit(rules.open_tanyao)),
        "haku": C("haku"), "hatsu": C("hatsu"), "chun": C("chun"),
        "seat_wind": C("seat_wind"), "round_wind": C("round_wind"),
        "honitsu": C("honitsu"), "chinitsu": C("chinitsu"), "sankantsu": C("n_kan") == 3,
        "honroutou": C("honroutou"), "shousangen": (C("dragon_trip") == 2) & (C("dragon_pair") == 1),
        "haitei": C("haitei"), "houtei": C("houtei"), "rinshan": C("rinshan"), "chankan": C("chankan"),
    }
    junsei = C("win_count") == pl.when(wr.is_in([0, 8])).then(4).otherwise(2)
    hand_yakuman = {
        "daisangen": C("dragon_trip") == 3,
        "shousuushii": (C("wind_trip") == 3) & (C("wind_pair") == 1), "daisuushii": C("wind_trip") == 4,
        "tsuuiisou": C("tsuuiisou"), "ryuuiisou": C("ryuuiisou"), "chinroutou": C("chinroutou"),
        "chuuren": C("chuuren") & ~junsei, "junsei_chuuren": C("chuuren") & junsei,
        "suukantsu": C("n_kan") == 4, "tenhou": C("tenhou"), "chiihou": C("chiihou"),
    }
    win_off = pl.when(C("ws") == 0).then(C("off_0")).when(C("ws") == 1).then(C("off_1")).otherwise(C("off_2"))
    st1 = {
        "ymask_hand": Y.mask(hand_yaku),
        "ymmask_hand": Y.mask(hand_yakuman),
        "fu_hand": 20 + where(menzen_ron, 10) + where(dragon_pair, 2) + wind_fu + C("meld_fu"),
        "fukey_hand": where(menzen_ron, 4) + where(dragon_pair, 128) + where(seat_pair, 256) + where(round_pair, 512)
        + C("meld_cat") * F.CAT_SHIFT,
        "rctx": where(tsumo, CTX_TSUMO * RCTX_UNIT) + where(input_flag("rinshan"), CTX_RINSHAN * RCTX_UNIT)
        + where(win_yao, CTX_WIN_YAO * RCTX_UNIT) + where(pinfu_ok, CTX_PINFU_OK * RCTX_UNIT),
        "wbase": pl.when(in_suit).then(win_off * 9 + wr).otherwise(NFLAT * 9 + hpair * 7 + wr),
        "wnd": pl.when(C("ws") == 0).then(C("nd_0")).when(C("ws") == 1).then(C("nd_1"))
        .when(C("ws") == 2).then(C("nd_2")).otherwise(1).clip(lower_bound=1),
        "closed4": where(closed, 4),
        "closed_fu": where(closed, FU_RAW_SPAN),
        "closed_reading": where(closed, READING_SPAN),
        "open_bit": where(~closed, Y.OPEN_BIT),
        "chanta_bit": pl.when(C("n_mout") != C("n_melds")).then(0).when(C("no_honours"))
        .then(2 ** Y.BIT["junchan"]).otherwise(2 ** Y.BIT["chanta"]).cast(pl.Int32),
        "std_valid": (C("nd_0") > 0) & (C("nd_1") > 0) & (C("nd_2") > 0) & C("hvalid") & (pairs == 1)
        & (C("problem0") == 0),
        "dora_total": C("dora_n") + C("ura_n") + C("aka_n"),
    }
    st2 = {"han_hand": Y.han_from_mask(C("ymask_hand"), closed)}
    return [st1, st2]
