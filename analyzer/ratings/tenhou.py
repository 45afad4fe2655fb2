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


def shared_bases(players: np.ndarray, place: np.ndarray, sharing: np.ndarray) -> np.ndarray:
    """Each row's place base: the average of the bases of the ``sharing`` places from ``place`` on (one place
    when nobody shares it)."""
    base = np.zeros(len(place))
    for count, bases in PLACE_BASES.items():
        cumulative = np.concatenate([[0.0], np.cumsum(bases)])
        rows = players == count
        first = np.clip(place[rows] - 1, 0, count - 1)
        last = np.clip(first + sharing[rows], 0, count)
        base[rows] = (cumulative[last] - cumulative[first]) / np.maximum(last - first, 1)
    return base


def rate(key: np.ndarray, game_start: np.ndarray, base: np.ndarray, number: np.ndarray, initial: np.ndarray,
         scale: float = SCALE) -> tuple[np.ndarray, np.ndarray]:
    """R before and after each row. Rows in game order, a game's rows together; ``key``: each row's rating
    (0..K-1), ``game_start``: the first row of each game (and the row count last), ``base``: the place base,
    ``number``: N, ``initial``: each key's R before its first game here."""
    adj = adjustment(number).tolist()
    keys, bases = key.tolist(), base.tolist()
    r = initial.astype(float).tolist()
    before = [0.0] * len(keys)
    after = [0.0] * len(keys)
    starts = game_start.tolist()
    for a, b in zip(starts[:-1], starts[1:]):
        ks = keys[a:b]
        own = [r[k] for k in ks]
        average = sum(own) / (b - a)
        for i, k in enumerate(ks, a):
            mine = own[i - a]
            new = mine + adj[i] * (bases[i] + (average - mine) / scale)
            before[i], after[i] = mine, new
            r[k] = new
    return np.array(before), np.array(after)
