"""The ``openskill`` system: the `openskill <https://openskill.me>`_ package's Plackett–Luce model (Weng and Lin's
Bayesian approximation), each player a team of one, ranked by place (players sharing a place share a rank).

A player's skill is a normal distribution (``mu``, ``sigma``; a new player 25 and 25/3); each game moves every
player's mu towards what the game showed and shrinks sigma. The ranking value is the conservative
``mu - 3 * sigma`` (the package's ``ordinal``), which starts at 0 and rises as a player both wins and becomes
known. The update is the package's own ``rate``, one call per game, in the order of games.
"""

from __future__ import annotations

import numpy as np

MU = 25.0
SIGMA = 25.0 / 3.0
Z = 3.0  # the ranking value is mu - Z * sigma


def model():
    from openskill.models import PlackettLuce  # deferred: the package is loaded only by runs that use it

    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate(key: np.ndarray, game_start: np.ndarray, place: np.ndarray, mu0: np.ndarray, sigma0: np.ndarray
         ) -> tuple[np.ndarray, np.ndarray]:
    """mu and sigma after each row (rows in game order, a game's rows together; ``key``: each row's rating
    0..K-1; ``game_start``: each game's first row and the row count last; ``mu0``/``sigma0``: each key's state
    before its first game here)."""
    plackett_luce = model()
    make, update = plackett_luce.rating, plackett_luce.rate
    keys, places = key.tolist(), place.tolist()
    mu, sigma = mu0.astype(float).tolist(), sigma0.astype(float).tolist()
    mu_after, sigma_after = [0.0] * len(keys), [0.0] * len(keys)
    starts = game_start.tolist()
    for a, b in zip(starts[:-1], starts[1:]):
        ks = keys[a:b]
        rated = update([[make(mu=mu[k], sigma=sigma[k])] for k in ks], ranks=places[a:b])
        for i, (k, (player,)) in enumerate(zip(ks, rated), a):
            mu[k] = mu_after[i] = player.mu
            sigma[k] = sigma_after[i] = player.sigma
    return np.array(mu_after), np.array(sigma_after)
