"""The openskill system: a small table with a tie, against the Plackett-Luce update written out from its formulas
(Weng and Lin 2011, Algorithm 4, as the openskill package applies it: tau added to sigma first, gamma =
sigma / c) and against the package's own ``rate``."""

from __future__ import annotations

import math

import pytest

from analyzer.ratings import RatingOptions, compute_ratings
from analyzer.ratings.skill import MU, SIGMA, Z

from tests.ratings.rating_rows import rows_of

BETA = SIGMA / 2
TAU = MU / 300


def plackett_luce(mus: list[float], sigmas: list[float], ranks: list[int]) -> list[tuple[float, float]]:
    """One game of teams of one, by the formulas: c = sqrt(sum(sigma_i^2 + beta^2)); for each i, over every q
    ranked no worse than i (rank_q <= rank_i): omega and delta from exp(mu_i / c) / sum_q, each term divided by
    the number of players sharing q's rank."""
    sigmas = [math.sqrt(s * s + TAU * TAU) for s in sigmas]
    c = math.sqrt(sum(s * s + BETA * BETA for s in sigmas))
    sum_q = [sum(math.exp(mus[j] / c) for j in range(len(mus)) if ranks[j] >= ranks[q]) for q in range(len(mus))]
    a = [ranks.count(r) for r in ranks]
    result = []
    for i, (mu, sigma) in enumerate(zip(mus, sigmas)):
        omega = delta = 0.0
        for q in range(len(mus)):
            if ranks[q] > ranks[i]:
                continue
            share = math.exp(mu / c) / sum_q[q]
            delta += share * (1 - share) / a[q]
            omega += ((1 - share) if q == i else -share) / a[q]
        omega *= sigma * sigma / c
        delta *= sigma * sigma / c ** 2 * (sigma / c)
        result.append((mu + omega, sigma * math.sqrt(max(1 - delta, 0.0001))))
    return result


GAMES = [("g1", [("A", 1), ("B", 2), ("C", 2), ("D", 4)]),
         ("g2", [("A", 2), ("C", 1), ("E", 3), ("D", 4)])]


def test_a_small_table_with_a_tie_by_the_formulas():
    table = compute_ratings(rows_of(GAMES), RatingOptions("openskill")).table
    state = {p: (MU, SIGMA) for p in "ABCDE"}
    for game_id, seats in GAMES:
        names = [p for p, _ in seats]
        updated = plackett_luce([state[p][0] for p in names], [state[p][1] for p in names], [r for _, r in seats])
        for name, (mu, sigma) in zip(names, updated):
            row = table.filter((table["game_id"] == game_id) & (table["player"] == name)).row(0, named=True)
            assert (row["mu_before"], row["sigma_before"]) == pytest.approx(state[name])
            assert (row["mu_after"], row["sigma_after"]) == pytest.approx((mu, sigma), rel=1e-12)
            assert row["rating_after"] == pytest.approx(mu - Z * sigma, rel=1e-12)
            state[name] = (mu, sigma)
    # the tie: B and C, equal before and sharing a place, move alike; first gains, last loses
    g1 = {r["player"]: r for r in table.filter(table["game_id"] == "g1").iter_rows(named=True)}
    assert g1["B"]["mu_after"] == pytest.approx(g1["C"]["mu_after"])
    assert g1["A"]["mu_after"] > MU > g1["D"]["mu_after"]


def test_against_the_packages_own_rate():
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = {p: model.rating(name=p) for p in "ABCDE"}
    for _, seats in GAMES:
        rated = model.rate([[players[p]] for p, _ in seats], ranks=[r for _, r in seats])
        for (name, _), (player,) in zip(seats, rated):
            players[name] = player
    final = compute_ratings(rows_of(GAMES), RatingOptions("openskill")).final
    for row in final.iter_rows(named=True):
        assert (row["mu"], row["sigma"]) == pytest.approx((players[row["player"]].mu, players[row["player"]].sigma))
        assert row["rating"] == pytest.approx(players[row["player"]].ordinal())


def test_the_worked_example_of_the_docs():
    # docs/ratings.md: four new players, A first, B and C sharing second, D last
    table = compute_ratings(rows_of([GAMES[0]]), RatingOptions("openskill")).table
    after = {r["player"]: r for r in table.iter_rows(named=True)}
    assert [round(after[p]["mu_after"], 3) for p in "ABCD"] == [27.795, 24.689, 24.689, 22.826]
    assert [round(after[p]["sigma_after"], 3) for p in "ABCD"] == [8.264, 8.180, 8.180, 8.180]
    assert [round(after[p]["rating_after"], 2) for p in "ABCD"] == [3.00, 0.15, 0.15, -1.71]
