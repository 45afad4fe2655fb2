"""Shanten and waits of hands given as 34 tile counts, for many hands at once: per-suit tables and a min-plus
combination of the suits, no loop over hands.

A hand's shanten is the number of tiles it lacks to be tenpai (0) or complete (−1): the minimum over four sets
and a pair (called melds count as sets), seven pairs and thirteen orphans (the last two for hands without
melds). For four sets and a pair it is computed as the tiles the hand lacks to reach the nearest complete
hand, minus one (tomohxx's method): a suit's part of the hand is looked up in a table that holds, for every
count vector of the suit (the base-5 code of :mod:`analyzer.tiles.tables`, rank ``i`` weighing ``5**i``) and
every target of ``k`` sets (0-4) with or without the pair, the fewest tiles of that suit to add; the suits'
rows are then combined by min-plus convolution. A target never holds a fifth copy of a kind, so a kind of
which the hand holds all four is no wait and makes no tenpai, as on Tenhou and in the ``mahjong`` package.

Each table is built (:func:`suit_table`) from the sets a suit allows (sequences in the number suits, triplets
and pairs everywhere; three-player manzu only 1m and 9m): a target's sub-hands are marked by walking down from
the targets, then the largest usable part of every count vector by walking up from the empty hand — one numpy
pass per tile count, about 4 s of CPU for the three tables. They are shipped built, in
``data/shanten_tables.npz`` (``scripts/build_shanten_tables.py``; a test builds them again and compares).

    counts (N, 34) int ─▶ suit codes ─▶ table rows (N, 10) per suit ─▶ min-plus over the suits ─▶ shanten (N,)
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np

MAX_SETS = 4
ROW = 2 * (MAX_SETS + 1)  # a table row: index 2*k + p, k sets (0-4) and p pairs (0-1)
MAX_SUIT_TILES = 14
TERMINALS_AND_HONOURS = np.array([0, 8, 9, 17, 18, 26, *range(27, 34)])
SANMA_ABSENT = np.arange(1, 8)  # 2m-8m: not in a three-player set
NO_SHAPE = 60  # above any real count; two of them still fit an int8


def _digits(kinds: int) -> np.ndarray:
    codes = np.arange(5**kinds, dtype=np.int64)
    return np.stack([(codes // 5**i) % 5 for i in range(kinds)], axis=1).astype(np.int8)


def _set_codes(kinds: int, sequences: bool, ranks: range | tuple) -> list[int]:
    """The codes of the sets a suit allows: triplets of ``ranks``, and sequences where the suit has them."""
    triplets = [3 * 5**i for i in ranks]
    runs = [5**i + 5 ** (i + 1) + 5 ** (i + 2) for i in range(kinds - 2)] if sequences else []
    return triplets + runs


@cache
def suit_table(kinds: int = 9, sequences: bool = True, ranks: tuple[int, ...] | None = None) -> np.ndarray:
    """``(5**kinds, 10)`` int8: for every count vector of a suit and every target (``2*k + p``: k sets, p
    pairs), the fewest tiles to add; count vectors of more than 14 tiles hold ``NO_SHAPE``."""
    digits = _digits(kinds)
    total = digits.sum(axis=1, dtype=np.int16)
    n = len(total)
    ranks = tuple(range(kinds)) if ranks is None else ranks
    sets = _set_codes(kinds, sequences, ranks)
    sets_d = [digits[c] for c in sets]
    layers = [np.flatnonzero(total == s) for s in range(MAX_SUIT_TILES + 1)]
    table = np.full((n, ROW), NO_SHAPE, np.int8)
    targets = {(0, 0): np.array([0], np.int64)}
    for k in range(MAX_SETS + 1):
        if k:
            previous = targets[(k - 1, 0)]
            grown = [previous[(digits[previous] + d).max(axis=1) <= 4] + c for c, d in zip(sets, sets_d)]
            targets[(k, 0)] = np.unique(np.concatenate(grown))
        plain = targets[(k, 0)]
        targets[(k, 1)] = np.unique(np.concatenate([plain[digits[plain, r] <= 2] + 2 * 5**r for r in ranks]))
    for (k, p), goal in targets.items():
        if len(goal) == 0:
            continue
        usable = np.zeros(n, bool)  # sub-hands of some target
        usable[goal] = True
        for s in range(3 * k + 2 * p, 0, -1):
            layer = layers[s][usable[layers[s]]]
            for i in range(kinds):
                held = layer[digits[layer, i] > 0]
                usable[held - 5**i] = True
        best = np.zeros(n, np.int16)  # the most tiles of the hand a target can use
        for s in range(1, MAX_SUIT_TILES + 1):
            layer = layers[s]
            down = np.zeros(len(layer), np.int16)
            for i in range(kinds):
                held = digits[layer, i] > 0
                down[held] = np.maximum(down[held], best[layer[held] - 5**i])
            best[layer] = np.where(usable[layer], s, down)
        rows = np.concatenate(layers)
        table[rows, 2 * k + p] = 3 * k + 2 * p - best[rows]
    return table


TABLES = "data/shanten_tables.npz"


def build_tables() -> dict[str, np.ndarray]:
    """The three tables as :data:`TABLES` holds them."""
    return {"number": suit_table(), "honours": suit_table(7, False), "sanma_man": suit_table(9, False, (0, 8))}


@cache
def shipped_tables() -> dict[str, np.ndarray]:
    with resources.files("analyzer.tiles").joinpath(TABLES).open("rb") as fh, np.load(fh) as npz:
        return {name: npz[name] for name in npz.files}


def _tables(three_players: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tables = shipped_tables()
    man = tables["sanma_man"] if three_players else tables["number"]
    return man, tables["number"], tables["honours"]


def _combine(a: np.ndarray, b: np.ndarray, upto: int = MAX_SETS) -> np.ndarray:
    """Min-plus convolution of two suits' columns (10, N): the fewest tiles for k sets (k ≤ ``upto``) and p
    pairs from both."""
    out = np.full(a.shape, NO_SHAPE, np.int8)
    for k in range(upto + 1):
        for p in range(2):
            target = out[2 * k + p]
            for k1 in range(k + 1):
                for p1 in range(p + 1):
                    np.minimum(target, a[2 * k1 + p1] + b[2 * (k - k1) + (p - p1)], out=target)
    return out


def _codes(counts: np.ndarray, start: int, kinds: int) -> np.ndarray:
    code = np.zeros(len(counts), np.int64)
    for rank in range(kinds):
        code += counts[:, start + rank].astype(np.int64) * 5**rank
    return code


def regular_shanten(counts: np.ndarray, melds: np.ndarray, three_players: bool = False) -> np.ndarray:
    """Shanten of four sets and a pair: ``counts`` (N, 34) the concealed tiles, ``melds`` (N,) the called
    sets (kans included) that stand for sets of the four."""
    man, number, honours = _tables(three_players)
    columns = [table[_codes(counts, start, kinds)].T.copy()
               for table, start, kinds in ((man, 0, 9), (number, 9, 9), (number, 18, 9), (honours, 27, 7))]
    rows = _combine(_combine(_combine(columns[0], columns[1]), columns[2]), columns[3])
    need = np.clip(MAX_SETS - np.asarray(melds, np.int64), 0, MAX_SETS)
    return rows[2 * need + 1, np.arange(rows.shape[1])] - 1


def seven_pairs_shanten(counts: np.ndarray) -> np.ndarray:
    """Shanten of seven pairs (a kind held four times is one pair)."""
    pairs = (counts >= 2).sum(axis=1)
    kinds = (counts >= 1).sum(axis=1)
    return (6 - pairs + np.maximum(0, 7 - kinds)).astype(np.int8)


def thirteen_orphans_shanten(counts: np.ndarray) -> np.ndarray:
    orphans = counts[:, TERMINALS_AND_HONOURS]
    return (13 - (orphans >= 1).sum(axis=1) - (orphans >= 2).any(axis=1)).astype(np.int8)


def shanten(counts: np.ndarray, melds: np.ndarray | None = None, three_players: bool = False) -> np.ndarray:
    """Shanten (−1 complete, 0 tenpai, …) of each row of ``counts`` (N, 34): the concealed tiles, red fives as
    fives; ``melds`` (N,) the called sets and kans (seven pairs and thirteen orphans only without any)."""
    counts = np.asarray(counts, np.int8)
    melds = np.zeros(len(counts), np.int64) if melds is None else np.asarray(melds, np.int64)
    best = regular_shanten(counts, melds, three_players)
    closed = melds == 0
    other = np.minimum(seven_pairs_shanten(counts), thirteen_orphans_shanten(counts))
    return np.where(closed, np.minimum(best, other), best).astype(np.int8)


def waits(counts: np.ndarray, melds: np.ndarray | None = None, three_players: bool = False) -> np.ndarray:
    """(N, 34) bool: the kinds one more tile of which completes each hand (a kind held four times never
    does; in three-player games 2m-8m are not in the set)."""
    counts = np.asarray(counts, np.int8)
    out = np.zeros(counts.shape, bool)
    for kind in range(34):
        if three_players and kind in SANMA_ABSENT:
            continue
        room = counts[:, kind] < 4
        grown = counts.copy()
        grown[:, kind] += room
        out[:, kind] = room & (shanten(grown, melds, three_players) == -1)
    return out
