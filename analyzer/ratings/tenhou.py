"""Tenhou's R, computed over any games: a recurrence over the games in their order (:mod:`analyzer.ratings.order`).

For each player of a game, with N the player's games counted *including this one*::

    adj    = 1 - 0.002 * N          (0.2 from N = 400 on)
    change = adj * (place base + (table average R - own R) / scale)

where the table average includes the player's own R, ``scale`` is 40, the place bases are +30/+10/-10/-30 with
four players and +30/0/-30 with three, and a new account starts at 1500. Where players share a place (the
ruleset's ``tie_rule = "split"``), they share the bases of the places they span: the bases are averaged.

The recurrence is sequential (a game's table average needs every player's R after their previous game), so it
is a loop over games; everything that is not sequential — which key each row rates, the game number N, adj,
the place base — is computed beforehand on whole columns, and the loop does only the sums.
"""

from __future__ import annotations

import numpy as np
import polars as pl

PLACE_BASES = {4: (30.0, 10.0, -10.0, -30.0), 3: (30.0, 0.0, -30.0)}
START = 1500.0
SCALE = 40.0
ADJ_STEP = 0.002  # adj falls by this much per game counted
ADJ_FLOOR_GAMES = 400  # from this many games on, adj stays at its floor
ADJ_FLOOR = 1 - ADJ_STEP * ADJ_FLOOR_GAMES


def adjustment(games: np.ndarray) -> np.ndarray:
    """adj for a player's N-th game (N counted including the game)."""
    return np.where(games < ADJ_FLOOR_GAMES, 1.0 - ADJ_STEP * games, ADJ_FLOOR)


def _base_table() -> np.ndarray:
    """The place base by player count, first place shared (from 0) and places shared (1-4)."""
    table = np.zeros((5, 4, 5))
    for count, bases in PLACE_BASES.items():
        cumulative = np.concatenate([[0.0], np.cumsum(bases)])
        for first in range(count):
            for sharing in range(1, 5):
                last = min(first + sharing, count)
                table[count, first, sharing] = (cumulative[last] - cumulative[first]) / max(last - first, 1)
    return table


_BASES = _base_table()


def shared_bases(players: np.ndarray, place: np.ndarray, sharing: np.ndarray) -> np.ndarray:
    """Each row's place base: the average of the bases of the ``sharing`` places from ``place`` on (one place
    when nobody shares it); 0 for a table of another size than three or four."""
    count = np.where(np.isin(players, (3, 4)), players, 0).astype(np.int64)
    first = np.clip(place - 1, 0, np.maximum(count - 1, 0))
    return _BASES[count, first, np.clip(sharing, 1, 4)]


CHUNK_ROWS = 100_000  # rows of games handed to the loop at a time: Python lists of a chunk, not of the run


def rate(key: np.ndarray, game_start: np.ndarray, base: np.ndarray, number: np.ndarray, initial: np.ndarray,
         scale: float = SCALE) -> np.ndarray:
    """R after each row. Rows in game order, a game's rows together; ``key``: each row's rating (0..K-1),
    ``game_start``: the first row of each game (and the row count last), ``base``: the place base, ``number``:
    N, ``initial``: each key's R before its first game here.

    Each row's change is ``c + d * (average - R)`` with ``c = adj * base`` and ``d = adj / scale`` computed on
    the whole columns first; the loop (one step per game) reads the players' R, adds up and writes R back.
    Four-player and three-player games rate keys of their own (a key is a player at one table size), so each
    size's games are one recurrence: they run apart, in order, their rows read four (or three) abreast by one
    ``zip`` (no slice per game); a key rated at both sizes (not made by :func:`analyzer.ratings.compute_ratings`)
    runs every game in one loop instead. The rows go to the loop a chunk at a time as Python lists (fast to
    index, but 30-odd bytes a value: a chunk at a time keeps them small)."""
    adj = adjustment(number)
    c_all, d_all = adj * base, adj / scale
    r = initial.astype(float).tolist()
    after = np.empty(len(key))
    starts = np.asarray(game_start, dtype=np.int64)
    size = np.diff(starts)
    row_size = np.repeat(size, size)
    groups = [np.flatnonzero(row_size == n) for n in (4, 3)]
    rest = np.flatnonzero((row_size != 4) & (row_size != 3))
    used = np.zeros(len(r), bool)
    used[key[groups[0]]] = True
    if len(rest) or used[key[groups[1]]].any():  # the sizes share keys: one recurrence over every game
        _general(key, starts, c_all, d_all, r, after)
        return after
    for n, rows in zip((4, 3), groups):
        step = max(n, CHUNK_ROWS - CHUNK_ROWS % n)  # whole games
        for lo in range(0, len(rows), step):
            at = rows[lo:lo + step]
            after[at] = (_fours if n == 4 else _threes)(key[at].tolist(), c_all[at].tolist(), d_all[at].tolist(), r)
    return after


