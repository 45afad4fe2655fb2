"""Aotenjou (``limits = "aotenjou"``): no cap, base points fu x 2^(2+han), 13 han per yakuman, Int64 throughout.

Every expected value is worked out by hand in the table: base = fu x 2^(2 + han + 13 x yakuman), a ron pays
base x 4 (x 6 for the dealer), a tsumo base x 1 / x 2 from each payer, each payment rounded up to
``payment_rounding``. Sources: riichi.wiki "Aotenjou": "a 5 han 30 fu hand is 8000 in standard rules,
and 15360 in aotenjou", "Yakuman are scored as 13-han yaku"; riichi.wiki "Aotenjou": 8 han 30 fu ron 122,880,
a 40-fu yakuman ron 5,242,880.
"""

from __future__ import annotations

import polars as pl
import pytest

import analyzer
from analyzer.core.rules import RulesError, preset

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
    # a yakuman from tiles: kokushi 13-wait tsumo by a non-dealer, 13 han + menzen tsumo 1 = 14 han at 30 fu
    # (riichi.wiki "Aotenjou": kokushi "14 han 30 fu (tsumo, counting mentsumo)"; 30 fu by tsumo, 40 by ron):
    # base 30 x 2^16 = 1,966,080; the dealer pays 3,932,160 -> 3,932,200, the others 1,966,080 -> 1,966,100
    kokushi = row | {"round": "E1", "result": "tsumo", "winner": "1", "loser": None, "hand": "19m19p19s1234567z1m",
                     "melds": None, "win_tile": "1m", "dora": "1p"}
    hand = analyzer.score(pl.DataFrame([kokushi]), rules=ROUNDED).hands.row(0, named=True)
    assert (hand["yakuman"], hand["han"], hand["fu"]) == (1, 1, 30)
    assert hand["points"] == 3_932_200 + 2 * 1_966_100
    assert hand["delta_0"] == -3_932_200


_TILE_ROW = {"game_id": "T", "round": "E1", "honba": "0", "player_0": "P0", "player_1": "P1", "player_2": "P2",
             "player_3": "P3"}
# A yakuman hand from tiles under aotenjou: 13 han per yakuman on top of its other yaku and dora, the yaku its
# completion implies left out (riichi.wiki "Aotenjou": "a suuankou hand does not score sanankou or toitoi").
# (row, other han, fu, yakuman, dora, yaku listed, points, why) -- worked out by hand:
YAKUMAN_TILE_CASES = [
    ({"result": "ron", "winner": "1", "loser": "2", "hand": "222p99p666777z", "melds": "pon:555z",
      "win_tile": "2p", "dora": "8p"},
     6, 50, 1, 2, ["honitsu", "toitoi", "daisangen"], 419_430_400,
     "daisangen + honitsu (open) 2 + toitoi 2 + dora 9p x2 = 6 han, the three dragon yakuhai implied; fu 20 + "
     "open 555z 4 + 222p by ron (open simple) 2 + closed 666z 8 + 777z 8 = 42 -> 50; 19 han: 50 x 2^21 = "
     "104,857,600 x 4 = 419,430,400"),
    ({"result": "tsumo", "winner": "1", "hand": "111m999p333s777s55s", "win_tile": "3s", "dora": "2s",
      "riichi": "1"},
     4, 50, 1, 3, ["riichi", "suuankou"], 104_857_600,
     "suuankou + riichi 1 + dora 3s x3 = 4 han (menzen tsumo, toitoi and sanankou implied); fu 20 + tsumo 2 + "
     "111m 8 + 999p 8 + 333s 4 + 777s 4 = 46 -> 50; 17 han: base 50 x 2^19 = 26,214,400: the dealer pays "
     "52,428,800, the other 26,214,400 each: 104,857,600"),
    ({"result": "ron", "winner": "0", "loser": "2", "hand": "19m19p19s1234567z1p", "win_tile": "1p", "dora": "1p",
      "riichi": "0"},
     1, 40, 1, 0, ["riichi", "kokushi_13"], 15_728_700,
     "dealer kokushi (13-sided, one yakuman under Tenhou's rules) + riichi = 14 han at 40 fu by ron: 40 x 2^16 x 6 "
     "= 15,728,640 -> 15,728,700"),
    ({"result": "tsumo", "winner": "1", "hand": "1112345678999p5p", "win_tile": "5p", "dora": "4p"},
     3, 40, 1, 2, ["menzen_tsumo", "junsei_chuuren"], 41_943_200,
     "junsei chuuren by tsumo (one yakuman under Tenhou's rules; chinitsu implied, tsumo not): menzen tsumo 1 + "
     "dora 5p x2 = 3 han; the only reading 111 234 55 678 999p waits tanki: fu 20 + tsumo 2 + tanki 2 + 111p 8 "
     "+ 999p 8 = 40; 16 han: base 40 x 2^18 = 10,485,760: the dealer pays 20,971,520 -> 20,971,600, the other "
     "10,485,760 -> 10,485,800 each"),
    ({"result": "tsumo", "winner": "1", "hand": "111222333p55777z", "win_tile": "3p", "dora": "1m"},
     4, 50, 1, 0, ["chun", "honitsu", "suuankou"], 104_857_600,
     "several readings (triplets, or 123p x3): suuankou + chun 1 + honitsu 3 = 4 han beats the sequences "
     "(menzen tsumo, iipeikou, chun, honitsu: 6 han 40 fu); fu 20 + tsumo 2 + haku pair 2 + 111p 8 + 222p 4 + "
     "333p 4 + 777z 8 = 48 -> 50; 17 han: base 50 x 2^19 = 26,214,400: 52,428,800 + 2 x 26,214,400"),
]


