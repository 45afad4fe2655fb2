"""Stages 1-2 of tile scoring: parse the input strings, then per-hand features (counts, melds, checks, dora,
yaku that do not depend on the reading, table lookups for the splits)."""

from __future__ import annotations

import polars as pl

from analyzer.core.rules import Rules
from analyzer.tiles.columns import PROBLEMS, P, C, I, any_of, apply_stages, input_flag, where
from analyzer.tiles.codes import CODE_COLUMNS, INDICATOR_BITS, MAX_INDICATORS
from analyzer.tiles.readings import hand_level
from analyzer.tiles.tables import MELD_CAT_SHIFT, MELD_ID_MAX, MELD_PON_SHIFT, RED_UNIT, lut


def count_in_suit(suit_code: pl.Expr, multiplier: pl.Expr) -> pl.Expr:
    """One tile's count in its suit's base-32 code, ``multiplier`` being ``32**(8 - rank)`` of the tile (0 gives 0).

    Multiplying (wrapping Int64 arithmetic) moves that count to bits 40-44, read with a constant mask: no
    division by a per-row value, which costs several times more.
    """
    return ((suit_code * multiplier) & (31 * 2**40)) // 2**40


def tile_count(tile: pl.Expr, codes: list[pl.Expr], multiplier: pl.Expr) -> pl.Expr:
    """The count of tile ``tile`` (id 0-33) in the base-32 suit codes ``codes`` (m p s z); see count_in_suit."""
    suit_code = (
        pl.when(tile >= 18).then(pl.when(tile >= 27).then(codes[3]).otherwise(codes[2]))
        .otherwise(pl.when(tile >= 9).then(codes[1]).otherwise(codes[0]))
    )
    return count_in_suit(suit_code, multiplier)


def dora_hits(indicator1: pl.Expr, full32: list[pl.Expr]) -> pl.Expr:
    """How many copies of the dora shown by indicator ``indicator1 - 1`` (a tile id; 0 = none) the whole hand
    holds (melds included).  A dora is in its indicator's suit; ``DORA_MUL`` is 0 for no indicator."""
    return tile_count(indicator1 - 1, full32, lut("DORA_MUL", indicator1))


HONOURS = sum(32**t for t in range(7))  # 1 in each honour's 5-bit count
WINDS4 = 4 * sum(32**t for t in range(4))
DRAGONS4 = 4 * sum(32**t for t in range(4, 7))


# ----------------------------------------------------------------------------------------------- stage 1: decode
FLAGS = ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou",
         "_is_tsumo", "_is_riichi", "_winner_is_dealer")


def input_columns(schema: pl.Schema) -> list[pl.Expr]:
    """The code columns and situation flags as scratch copies with the expected dtypes (a flag may be missing
    or come as an all-null column)."""
    def flag(c: str) -> pl.Expr:
        return pl.col(c).cast(pl.Boolean).fill_null(False) if c in schema else pl.lit(False)

    return [
        *[pl.col(c).cast(pl.Int64, strict=False).alias(P + "in_" + c) for c in CODE_COLUMNS],
        *[flag(c).alias(P + "in_" + c) for c in FLAGS],
        *[pl.col(c).cast(pl.Int64).fill_null(0).alias(P + "in_" + c) for c in ("_seat_wind", "_round_wind")],
        (pl.col("_kita").cast(pl.Int64).fill_null(0) if "_kita" in schema else pl.lit(0, pl.Int64)).alias(P + "in__kita"),
    ]


# Three players: 2m-8m are not in the game, so a 1m indicator shows 9m (and 9m shows 1m, as with four).
IND_1M, IND_8M, IND_WEST = 1, 8, 30  # indicator fields hold 1 + tile id (1m = 0, 8m = 7, West = 29)


