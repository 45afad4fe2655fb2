"""Every statistic of the glossary (docs/statistics.md) on a hand-worked game (tests/data/stats_game.csv, game g1).

Game g1 (tenhou rules, 25000 start), worked by hand; scores after each hand (Aoki/Baba/Chiba/Doi):
 1 E1-0 Chiba (riichi, turn 6) rons Doi 2/40 = 2600; Aoki open (1 call)     25000 25000 27600 22400
 2 E2-0 dealer Baba tsumo 3/30 = 2000 all; Baba open (2 calls)              23000 31000 25600 20400
 3 E2-1 draw: Doi riichi turn 5, Aoki chases turn 8; tenpai Aoki, Doi        23500 29500 24100 20900
 4 E3-2 Aoki (open, 2 calls) rons Chiba 1/30 = 1000 + 600 honba + 2 sticks   27100 29500 22500 20900
 5 E4-0 dealer Doi (riichi turn 4) rons Aoki (open, 1 call) 4/30 = 11600     15500 29500 22500 32500
 6 E4-1 draw, only Doi tenpai                                               14500 28500 21500 35500
 7 E4-2 dealer Doi tsumo 1/30 = 500 all + 200 honba each                    13800 27800 20800 37600
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.game.games import game_results
from analyzer.scoring.parts import raw_input, score_parts
from analyzer.players import combine_partials, finalize_players, finalize_yaku_stats, player_partials

DATA = Path(__file__).parents[1] / "data" / "stats_game.csv"
PER_SEAT = [f"{c}_{s}" for c in ("riichi_turn", "calls", "open") for s in range(4)] + ["turn"]


def _rows(game_id: str | None = "g1", drop: list[str] = ()) -> pl.DataFrame:
    df = pl.read_csv(DATA, infer_schema=False)
    return (df.filter(pl.col("game_id") == game_id) if game_id else df).drop(drop)


@pytest.fixture(scope="module")
def g1():
    return {row["player"]: row for row in analyzer.score(_rows(), "tenhou").players.to_dicts()}


EXPECTED = {  # (player, column): value counted by hand from the table in the module docstring
    ("Aoki", "hands"): 7, ("Aoki", "dealer_hands"): 1, ("Doi", "dealer_hands"): 3, ("Baba", "dealer_hands"): 2,
    ("Aoki", "place_4"): 1, ("Aoki", "place_4_rate"): 1.0, ("Doi", "avg_final_score_1"): 37600,
    ("Aoki", "avg_final_score_1"): None, ("Aoki", "busts"): 0,
    ("Aoki", "wins"): 1, ("Aoki", "win_rate"): 1 / 7, ("Doi", "tsumo_rate"): 0.5, ("Doi", "avg_win_value"): 6550,
    ("Aoki", "deal_ins"): 1, ("Aoki", "avg_deal_in_cost"): 11600, ("Chiba", "avg_deal_in_cost"): 1000,
    ("Aoki", "tsumo_paid"): 2000 + 700, ("Doi", "tsumo_paid"): 2000,
    ("Doi", "riichi_wins"): 1, ("Doi", "avg_riichi_win_value"): 11600, ("Doi", "dama_wins"): 1,
    ("Doi", "avg_dama_win_value"): 1500, ("Aoki", "open_wins"): 1, ("Baba", "avg_open_win_value"): 6000,
    ("Chiba", "riichi_wins"): 1, ("Chiba", "dama_wins"): 0,
    ("Aoki", "riichi"): 1, ("Aoki", "riichi_rate"): 1 / 7, ("Aoki", "riichi_draw_rate"): 1.0,
    ("Doi", "riichi_win_rate"): 0.5, ("Doi", "riichi_draw_rate"): 0.5, ("Doi", "riichi_deal_in_rate"): 0.0,
    ("Doi", "avg_riichi_turn"): 4.5, ("Aoki", "avg_riichi_turn"): 8, ("Aoki", "chasing_riichi_rate"): 1.0,
    ("Doi", "chasing_riichi_rate"): 0.0, ("Chiba", "chasing_riichi_rate"): 0.0,
    ("Aoki", "opened_hands"): 3, ("Aoki", "call_rate"): 3 / 7, ("Aoki", "avg_calls"): 4 / 3,
    ("Baba", "avg_calls"): 2, ("Doi", "call_rate"): 0.0, ("Doi", "avg_calls"): None,
    ("Aoki", "draws"): 2, ("Aoki", "draw_rate"): 2 / 7, ("Aoki", "draw_tenpai_rate"): 0.5,
    ("Doi", "draw_tenpai_rate"): 1.0, ("Baba", "draw_tenpai_rate"): 0.0,
    ("Doi", "dealer_keep_rate"): 1.0, ("Doi", "max_renchan"): 2, ("Baba", "dealer_keep_rate"): 0.5,
    ("Baba", "max_renchan"): 1, ("Aoki", "dealer_keep_rate"): 0.0, ("Aoki", "max_renchan"): 0,
    ("Aoki", "avg_win_turn"): 12, ("Aoki", "avg_deal_in_turn"): 7, ("Doi", "avg_win_turn"): 11,
    ("Aoki", "deal_ins_while_open"): 1, ("Aoki", "deal_ins_to_riichi"): 1, ("Aoki", "deal_ins_in_riichi"): 0,
    ("Chiba", "deal_ins_to_open"): 1, ("Chiba", "deal_ins_to_riichi"): 0, ("Doi", "deal_ins_to_dama"): 0,
    ("Doi", "wins_below_mangan"): 2, ("Doi", "wins_mangan"): 0,
    ("Doi", "best_win_points"): 11600, ("Doi", "best_win_round"): "E4", ("Doi", "best_win_honba"): 0,
    ("Aoki", "best_win_round"): "E3", ("Aoki", "best_win_honba"): 2, ("Aoki", "worst_deal_in_points"): 11600,
    ("Aoki", "worst_deal_in_game"): "g1", ("Baba", "best_win_points"): 6000, ("Baba", "worst_deal_in_points"): None,
    ("Doi", "rank"): 1, ("Baba", "rank"): 2, ("Chiba", "rank"): 3, ("Aoki", "rank"): 4,
}


@pytest.mark.parametrize("player, column", list(EXPECTED))
def test_statistic_counted_by_hand(g1, player, column):
    expected = EXPECTED[(player, column)]
    exact = expected is None or isinstance(expected, str)
    assert g1[player][column] == (expected if exact else pytest.approx(expected))


def test_per_seat_inputs_written_loosely_count_the_same():
    # plainly written inputs are read as they are, others stripped, case-folded and parsed through a number:
    # ' 1 ', '1.0', ' YES ', 'True' count as 1 and true do
    plain = analyzer.score(_rows(), "tenhou").players
    loose = _rows().with_columns(
        *[pl.format(" {}.0 ", pl.col(c)).replace(" .0 ", "").alias(c) for c in PER_SEAT if not c.startswith("open")],
        *[pl.col(f"open_{s}").replace({"1": " YES ", "0": "False"}) for s in range(4)],
    )
    assert loose["turn"][0] == " 9.0 " and loose["open_0"][0] == " YES "
    assert_frame_equal(analyzer.score(loose, "tenhou").players, plain)


@pytest.mark.parametrize("column", ["avg_riichi_turn", "chasing_riichi_rate", "call_rate", "avg_calls",
                                    "avg_win_turn", "avg_deal_in_turn", "open_wins", "dama_wins",
                                    "deal_ins_while_open", "deal_ins_to_open"])
def test_statistics_without_their_inputs_are_null_not_zero(column):
    players = analyzer.score(_rows(drop=PER_SEAT), "tenhou").players
    assert players[column].null_count() == players.height
    assert players["riichi_rate"].null_count() == 0  # inputs present: computed


def test_yaku_stats_per_player_and_overall():
    stats = analyzer.score(_rows(), "tenhou").yaku_stats
    by_key = {(r["player"], r["yaku"]): (r["count"], r["rate"]) for r in stats.to_dicts()}
    assert by_key[("Doi", "riichi")] == (1, 0.5)
    assert by_key[(None, "riichi")] == (2, 2 / 5)  # five wins in the game
    assert by_key[(None, "tanyao")] == (2, 2 / 5)
    assert ("Aoki", "riichi") not in by_key


@pytest.mark.parametrize("rank_by, order", [
    (("total_points",), ["Doi", "Baba", "Chiba", "Aoki"]),
    (("avg_place", "total_points"), ["Doi", "Baba", "Chiba", "Aoki"]),
    (("deal_in_rate", "total_points"), ["Baba", "Doi", "Chiba", "Aoki"]),  # Baba never dealt in
])
def test_rank_by(rank_by, order):
    parts = _partials_of(["g1"])
    players = finalize_players(combine_partials(parts), rank_by).collect()
    assert players.sort("rank")["player"].to_list() == order


def test_equal_players_share_a_rank():
    lf = pl.LazyFrame({"total_points": [5.0, 5.0, 1.0], "avg_place": [2.0, 2.0, 3.0], "place_1": [1, 1, 0]})
    from analyzer.players import rank_expr
    assert lf.select(rank_expr()).collect().to_series().to_list() == [1, 1, 3]


def _partials_of(game_ids: list[str]) -> list[pl.LazyFrame]:
    frame = _rows(None).filter(pl.col("game_id").is_in(game_ids))
    out = []
    for part in score_parts(raw_input(frame), "tenhou"):
        out.append(player_partials(part.scored, game_results(part.scored, part.rules)).collect().lazy())
    return out


def test_two_parts_combine_to_the_whole():
    whole = analyzer.score(_rows(None), "tenhou", ratings="none")  # the statistics alone
    parts = _partials_of(["g2"]) + _partials_of(["g1"])
    merged = combine_partials(parts)
    assert_frame_equal(finalize_players(merged).collect(), whole.players)
    assert_frame_equal(finalize_yaku_stats(merged).collect(), whole.yaku_stats)
