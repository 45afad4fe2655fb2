"""Shanten of many hands given as *suit codes*: the base-5 code of each suit's counts (rank ``i`` weighing
``5**i``, as :mod:`analyzer.tiles.shanten` indexes its tables), four codes a hand (manzu, pinzu, souzu,
honours).

A code is linear in the counts, so a seat's running codes are running sums of its tile changes' codes (four
columns instead of 34 counts, :mod:`.state`), and a suit's whole part of the shanten is one table row: the
shipped per-suit tables of four sets and a pair (:func:`analyzer.tiles.shanten.shipped_tables`), widened here by
the suit's pairs, kinds, terminal-and-honour kinds and whether one of those is a pair (seven pairs and thirteen
orphans), built once per process from the table of digits. A hand's shanten is then four row gathers, a
min-plus combination of the suits and a few sums:

    codes (N, 4) ─▶ rows (N, 14) per suit ─▶ min-plus over the suits; pairs, kinds, orphans ─▶ shanten (N,)

The same hands given as counts give the same shanten as :func:`analyzer.tiles.shanten.shanten` (a test compares
them on every state of the shared logs).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from analyzer.tiles.shanten import MAX_SETS, NO_SHAPE, ROW, SANMA_ABSENT, shipped_tables

SUITS = 4
SUIT_KINDS = (9, 9, 9, 7)
POWERS = 5 ** np.arange(9, dtype=np.int64)
# the extra columns of a widened row: pairs, kinds, terminal-and-honour kinds, a terminal-or-honour pair
PAIRS, KINDS, ORPHANS, ORPHAN_PAIR = ROW, ROW + 1, ROW + 2, ROW + 3
WIDE = ROW + 4
CHUNK = 1 << 15  # rows of hands whose shanten is computed together


def _per_code(values: np.ndarray, kinds: int, ranks: list[int]) -> np.ndarray:
    """(5**kinds,) int8: for every code of a suit, ``values[count]`` summed over the ranks ``ranks`` (broadcast
    sums over the code's digits, no table of digits)."""
    out = np.zeros((5,) * kinds, np.int8)
    for rank in ranks:  # the last axis varies fastest: rank i is axis kinds - 1 - i
        shape = [1] * kinds
        shape[kinds - 1 - rank] = 5
        out += np.asarray(values, np.int8).reshape(shape)
    return out.reshape(-1)


def _widened(table: np.ndarray, kinds: int, orphan_ranks: list[int]) -> np.ndarray:
    out = np.empty((len(table), WIDE), np.int8)
    out[:, :ROW] = table
    every = list(range(kinds))
    out[:, PAIRS] = _per_code([0, 0, 1, 1, 1], kinds, every)
    out[:, KINDS] = _per_code([0, 1, 1, 1, 1], kinds, every)
    out[:, ORPHANS] = _per_code([0, 1, 1, 1, 1], kinds, orphan_ranks)
    out[:, ORPHAN_PAIR] = _per_code([0, 0, 1, 1, 1], kinds, orphan_ranks) > 0
    return out


@cache
def wide_tables(three_players: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The four suits' widened tables (manzu, pinzu, souzu, honours), ``(5**kinds, 14)`` int8 each; three-player
    manzu holds only 1m and 9m, so its sets are their triplets."""
    tables = shipped_tables()
    number = _widened(tables["number"], 9, [0, 8])
    man = _widened(tables["sanma_man"], 9, [0, 8]) if three_players else number
    return man, number, number, _widened(tables["honours"], 7, list(range(7)))


def codes_of(counts: np.ndarray) -> np.ndarray:
    """(N, 34) counts as (N, 4) int32 suit codes."""
    counts = np.asarray(counts, np.int64)
    return np.stack([counts[:, 9 * s: 9 * s + k] @ POWERS[:k] for s, k in enumerate(SUIT_KINDS)], axis=1) \
        .astype(np.int32)


def counts_of(codes: np.ndarray) -> np.ndarray:
    """(N, 4) suit codes as (N, 34) int8 counts."""
    codes = np.asarray(codes, np.int64)
    out = np.empty((len(codes), 34), np.int8)
    for s, kinds in enumerate(SUIT_KINDS):
        out[:, 9 * s: 9 * s + kinds] = (codes[:, s, None] // POWERS[:kinds]) % 5
    return out


def _combine(a: np.ndarray, b: np.ndarray, pairs: range = range(2)) -> np.ndarray:
    """Min-plus convolution of two suits' rows (10, N): the fewest tiles for k sets and p pairs from both."""
    out = np.full(a.shape, NO_SHAPE, np.int8)
    term = np.empty(a.shape[1], np.int8)
    for k in range(MAX_SETS + 1):
        for p in pairs:
            target = out[2 * k + p]
            for k1 in range(k + 1):
                for p1 in range(p + 1):
                    np.add(a[2 * k1 + p1], b[2 * (k - k1) + (p - p1)], out=term)
                    np.minimum(target, term, out=target)
    return out


def shanten_of_codes(codes: np.ndarray, sets: np.ndarray, three_players: np.ndarray | bool = False) -> np.ndarray:
    """Shanten (−1 complete, 0 tenpai, …; int8) of each hand of ``codes`` (N, 4) with ``sets`` (N,) called
    sets (kans included); ``three_players`` (N,) or one for all: three-player hands (no 2m-8m)."""
    codes, sets = np.asarray(codes), np.asarray(sets)
    three = np.broadcast_to(np.asarray(three_players, bool), (len(codes),))
    sanma = np.flatnonzero(three)
    if len(sanma) == len(codes):
        return _in_chunks(codes, sets, True)
    out = _in_chunks(codes, sets, False)  # all as four-player hands, then the three-player ones again
    if len(sanma):
        out[sanma] = _in_chunks(codes[sanma], sets[sanma], True)
    return out


def _in_chunks(codes: np.ndarray, sets: np.ndarray, three_players: bool) -> np.ndarray:
    """:func:`_shanten` a chunk of rows at a time: a chunk's table rows stay in the processor's cache through
    the min-plus steps (three times faster than whole columns)."""
    out = np.empty(len(codes), np.int8)
    for start in range(0, len(codes), CHUNK):
        out[start:start + CHUNK] = _shanten(codes[start:start + CHUNK], sets[start:start + CHUNK], three_players)
    return out


def _shanten(codes: np.ndarray, sets: np.ndarray, three_players: bool) -> np.ndarray:
    tables = wide_tables(three_players)
    rows = [np.ascontiguousarray(np.take(table, codes[:, s], axis=0).T) for s, table in enumerate(tables)]
    # manzu and pinzu, souzu and honours, then the two halves for one pair only
    first = _combine(rows[0][:ROW], rows[1][:ROW])
    second = _combine(rows[2][:ROW], rows[3][:ROW])
    whole = _combine(first, second, pairs=range(1, 2))
    need = np.clip(MAX_SETS - np.asarray(sets, np.int64), 0, MAX_SETS)
    regular = whole[2 * need + 1, np.arange(len(codes))] - 1
    pairs = sum(r[PAIRS].astype(np.int16) for r in rows)
    kinds = sum(r[KINDS].astype(np.int16) for r in rows)
    seven_pairs = 6 - pairs + np.maximum(0, 7 - kinds)
    orphans = sum(r[ORPHANS].astype(np.int16) for r in rows)
    orphan_pair = rows[0][ORPHAN_PAIR] | rows[1][ORPHAN_PAIR] | rows[2][ORPHAN_PAIR] | rows[3][ORPHAN_PAIR]
    thirteen_orphans = 13 - orphans - (orphan_pair > 0)
    closed = np.minimum(seven_pairs, thirteen_orphans)
    return np.where(need == MAX_SETS, np.minimum(regular, closed), regular).astype(np.int8)


def waits_of_codes(codes: np.ndarray, sets: np.ndarray, three_players: np.ndarray | bool = False) -> np.ndarray:
    """(N, 34) bool: the kinds one more tile of which completes each hand of ``codes`` (a kind held four times
    never does; in three-player hands 2m-8m are not in the set): one shanten of 34 grown hands per hand."""
    codes = np.asarray(codes, np.int64)
    n = len(codes)
    three = np.broadcast_to(np.asarray(three_players, bool), (n,))
    room = counts_of(codes) < 4
    room[:, SANMA_ABSENT] &= ~three[:, None]
    grown = np.repeat(codes[:, None, :], 34, axis=1)
    for kind in range(34):
        grown[:, kind, kind // 9] += POWERS[kind % 9] * room[:, kind]
    complete = shanten_of_codes(grown.reshape(-1, SUITS), np.repeat(sets, 34), np.repeat(three, 34)) == -1
    return room & complete.reshape(n, 34)
