"""Aotenjou (``limits = "aotenjou"``): no cap, base points fu x 2^(2+han), 13 han per yakuman, Int64 throughout.

Every expected value is worked out by hand in the table: base = fu x 2^(2 + han + 13 x yakuman), a ron pays
base x 4 (x 6 for the dealer), a tsumo base x 1 / x 2 from each payer, each payment rounded up to
``payment_rounding``. Sources: reference 003 (English wiki): "a 5 han 30 fu hand is 8000 in standard rules,
and 15360 in aotenjou", "Yakuman are scored as 13-han yaku"; riichi.wiki "Aotenjou": 8 han 30 fu ron 122,880,
a 40-fu yakuman ron 5,242,880.
"""

from __future__ import annotations

import polars as pl
import pytest

import analyzer
from analyzer.rules import RulesError, preset

EXACT = preset("aotenjou").replace(payment_rounding=1)  # the sources quote unrounded figures
ROUNDED = preset("aotenjou")


def _game(rows: list[dict]) -> pl.DataFrame:
    base = {"game_id": "A", "round": "E1", "honba": "0", "player_0": "P0", "player_1": "P1", "player_2": "P2",
            "player_3": "P3"}
    return pl.DataFrame([base | {"game_id": f"A{i}"} | r for i, r in enumerate(rows)])


CASES = [
    # (row, rules, expected points, expected winner delta, why)
    ({"result": "ron", "winner": "1", "loser": "2", "han": "5", "fu": "30"}, EXACT, 15_360, 15_360,
     "source 003: 30 x 2^7 = 3,840 base x 4"),
    ({"result": "ron", "winner": "1", "loser": "2", "han": "5", "fu": "30"}, ROUNDED, 15_400, 15_400,
     "the preset rounds each payment up to 100"),
    ({"result": "ron", "winner": "1", "loser": "2", "han": "5", "fu": "30"}, preset("tenhou"), 8_000, 8_000,
     "standard rules: mangan"),
    ({"result": "ron", "winner": "1", "loser": "2", "han": "8", "fu": "30"}, EXACT, 122_880, 122_880,
     "riichi.wiki: 30 x 2^10 x 4"),
    ({"result": "ron", "winner": "1", "loser": "2", "yakuman": "1", "fu": "40"}, EXACT, 5_242_880, 5_242_880,
     "riichi.wiki: a yakuman is 13 han: 40 x 2^15 x 4"),
    ({"result": "ron", "winner": "1", "loser": "2", "yakuman": "1", "han": "2", "fu": "40"}, ROUNDED,
     20_971_600, 20_971_600, "yakuman + 2 han (riichi, dora) = 15 han: 40 x 2^17 x 4 = 20,971,520 -> 20,971,600"),
    ({"result": "tsumo", "winner": "0", "yakuman": "2", "fu": "40"}, ROUNDED, 64_424_509_500, 64_424_509_500,
     "dealer double yakuman tsumo, 26 han: base 40 x 2^28 = 10,737,418,240 (beyond Int32); each pays x2 = "
     "21,474,836,480 -> 21,474,836,500, three payers"),
    ({"result": "tsumo", "winner": "1", "han": "6", "fu": "30"}, ROUNDED, 30_800, 30_800,
     "non-dealer tsumo 6 han 30 fu: base 30 x 2^8 = 7,680; the dealer pays 15,360 -> 15,400, the others "
     "7,680 -> 7,700 each: 15,400 + 2 x 7,700"),
]


@pytest.mark.parametrize("row, rules, points, delta, why", CASES, ids=[c[4][:40] for c in CASES])
def test_han_fu_rows(row, rules, points, delta, why):
    result = analyzer.score(_game([row]), rules=rules)
    assert result.rejects.height == 0, result.rejects
    hand = result.hands.row(0, named=True)
    winner = int(row["winner"])
    assert hand["points"] == points, why
    assert hand[f"delta_{winner}"] == delta, why
    assert sum(hand[f"delta_{s}"] for s in range(4)) == 0
    if rules.limits == "aotenjou":
        assert hand["limit"] is None  # no limit names under aotenjou