def _indicator_fields(code: pl.Expr) -> list[pl.Expr]:
    return [(code // 2 ** (INDICATOR_BITS * i)) & 63 for i in range(MAX_INDICATORS)]


def three_player_indicators(code: pl.Expr) -> pl.Expr:
    """Packed indicators (``tc_dora`` / ``tc_ura``) with every 1m shown as 8m: the dora the next tile, 9m."""
    return sum(pl.when(f == IND_1M).then(IND_8M).otherwise(f) * 2 ** (INDICATOR_BITS * i)
               for i, f in enumerate(_indicator_fields(code)))


def decode(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Code columns to what the features read: base-32 counts, base-5 table keys, melds, winning tile."""
    cols: dict[str, pl.Expr] = {}
    for s, suit in enumerate("mpsz"):
        c32 = I(f"tc_{suit}")
        cols[f"c32_{s}"] = c32
        c = c32.fill_null(0)
        cols[f"c5_{s}"] = (lut("C5OF15_0", c & 32767) + lut("C5OF15_1", (c // 2**15) & 32767)
                           + lut("C5OF15_2", (c // 2**30) & 32767) + where((c < 0) | (c >= 2**45), 5**9, pl.Int32))
    win = I("tc_win")
    cols["win_t"] = pl.when((win >= 0) & (win <= 33)).then(win)
    cols["aka_h"] = I("tc_aka").fill_null(0)
    melds = [I(f"tc_meld{i}").fill_null(0) for i in range(4)]
    cols["n_melds"] = sum(where(m != 0, 1, pl.Int32) for m in melds)
    for i, m in enumerate(melds):  # a malformed id (or one out of range) is -1
        plain = m & (RED_UNIT - 1)
        cols[f"mid{i}"] = pl.when((m >= 0) & (plain <= MELD_ID_MAX)).then(plain).otherwise(-1)
    cols["aka_m"] = sum(m.clip(lower_bound=0) // RED_UNIT for m in melds)
    cols["bad_meld_code"] = I("tc_error") == 2
    return lf.with_columns(**{P + k: v for k, v in cols.items()})


# --------------------------------------------------------------------------------------- stage 2: hand features
def hand_features(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    cols: dict[str, pl.Expr] = {}
    mids = [C(f"mid{i}").clip(0, MELD_ID_MAX) for i in range(4)]
    lf = lf.with_columns(  # two melds per gather
        **{P + f"mpair{j}": mids[2 * j] * (MELD_ID_MAX + 1) + mids[2 * j + 1] for j in range(2)}
    )
    pairs = [C("mpair0"), C("mpair1")]
    bits = lut("MBITS2", pairs[0]) | lut("MBITS2", pairs[1])
    cols.update(
        bad_meld=any_of([C(f"mid{i}") == -1 for i in range(4)]) | C("bad_meld_code"),
        m_chi=bits & (2**MELD_PON_SHIFT - 1), m_pon=bits // 2**MELD_PON_SHIFT,
        mpack=lut("MPACK2", pairs[0]) + lut("MPACK2", pairs[1]),
    )
    for s in range(4):
        cols[f"f32_{s}"] = C(f"c32_{s}") + lut(f"MC2_{s}", pairs[0]) + lut(f"MC2_{s}", pairs[1])
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    cols = {}
    for j, name in enumerate(("n_open", "n_kan", "n_ankan", "n_mchi", "n_mout")):
        cols[name] = (C("mpack") // 8**j) & 7
    cols["meld_fu"] = (C("mpack") // 2**15) & (2**11 - 1)
    cols["meld_cat"] = C("mpack") // MELD_CAT_SHIFT
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})


    # ---- dora (hand level; only used when the reading has a yaku and no yakuman); ura only on riichi rows.
    # The first indicator is read on its own; the kan dora (indicators 1-4, on few hands) two per gather and
    # per suit (DORA2_*), cheaper than reading each of them (55 against 71 ms per 10^6 hands for the dora)
    assert MAX_INDICATORS == 1 + 2 * 2  # the first indicator, then two chunks of two
    full = [C(f"f32_{s}") for s in range(4)]
    riichi_declared = input_flag("_is_riichi") | input_flag("double_riichi")
    cols = {}
    indicators = {"dora": I("tc_dora").fill_null(0),
                  "ura": pl.when(riichi_declared).then(I("tc_ura").fill_null(0)).otherwise(0)}
    if rules.players == 3:
        indicators = {name: three_player_indicators(code) for name, code in indicators.items()}
    for name, code in indicators.items():
        cols[f"{name}_ind0"] = code & 63
        for j in range(2):
            cols[f"{name}_kan{j}"] = (code // 2 ** (INDICATOR_BITS * (1 + 2 * j))) & 4095
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    cols = {}
    for name in ("dora", "ura"):
        kan = [C(f"{name}_kan{j}") for j in range(2)]
        count = dora_hits(C(f"{name}_ind0"), full)
        if rules.kan_dora:
            count = count + sum(count_in_suit(full[s], lut(f"DORA2_{s}", kan[0]) + lut(f"DORA2_{s}", kan[1]))
                                for s in range(4))
        if rules.players == 3:
            # nukidora: each north tile set aside is a dora, and one more per indicator showing north (West)
            shown = _indicator_fields(indicators[name])
            west = sum((f == IND_WEST).cast(pl.Int64) for f in (shown if rules.kan_dora else shown[:1]))
            count = count + I("_kita") * (west + (1 if name == "dora" else 0))
        cols[f"{name}_n"] = count
        cols[f"{name}_n_ok"] = (C(f"{name}_ind0") <= 34) & (lut("IND2_BAD", kan[0]) + lut("IND2_BAD", kan[1]) == 0)
    if not rules.ura_dora:
        cols["ura_n"] = pl.lit(0, pl.Int64)
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})

    # ---- checks and count-based features: the per-suit counts first (each read by several flags)
    f32 = [C(f"f32_{s}") for s in range(4)]
    every = sum(32**r for r in range(9))  # 1 in every 5-bit count
    win_t = C("win_t").fill_null(0)
    cols = {
        **{f"tot{s}": f32[s] % 31 for s in range(4)},  # sum of the base-32 digits
        **{f"yao{s}": (f32[s] & 31) + ((f32[s] // 32**8) & 31) for s in range(3)},
        # per honour, bit 2 of its 5-bit field: set for a count of 3 or 4 (count + 1), for 2 to 4 (count + 2)
        "htrip": (f32[3] + HONOURS) & (4 * HONOURS),
        "h2plus": (f32[3] + 2 * HONOURS) & (4 * HONOURS),
        # a count of 5 or more: 16+ has bit 4; below 16, adding 3 reaches bit 3 or 4 (8+) without a carry
        "fifth": any_of([((f & (16 * every)) | ((f + 3 * every) & (24 * every))) != 0 for f in f32]),
        "ws": win_t // 9,
        # the winning tile's concealed count
        "win_count": tile_count(win_t, [C(f"c32_{s}") for s in range(4)], lut("WIN_MUL", win_t)),
        **{f"stat_{s}": lut("SUITSTAT", C(f"c5_{s}").clip(0, 5**9 - 1)) for s in range(3)},
        "hstat": lut("HONSTAT", C("c5_3").clip(0, 5**7 - 1)),
    }
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    cols = {}
    notation_ok = (
        (I("tc_error") != 1)
        & C("win_t").is_not_null()
        & C("dora_n_ok")
        & C("ura_n_ok")
        & I("tc_p").is_not_null() & I("tc_s").is_not_null() & I("tc_z").is_not_null()
        & (C("c32_3") < 32**7)  # no 8z / 9z
    )
    code = PROBLEMS.index
    # three players: any of 2m-8m in the hand, its melds or an indicator
    removed = (((C("f32_0") // 32) & (2**35 - 1)) != 0) | any_of(
        [(f >= IND_1M + 1) & (f <= IND_8M) for code_ in (I("tc_dora"), I("tc_ura"))
         for f in _indicator_fields(code_.fill_null(0))]
    )
    tot, yao = [C(f"tot{s}") for s in range(4)], [C(f"yao{s}") for s in range(3)]
    # all tiles (concealed and called) less one per kan: 14 for a complete hand with its melds
    tiles_as_14 = tot[0] + tot[1] + tot[2] + tot[3] - C("n_kan")
    encode_error = I("tc_error").fill_null(0)  # text the encoder could not read has null codes and an error
    cols["problem0"] = (  # an index into PROBLEMS (0 = fine so far), null for a null hand
        pl.when(I("tc_m").is_null() & (encode_error == 0)).then(None)
        .when(encode_error == 1).then(code("bad_notation"))
        .when(encode_error == 2).then(code("bad_meld"))
        .when(~notation_ok).then(code("bad_notation"))
        .when(C("bad_meld")).then(code("bad_meld"))
        .when(tiles_as_14 != 14).then(code("tile_count"))
        .when(C("fifth")).then(code("fifth_copy"))
        .when(C("win_count") == 0).then(code("win_tile_not_in_hand"))
        .when(pl.lit(rules.players == 3) & removed).then(code("removed_in_three_player"))
        .when(pl.lit(rules.players == 3) & (C("m_chi") != 0)).then(code("chi_in_three_player"))
        .otherwise(0)
        .cast(pl.Int32)
    )
    cols["wr"] = win_t - 9 * C("ws")
    simples = tot[0] + tot[1] + tot[2] - yao[0] - yao[1] - yao[2]
    nsuits = sum(where(tot[s] > 0, 1, pl.Int32) for s in range(3))
    numbers = tot[0] + tot[1] + tot[2]
    nongreen_s = sum(31 * 32**r for r in (0, 4, 6, 8))
    seat, rnd = I("_seat_wind").clip(0, 3), I("_round_wind").clip(0, 3)
    trip, pair = C("htrip"), C("h2plus") ^ (C("h2plus") & C("htrip"))  # a triplet (or kan), a pair of each honour
    wind_bit = pl.lit(pl.Series([4 * 32**t for t in range(4)], dtype=pl.Int64))
    cols.update(
        closed=C("n_open") == 0,
        tanyao=(yao[0] + yao[1] + yao[2] + tot[3]) == 0,
        honitsu=(nsuits == 1) & (tot[3] > 0),
        chinitsu=(nsuits == 1) & (tot[3] == 0),
        tsuuiisou=numbers == 0,
        chinroutou=(simples == 0) & (tot[3] == 0),
        honroutou=(simples == 0) & (tot[3] > 0) & (numbers > 0),
        ryuuiisou=(tot[0] == 0) & (tot[1] == 0) & ((f32[2] & nongreen_s) == 0)
        & ((f32[3] & (32**7 - 1 - 31 * 32**5)) == 0),
        no_honours=tot[3] == 0,
        haku=(trip & 4 * 32**4) != 0, hatsu=(trip & 4 * 32**5) != 0, chun=(trip & 4 * 32**6) != 0,
        seat_wind=(trip & wind_bit.gather(seat)) != 0, round_wind=(trip & wind_bit.gather(rnd)) != 0,
        dragon_trip=(trip & DRAGONS4).bitwise_count_ones(), dragon_pair=(pair & DRAGONS4).bitwise_count_ones(),
        wind_trip=(trip & WINDS4).bitwise_count_ones(), wind_pair=(pair & WINDS4).bitwise_count_ones(),
        seat=seat, rnd=rnd,
    )
    riichi = input_flag("_is_riichi") | input_flag("double_riichi")
    cols["aka_n"] = (C("aka_h") + C("aka_m")) if rules.aka_dora else pl.lit(0, pl.Int64)
    # situational yaku (hand level)
    tsumo = input_flag("_is_tsumo")
    closed = C("n_open") == 0
    dr = input_flag("double_riichi") & closed
    cols.update(
        tsumo=tsumo,
        riichi=riichi & ~dr & closed,
        double_riichi=dr,
        ippatsu=input_flag("ippatsu") & riichi & closed,
        menzen_tsumo=tsumo & closed,
        haitei=input_flag("haitei") & tsumo,
        houtei=input_flag("houtei") & ~tsumo,
        rinshan=input_flag("rinshan") & tsumo,
        chankan=input_flag("chankan") & ~tsumo,
        tenhou=input_flag("tenhou") & tsumo & input_flag("_winner_is_dealer"),
        chiihou=input_flag("chiihou") & tsumo & ~input_flag("_winner_is_dealer"),
        renhou_flag=input_flag("renhou") & ~tsumo,
    )
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    cols = {}
    for s in range(3):
        cols[f"nd_{s}"] = C(f"stat_{s}") & 7
        cols[f"off_{s}"] = (C(f"stat_{s}") // 8) & (2**15 - 1)
    cols.update(
        hvalid=(C("hstat") & 1) == 1, hpair=(C("hstat") // 2) & 7, hpon=(C("hstat") // 16) & 7,
        chuuren=(C("n_melds") == 0) & (((C("stat_0") | C("stat_1") | C("stat_2")) & 2**18) != 0),
    )
    lf = lf.with_columns(**{P + k: v for k, v in cols.items()})
    # chiitoitsu: pairs (packed +1, 0 = impossible); kokushi: tiles (packed as 2 -> 1, 3 -> 2; honours 7 -> 1, 8 -> 2)
    p7 = [(C(f"stat_{s}") // 2**19) & 15 for s in range(3)] + [(C("hstat") // 2**7) & 15]
    kk = [(C(f"stat_{s}") // 2**24) & 3 for s in range(3)] + [(C("hstat") // 2**11) & 3]
    pairs = pl.when(pl.all_horizontal([x > 0 for x in p7])).then(sum(x - 1 for x in p7)).otherwise(-1)
    tiles = pl.when(pl.all_horizontal([x > 0 for x in kk])).then(sum(kk) + 3 + 6).otherwise(-1)
    ok = (C("n_melds") == 0) & (C("problem0") == 0)
    lf = lf.with_columns(
        (C("nd_0") * C("nd_1") * C("nd_2")).alias(P + "n_read"),
        (ok & (pairs == 7)).alias(P + "cvalid"),
        (ok & (tiles == 14)).alias(P + "kvalid"),
    )
    return apply_stages(lf, "", hand_level(rules))
