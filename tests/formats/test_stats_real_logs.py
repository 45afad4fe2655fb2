"""Statistics of two real Tenhou logs, counted by hand from the logs' own result tags.

``mjlog/dnovikoff-tenhou/pao.xml`` (4 hands; AGARI tags and REACH step 1):
  E1-0 riichi seats 2 and 0; seat 0 (dealer) tsumo 18000
  E1-1 riichi seat 3; seat 3 tsumo 12000
  E2-0 riichi seat 1; seat 1 rons seat 0, 7700
  E2-1 seat 2 tsumo yakuman 32000, seat 0 liable (pao); seat 0 ends at -2100 (tobi)
``tenhou-json/mjai-reviewer/ranked_game.json`` (3 hands, no riichi):
  E1-0 seat 3 rons seat 2, 7700 (30 fu 4 han); E2-0 seat 1 (dealer) tsumo 3900 all;
  E2-1 seat 1 rons seat 2, 18000 (haneman); seat 2 ends at -4900 (tobi)

The per-seat facts these use (riichi turns, calls, open hands, the turn each hand ended on) are the ones
counted by hand in ``test_per_seat_columns.py``: in pao.xml seat 0 declares on turn 11 after seat 2's turn-5
riichi (a chasing riichi), seat 0 is open in E1-1 and E2-1 and closed when it deals in (E2-0, turn 8), seat 2
wins E2-1 with three pons (turn 14); in ranked_game.json seat 3 wins E1-0 with two pons into seat 2's pon hand
(turn 14), seat 1 wins E2-0 (turn 10) and E2-1 (turn 15) after two chis each, seat 2 closed in E2-1.
"""

from __future__ import annotations

import pytest

import analyzer
from analyzer.formats import read_tenhou

PAO = "mjlog/dnovikoff-tenhou/pao.xml"
RANKED = "tenhou-json/mjai-reviewer/ranked_game.json"

EXPECTED = {
    PAO: {
        0: {"hands": 4, "wins": 1, "tsumo_wins": 1, "riichi": 1, "riichi_win_rate": 1.0, "deal_ins": 1,
            "avg_deal_in_cost": 7700, "deal_ins_to_riichi": 1, "busts": 1, "dealer_hands": 2, "dealer_keeps": 1,
            "max_renchan": 1, "best_win_points": 18000, "best_win_round": "E1",
            "tsumo_paid": 6000 + 100 + 32000 + 300,  # dealer share of the haneman, the yakuman as liable; honba
            "chasing_riichi_rate": 1.0, "avg_riichi_turn": 11, "open_wins": 0, "dama_wins": 0,
            "deal_ins_while_open": 0, "deal_ins_to_open": 0, "deal_ins_to_dama": 0, "avg_deal_in_turn": 8,
            "opened_hands": 2, "call_rate": 0.5, "avg_calls": 2.0, "avg_win_turn": 12},
        1: {"riichi": 1, "riichi_win_rate": 1.0, "wins": 1, "avg_win_value": 7700, "deal_ins": 0,
            "chasing_riichi_rate": 0.0, "avg_riichi_turn": 6, "open_wins": 0, "dama_wins": 0, "avg_win_turn": 8,
            "call_rate": 0.0, "avg_deal_in_turn": None},
        2: {"riichi": 1, "riichi_other_win_rate": 1.0, "yakuman": 1, "wins": 1, "best_win_points": 32000,
            "chasing_riichi_rate": 0.0, "avg_riichi_turn": 5, "open_wins": 1, "avg_open_win_value": 32000,
            "dama_wins": 0, "avg_win_turn": 14, "opened_hands": 1, "avg_calls": 3.0},
        3: {"riichi": 1, "riichi_wins": 1, "avg_riichi_win_value": 12000, "wins_haneman": 1,
            "chasing_riichi_rate": 0.0, "open_wins": 0, "dama_wins": 0, "avg_win_turn": 6},
    },
    RANKED: {
        0: {"hands": 3, "dealer_hands": 1, "dealer_keeps": 0, "tsumo_paid": 3900, "wins": 0, "win_rate": 0.0},
        1: {"wins": 2, "tsumo_rate": 0.5, "avg_win_value": (11700 + 18000) / 2, "dealer_hands": 2,
            "dealer_keep_rate": 1.0, "max_renchan": 1, "wins_haneman": 1, "riichi": 0, "riichi_win_rate": None,
            "open_wins": 2, "avg_open_win_value": (11700 + 18000) / 2, "dama_wins": 0, "avg_dama_win_value": None,
            "avg_win_turn": (10 + 15) / 2, "chasing_riichi_rate": None, "avg_calls": 2.0},
        2: {"deal_ins": 2, "avg_deal_in_cost": (7700 + 18000) / 2, "busts": 1, "bust_rate": 1.0, "tsumo_paid": 3900,
            "deal_ins_while_open": 1, "deal_ins_to_open": 2, "deal_ins_to_dama": 0, "deal_ins_to_riichi": 0,
            "deal_ins_in_riichi": 0, "avg_deal_in_turn": (14 + 15) / 2, "call_rate": 1 / 3},
        3: {"wins": 1, "wins_below_mangan": 1, "avg_win_value": 7700, "call_rate": 2 / 3, "avg_calls": 1.5,
            "avg_riichi_turn": None, "open_wins": 1, "avg_open_win_value": 7700, "avg_win_turn": 14},  # opened in E1 (two pons) and E2-1 (a chi) of 3 hands; no riichi
    },
}


@pytest.mark.parametrize("log", list(EXPECTED))
def test_statistics_counted_by_hand(shared_logs, log):
    hands, problems = read_tenhou([shared_logs / log])
    assert not [p for p in problems if not p.imported]
    result = analyzer.score(hands)
    seat_of = dict(result.games.select("player", "seat").iter_rows())
    players = {seat_of[row["player"]]: row for row in result.players.to_dicts()}
    assert result.games["complete"].all()  # both end by tobi, where Tenhou's rules end them
    for seat, expected in EXPECTED[log].items():
        for column, value in expected.items():
            got = players[seat][column]
            assert got == (value if value is None or isinstance(value, str) else pytest.approx(value)), (seat, column)