@pytest.mark.parametrize("row, han, fu, yakuman, dora, yaku, points, why", YAKUMAN_TILE_CASES,
                         ids=[c[5][-1] + "+" + "+".join(c[5][:-1]) for c in YAKUMAN_TILE_CASES])
def test_yakuman_from_tiles_carries_its_other_yaku_and_dora(row, han, fu, yakuman, dora, yaku, points, why):
    data = pl.DataFrame([_TILE_ROW | row])
    result = analyzer.score(data, rules=ROUNDED)
    assert result.rejects.height == 0, result.rejects
    hand = result.hands.row(0, named=True)
    assert (hand["han"], hand["fu"], hand["yakuman"], hand["dora_count"]) == (han, fu, yakuman, dora), why
    assert [y["name"] for y in hand["yaku"]] == yaku, why
    assert sum(y["han"] for y in hand["yaku"]) + dora == han + 13 * yakuman, why  # the list adds up
    assert hand["points"] == points, why
    # the same rows under the standard limits: a yakuman is only the yakuman (no other han, no dora)
    standard = analyzer.score(data, rules="tenhou").hands.row(0, named=True)
    assert (standard["han"], standard["dora_count"], standard["yakuman"]) == (0, 0, yakuman)
    assert [y["name"] for y in standard["yaku"]] == yaku[-1:]


def test_yakuman_from_tiles_with_three_players_counts_the_norths_too():
    """Sanma (tenhou_sanma with limits = aotenjou): the daisangen ron above with one north set aside: honitsu 2 +
    toitoi 2 + dora 9p x2 + kita 1 = 7 han, 20 with daisangen, 50 fu: 50 x 2^22 = 209,715,200 x 4 = 838,860,800;
    under tenhou_sanma itself it stays a yakuman ron, 32,000."""
    row = {"game_id": "S", "round": "E1", "honba": "0", "player_0": "P0", "player_1": "P1", "player_2": "P2",
           "result": "ron", "winner": "1", "loser": "2", "hand": "222p99p666777z", "melds": "pon:555z",
           "win_tile": "2p", "dora": "8p", "kita": 1}
    hand = analyzer.score(pl.DataFrame([row]), rules=preset("tenhou_sanma").replace(limits="aotenjou")).hands.row(
        0, named=True)
    assert (hand["han"], hand["fu"], hand["dora_count"], hand["points"]) == (7, 50, 3, 838_860_800)
    assert (hand["delta_1"], hand["delta_2"]) == (838_860_800, -838_860_800)
    standard = analyzer.score(pl.DataFrame([row]), rules="tenhou_sanma").hands.row(0, named=True)
    assert (standard["han"], standard["dora_count"], standard["points"]) == (0, 0, 32_000)


def test_option_is_validated_and_off_in_every_other_preset():
    with pytest.raises(RulesError):
        preset("tenhou").replace(limits="none")
    with pytest.raises(RulesError):
        preset("tenhou").replace(payment_rounding=10)
    for name in analyzer.core.rules.preset_names():
        if name != "aotenjou":
            assert preset(name).limits == "standard"
    assert preset("aotenjou").replace(limits="standard") == preset("tenhou").replace(
        name="aotenjou", source=preset("aotenjou").source)
