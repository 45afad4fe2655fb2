"""Per-player statistics, counted by hand on small games, and the same from partial sums of any split."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.games import game_results
from analyzer.pipeline import raw_input, score_parts
from analyzer.players import combine_partials, finalize_players, player_partials
from conftest import game

# Doi deals into Aoki and Chiba at once (one deal-in, two wins), then Baba wins a 1-han 30-fu tsumo,
# then Chiba has a chombo.
ROWS = [
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Doi", "riichi": "Chiba", "han": 2, "fu": 40},
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Doi", "riichi": "Chiba", "han": 1, "fu": 30},
    {"round": "E1", "honba": 1, "result": "tsumo", "winner": "Baba", "han": 1, "fu": 30},
    {"round": "E2", "honba": 0, "result": "chombo", "loser": "Chiba"},
]


@pytest.fixture(scope="module")
def players():
    result = analyzer.score(game(ROWS), analyzer.preset("tenhou"))
    return {row["player"]: row for row in result.players.to_dicts()}


def test_a_double_ron_is_two_wins_and_one_deal_in(players):
    # Aoki (dealer) 1 han 30 fu ron: 1500; Chiba 2 han 40 fu ron: 2600
    assert players["Doi"]["deal_ins"] == 1
    assert players["Doi"]["avg_deal_in_cost"] == 1500 + 2600
    assert players["Aoki"]["wins"] == players["Chiba"]["wins"] == 1
    assert players["Aoki"]["avg_win_value"] == 1500 and players["Chiba"]["avg_win_value"] == 2600


def test_hands_riichi_tsumo_and_chombo_counts(players):
    # three hands: the double ron, the tsumo, and no hand for the chombo re-deal
    assert {p: row["hands"] for p, row in players.items()} == dict.fromkeys(["Aoki", "Baba", "Chiba", "Doi"], 2)
    assert players["Chiba"]["riichi"] == 1 and players["Chiba"]["riichi_rate"] == 0.5
    assert players["Baba"]["tsumo_wins"] == 1 and players["Baba"]["win_rate"] == 0.5
    assert players["Chiba"]["chombo"] == 1
    assert players["Doi"]["deal_in_rate"] == 0.5


def test_points_received_and_paid_balance(players):
    received = sum(row["points_received"] for row in players.values())
    paid = sum(row["points_paid"] for row in players.values())
    assert received == paid  # no stick is left on the table at the end here


def test_partials_of_any_split_of_the_games_give_the_same_players():
    games = [game(ROWS, game_id=f"g{i}", players=names) for i, names in enumerate(
        [("Aoki", "Baba", "Chiba", "Doi"), ("Doi", "Chiba", "Baba", "Aoki"), ("Eto", "Aoki", "Fujii", "Baba")]
    )]
    whole = analyzer.score(pl.concat(games), "tenhou").players
    parts = []
    for frame in games:  # one game per part, each scored on its own
        part = score_parts(raw_input(frame), "tenhou")[0]
        parts.append(player_partials(part.scored, game_results(part.scored, part.rules)).collect())
    assert_frame_equal(finalize_players(combine_partials([p.lazy() for p in parts])).collect(), whole)


def test_packed_counts_give_the_same_sums():
    from analyzer.players import _hand_facts, _inputs, _per_seat_sums

    part = score_parts(raw_input(pl.read_csv("tests/data/stats_game.csv", infer_schema=False)), "tenhou")[0]
    facts = _hand_facts(part.scored).cache()
    inputs = _inputs(part.scored.collect_schema().names())
    packed = _per_seat_sums(facts, inputs, packed=True).collect().sort("player")
    plain = _per_seat_sums(facts, inputs, packed=False).collect().sort("player")
    assert_frame_equal(packed.select(plain.columns), plain)
    assert plain.select(pl.exclude("player").sum()).row(0) != (0,) * (plain.width - 1)