def _fours(k: list, c: list, d: list, r: list) -> list:
    """R after each row of consecutive four-player games (``r`` updated in place)."""
    out: list = []
    add = out.extend
    for k0, k1, k2, k3, c0, c1, c2, c3, d0, d1, d2, d3 in zip(k[0::4], k[1::4], k[2::4], k[3::4], c[0::4], c[1::4],
                                                            c[2::4], c[3::4], d[0::4], d[1::4], d[2::4], d[3::4]):
        r0, r1, r2, r3 = r[k0], r[k1], r[k2], r[k3]
        m = (r0 + r1 + r2 + r3) / 4
        new = r[k0], r[k1], r[k2], r[k3] = (r0 + c0 + d0 * (m - r0), r1 + c1 + d1 * (m - r1),
                                            r2 + c2 + d2 * (m - r2), r3 + c3 + d3 * (m - r3))
        add(new)
    return out


def _threes(k: list, c: list, d: list, r: list) -> list:
    """R after each row of consecutive three-player games (``r`` updated in place)."""
    out: list = []
    add = out.extend
    for k0, k1, k2, c0, c1, c2, d0, d1, d2 in zip(k[0::3], k[1::3], k[2::3], c[0::3], c[1::3], c[2::3], d[0::3],
                                                  d[1::3], d[2::3]):
        r0, r1, r2 = r[k0], r[k1], r[k2]
        m = (r0 + r1 + r2) / 3
        new = r[k0], r[k1], r[k2] = (r0 + c0 + d0 * (m - r0), r1 + c1 + d1 * (m - r1), r2 + c2 + d2 * (m - r2))
        add(new)
    return out


def _general(key: np.ndarray, starts: np.ndarray, c_all: np.ndarray, d_all: np.ndarray, r: list,
             after: np.ndarray) -> None:
    """The recurrence over every game in order, whatever its size (``r`` and ``after`` written in place)."""
    cuts = np.searchsorted(starts, np.arange(0, starts[-1], CHUNK_ROWS))
    for first_game, end_game in zip(cuts, np.append(cuts[1:], len(starts) - 1)):
        lo, hi = int(starts[first_game]), int(starts[end_game])
        if hi <= lo:
            continue
        keys, c, d = key[lo:hi].tolist(), c_all[lo:hi].tolist(), d_all[lo:hi].tolist()
        out = [0.0] * (hi - lo)
        _games(keys, c, d, r, out, (starts[first_game:end_game + 1] - lo).tolist())
        after[lo:hi] = out


def _games(keys: list, c: list, d: list, r: list, after: list, starts: list) -> None:
    """The recurrence over one chunk of games of any size (see :func:`rate`); ``r`` is updated in place. The sums
    are those of :func:`_fours` and :func:`_threes`, in the same order."""
    for a, b in zip(starts[:-1], starts[1:]):
        own = [r[k] for k in keys[a:b]]
        m = sum(own) / (b - a)
        for i, (k, mine) in enumerate(zip(keys[a:b], own), a):
            r[k] = after[i] = mine + c[i] + d[i] * (m - mine)
