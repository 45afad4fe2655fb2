"""Seeded random generator of winning hands in the tile-input column format (vectorised with numpy).

``generate(n, seed)`` returns a polars DataFrame with the columns ``analyzer.tiles.score_tiles`` reads:

* ``hand``: concealed tiles in MPSZ *including the winning tile* (``0`` = red five, written where the 5 goes),
* ``melds``: List[String] such as ``chi:340p``, ``pon:777z``, ``minkan:9999s``, ``kakan:5505p``, ``ankan:1111z``
  (empty list for none),
* ``win_tile``: one tile (``0p`` only when the copy that won is the red five),
* ``dora`` / ``ura``: indicator tiles in order, each as digit + suit (``4p1z``); the first is the dora
  indicator, the others kan dora; ``ura`` is null unless the winner declared riichi and has one ura indicator
  per dora indicator,
* the situation flags, ``_is_tsumo``, ``_is_riichi``, ``_seat_wind``, ``_round_wind``, ``_winner_is_dealer``,
* ``theme``: what the hand was drawn for (a hand drawn for ``ittsu`` may of course score other yaku too, and
  some open themed hands lose their yaku on purpose: open iipeikou, open pinfu shapes …).

Every hand is a complete, legal winning shape (4 groups + pair, chiitoitsu, kokushi or chuuren), at most 4
copies of a tile counting melds and indicators, at most one red five per suit. Flags are only set where they
are legal: riichi/double riichi/ippatsu only on closed hands (ankan allowed), rinshan only on a tsumo with a
kan, chankan only on a ron whose tile has its other three copies unseen, haitei only on tsumo, houtei only on
ron, tenhou/chiihou/renhou only on meld-less hands of the right seat and win type.

Hands may still lack a yaku (mostly open hands of the ``random`` theme): scorers must report ``no_yaku``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

# 34-kind indices: 0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N white green red.
SUITS = "mpsz"
HONOURS = np.arange(27, 34)
WINDS = np.arange(27, 31)
DRAGONS = np.arange(31, 34)
TERMINALS = np.array([0, 8, 9, 17, 18, 26])
YAOCHUU = np.concatenate([TERMINALS, HONOURS])
SIMPLES = np.array([s * 9 + r for s in range(3) for r in range(1, 8)])
GREENS = np.array([19, 20, 21, 23, 25, 32])  # 2 3 4 6 8 sou, green dragon

CHI, PON = 0, 1
# meld types of a group
CONCEALED, M_CHI, M_PON, M_MINKAN, M_KAKAN, M_ANKAN = range(6)
MELD_PREFIX = {M_CHI: b"chi:", M_PON: b"pon:", M_MINKAN: b"minkan:", M_KAKAN: b"kakan:", M_ANKAN: b"ankan:"}

# Theme weights (relative). Shape themes; situational flags are drawn over every theme where legal.
THEMES: dict[str, float] = {
    "random": 22.0,
    "pinfu": 6.0,
    "tanyao": 6.0,
    "yakuhai": 6.0,
    "honitsu": 5.0,
    "chinitsu": 4.0,
    "toitoi": 3.0,
    "sanankou": 3.0,
    "chanta": 3.0,
    "junchan": 3.0,
    "ittsu": 3.0,
    "sanshoku": 3.0,
    "sanshoku_doukou": 1.5,
    "iipeikou": 3.0,
    "ryanpeikou": 1.5,
    "chiitoitsu": 4.0,
    "kan": 4.0,
    "shousangen": 1.5,
    "honroutou": 1.0,
    "kokushi": 1.0,
    "daisangen": 1.0,
    "suuankou": 1.5,
    "tsuuiisou": 0.8,
    "shousuushii": 0.8,
    "daisuushii": 0.5,
    "ryuuiisou": 0.6,
    "chinroutou": 0.5,
    "chuuren": 0.8,
    "suukantsu": 0.4,
}

# Themes whose shape needs a closed hand (calls never made) and themes never permuted between suits.
_CLOSED_THEMES = {"pinfu", "ryanpeikou", "chiitoitsu", "kokushi", "suuankou", "chuuren"}
_NO_SUIT_PERMUTATION = {"ryuuiisou"}
# Probability that a hand of the theme makes calls at all.
_CALL_RATE = {"random": 0.5, "toitoi": 0.7, "yakuhai": 0.6, "honitsu": 0.45, "chinitsu": 0.35, "tanyao": 0.45,
              "iipeikou": 0.1, "sanankou": 0.3, "kan": 0.6, "suukantsu": 0.6}
_DEFAULT_CALL_RATE = 0.35


def _pick(rng: np.random.Generator, pool: np.ndarray, shape) -> np.ndarray:
    return pool[rng.integers(0, len(pool), size=shape)]


def _groups_from_pools(rng, n, chi_pool, pon_pool, chi_p):
    """Four random groups per hand: a chi from chi_pool with probability chi_p, else a pon from pon_pool."""
    is_chi = rng.random((n, 4)) < chi_p if len(chi_pool) else np.zeros((n, 4), bool)
    if not len(pon_pool):
        is_chi[:] = True
    kinds = np.where(is_chi, CHI, PON).astype(np.int8)
    tiles = np.where(is_chi, _pick(rng, chi_pool, (n, 4)) if len(chi_pool) else 0,
                     _pick(rng, pon_pool, (n, 4)) if len(pon_pool) else 0).astype(np.int16)
    return kinds, tiles


def _same_rank_in_three_suits(rng, n, group_kind, ranks, chi_share):
    """Groups 0-2 of one kind (chi or pon) on the same rank in m, p and s; the rest and the pair at random."""
    k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, chi_share)
    r = rng.integers(0, ranks, n)
    k[:, :3] = group_kind
    t[:, :3] = r[:, None] + np.array([0, 9, 18])
    return k, t, _pick(rng, PON_ALL, n)


def _honour_triplets(rng, n, first, kinds, full, chi_share):
    """Dragon or wind themes: triplets of all but one of ``kinds`` honours from ``first`` (the small form keeps
    the last as the pair) or of all of them (the big form, with a random pair)."""
    k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, chi_share)
    honours = np.argsort(rng.random((n, kinds)), axis=1) + first
    last = kinds - 1
    k[:, :last] = PON
    t[:, :last] = honours[:, :last]
    if full:
        k[:, last], t[:, last] = PON, honours[:, last]
        return k, t, _pick(rng, PON_ALL, n)
    return k, t, honours[:, last]


CHI_ALL = np.array([s * 9 + r for s in range(3) for r in range(7)])
PON_ALL = np.arange(34)
SUIT0 = np.arange(9)


def _shape(theme: str, rng, n):
    """(kinds (n,4), tiles (n,4), pair (n,), forced kans (n,4) bool) for a group-shaped theme, in suit-0 terms."""
    kans = np.zeros((n, 4), bool)
    if theme == "random":
        k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, 0.6)
        pair = _pick(rng, PON_ALL, n)
    elif theme == "pinfu":
        k, t = _groups_from_pools(rng, n, CHI_ALL, np.array([]), 1.0)
        pair = _pick(rng, np.concatenate([np.arange(27), [28, 29, 30]]), n)  # some wind pairs can be valued
    elif theme == "tanyao":
        chi = np.array([s * 9 + r for s in range(3) for r in range(1, 6)])
        k, t = _groups_from_pools(rng, n, chi, SIMPLES, 0.65)
        pair = _pick(rng, SIMPLES, n)
    elif theme == "yakuhai":
        k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, 0.6)
        k[:, 0], t[:, 0] = PON, _pick(rng, HONOURS, n)
        pair = _pick(rng, PON_ALL, n)
    elif theme == "honitsu":
        pool = np.concatenate([SUIT0, HONOURS])
        k, t = _groups_from_pools(rng, n, np.arange(7), pool, 0.55)
        pair = _pick(rng, pool, n)
    elif theme == "chinitsu":
        k, t = _groups_from_pools(rng, n, np.arange(7), SUIT0, 0.65)
        pair = _pick(rng, SUIT0, n)
    elif theme in ("toitoi", "sanankou", "suuankou", "kan", "suukantsu"):
        k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, 0.0 if theme != "kan" else 0.4)
        pair = _pick(rng, PON_ALL, n)
        if theme == "sanankou":
            k4, t4 = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, 0.6)
            k[:, 3], t[:, 3] = k4[:, 3], t4[:, 3]
        if theme == "kan":
            kans = (k == PON) & (rng.random((n, 4)) < 0.5)
        if theme == "suukantsu":
            kans = np.ones((n, 4), bool)
            kans[:, 3] = rng.random(n) < 0.6  # the others are sankantsu
    elif theme in ("chanta", "junchan"):
        chi = np.array([s * 9 + r for s in range(3) for r in (0, 6)])
        pool = YAOCHUU if theme == "chanta" else TERMINALS
        k, t = _groups_from_pools(rng, n, chi, pool, 0.6)
        pair = _pick(rng, pool, n)
    elif theme == "ittsu":
        k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, 0.6)
        k[:, :3] = CHI
        t[:, :3] = np.array([0, 3, 6])
        pair = _pick(rng, PON_ALL, n)
    elif theme == "sanshoku":
        k, t, pair = _same_rank_in_three_suits(rng, n, CHI, ranks=7, chi_share=0.6)
    elif theme == "sanshoku_doukou":
        k, t, pair = _same_rank_in_three_suits(rng, n, PON, ranks=9, chi_share=0.5)
    elif theme == "iipeikou":
        k, t = _groups_from_pools(rng, n, CHI_ALL, PON_ALL, 0.6)
        k[:, :2] = CHI
        t[:, 0] = _pick(rng, CHI_ALL, n)
        t[:, 1] = t[:, 0]
        pair = _pick(rng, PON_ALL, n)
    elif theme == "ryanpeikou":
        k = np.full((n, 4), CHI, np.int8)
        t = np.empty((n, 4), np.int16)
        t[:, 0] = t[:, 1] = _pick(rng, CHI_ALL, n)
        t[:, 2] = t[:, 3] = _pick(rng, CHI_ALL, n)
        pair = _pick(rng, PON_ALL, n)
    elif theme in ("shousangen", "daisangen"):
        k, t, pair = _honour_triplets(rng, n, first=31, kinds=3, full=theme == "daisangen", chi_share=0.6)
    elif theme in ("shousuushii", "daisuushii"):
        k, t, pair = _honour_triplets(rng, n, first=27, kinds=4, full=theme == "daisuushii", chi_share=0.5)
    elif theme == "tsuuiisou":
        h = np.argsort(rng.random((n, 7)), axis=1) + 27
        k = np.full((n, 4), PON, np.int8)
        t = h[:, :4].astype(np.int16)
        pair = h[:, 4]
    elif theme == "honroutou":
        h = YAOCHUU[np.argsort(rng.random((n, 13)), axis=1)]
        k = np.full((n, 4), PON, np.int8)
        t = h[:, :4].astype(np.int16)
        pair = h[:, 4]
    elif theme == "chinroutou":
        h = TERMINALS[np.argsort(rng.random((n, 6)), axis=1)]
        k = np.full((n, 4), PON, np.int8)
        t = h[:, :4].astype(np.int16)
        pair = h[:, 4]
    elif theme == "ryuuiisou":
        k, t = _groups_from_pools(rng, n, np.array([19]), GREENS, 0.3)
        pair = _pick(rng, GREENS, n)
    else:
        raise ValueError(theme)
    return k.astype(np.int8), t.astype(np.int16), np.asarray(pair, np.int16), kans


def _group_counts(kinds, tiles, pair, kan):
    """Tile counts (n,34) of four groups plus the pair; kans count 4."""
    n = len(pair)
    counts = np.zeros((n, 34), np.int16)
    rows = np.arange(n)
    for j in range(4):
        chi = kinds[:, j] == CHI
        for d in range(3):
            counts[rows[chi], tiles[chi, j] + d] += 1
        pon = ~chi
        counts[rows[pon], tiles[pon, j]] += np.where(kan[pon, j], 4, 3)
    counts[rows, pair] += 2
    return counts


def _special(theme, rng, n):
    """Concealed counts (n,34) of a special closed shape, in suit-0 terms."""
    counts = np.zeros((n, 34), np.int16)
    rows = np.arange(n)
    if theme == "kokushi":
        counts[:, YAOCHUU] = 1
        counts[rows, _pick(rng, YAOCHUU, n)] += 1
    elif theme == "chuuren":
        counts[:, :9] = np.array([3, 1, 1, 1, 1, 1, 1, 1, 3])
        counts[rows, rng.integers(0, 9, n)] += 1
    elif theme == "chiitoitsu":
        # draw the 7 pairs from a sub-pool: any tile, simples, one suit + honours, honours (tsuuiisou), yaochuu
        mode = rng.integers(0, 5, n)
        pools = np.zeros((5, 34), bool)
        pools[0] = True
        pools[1, SIMPLES] = True
        pools[2, :9] = True
        pools[2, HONOURS] = True
        pools[3, HONOURS] = True
        pools[4, YAOCHUU] = True
        key = rng.random((n, 34)) + ~pools[mode] * 2.0
        chosen = np.argsort(key, axis=1)[:, :7]
        counts[rows[:, None], chosen] = 2
    else:
        raise ValueError(theme)
    return counts


def _sample_by_weight(rng, weights):
    """One column index per row, with probability proportional to the row's non-negative weights."""
    cum = np.cumsum(weights, axis=1, dtype=np.int32)
    r = rng.random(len(weights)) * cum[:, -1]
    return np.minimum((cum <= r[:, None]).sum(axis=1), weights.shape[1] - 1)