def test_values_beyond_int32_reach_scores_and_games():
    row = {"result": "tsumo", "winner": "0", "yakuman": "2", "fu": "40"}
    result = analyzer.score(_game([row]), rules=ROUNDED)
    hands, games = result.hands, result.games
    for name in ("points", "base_points", "delta_0", "score_0"):
        assert hands.schema[name] == pl.Int64
    assert hands["score_0"][0] == 25_000 + 64_424_509_500
    assert hands["score_1"][0] == 25_000 - 21_474_836_500
    top = games.filter(pl.col("seat") == 0).row(0, named=True)
    assert top["final_score"] == 25_000 + 64_424_509_500
    assert games.schema["final_score"] == pl.Int64
    assert games["game_points"].sum() == pytest.approx(0, abs=1e-6)


def test_hands_too_big_for_int64_are_rejected_not_wrapped():
    rows = [{"result": "ron", "winner": "1", "loser": "2", "han": "60", "fu": "40"},
            {"result": "ron", "winner": "1", "loser": "2", "yakuman": "1"}]  # no fu to price it
    result = analyzer.score(_game(rows), rules=ROUNDED)
    assert result.hands.height == 0
    reasons = result.rejects["reason"].to_list()
    assert any("2^56 base points" in r for r in reasons)
    assert any("fu is required" in r for r in reasons)


def test_tiles_under_aotenjou():
    """From tiles: seed example 000-1 (dealer ron, toitoi 2, haku 1, dora 3 = 6 han; fu 20 + open pons 999m 4
    and 555z 4 + concealed 333s 4 + 555p completed by ron, an open triplet, 2 = 34 -> 40 fu): standard
    haneman 18,000; aotenjou 40 x 2^8 = 10,240 base x 6 = 61,440 -> 61,500."""
    row = {"game_id": "T", "round": "S1", "honba": "0", "player_0": "P0", "player_1": "P1", "player_2": "P2",
           "player_3": "P3", "result": "ron", "winner": "0", "loser": "1", "hand": "333s77s555p",
           "melds": "pon:999m pon:555z", "win_tile": "5p", "dora": "4p"}
    standard = analyzer.score(pl.DataFrame([row]), rules="tenhou").hands.row(0, named=True)
    assert (standard["han"], standard["points"]) == (6, 18_000)
    hand = analyzer.score(pl.DataFrame([row]), rules=ROUNDED).hands.row(0, named=True)
    assert hand["fu"] == 40
    assert hand["points"] == 61_500  # 40 x 2^8 x 6 = 61,440, rounded up to 100
    # a yakuman from tiles: kokushi 13-wait tsumo by a non-dealer, 13 han at 30 fu (riichi.wiki: 30 by tsumo,
    # 40 by ron): base 30 x 2^15 = 983,040; the dealer pays 1,966,080, the others 983,040 each
    kokushi = row | {"round": "E1", "result": "tsumo", "winner": "1", "loser": None, "hand": "19m19p19s1234567z1m",
                     "melds": None, "win_tile": "1m", "dora": "1p"}
    hand = analyzer.score(pl.DataFrame([kokushi]), rules=ROUNDED).hands.row(0, named=True)
    assert (hand["yakuman"], hand["fu"]) == (1, 30)
    assert hand["points"] == 1_966_100 + 2 * 983_100
    assert hand["delta_0"] == -1_966_100


def test_option_is_validated_and_off_in_every_other_preset():
    with pytest.raises(RulesError):
        preset("tenhou").replace(limits="none")
    with pytest.raises(RulesError):
        preset("tenhou").replace(payment_rounding=10)
    for name in analyzer.rules.preset_names():
        if name != "aotenjou":
            assert preset(name).limits == "standard"
    assert preset("aotenjou").replace(limits="standard") == preset("tenhou").replace(
        name="aotenjou", source=preset("aotenjou").source)
