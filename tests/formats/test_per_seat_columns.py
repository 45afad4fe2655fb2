"""Per-seat columns of imported hands, against counts made by reading three real logs by hand.

``mjlog/dnovikoff-tenhou/pao.xml`` (discards D/E/F/G = seats 0-3, calls decoded from ``N m``):
  E1-0  seat 2 declares on its 5th discard (F100), seat 0 on its 11th (D90); seat 0 tsumo after drawing
        (T70) with 11 discards made: turn 12; no calls.
  E1-1  seat 0 chis G61 (m=40271, bit 0x4); seat 3 declares on its 5th discard (G16) and tsumos on its
        next draw (W59): turn 6.
  E2-0  seat 1 declares on its 6th discard (E61); seat 1 rons seat 0's 8th discard (D22): turn 8.
  E2-1  seat 0: pon (46633), chi (60815), chi (26823); seat 2: pon (47690), pon (49705), pon (51722);
        seat 2 tsumos (V19) after 13 discards: turn 14; nobody declares riichi.
``tenhou-json/mjai-reviewer/ranked_game.json`` (call strings in the draw lists):
  E1-0  calls: seat 0 ``47p4747``, seat 2 ``p191919``, seat 3 ``4646p46`` and ``2222p22``; seat 3 rons
        seat 2's 14th discard: turn 14.
  E2-0  seat 1 chis twice; tsumo on its draw after 9 discards: turn 10.
  E2-1  seat 0 pons twice, seat 1 chis twice, seat 3 chis once; seat 1 rons seat 2's 15th discard: turn 15.
``tenhou-json/mjai-reviewer/double_ron.json``:
  S4-0  seat 0 declares on its 8th discard (``r21``, stick accepted); seat 3 declares on its 11th (``r17``)
        and that tile is ronned by seats 0 and 2: declared, but no stick (``riichi`` lists seat 0 only);
        seat 2 pons once; both rows of the double ron carry the same hand facts, turn 11.
"""

from __future__ import annotations

import pytest

from analyzer.formats import read_tenhou

N = None
# per hand: (riichi_turn_0..3, calls_0..3, open_0..3, turn)
EXPECTED = {
    "mjlog/dnovikoff-tenhou/pao.xml": [
        ([11, N, 5, N], [0, 0, 0, 0], [False, False, False, False], 12),
        ([N, N, N, 5], [1, 0, 0, 0], [True, False, False, False], 6),
        ([N, 6, N, N], [0, 0, 0, 0], [False, False, False, False], 8),
        ([N, N, N, N], [3, 0, 3, 0], [True, False, True, False], 14),
    ],
    "tenhou-json/mjai-reviewer/ranked_game.json": [
        ([N, N, N, N], [1, 0, 1, 2], [True, False, True, True], 14),
        ([N, N, N, N], [0, 2, 0, 0], [False, True, False, False], 10),
        ([N, N, N, N], [2, 2, 0, 1], [True, True, False, True], 15),
    ],
    "tenhou-json/mjai-reviewer/double_ron.json": [
        ([8, N, N, 11], [0, 0, 1, 0], [False, False, True, False], 11),
        ([8, N, N, 11], [0, 0, 1, 0], [False, False, True, False], 11),
    ],
}


@pytest.mark.parametrize("log", list(EXPECTED))
def test_per_seat_columns_counted_by_hand(shared_logs, log):
    hands, problems = read_tenhou([shared_logs / log])
    assert not [p for p in problems if not p.imported]
    got = [
        ([row[f"riichi_turn_{s}"] for s in range(4)], [row[f"calls_{s}"] for s in range(4)],
         [row[f"open_{s}"] for s in range(4)], row["turn"])
        for row in hands.iter_rows(named=True)
    ]
    assert got == EXPECTED[log]


def test_declared_riichi_without_a_stick(shared_logs):
    hands, _ = read_tenhou([shared_logs / "tenhou-json/mjai-reviewer/double_ron.json"])
    assert hands["riichi"].to_list() == [["0"], ["0"]]  # seat 3's declaring tile was ronned: no stick
    assert hands["riichi_turn_3"].to_list() == [11, 11]


def test_per_seat_columns_feed_the_statistics(shared_logs):
    """With the columns present, the call, riichi-turn and turn statistics are numbers, not nulls."""
    import analyzer

    hands, _ = read_tenhou([shared_logs / "mjlog/dnovikoff-tenhou/pao.xml"])
    players = analyzer.score(hands).players
    by_name = {row["player"]: row for row in players.to_dicts()}
    first = hands.row(0, named=True)
    p0, p2 = by_name[first["player_0"]], by_name[first["player_2"]]
    assert p0["call_rate"] == pytest.approx(2 / 4)  # opened in E1-1 and E2-1, of 4 hands
    assert p0["avg_calls"] == pytest.approx((1 + 3) / 2)
    assert p0["avg_riichi_turn"] == pytest.approx(11)
    assert p2["avg_riichi_turn"] == pytest.approx(5)
    assert p2["avg_win_turn"] == pytest.approx(14)
    assert p0["avg_deal_in_turn"] == pytest.approx(8)
