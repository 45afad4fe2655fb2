"""Shanten and waits of hands given as suit codes (:mod:`analyzer.play.suits`) against those of the same hands
given as counts (:mod:`analyzer.tiles.shanten`, itself checked against the ``mahjong`` package), on random
hands: any tiles, hands near complete, with called sets, three players."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.play.suits import codes_of, counts_of, shanten_of_codes, waits_of_codes
from analyzer.tiles.shanten import SANMA_ABSENT, shanten, waits


def random_hands(seed: int, n: int, three: bool) -> tuple[np.ndarray, np.ndarray]:
    """``n`` hands of 13 or 14 tiles less three per called set, drawn from a wall (three players: no 2m-8m);
    half of them made of sets and a pair with one tile swapped, so that many are tenpai or complete."""
    rng = np.random.default_rng(seed)
    kinds = np.setdiff1d(np.arange(34), SANMA_ABSENT) if three else np.arange(34)
    wall = np.repeat(kinds, 4)
    sets = rng.integers(0, 5, n)
    counts = np.zeros((n, 34), np.int8)
    for i in range(n):
        size = rng.choice([13, 14]) - 3 * sets[i]
        if i % 2:
            np.add.at(counts[i], wall[rng.choice(len(wall), size, replace=False)], 1)
            continue
        tiles = [rng.choice(kinds)] * 2
        while len(tiles) < size:
            start = rng.choice(kinds)
            run = [start, start + 1, start + 2] if start < 27 and start % 9 < 7 and not three else [start] * 3
            tiles += run
        tiles = tiles[:size]
        tiles[rng.integers(len(tiles))] = rng.choice(kinds)
        np.add.at(counts[i], tiles, 1)
    return np.minimum(counts, 4), sets


def test_random_hands_agree_with_the_counts():
    for three in (False, True):
        counts, sets = random_hands(7 + three, 4000, three)
        codes = codes_of(counts)
        assert np.array_equal(counts_of(codes), counts)
        expected = shanten(counts, sets, three_players=three)
        assert np.array_equal(shanten_of_codes(codes, sets, three), expected)
        assert set(expected.tolist()) >= {-1, 0, 1, 2}
        tenpai = np.flatnonzero(expected == 0)[:500]
        assert np.array_equal(waits_of_codes(codes[tenpai], sets[tenpai], three),
                              waits(counts[tenpai], sets[tenpai], three_players=three))


def test_mixed_three_and_four_player_rows():
    four, sets4 = random_hands(1, 300, False)
    three, sets3 = random_hands(2, 300, True)
    codes = codes_of(np.concatenate([four, three]))
    flags = np.r_[np.zeros(300, bool), np.ones(300, bool)]
    got = shanten_of_codes(codes, np.r_[sets4, sets3], flags)
    assert np.array_equal(got, np.r_[shanten(four, sets4), shanten(three, sets3, three_players=True)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14), st.integers(0, 4), st.booleans())
def test_any_hand_agrees(tiles, sets, three):
    counts = np.zeros((1, 34), np.int8)
    np.add.at(counts[0], tiles, 1)
    counts = np.minimum(counts, 4)
    if three:
        counts[:, SANMA_ABSENT] = 0
    codes = codes_of(counts)
    assert np.array_equal(counts_of(codes), counts)
    melds = np.array([sets])
    assert shanten_of_codes(codes, melds, three)[0] == shanten(counts, melds, three_players=three)[0]
    assert np.array_equal(waits_of_codes(codes, melds, three), waits(counts, melds, three_players=three))