def _strings(data: np.ndarray, lengths: np.ndarray) -> pl.Series:
    """A String series from a flat byte buffer and per-row lengths (built through Arrow buffers, no copies)."""
    import pyarrow as pa

    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    arr = pa.Array.from_buffers(pa.large_string(), len(lengths),
                                [None, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(data, np.uint8))])
    return pl.Series(pl.from_arrow(arr)).cast(pl.String)


def _compact(chars: np.ndarray) -> pl.Series:
    """A String series of the non-zero bytes of each row of an (n, width) uint8 array."""
    mask = chars != 0
    return _strings(chars[mask], mask.sum(axis=1))


# Hand strings are written by repeating one byte per "column" of this layout: per suit 1 2 3 4 0 5 6 7 8 9 letter
# (the red five is its own column, placed before the plain fives), then the honours 1-7 and 'z'.
_LAYOUT_BYTES = np.frombuffer(b"1234056789m1234056789p1234056789s1234567z", np.uint8)


def _hand_strings(conc: np.ndarray, red: np.ndarray) -> pl.Series:
    """MPSZ strings of concealed counts (n,34) with red fives (n,3) bool inside the concealed part."""
    n = len(conc)
    counts = np.zeros((n, 41), np.int16)
    for s in range(3):
        c = conc[:, s * 9:(s + 1) * 9]
        base = s * 11
        counts[:, base:base + 4] = c[:, :4]
        r = red[:, s] & (c[:, 4] > 0)
        counts[:, base + 4] = r
        counts[:, base + 5] = c[:, 4] - r
        counts[:, base + 6:base + 10] = c[:, 5:]
        counts[:, base + 10] = c.sum(axis=1) > 0
    counts[:, 33:40] = conc[:, 27:]
    counts[:, 40] = conc[:, 27:].sum(axis=1) > 0
    data = np.repeat(np.tile(_LAYOUT_BYTES, n), counts.ravel())
    return _strings(data, counts.sum(axis=1))


