"""Lookup tables (numpy built, exposed as Polars Series for ``pl.lit(series).gather(idx)``).

* Suit decompositions come from ``data/suit_decomp.npz`` (written by ``scripts/build_tile_tables.py``):
  21,743 decomposable 9-count vectors, 23,533 splits.  At import they are scattered into dense arrays over
  all 5**9 base-5 codes: ``NDEC[code]`` (0 = not decomposable) and ``OFF[code]`` (first split's row).
* Per-code shape stats (chiitoitsu pairs, kokushi, chuuren) and the honour table are computed here with
  numpy over the dense code space (a few tens of ms).
* ``DIG32`` maps a 5-digit decimal chunk of a tile string ("1123") to the sum of 32**(d-1) over its digits,
  so a suit's digit string becomes a base-32 count code with ``str.to_integer`` and three gathers;
  ``C5OF15_0..2`` turn 15 bits of such a code (three counts) into their part of the base-5 table key.
* ``SPLIT0..SPLIT2`` (one packed Int64 word per split row and suit, the three suits' words add up) and
  ``WAITFLAGS`` (wait kinds a win tile of a given rank allows in a given split) serve the standard reading.
* Melds: :func:`meld_ids` maps every well-formed meld string (any digit order, red fives) to
  ``1 + kind*34 + tile``; ``MPACK`` (additive packed counts and fu), ``MC0..MC3`` (base-32 count
  contributions per suit), ``MCHI``/``MPON`` (sequence / triplet bits) are indexed by that id.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np
import polars as pl

NCODES = 5**9
CHUNK = 5  # decimal digits per DIG32 lookup (3 lookups cover the 14 tiles of a suit)
NHON = 5**7
NFLAT = 23533  # rows (splits) of the suit decomposition table
SUITSTAT_PAIR_BIT = 26
FIELDS = ("chi", "nchi", "peikou", "pon", "pon_simple", "pon_term", "pair", "outside", "ryan", "kan", "pen")


def _digits(n: int, width: int) -> np.ndarray:
    codes = np.arange(n, dtype=np.int64)
    return np.stack([(codes // 5**i) % 5 for i in range(width)], axis=1).astype(np.int8)


@cache
def tables() -> dict[str, pl.Series]:
    out: dict[str, pl.Series] = {}
    with resources.files("analyzer.tiles").joinpath("data/suit_decomp.npz").open("rb") as fh:
        npz = np.load(fh)
        data = {k: npz[k] for k in npz.files}
    codes, ndec = data["codes"], data["ndec"].astype(np.int32)
    dense_n = np.zeros(NCODES, np.int8)
    dense_off = np.zeros(NCODES, np.int32)
    dense_n[codes] = ndec
    dense_off[codes] = np.concatenate([[0], np.cumsum(ndec)[:-1]]).astype(np.int32)
    out["NDEC"] = pl.Series("ndec", dense_n, dtype=pl.Int32)
    out["OFF"] = pl.Series("off", dense_off, dtype=pl.Int32)
    for name in FIELDS:
        out[name] = pl.Series(name, data[name].astype(np.int32))
    out.update(_split_words(data))

    # sparse shapes scattered into dense code arrays (-99 = shape impossible)
    p7 = np.full(NCODES, -99, np.int32)
    for mask in range(512):
        ranks = [i for i in range(9) if mask >> i & 1]
        p7[sum(2 * 5**i for i in ranks)] = len(ranks)
    out["PAIRS7"] = pl.Series("p7", p7)
    kok = np.full(NCODES, -99, np.int32)
    for a in (1, 2):
        for b in (1, 2):
            kok[a + b * 5**8] = a + b
    out["KOK"] = pl.Series("kok", kok)
    chu = np.zeros(NCODES, np.int32)
    base = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    for extra in range(9):
        chu[sum((c + (i == extra)) * 5**i for i, c in enumerate(base))] = 1
    out["CHUUREN"] = pl.Series("chu", chu)

    # one packed gather per suit: ndec | off << 3 | chuuren << 18 | (chiitoitsu pairs + 1) << 19 | kokushi << 24
    # | (decomposable and its tile count is 2 mod 3: its split holds the pair) << 26
    p7_packed = np.where(p7 >= 0, p7 + 1, 0)
    kok_packed = np.where(kok >= 0, kok - 1, 0)  # 2 tiles -> 1, 3 tiles -> 2
    has_pair = np.zeros(NCODES, bool)  # only the decomposable codes are ever read for it
    has_pair[codes] = sum((codes // 5**i) % 5 for i in range(9)) % 3 == 2
    suitstat = (dense_n.astype(np.int64) | dense_off.astype(np.int64) << 3 | chu.astype(np.int64) << 18
                | p7_packed.astype(np.int64) << 19 | kok_packed.astype(np.int64) << 24
                | has_pair.astype(np.int64) << SUITSTAT_PAIR_BIT)
    out["SUITSTAT"] = pl.Series("suitstat", suitstat.astype(np.int32))

    h = _digits(NHON, 7)
    htotal = h.sum(axis=1)
    hpairs = (h == 2).sum(axis=1)
    hvalid = np.all((h == 0) | (h == 2) | (h == 3), axis=1) & (hpairs <= 1)
    out["HVALID"] = pl.Series("hv", hvalid.astype(np.int32))
    out["HPAIR"] = pl.Series("hp", np.where(hpairs == 1, np.argmax(h == 2, axis=1), 7).astype(np.int32))
    out["HPON"] = pl.Series("hpon", (h == 3).sum(axis=1).astype(np.int32))
    out["HPAIRS7"] = pl.Series("hp7", np.where(np.all((h == 0) | (h == 2), axis=1), htotal // 2, -99).astype(np.int32))
    hkok = np.all((h >= 1) & (h <= 2), axis=1)
    out["HKOK"] = pl.Series("hkok", np.where(hkok, htotal, -99).astype(np.int32))

    # one packed gather for the honours: valid | pair << 1 | pons << 4 | (pairs7 + 1) << 7 | (kokushi tiles - 6) << 11
    hstat = (hvalid.astype(np.int64) | out["HPAIR"].to_numpy().astype(np.int64) << 1
             | out["HPON"].to_numpy().astype(np.int64) << 4
             | np.where(out["HPAIRS7"].to_numpy() >= 0, out["HPAIRS7"].to_numpy() + 1, 0).astype(np.int64) << 7
             | np.where(hkok, htotal - 6, 0).astype(np.int64) << 11)
    out["HONSTAT"] = pl.Series("honstat", hstat.astype(np.int32))

    # digit chunks: "1123" -> sum of 32**(d-1); zero digits are padding (red fives were read as 5)
    n = np.arange(10**CHUNK)
    chunk = np.stack([(n // 10**i) % 10 for i in range(CHUNK)], axis=1)
    p32 = np.where(chunk > 0, 32 ** np.maximum(chunk - 1, 0).astype(np.int64), 0).sum(axis=1)
    out["DIG32"] = pl.Series("d32", p32.astype(np.int64))

    # melds: every valid meld string -> id = 1 + kind*34 + tile; features by id (0 = no meld)
    ids = meld_ids()
    n_id = 1 + 5 * 34
    pack = np.zeros(n_id, np.int64)
    contrib = np.zeros((4, n_id), np.int64)
    chi_bit = np.zeros(n_id, np.int64)
    pon_bit = np.zeros(n_id, np.int64)
    for kind in range(5):
        for tile in range(34):
            i = 1 + kind * 34 + tile
            suit, rank = divmod(tile, 9)
            yao = suit == 3 or (rank in (0, 6) if kind == 0 else rank in (0, 8))
            if kind == 0:
                contrib[suit, i] = 1057 * 32**rank
                chi_bit[i] = 2 ** (suit * 7 + rank) if rank <= 6 else 0
            else:
                contrib[suit, i] = (3 if kind == 1 else 4) * 32**rank
                pon_bit[i] = 2 ** (suit * 9 + rank) if suit < 3 else 0
            cat = {1: 0, 2: 4, 3: 4, 4: 6}.get(kind, -1)
            fu = {1: 2, 2: 8, 3: 8, 4: 16}.get(kind, 0) * (2 if yao else 1)
            fields = [int(kind < 4), int(kind >= 2), int(kind == 4), int(kind == 0), int(yao)]
            value = sum(v * 8**j for j, v in enumerate(fields)) + fu * 2**15
            if cat >= 0:
                value += 8 ** (cat + int(yao)) * MELD_CAT_SHIFT
            pack[i] = value
    # melds come in pairs (slots 0+1, 2+3): one gather reads both, index a * n_id + b
    def pair(values: np.ndarray, combine) -> pl.Series:
        return pl.Series(combine(values[:, None], values[None, :]).ravel())

    out["MPACK2"] = pair(pack, np.add)
    for suit in range(4):
        out[f"MC2_{suit}"] = pair(contrib[suit], np.add)
    out["MBITS2"] = pair(chi_bit | pon_bit << MELD_PON_SHIFT, np.bitwise_or)
    # tile codes (analyzer.tiles.codes): three 5-bit counts (15 bits of a base-32 code) -> their base-5 code;
    # a count over 4 gives 5**9, which pushes the whole code out of the decomposable range
    x = np.arange(2**15)
    c3 = np.stack([(x >> (5 * i)) & 31 for i in range(3)], axis=1)
    # ranks 0-2, 3-5 and 6-8 of a suit: their part of the base-5 key (Int32; a count above 4 gives NCODES, which
    # keeps any sum at or above NCODES, i.e. not a table code)
    for j in range(3):
        part = np.where((c3 > 4).any(axis=1), NCODES, (c3 * [1, 5, 25]).sum(axis=1) * 125**j)
        out[f"C5OF15_{j}"] = pl.Series(f"c5of15_{j}", part.astype(np.int32))
    # by 1 + indicator tile id (0 = none, 35.. = not a tile): 32**(8 - rank of its dora), 0 for no tile
    dora_mul = np.zeros(64, np.int64)
    dora_mul[1:35] = [32 ** (8 - _dora_of(t) % 9) for t in range(34)]
    out["DORA_MUL"] = pl.Series("dora_mul", dora_mul)
    # kan dora: two 6-bit indicator ids (12 bits of a packed code, e.g. indicators 1-2) -> for suit s, the sum of
    # DORA_MUL over those whose dora is in suit s (a count read by one multiply, see features.count_in_suit:
    # the shifted counts of at most 5 indicators stay below 32, so they add without a carry); IND2_BAD flags a
    # chunk holding an id above 34
    chunk = np.arange(4096)
    first, second = chunk & 63, chunk >> 6
    dora_suit = np.full(64, -1)
    dora_suit[1:35] = [_dora_of(t) // 9 for t in range(34)]
    for suit in range(4):
        mul = np.where(dora_suit == suit, dora_mul, 0)
        out[f"DORA2_{suit}"] = pl.Series(f"dora2_{suit}", mul[first] + mul[second])
    out["IND2_BAD"] = pl.Series("ind2_bad", ((first > 34) | (second > 34)).astype(np.int32))
    # by tile id (0-33): 32**(8 - rank), which moves that tile's count in its suit's code to bits 40-44
    out["WIN_MUL"] = pl.Series("win_mul", [32 ** (8 - t % 9) for t in range(34)], dtype=pl.Int64)
    out["POW32"] = pl.Series("p32", [32**i for i in range(10)], dtype=pl.Int64)
    out["POW10"] = pl.Series("p10", [10**i for i in range(19)], dtype=pl.Int64)
    out["POW2"] = pl.Series("p2", [2**i for i in range(40)], dtype=pl.Int64)
    out["POW8"] = pl.Series("p8", [8**i for i in range(12)], dtype=pl.Int64)
    return out


# SPLIT0..SPLIT2: one Int64 per split row holding everything the reading needs from that suit, laid out so that
# the three suits' words can simply be added: chi bits at 7*suit, pon bits at 21 + 9*suit, then counts that add
# up across suits.  In a hand without a problem the sums stay within their fields (at most 4 groups); rows
# with a problem may carry over, but their readings are never used and every field read is masked.
SPLIT_CHI_BITS = 2**21  # word % 2**21: chi bits of the 3 suits (7 each)
SPLIT_PON_SHIFT = 2**21  # (word // 2**21) % 2**27: pon bits of the 3 suits (9 each)
SPLIT_NCHI = 2**48  # 3 bits: sequences
SPLIT_PEIKOU = 2**51  # 2 bits: pairs of equal sequences
SPLIT_PON_SIMPLE = 2**53  # 3 bits: triplets of 2-8
SPLIT_PON_TERM = 2**56  # 3 bits: triplets of 1 / 9
SPLIT_OUTSIDE = 2**59  # 2 bits: suits whose every group holds a 1 or 9 (3 = all)
# WAITFLAGS[split * 9 + rank] (win tile in a number suit) or WAITFLAGS[NFLAT * 9 + honour_pair * 7 + rank]
# (win tile an honour; honour_pair 7 = none): 1 ryanmen, 2 kanchan, 4 penchan, 8 tanki possible
WAIT_RYANMEN, WAIT_KANCHAN, WAIT_PENCHAN, WAIT_TANKI = 1, 2, 4, 8


def _split_words(data: dict[str, np.ndarray]) -> dict[str, pl.Series]:
    f = {name: data[name].astype(np.int64) for name in FIELDS}
    counts = (f["nchi"] * SPLIT_NCHI + f["peikou"] * SPLIT_PEIKOU + f["pon_simple"] * SPLIT_PON_SIMPLE
              + f["pon_term"] * SPLIT_PON_TERM + f["outside"] * SPLIT_OUTSIDE)
    out = {f"SPLIT{s}": pl.Series(f"split{s}", f["chi"] * 2 ** (7 * s) + f["pon"] * 2 ** (21 + 9 * s) + counts)
           for s in range(3)}
    ranks = np.arange(9)
    bit = lambda mask: (mask[:, None] >> ranks[None, :]) & 1  # noqa: E731 - (split, rank) bit of a mask
    flags = (bit(f["ryan"]) * WAIT_RYANMEN + bit(f["kan"]) * WAIT_KANCHAN + bit(f["pen"]) * WAIT_PENCHAN
             + (f["pair"][:, None] == ranks[None, :]) * WAIT_TANKI)
    honour = (np.arange(8)[:, None] == np.arange(7)[None, :]) * WAIT_TANKI
    out["WAITFLAGS"] = pl.Series("waitflags", np.concatenate([flags.ravel(), honour.ravel()]).astype(np.int32))
    return out


MELD_KINDS = ("chi", "pon", "minkan", "kakan", "ankan")
RED_UNIT = 256  # meld_ids() values carry the number of red fives of the meld above this
MELD_ID_MAX = 5 * 34  # meld ids (without red fives) are 1..MELD_ID_MAX
MELD_PON_SHIFT = 21  # MBITS2: sequence bits (7 per suit) below, triplet bits (9 per suit) from this bit on
MELD_CAT_SHIFT = 2**26  # MPACK: 3-bit counts open, kan, ankan, chi, outside; fu << 15; categories << 26


@cache
def meld_ids() -> dict[str, int]:
    """Every well-formed meld string (any digit order, red 0 for any 5) -> 1 + kind*34 + tile + RED_UNIT*reds."""
    from itertools import permutations, product

    ids: dict[str, int] = {}
    for kind, name in enumerate(MELD_KINDS):
        for suit, letter in enumerate("mpsz"):
            for rank in range(9 if suit < 3 else 7):
                if kind == 0:
                    if suit == 3 or rank > 6:
                        continue
                    ranks = [rank, rank + 1, rank + 2]
                else:
                    ranks = [rank] * (3 if kind == 1 else 4)
                digits = [str(r + 1) for r in ranks]
                variants = {""}
                for choice in product(*[("5", "0") if d == "5" and suit < 3 else (d,) for d in digits]):
                    for perm in permutations(choice):
                        variants.add("".join(perm))
                variants.discard("")
                for v in variants:
                    ids[f"{name}:{v}{letter}"] = 1 + kind * 34 + suit * 9 + rank + RED_UNIT * v.count("0")
    return ids


TILE_TOKENS = {f"{r}{s}": i * 9 + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}
TILE_TOKENS |= {f"0{s}": i * 9 + 4 for i, s in enumerate("mps")} | {f"{r}z": 26 + r for r in range(1, 8)}


def _dora_of(t: int) -> int:
    suit, rank = divmod(t, 9)
    if suit < 3:
        return suit * 9 + (rank + 1) % 9
    return 27 + ((rank + 1) % 4 if rank < 4 else 4 + (rank - 3) % 3)


def lut(name: str, idx: pl.Expr) -> pl.Expr:
    """``TABLE[idx]`` as an expression (``idx`` must be in range and not null)."""
    return pl.lit(tables()[name]).gather(idx)
