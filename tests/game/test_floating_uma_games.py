"""The floating uma (``Rules.floating_uma``, ``analyzer/game/floating_uma.py``): the uma of each place is the row
of the rules' table that the number of players who finish below the return points picks (riichi.wiki, "Oka and
uma", "Floating uma"); read and checked as a rule option; the game points of a game add up to zero whatever the
table, and a table of equal rows pays what ``uma`` alone pays."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.core.rules import RulesError, load_rules, preset
from conftest import PLAYERS, game

TABLE = "15/5/-5/-15,10/5/0/-15,15/5/-5/-15,35/-5/-10/-20,35/-5/-10/-20"


@pytest.mark.parametrize("spec, says", [
    ("tenhou;floating_uma=15/5/-5/-15", "needs 5 rows"),
    ("tenhou;floating_uma=15/5/-5/-15,15/5/-5,15/5/-5/-15,15/5/-5/-15,15/5/-5/-15", "row 1 (1 below) needs 4"),
    ("tenhou;floating_uma=15/5/-5/-15,15/5/-5/-15,15/5/-5/x,15/5/-5/-15,15/5/-5/-15",
     "row 2 (2 below) must be numbers"),
    ("tenhou;floating_uma=15/5/-5/-15,15/5/-5/-15,15/5/-5/-15,15/5/-5/nan,15/5/-5/-15", "finite"),
    ("tenhou;floating_uma=1e9/5/-5/-15,15/5/-5/-15,15/5/-5/-15,15/5/-5/-15,15/5/-5/-15", "between"),
    ("tenhou_sanma;floating_uma=" + ",".join(["15/0/-15"] * 5), "needs 4 rows"),
    ("tenhou;floating_uma=5", "must be rows"),
])
def test_a_bad_floating_uma_is_one_error_naming_it(spec, says):
    with pytest.raises(RulesError, match=re.escape(says)):
        load_rules(spec)


def test_the_option_from_a_spec_a_toml_file_and_python(tmp_path):
    club = tmp_path / "club.toml"
    club.write_text('preset = "tenhou"\nfloating_uma = [[15, 5, -5, -15], [10, 5, 0, -15], [15, 5, -5, -15], '
                    '[35, -5, -10, -20], [35, -5, -10, -20]]\n')
    rows = ((15.0, 5.0, -5.0, -15.0), (10.0, 5.0, 0.0, -15.0), (15.0, 5.0, -5.0, -15.0), (35.0, -5.0, -10.0, -20.0),
            (35.0, -5.0, -10.0, -20.0))
    assert load_rules(f"tenhou;floating_uma={TABLE}").floating_uma == rows
    assert load_rules(club).floating_uma == rows
    assert preset("tenhou").replace(floating_uma=[list(r) for r in rows]).floating_uma == rows
    assert load_rules("tenhou;floating_uma=").floating_uma == () == preset("tenhou").floating_uma


def _ron(winner: int, loser: int, han: int, fu: int, riichi: str = "") -> dict:
    return {"round": "E1", "honba": 0, "result": "ron", "winner": PLAYERS[winner], "loser": PLAYERS[loser],
            "han": han, "fu": fu, "riichi": riichi}


@pytest.mark.parametrize("rows, uma, points", [
    # seat 2 rons seat 3 for 32,000 and seat 1's stick: 25,000 / 24,000 / 58,000 / -7,000, three below 30,000
    ([_ron(2, 3, 13, 30, PLAYERS[1])], [-5.0, -10.0, 35.0, -20.0], [-10.0, -16.0, 83.0, -57.0]),
    # seat 2 rons seat 3 for 12,000 and seat 3 for 12,000 again: 25,000 / 25,000 / 49,000 / 1,000: three below
    ([_ron(2, 3, 6, 30), {**_ron(2, 3, 6, 30), "round": "E2"}], [-5.0, -10.0, 35.0, -20.0],
     [-10.0, -15.0, 74.0, -49.0]),
])
def test_the_row_is_picked_by_the_count_below_the_return_points(rows, uma, points):
    result = analyzer.score(game(rows), f"tenhou;floating_uma={TABLE}")
    games = result.games.sort("seat")
    assert games["uma"].to_list() == uma
    assert games["game_points"].to_list() == points


def test_leftover_sticks_count_in_the_finish():
    """Seat 0 declares riichi and is tenpai alone at a draw: 27,000 / 24,000 / 24,000 / 24,000 with its stick left
    on the table, which first place (seat 0) takes: 28,000, at the return points of 28,000, so three players
    finish below them (the row of three), not four."""
    rows = [{"round": "E1", "honba": 0, "result": "draw", "riichi": PLAYERS[0], "tenpai": PLAYERS[0]}]
    table = ",".join(["15/5/-5/-15"] * 4 + ["99/0/-49/-50"])
    games = analyzer.score(game(rows), f"tenhou;return_points=28000;floating_uma={table}").games.sort("seat")
    assert games["final_score"].to_list() == [28_000, 24_000, 24_000, 24_000]
    assert games["uma"].to_list() == [15.0, 5.0, -5.0, -15.0]


@settings(max_examples=60, deadline=None)
@given(table=st.lists(st.lists(st.integers(-40, 40), min_size=3, max_size=3), min_size=5, max_size=5),
       han=st.integers(1, 13), loser=st.integers(1, 3))
def test_game_points_add_up_to_zero_and_equal_rows_pay_as_uma(table, han, loser):
    rows = [_ron(0, loser, han, 30)]
    full = [[-sum(r), *r] for r in table]
    spec = "tenhou;floating_uma=" + ",".join("/".join(map(str, r)) for r in full)
    games = analyzer.score(game(rows), spec).games
    assert abs(games["game_points"].sum()) < 1e-6
    same = "tenhou;floating_uma=" + ",".join(["/".join(map(str, full[0]))] * 5)
    fixed = "tenhou;uma=" + "/".join(map(str, full[0]))
    assert (analyzer.score(game(rows), same).games["game_points"].to_list()
            == analyzer.score(game(rows), fixed).games["game_points"].to_list())
