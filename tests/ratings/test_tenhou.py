"""Tenhou's R over games worked by hand (docs/ratings.md): the published first game of a new account, four and
three players, a shared place, the 400-game floor of adj."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.ratings import RatingOptions, compute_ratings
import analyzer.ratings.tenhou as tenhou_module
from analyzer.ratings.tenhou import adjustment, shared_bases

from tests.ratings.rating_rows import rows_of, state


def rating(table: pl.DataFrame, game_id: str, player: str) -> dict:
    return table.filter((pl.col("game_id") == game_id) & (pl.col("player") == player)).row(0, named=True)


def test_a_new_accounts_first_game_moves_1500_to_1511_66():
    # 2018020215gm-0009-0000-00939c41 (dnovikoff/tenhou logs1.zip): R 1500.00, table average 1567.32, 2nd place.
    # The others' R sum to 4 * 1567.32 - 1500 = 4769.28.
    before = state([("B", 4, 1600.00, 120), ("C", 4, 1589.64, 300), ("D", 4, 1579.64, 50)])
    rows = rows_of([("g", [("B", 1), ("New", 2), ("C", 3), ("D", 4)])])
    table = compute_ratings(rows, RatingOptions(previous=before)).table
    new = rating(table, "g", "New")
    assert new["game"] == 1 and new["rating_before"] == 1500.0
    assert new["change"] == pytest.approx(0.998 * (10 + (1567.32 - 1500) / 40))
    assert round(new["rating_after"], 2) == 1511.66


# Four players: game 1 of four new players, then game 2 where B and C share 2nd place (EMA: split ties) and E
# is new. Game 2's table average: (1529.94 + 1509.98 + 1490.02 + 1500) / 4 = 1507.485; B and C's place base is
# the average of 2nd's and 3rd's, (10 - 10) / 2 = 0.
FOUR = [("g1", [("A", 1), ("B", 2), ("C", 3), ("D", 4)]),
        ("g2", [("A", 4), ("B", 2), ("C", 2), ("E", 1)])]
FOUR_EXPECTED = [
    ("g1", "A", 1, 1500.0, 1529.94), ("g1", "B", 1, 1500.0, 1509.98),
    ("g1", "C", 1, 1500.0, 1490.02), ("g1", "D", 1, 1500.0, 1470.06),
    # E: 0.998 * (30 + 7.485 / 40)
    ("g2", "E", 1, 1500.0, 1530.12675075),
    # B: 0.996 * (0 + (1507.485 - 1509.98) / 40)
    ("g2", "B", 2, 1509.98, 1509.9178745),
    # C: 0.996 * (0 + (1507.485 - 1490.02) / 40)
    ("g2", "C", 2, 1490.02, 1490.4548785),
    # A: 0.996 * (-30 + (1507.485 - 1529.94) / 40)
    ("g2", "A", 2, 1529.94, 1499.5008705),
]

# Three players: bases +30/0/-30. Game 2's average: (1529.94 + 1500 + 1500) / 3 = 1509.98.
THREE = [("t1", [("X", 1), ("Y", 2), ("Z", 3)]),
         ("t2", [("X", 2), ("Y", 3), ("W", 1)])]
THREE_EXPECTED = [
    ("t1", "X", 1, 1500.0, 1529.94), ("t1", "Y", 1, 1500.0, 1500.0), ("t1", "Z", 1, 1500.0, 1470.06),
    ("t2", "W", 1, 1500.0, 1530.189001),  # 0.998 * (30 + 9.98 / 40)
    ("t2", "X", 2, 1529.94, 1529.442996),  # 0.996 * (0 - 19.96 / 40)
    ("t2", "Y", 2, 1500.0, 1470.368502),  # 0.996 * (-30 + 9.98 / 40)
]


@pytest.mark.parametrize("games, expected", [(FOUR, FOUR_EXPECTED), (THREE, THREE_EXPECTED)], ids=["4p", "3p"])
def test_games_worked_by_hand(games, expected):
    table = compute_ratings(rows_of(games), RatingOptions()).table
    assert table.height == len(expected)
    for game_id, player, number, before, after in expected:
        row = rating(table, game_id, player)
        assert (row["game"], row["rating_before"]) == (number, pytest.approx(before))
        assert row["rating_after"] == pytest.approx(after, abs=1e-9)
        assert row["change"] == pytest.approx(after - before, abs=1e-9)
    # the table lists each game's players by place
    assert table["game_id"].to_list() == [g for g, seats in games for _ in seats]
    assert table.filter(pl.col("game_id") == games[0][0])["place"].is_sorted()


def test_four_and_three_player_ratings_are_kept_apart():
    games = [("g1", [("A", 1), ("B", 2), ("C", 3), ("D", 4)]), ("t1", [("A", 3), ("B", 1), ("C", 2)])]
    ratings = compute_ratings(rows_of(games), RatingOptions())
    a3 = rating(ratings.table, "t1", "A")
    assert (a3["players"], a3["game"], a3["rating_before"]) == (3, 1, 1500.0)
    assert a3["rating_after"] == pytest.approx(1500 - 0.998 * 30)
    final = ratings.final.filter(pl.col("player") == "A").sort("players")
    assert final["players"].to_list() == [3, 4] and final["games"].to_list() == [1, 1]


def test_a_game_of_two_players_is_not_rated_and_moves_no_one():
    two = ("h1", [("A", 1), ("B", 2)])
    with_two = compute_ratings(rows_of([FOUR[0], two, FOUR[1]]), RatingOptions())
    without = compute_ratings(rows_of(FOUR), RatingOptions())
    assert with_two.table.equals(without.table) and with_two.final.equals(without.final)
    assert "h1" not in with_two.table["game_id"].to_list()


def test_the_400th_game_and_after_move_by_a_fifth():
    # P has 398 games: game 399 has adj 0.202, games 400 and 401 the floor 0.2. Each game's opponents are
    # experienced players at 1800.
    others = [(f"O{i}", 4, 1800.0, 1000) for i in range(9)]
    before = state([("P", 4, 1800.0, 398), *others])
    games = [("g399", [("P", 1), ("O0", 2), ("O1", 3), ("O2", 4)]),
             ("g400", [("P", 1), ("O3", 2), ("O4", 3), ("O5", 4)]),
             ("g401", [("P", 4), ("O6", 1), ("O7", 2), ("O8", 3)])]
    table = compute_ratings(rows_of(games), RatingOptions(previous=before)).table.filter(pl.col("player") == "P")
    assert table["game"].to_list() == [399, 400, 401]
    # 399: 0.202 * 30; 400: average (1806.06 + 5400) / 4 = 1801.515, 0.2 * (30 + (1801.515 - 1806.06) / 40);
    # 401: average (1812.037275 + 5400) / 4, 0.2 * (-30 + (1803.00931875 - 1812.037275) / 40)
    assert table["rating_after"].to_list() == pytest.approx([1806.06, 1812.037275, 1805.992135219], abs=1e-9)


def test_start_and_scale_can_be_set():
    games = [("g1", [("A", 1), ("B", 2), ("C", 3), ("D", 4)]), ("g2", [("A", 1), ("E", 2), ("F", 3), ("G", 4)])]
    table = compute_ratings(rows_of(games), RatingOptions(start=1000.0, scale=20.0)).table
    a = rating(table, "g2", "A")
    # A at 1029.94 among three at 1000: average 1007.485; 0.996 * (30 + (1007.485 - 1029.94) / 20)
    assert a["rating_after"] == pytest.approx(1029.94 + 0.996 * (30 + (1007.485 - 1029.94) / 20))


@pytest.mark.parametrize("players, place, sharing, expected", [
    (4, [1, 2, 3, 4], [1, 1, 1, 1], [30, 10, -10, -30]),
    (4, [1, 1, 3, 4], [2, 2, 1, 1], [20, 20, -10, -30]),
    (4, [1, 2, 2, 2], [1, 3, 3, 3], [30, -10, -10, -10]),
    (4, [1, 1, 1, 1], [4, 4, 4, 4], [0, 0, 0, 0]),
    (3, [1, 2, 2], [1, 2, 2], [30, -15, -15]),
])
def test_shared_places_share_their_bases(players, place, sharing, expected):
    assert shared_bases(np.full(len(place), players), np.array(place), np.array(sharing)).tolist() == expected


def test_adj_falls_to_a_fifth_at_400_games():
    assert adjustment(np.array([1, 2, 399, 400, 401, 5000])).tolist() == pytest.approx(
        [0.998, 0.996, 0.202, 0.2, 0.2, 0.2])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.permutations([1, 2, 3, 4]), min_size=1, max_size=12), st.integers(0, 10_000))
def test_a_game_among_players_of_equal_experience_moves_nothing_overall(places, seed):
    # players who always meet with the same game count: the adj is equal at a table, the bases sum to zero and
    # so do the differences from the average, so R is conserved
    games = [(f"g{i}", [(name, place) for name, place in zip("ABCD", p)]) for i, p in enumerate(places)]
    table = compute_ratings(rows_of(games), RatingOptions()).table
    assert table.group_by("game_id").agg(pl.col("change").sum())["change"].abs().max() < 1e-9


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([3, 4]), st.permutations(list("ABCDEF"))), min_size=1, max_size=20),
       st.integers(1, 9))
def test_chunks_of_games_give_the_same_ratings(games, chunk):
    # the loop runs over chunks of whole games: any chunk size gives the ratings of one chunk
    rows = rows_of([(f"g{i}", [(p, k + 1) for k, p in enumerate(names[:n])]) for i, (n, names) in enumerate(games)])
    whole = compute_ratings(rows, RatingOptions()).table
    saved = tenhou_module.CHUNK_ROWS
    try:
        tenhou_module.CHUNK_ROWS = chunk
        chunked = compute_ratings(rows, RatingOptions()).table
    finally:
        tenhou_module.CHUNK_ROWS = saved
    assert chunked.equals(whole)


def _one_game_at_a_time(key, game_start, c, d, initial):
    """The recurrence as the module docstring writes it, one game after another: the oracle of the loop's
    faster forms."""
    r, out = [float(x) for x in initial], [0.0] * len(key)
    for a, b in zip(game_start[:-1], game_start[1:]):
        own = [r[k] for k in key[a:b]]
        m = sum(own) / (b - a)
        for i, (k, mine) in enumerate(zip(key[a:b], own), a):
            r[k] = out[i] = mine + c[i] + d[i] * (m - mine)
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([4, 4, 3, 2, 5]), st.lists(st.integers(0, 9), min_size=5, max_size=5),
                          st.lists(st.integers(1, 4), min_size=5, max_size=5)), min_size=1, max_size=40),
       st.booleans(), st.integers(1, 13))
def test_the_loop_gives_the_one_game_at_a_time_ratings_bit_for_bit(games, apart, chunk):
    """Four- and three-player games run apart (their keys apart), any other size or shared keys in one loop,
    in chunks of any size: the same floats as one game after another."""
    sizes = [n if not apart or n in (3, 4) else 4 for n, _, _ in games]
    key = np.array([k + (100 if apart and n == 3 else 0) for (_, keys, _), n in zip(games, sizes)
                    for k in keys[:n]], dtype=np.int32)
    place = np.array([p for (_, _, places), n in zip(games, sizes) for p in places[:n]], dtype=np.int64)
    game_start = np.concatenate([[0], np.cumsum(sizes)])
    counts = np.repeat(np.array(sizes), sizes)
    base = shared_bases(np.where(np.isin(counts, (3, 4)), counts, 4), np.minimum(place, counts),
                        np.ones(len(place), dtype=np.int64))
    number = np.arange(1, len(key) + 1) % 500
    initial = np.linspace(1400, 1600, 120)
    adj = adjustment(number)
    expected = _one_game_at_a_time(key.tolist(), game_start.tolist(), (adj * base).tolist(),
                                   (adj / tenhou_module.SCALE).tolist(), initial)
    saved = tenhou_module.CHUNK_ROWS
    try:
        tenhou_module.CHUNK_ROWS = chunk
        got = tenhou_module.rate(key, game_start, base, number, initial)
    finally:
        tenhou_module.CHUNK_ROWS = saved
    assert np.array_equal(got, expected)