def _tile_strings(tile: np.ndarray, red: np.ndarray) -> np.ndarray:
    """(n,2) bytes of single tiles (digit, suit); red marks a red five. Tile -1 gives zero bytes."""
    out = np.zeros(tile.shape + (2,), np.uint8)
    valid = tile >= 0
    t = np.where(valid, tile, 0)
    d = np.where(red & (t % 9 == 4) & (t < 27), ord("0"), t % 9 + ord("1"))
    out[..., 0] = np.where(valid, d, 0)
    out[..., 1] = np.where(valid, np.frombuffer(SUITS.encode(), np.uint8)[t // 9], 0)
    return out


def generate(n: int, seed: int = 0, themes: dict[str, float] | None = None, flag_boost: float = 1.0) -> pl.DataFrame:
    """``n`` winning hands drawn with ``numpy.random.default_rng(seed)`` (see the module docstring).

    ``themes`` replaces the theme weights; ``flag_boost`` multiplies the rates of the rare situation flags
    (first-turn wins, double riichi, ippatsu, rinshan, haitei, houtei, chankan).
    """

    def rate(p):
        return np.minimum(np.asarray(p) * flag_boost, 0.9)

    rng = np.random.default_rng(seed)
    themes = themes or THEMES
    names = list(themes)
    w = np.array([themes[k] for k in names], float)
    theme_idx = rng.choice(len(names), size=n, p=w / w.sum())

    kinds = np.zeros((n, 4), np.int8)
    tiles = np.zeros((n, 4), np.int16)
    pair = np.full(n, -1, np.int16)
    mtype = np.zeros((n, 4), np.int8)  # CONCEALED or a meld type
    special = np.zeros((n, 34), np.int16)  # counts of special shapes (chiitoitsu, kokushi, chuuren)
    is_special = np.zeros(n, bool)

    for ti, theme in enumerate(names):
        rows = np.nonzero(theme_idx == ti)[0]
        if not len(rows):
            continue
        if theme in ("chiitoitsu", "kokushi", "chuuren"):
            special[rows] = _special(theme, rng, len(rows))
            is_special[rows] = True
            continue
        todo = rows
        while len(todo):
            k, t, p, kan = _shape(theme, rng, len(todo))
            ok = _group_counts(k, t, p, kan).max(axis=1) <= 4
            # decide calls for these rows
            m = np.zeros((len(todo), 4), np.int8)
            if theme not in _CLOSED_THEMES:
                calls = rng.random(len(todo)) < _CALL_RATE.get(theme, _DEFAULT_CALL_RATE)
                called = calls[:, None] & (rng.random((len(todo), 4)) < 0.5)
                if theme == "sanankou":
                    called[:, :3] = False
                u = rng.random((len(todo), 4))
                m = np.where(called & (k == CHI), M_CHI, m)
                m = np.where(called & (k == PON), np.where(u < 0.8, M_PON, np.where(u < 0.9, M_MINKAN, M_KAKAN)), m)
                m = np.where(~called & (k == PON) & (u < 0.05), M_ANKAN, m)
            elif theme == "suuankou":
                m = np.where(rng.random((len(todo), 4)) < 0.08, M_ANKAN, 0).astype(np.int8)
            # forced kans keep their open/closed state
            m = np.where(kan & (m == M_PON), np.where(rng.random((len(todo), 4)) < 0.5, M_MINKAN, M_KAKAN), m)
            m = np.where(kan & (m == CONCEALED), M_ANKAN, m)
            # re-check counts with the kans actually made
            iskan = (m == M_MINKAN) | (m == M_KAKAN) | (m == M_ANKAN)
            ok &= _group_counts(k, t, p, iskan).max(axis=1) <= 4
            good = todo[ok]
            kinds[good], tiles[good], pair[good], mtype[good] = k[ok], t[ok], p[ok], m[ok]
            todo = todo[~ok]

    # permute suits per hand (themes are drawn in suit-0 terms)
    perm = np.argsort(rng.random((n, 3)), axis=1).astype(np.int16)
    fixed = np.isin(theme_idx, [names.index(t) for t in _NO_SUIT_PERMUTATION if t in names])
    perm[fixed] = np.arange(3)

    def remap(t):
        t = np.asarray(t, np.int16)
        suited = (t >= 0) & (t < 27)
        s = np.where(suited, t // 9, 0)
        new_s = np.take_along_axis(perm, s.reshape(n, -1), axis=1).reshape(t.shape)
        return np.where(suited, new_s * 9 + t % 9, t).astype(np.int16)

    tiles = remap(tiles)
    pair = remap(pair)
    if is_special.any():
        sp = special.copy()
        for s in range(3):
            src = special[:, s * 9:(s + 1) * 9]
            for s2 in range(3):
                sel = perm[:, s] == s2
                sp[sel, s2 * 9:(s2 + 1) * 9] = src[sel]
        special = sp

    rows = np.arange(n)
    iskan = (mtype == M_MINKAN) | (mtype == M_KAKAN) | (mtype == M_ANKAN)
    is_open_meld = (mtype == M_CHI) | (mtype == M_PON) | (mtype == M_MINKAN) | (mtype == M_KAKAN)
    has_meld = (mtype != CONCEALED).any(axis=1)
    is_open = is_open_meld.any(axis=1)
    n_kans = iskan.sum(axis=1)

    # concealed counts (hand string) and meld counts
    conc = np.zeros((n, 34), np.int16)
    total = np.zeros((n, 34), np.int16)
    for j in range(4):
        chi = (kinds[:, j] == CHI) & ~is_special
        pon = (kinds[:, j] == PON) & ~is_special
        c = (mtype[:, j] == CONCEALED)
        for d in range(3):
            conc[rows[chi & c], tiles[chi & c, j] + d] += 1
            total[rows[chi], tiles[chi, j] + d] += 1
        conc[rows[pon & c], tiles[pon & c, j]] += 3
        total[rows[pon], tiles[pon, j]] += np.where(iskan[pon, j], 4, 3)
    norm = ~is_special
    conc[rows[norm], pair[norm]] += 2
    total[rows[norm], pair[norm]] += 2
    conc[is_special] = special[is_special]
    total[is_special] = special[is_special]

    # red fives: per suit, with probability 0.6 one of the fives (concealed or in a meld) is red
    red_conc = np.zeros((n, 3), bool)
    red_meld = np.zeros((n, 4, 3), bool)
    for s in range(3):
        five = s * 9 + 4
        n5 = total[:, five]
        # four fives of a suit in one hand: with red fives in play one of them must be the red one
        has_red = (n5 > 0) & ((rng.random(n) < 0.6) | (n5 == 4))
        u = np.floor(rng.random(n) * np.maximum(n5, 1)).astype(np.int16)
        red_conc[:, s] = has_red & (u < conc[:, five])
        acc = conc[:, five].astype(np.int16).copy()
        for j in range(4):
            in_meld = (mtype[:, j] != CONCEALED) & ~is_special
            cnt = np.where(in_meld & (kinds[:, j] == CHI) & (tiles[:, j] <= five) & (tiles[:, j] >= five - 2)
                           & (tiles[:, j] // 9 == s), 1, 0)
            cnt = np.where(in_meld & (kinds[:, j] == PON) & (tiles[:, j] == five), np.where(iskan[:, j], 4, 3), cnt)
            red_meld[:, j, s] = has_red & (u >= acc) & (u < acc + cnt)
            acc = acc + cnt

    # win tile: uniform over the concealed tiles
    win = _sample_by_weight(rng, conc).astype(np.int16)
    win_suit = np.where(win < 27, win // 9, 0)
    win_is_red = (win < 27) & (win % 9 == 4) & red_conc[rows, win_suit] & (
        rng.random(n) * conc[rows, win] < 1.0)

    # situation
    theme_arr = np.array(names)[theme_idx]
    seat = rng.integers(0, 4, n).astype(np.int8)
    round_wind = rng.choice(4, size=n, p=[0.5, 0.4, 0.07, 0.03]).astype(np.int8)
    dealer = seat == 0
    tsumo = rng.random(n) < np.where(theme_arr == "suuankou", 0.6, 0.45)
    closed = ~is_open
    no_meld = ~has_meld
    first_turn = no_meld & (rng.random(n) < rate(0.015))
    tenhou = first_turn & tsumo & dealer
    chiihou = first_turn & tsumo & ~dealer
    renhou = first_turn & ~tsumo & ~dealer
    riichi = closed & ~first_turn & (rng.random(n) < 0.6)
    double_riichi = riichi & (rng.random(n) < rate(0.07))
    ippatsu = riichi & (rng.random(n) < rate(0.15))
    rinshan = tsumo & (n_kans > 0) & ~first_turn & (rng.random(n) < rate(np.where(theme_arr == "kan", 0.4, 0.25)))
    haitei = tsumo & ~rinshan & ~first_turn & (rng.random(n) < rate(0.04))
    houtei = ~tsumo & ~first_turn & (rng.random(n) < rate(0.04))
    # chankan: the three other copies of the win tile are still unseen (one of them was just robbed from a kakan)
    chankan = ~tsumo & ~houtei & ~first_turn & (total[rows, win] == 1) & (rng.random(n) < rate(0.05))
    ippatsu &= ~rinshan  # ippatsu is broken by one's own kan in most readings; keep the set simple

    # dora / ura indicators: 1 + one per kan, never exceeding 4 copies of a tile
    seen = total.copy()
    seen[rows[chankan], win[chankan]] += 3  # the robbed kan's other tiles are on the table
    n_dora = 1 + n_kans
    n_ura = np.where(riichi, n_dora, 0)
    ind = np.full((n, 10), -1, np.int16)
    ind_red = np.zeros((n, 10), bool)
    red_used = red_conc | red_meld.any(axis=1)
    for i in range(10):
        need = np.where(i < 5, i < n_dora, (i - 5) < n_ura)
        idx = np.nonzero(need)[0]
        tile = rng.integers(0, 34, len(idx)).astype(np.int16)
        bad = seen[idx, tile] >= 4
        while bad.any():  # redraw tiles whose four copies are all seen
            tile[bad] = rng.integers(0, 34, int(bad.sum()))
            bad = seen[idx, tile] >= 4
        ind[idx, i] = tile
        seen[idx, tile] += 1
        s = np.where(tile < 27, tile // 9, 0)
        can_red = (tile < 27) & (tile % 9 == 4) & ~red_used[idx, s] & (rng.random(len(idx)) < 0.5)
        ind_red[idx[can_red], i] = True
        red_used[idx[can_red], s[can_red]] = True

    # strings
    hand = _hand_strings(conc, red_conc)
    ts = _tile_strings(ind, ind_red)  # (n,10,2)
    dora = _compact(ts[:, :5].reshape(n, 10))
    ura = pl.select(pl.when(pl.Series(riichi)).then(_compact(ts[:, 5:].reshape(n, 10)))).to_series()
    win_tile = _compact(_tile_strings(win, win_is_red))

    meld_cols = []
    for j in range(4):
        chars = np.zeros((n, 13), np.uint8)
        mt = mtype[:, j]
        present = (mt != CONCEALED) & ~is_special
        for mt_code, prefix in MELD_PREFIX.items():
            sel = present & (mt == mt_code)
            for i, b in enumerate(prefix):
                chars[sel, i] = b
        t = tiles[:, j]
        s = np.where(t < 27, t // 9, 3)
        red_here = red_meld[rows, j, np.minimum(s, 2)] & (s < 3)
        for d in range(4):
            if d < 3:
                tile_d = np.where(kinds[:, j] == CHI, t + d, t)
            else:
                tile_d = t
            show = present & ((d < 3) | iskan[:, j])
            digit = (tile_d % 9 + ord("1")).astype(np.uint8)
            is_five = (tile_d % 9 == 4) & (s < 3)
            # the red copy: in a chi its five; in a pon/kan the first digit
            redd = red_here & is_five & ((kinds[:, j] == CHI) | (d == 0))
            digit = np.where(redd, ord("0"), digit)
            chars[:, 7 + d] = np.where(show, digit, 0)
        chars[:, 11] = np.where(present, np.frombuffer(SUITS.encode(), np.uint8)[s], 0)
        col = _compact(chars)
        meld_cols.append(pl.select(pl.when(pl.Series(present)).then(col)).to_series().alias(f"m{j}"))

    df = pl.DataFrame(
        {
            "hand": hand,
            "m0": meld_cols[0], "m1": meld_cols[1], "m2": meld_cols[2], "m3": meld_cols[3],
            "win_tile": win_tile,
            "dora": dora,
            "ura": ura,
            "ippatsu": ippatsu,
            "double_riichi": double_riichi,
            "haitei": haitei,
            "houtei": houtei,
            "rinshan": rinshan,
            "chankan": chankan,
            "tenhou": tenhou,
            "chiihou": chiihou,
            "renhou": renhou,
            "_is_tsumo": tsumo,
            "_is_riichi": riichi,
            "_seat_wind": seat.astype(np.int64),
            "_round_wind": round_wind.astype(np.int64),
            "_winner_is_dealer": dealer,
            "theme": theme_arr,
        }
    )
    return df.with_columns(
        melds=pl.concat_list("m0", "m1", "m2", "m3").list.drop_nulls(),
        theme=pl.col("theme").cast(pl.String),
    ).select(
        "hand", "melds", "win_tile", "dora", "ura", "ippatsu", "double_riichi", "haitei", "houtei", "rinshan",
        "chankan", "tenhou", "chiihou", "renhou", "_is_tsumo", "_is_riichi", "_seat_wind", "_round_wind",
        "_winner_is_dealer", "theme",
    )


if __name__ == "__main__":  # pragma: no cover - manual look
    import sys
    import time

    t0 = time.perf_counter()
    out = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 20, seed=0)
    print(f"{len(out)} hands in {time.perf_counter() - t0:.2f}s")
    with pl.Config(tbl_rows=40, fmt_str_lengths=40, tbl_cols=30, tbl_width_chars=250):
        print(out.head(40))
