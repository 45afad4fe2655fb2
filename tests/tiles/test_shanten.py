"""Shanten and waits from the per-suit tables, against hands worked by hand and the ``mahjong`` package
(test-only) on random hands: any hand, hands a few tiles from complete, with melds, three players."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from analyzer.tiles.shanten import build_tables, shanten, shipped_tables, waits

ORACLE = Shanten()
KINDS = "mpsz"


def counts_of(text: str) -> np.ndarray:
    """``123m456p11z`` as 34 counts (z: 1-7 east … red)."""
    out = np.zeros(34, np.int8)
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            for d in digits:
                out[KINDS.index(ch) * 9 + d - 1] += 1
            digits = []
    return out


def kind_names(mask: np.ndarray) -> str:
    return " ".join(f"{k % 9 + 1}{KINDS[k // 9]}" for k in np.flatnonzero(mask))


# (hand, called sets, shanten, waits) worked by hand
@pytest.mark.parametrize("hand, called, expected, wait_text", [
    ("123m456p789s1122z", 0, 0, "1z 2z"),
    ("1112345678999m", 0, 0, "1m 2m 3m 4m 5m 6m 7m 8m 9m"),
    ("19m19p19s1234567z", 0, 0, "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z"),
    ("1122m3344p5566s7z", 0, 0, "7z"),
    ("123456789m1111p", 0, 1, ""),
    ("1111m", 3, 1, ""),
    ("23m55z", 3, 0, "1m 4m"),
    ("5z", 4, 0, "5z"),
    ("123m456p789s11z", 1, -1, None),
    ("123m456p789s111z22z", 0, -1, None),
    ("1122m3344p5566s77z", 0, -1, None),
])
def test_hands_worked_by_hand(hand, called, expected, wait_text):
    counts = counts_of(hand)[None, :]
    melds = np.array([called])
    assert shanten(counts, melds)[0] == expected
    if wait_text is not None:
        assert kind_names(waits(counts, melds)[0]) == wait_text


def test_three_players_have_no_2m_to_8m():
    # 1m 9m triplets and pairs only: 789m is no set and 8m no wait
    hand = counts_of("99m111p456p789s11z")[None, :]
    assert kind_names(waits(hand, np.array([0]), three_players=True)[0]) == "9m 1z"
    assert kind_names(waits(counts_of("79m111p456p789s11z")[None, :], np.array([0]))[0]) == "8m"
    assert waits(counts_of("79m111p456p789s11z")[None, :], np.array([0]), three_players=True).sum() == 0


def oracle_shanten(counts: np.ndarray) -> int:
    return ORACLE.calculate_shanten(list(int(c) for c in counts))


WALL = np.repeat(np.arange(34), 4)


@st.composite
def hands(draw, near_complete: bool):
    """A hand of 13 or 14 tiles less three per called set; near complete: a complete hand of random sets and
    a pair with one to three tiles swapped for random ones."""
    called = draw(st.integers(0, 4))
    size = draw(st.sampled_from([13, 14])) - 3 * called
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    counts = np.zeros(34, np.int8)
    if not near_complete:
        np.add.at(counts, WALL[rng.choice(136, size, replace=False)], 1)
        return counts, called
    while counts.sum() < 14 - 3 * called - 2:
        start = rng.integers(34)
        if rng.random() < 0.6 and start < 27 and start % 9 < 7:
            block = [start, start + 1, start + 2]
        else:
            block = [start] * 3
        trial = counts.copy()
        np.add.at(trial, block, 1)
        if trial.max() <= 4:
            counts = trial
    pair = rng.integers(34)
    while counts[pair] > 2:
        pair = rng.integers(34)
    counts[pair] += 2
    for _ in range(draw(st.integers(1, 3))):
        held = np.flatnonzero(counts)
        counts[rng.choice(held)] -= 1
        room = np.flatnonzero(counts < 4)
        counts[rng.choice(room)] += 1
    if size == 13 - 3 * called:
        counts[rng.choice(np.flatnonzero(counts))] -= 1
    return counts, called


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands(False), hands(True)))
def test_shanten_agrees_with_the_mahjong_package(hand):
    counts, called = hand
    assert shanten(counts[None, :], np.array([called]))[0] == oracle_shanten(counts)


@settings(max_examples=150, deadline=None)
@given(hands(True))
def test_waits_agree_with_the_mahjong_package(hand):
    counts, called = hand
    if counts.sum() % 3 != 1:
        counts = counts.copy()
        counts[np.flatnonzero(counts)[0]] -= 1
    expected = np.zeros(34, bool)
    if oracle_shanten(counts) == 0:
        for kind in np.flatnonzero(counts < 4):
            grown = counts.copy()
            grown[kind] += 1
            expected[kind] = oracle_shanten(grown) == -1
    assert kind_names(waits(counts[None, :], np.array([called]))[0]) == kind_names(expected)


def test_a_tenpai_hand_has_a_wait_and_a_complete_hand_is_minus_one():
    hands_ = np.stack([counts_of("123m456p789s1122z"), counts_of("123m456p789s11122z")])
    assert shanten(hands_).tolist() == [0, -1]
    assert waits(hands_[:1]).sum() == 2


def test_the_shipped_tables_are_those_the_builder_gives():
    built = build_tables()
    shipped = shipped_tables()
    assert sorted(built) == sorted(shipped)
    for name, table in built.items():
        assert np.array_equal(table, shipped[name]), name
