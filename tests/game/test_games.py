"""Game results: places with each tie rule, uma and oka, rounding, penalties."""

import pytest

from analyzer import preset, score
from conftest import game

# Baba wins 5200 from Chiba, then Aoki wins 5200 from Doi (neither is dealer): Aoki and Baba tie on start + 5200.
TIED = [
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 3, "fu": 40},
    {"round": "E2", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Doi", "han": 3, "fu": 40},
]


def _by_player(result):
    return {row["player"]: row for row in result.games.iter_rows(named=True)}


def test_ties_by_seat_order():
    games = _by_player(score(game(TIED), preset("tenhou").replace(game_points_rounding="exact")))
    assert [games[p]["place"] for p in ("Aoki", "Baba", "Chiba", "Doi")] == [1, 2, 3, 4]
    assert games["Aoki"]["game_points"] == pytest.approx(0.2 + 20 + 20)
    assert games["Baba"]["game_points"] == pytest.approx(0.2 + 10)
    assert games["Chiba"]["game_points"] == pytest.approx(-10.2 - 10)
    assert games["Doi"]["game_points"] == pytest.approx(-10.2 - 20)


def test_ties_split_places_uma_and_oka():
    rules = preset("mleague")  # 25000/30000, oka 20, uma 30/10/-10/-30, ties split
    games = _by_player(score(game(TIED), rules))
    assert [games[p]["place"] for p in ("Aoki", "Baba", "Chiba", "Doi")] == [1, 1, 3, 3]
    assert games["Aoki"]["uma"] == games["Baba"]["uma"] == 20.0
    assert games["Aoki"]["oka"] == games["Baba"]["oka"] == 10.0
    assert games["Chiba"]["uma"] == -20.0 and games["Chiba"]["oka"] == 0.0
    assert games["Aoki"]["game_points"] == pytest.approx(0.2 + 20 + 10)
    assert sum(g["game_points"] for g in games.values()) == pytest.approx(0.0)


def test_split_leftover_sticks_between_tied_first_places():
    rows = TIED + [{"round": "E3", "honba": 0, "result": "draw", "riichi": "Chiba", "tenpai": "Aoki,Baba,Chiba,Doi"}]
    games = _by_player(score(game(rows), preset("ema")))
    assert games["Aoki"]["final_score"] == games["Baba"]["final_score"] == 30000 + 5200 + 500
    assert sum(g["final_score"] for g in games.values()) == 120000


def test_tenhou_rounding_to_thousands_and_top_takes_the_rest():
    rows = [
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Aoki", "yakuman": 1},
        {"round": "E2", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Doi", "han": 3, "fu": 30},
        {"round": "E3", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Doi", "han": 3, "fu": 40},
    ]
    games = _by_player(score(game(rows), preset("tenhou")))
    # Baba 57000; Chiba (dealer in E3) 25000+3900+7700=36600 -> 37; Doi 13400 -> 13; Aoki -7000 -> -7.
    assert games["Chiba"]["game_points"] == 37 - 30 + 10
    assert games["Doi"]["game_points"] == 13 - 30 - 10
    assert games["Aoki"]["game_points"] == -7 - 30 - 20
    assert games["Baba"]["game_points"] == -(17 - 27 - 57)
    assert sum(g["game_points"] for g in games.values()) == 0


# Real logs: 5500 -> -44 with uma -20, i.e. 500 rounds away from zero; -7500 -> -8000.
@pytest.mark.parametrize(
    "score_after, expected",
    [(34400, 4), (34500, 5), (14400, -16), (14500, -15), (5500, -24), (-7400, -37), (-7500, -38)],
)
def test_tenhou_rounding_boundaries(score_after, expected):
    import polars as pl

    from analyzer.game.games import tenhou_place_points

    points = tenhou_place_points(pl.lit(score_after), pl.lit(0.0), pl.lit(0.0), preset("tenhou"))
    assert pl.select(points).item() == expected
