"""Replay: honba, riichi sticks, multiple ron, draws, nagashi, chombo and pao, checked against hand-worked cases."""

import pytest

from analyzer import check, preset, score
from conftest import deltas, game

TENHOU = preset("tenhou")
EMA = preset("ema")


def test_honba_on_ron_and_tsumo():
    result = score(
        game(
            [
                {"round": "E1", "honba": 0, "result": "draw", "tenpai": "Aoki"},
                {"round": "E1", "honba": 1, "result": "draw", "tenpai": "Aoki"},
                {"round": "E1", "honba": 2, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 1, "fu": 30},
                {"round": "E2", "honba": 0, "result": "tsumo", "winner": "Baba", "han": 1, "fu": 30},
                {"round": "E2", "honba": 1, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
            ]
        ),
        TENHOU,
    )
    assert result.hands["replayed_honba"].to_list() == [0, 1, 2, 0, 1]
    # 1000 + 2 honba; dealer tsumo 500 all; non-dealer tsumo 300/500 + 1 honba = 100 each.
    assert deltas(result)[2] == [0, 1600, -1600, 0]
    assert deltas(result)[3] == [-500, 1500, -500, -500]
    assert deltas(result)[4] == [1400, -600, -400, -400]
    assert result.hands["problems"].to_list() == [[]] * 5


def test_sticks_carried_over_two_draws_then_won():
    result = score(
        game(
            [
                {"round": "E1", "honba": 0, "result": "draw", "riichi": "Aoki", "tenpai": "Aoki"},
                {"round": "E1", "honba": 1, "result": "draw", "riichi": "Baba,Chiba", "tenpai": "Aoki,Baba,Chiba"},
                {"round": "E1", "honba": 2, "result": "ron", "winner": "Doi", "loser": "Aoki", "han": 2, "fu": 30},
                {"round": "E2", "honba": 0, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
            ]
        ),
        TENHOU,
    )
    assert result.hands["kyotaku"].to_list() == [0, 1, 3, 0]
    rows = deltas(result)
    assert rows[0] == [3000 - 1000, -1000, -1000, -1000]
    assert rows[1] == [1000, 1000 - 1000, 1000 - 1000, -3000]
    # 2000 + 600 honba + 3 sticks from the table.
    assert rows[2] == [-2600, 0, 0, 2600 + 3000]
    assert result.hands["score_3"].to_list()[-1] == 25000 - 1000 - 3000 + 5600 - 300


DOUBLE_RON = [
    {"round": "E1", "honba": 0, "result": "draw", "riichi": "Doi", "tenpai": "Doi"},
    # Doi (seat 3) discards; Aoki (seat 0) is next in turn order, Chiba (seat 2) after. Both declared riichi.
    {"round": "E1", "honba": 1, "result": "ron", "winner": "Chiba", "loser": "Doi", "riichi": "Aoki,Chiba",
     "han": 2, "fu": 40},
    {"round": "E1", "honba": 1, "result": "ron", "winner": "Aoki", "loser": "Doi", "riichi": "Aoki,Chiba",
     "han": 1, "fu": 30},
]


def test_double_ron_tenhou_nearest_winner_takes_honba_and_sticks():
    result = score(game(DOUBLE_RON), TENHOU)
    rows = deltas(result)
    # The winners are replayed by seat distance from the discarder, whatever the input order: Aoki is nearest to
    # Doi and comes first. The sticks are charged on the hand's first row.
    assert rows[1] == [1500 + 300 + 3000 - 1000, 0, -1000, -1800]
    assert rows[2] == [0, 0, 2600, -2600]
    # The dealer (Aoki) won: the dealer repeats with one more counter.
    assert result.hands["problems"].to_list() == [[], [], []]


def test_double_ron_ema_honba_to_each_winner_and_own_stick_back():
    result = score(game(DOUBLE_RON), EMA)
    rows = deltas(result)
    # EMA: honba to every winner; each winner takes back the stick they put out; the nearest takes the rest.
    assert rows[1] == [1500 + 300 + 1000 + 1000 - 1000, 0, -1000, -1800]
    assert rows[2] == [0, 0, 2600 + 300 + 1000, -2900]
    assert sum(map(sum, rows)) == 0


def test_atamahane_pays_only_the_nearest_winner():
    result = score(game(DOUBLE_RON), preset("wrc"))
    rows = deltas(result)
    assert rows[1] == [1500 + 300 + 3000 - 1000, 0, -1000, -1800]
    assert rows[2] == [0, 0, 0, 0]
    assert result.hands["problems"].to_list() == [[], [], ["head_bump"]]


@pytest.mark.parametrize(
    "tenpai, expected",
    [
        ("", [0, 0, 0, 0]),
        ("Aoki", [3000, -1000, -1000, -1000]),
        ("Aoki,Baba", [1500, 1500, -1500, -1500]),
        ("Aoki,Baba,Chiba", [1000, 1000, 1000, -3000]),
        ("Aoki,Baba,Chiba,Doi", [0, 0, 0, 0]),
    ],
)
def test_noten_payments_for_zero_to_four_tenpai(tenpai, expected):
    result = score(game([{"round": "E1", "honba": 0, "result": "draw", "tenpai": tenpai}]), TENHOU)
    assert deltas(result) == [expected]


def test_nagashi_is_a_mangan_tsumo_without_honba_and_sticks_stay():
    result = score(
        game(
            [
                {"round": "E2", "honba": 3, "result": "nagashi", "winner": "Chiba", "riichi": "Doi", "tenpai": "Doi"},
                {"round": "E2", "honba": 4, "result": "ron", "winner": "Doi", "loser": "Aoki", "han": 1, "fu": 30},
            ]
        ),
        TENHOU,
    )
    rows = deltas(result)
    # Baba (seat 1) deals E2 and pays 4000; the others 2000. No noten payments.
    assert rows[0] == [-2000, -4000, 8000, -2000 - 1000]
    assert rows[1] == [-1000 - 1200, 0, 0, 1000 + 1200 + 1000]
    # A fragment: the replay starts from the first row's counters.
    assert result.hands["problems"].to_list() == [["partial_game"], []]


def test_a_game_that_skips_a_hand_is_flagged_where_the_counters_disagree():
    result = score(
        game(
            [
                {"round": "E1", "honba": 0, "result": "draw", "tenpai": "Baba"},
                {"round": "E2", "honba": 2, "result": "ron", "winner": "Doi", "loser": "Aoki", "han": 1, "fu": 30},
            ]
        ),
        TENHOU,
    )
    assert result.hands["replayed_honba"].to_list() == [0, 1]
    assert result.hands["problems"].to_list() == [[], ["honba_mismatch"]]
    assert deltas(result)[1] == [-1300, 0, 0, 1300]


def test_chombo_reverse_mangan_at_the_table():
    result = score(
        game(
            [
                {"round": "E1", "honba": 0, "result": "chombo", "loser": "Baba", "riichi": "Chiba"},
                {"round": "E1", "honba": 0, "result": "chombo", "loser": "Aoki"},
                {"round": "E1", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Doi", "han": 1, "fu": 30},
            ]
        ),
        TENHOU,
    )
    rows = deltas(result)
    assert rows[0] == [4000, -8000, 2000, 2000]  # riichi in a chombo hand is not taken
    assert rows[1] == [-12000, 4000, 4000, 4000]
    assert result.hands["kyotaku"].to_list() == [0, 0, 0]
    assert rows[2] == [0, 0, 1000, -1000]
    assert result.games.filter(result.games["player"] == "Aoki")["chombo"].item() == 1


def test_chombo_penalty_after_uma():
    result = score(game([{"round": "E1", "honba": 0, "result": "chombo", "loser": "Baba"}]), EMA)
    assert deltas(result) == [[0, 0, 0, 0]]
    games = {r["player"]: r for r in result.games.iter_rows(named=True)}
    # All on 30000: places by seat among equals... EMA splits ties: uma shared, 0 each; Baba -20.
    assert games["Baba"]["penalty"] == 20.0
    assert games["Baba"]["game_points"] == pytest.approx(-20.0)
    assert games["Aoki"]["game_points"] == pytest.approx(0.0)


def test_pao_ron_split_with_discarder_and_liable_pays_honba_on_tenhou():
    rows = [{"round": "E1", "honba": 1, "result": "ron", "winner": "Baba", "loser": "Chiba", "yakuman": 1, "pao": "Doi"}]
    result = score(game(rows), TENHOU)
    assert deltas(result) == [[0, 32300, -16000, -16300]]
    result = score(game(rows), EMA)  # EMA: the discarder pays the honba
    assert deltas(result) == [[0, 32300, -16300, -16000]]


def test_pao_tsumo_liable_pays_everything():
    rows = [{"round": "E1", "honba": 1, "result": "tsumo", "winner": "Baba", "yakuman": 1, "pao": "Doi"}]
    assert deltas(score(game(rows), TENHOU)) == [[0, 32300, 0, -32300]]


def test_pao_scope_only_the_pao_yakuman_on_majsoul():
    rows = [{"round": "E1", "honba": 0, "result": "tsumo", "winner": "Baba", "yakuman": 2, "pao": "Doi"}]
    # Doi covers one yakuman (32000); the second is an ordinary tsumo: 16000 from the dealer, 8000 from others.
    assert deltas(score(game(rows), preset("majsoul"))) == [[-16000, 64000, -8000, -40000]]
    assert deltas(score(game(rows), TENHOU)) == [[0, 64000, 0, -64000]]


def test_sticks_left_at_the_end_go_to_first_or_are_lost():
    rows = [
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 3, "fu": 30},
        {"round": "E2", "honba": 0, "result": "draw", "riichi": "Aoki,Doi", "tenpai": "Aoki,Doi"},
    ]
    result = score(game(rows), TENHOU)
    finals = dict(zip(result.games["player"], result.games["final_score"]))
    assert finals == {"Baba": 25000 + 3900 - 1500 + 2000, "Aoki": 25000 - 1000 + 1500, "Doi": 25500, "Chiba": 25000 - 3900 - 1500}
    assert sum(finals.values()) == 100000
    lost = score(game(rows), TENHOU.replace(leftover_sticks="lost"))
    assert lost.games["final_score"].sum() == 100000 - 2000


def test_recorded_kyotaku_and_honba_are_checked_not_overwritten():
    df = game(
        [
            {"round": "E1", "honba": 0, "result": "draw", "riichi": "Aoki", "tenpai": "Aoki"},
            {"round": "E1", "honba": 0, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
        ]
    ).with_columns(kyotaku=__import__("polars").Series(["0", "0"]))
    result = score(df, TENHOU)
    assert result.hands["recorded_kyotaku"].to_list() == ["0", "0"]
    assert result.hands["kyotaku"].to_list() == [0, 1]
    assert result.hands["problems"].to_list() == [[], ["honba_mismatch", "kyotaku_mismatch"]]
    # Payments follow the replay: one honba (100 each) and the stick.
    assert deltas(result)[1] == [1500 + 300 + 1000, -600, -600, -600]


RON = {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 1, "fu": 30}
TSUMO = {"round": "E1", "honba": 0, "result": "tsumo", "winner": "Doi", "han": 1, "fu": 30}


@pytest.mark.parametrize("rows", [[RON, TSUMO], [TSUMO, RON]])
def test_separate_hands_of_one_round_and_honba_are_replayed_in_input_order(rows):
    # A ron and a tsumo both at E1-0 are two hands (a hand has one outcome): the record is wrong somewhere, and
    # the rows are replayed as they are listed; check names the first, after which the dealer should have passed.
    result = check(game(rows), TENHOU)
    assert result.scored.hands["result"].to_list() == [r["result"] for r in rows]
    assert result.scored.hands["replayed_honba"].to_list() == [0, 0]  # a non-dealer won: no honba after it
    assert result.findings.select("field", "source_row", "explanation").rows() == [
        ("round", 1, f"after {rows[0]['result']} in E1 the dealer passes")]


def test_a_multiple_ron_is_one_hand_at_its_first_rows_place_even_when_its_rows_are_apart():
    double = [dict(r, honba=0) for r in DOUBLE_RON[1:]]
    result = score(game([double[0], TSUMO, double[1]]), TENHOU)
    # the double ron first (its winners by seat distance from Doi), then the tsumo after it: the dealer Aoki won
    assert result.hands.select("result", "winner").rows() == [("ron", "Aoki"), ("ron", "Chiba"), ("tsumo", "Doi")]
    assert result.hands["replayed_honba"].to_list() == [0, 0, 1]
