"""Where a game ends under its rules: tobi, the last round, the West extension, agari-yame; `games.complete` and
`check`'s ``end`` findings. Scores worked by hand from 25000 each (tenhou rules unless a spec says otherwise)."""

from __future__ import annotations

import pytest

import analyzer
from analyzer.api import check
from conftest import game

# Baba rons the dealer Aoki for a yakuman: Aoki 25000 - 32000 = -7000.
BUST = [{"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Aoki", "yakuman": 1}]
AFTER_BUST = [{"round": "E2", "honba": 0, "result": "draw"}]
# Aoki pays 8000 (mangan), 16000 (baiman) and 1000 (1 han 30 fu), all non-dealer rons: exactly 0 after E3.
TO_ZERO = [
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Aoki", "han": 5},
    {"round": "E2", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Aoki", "han": 8},
    {"round": "E3", "honba": 0, "result": "ron", "winner": "Doi", "loser": "Aoki", "han": 1, "fu": 30},
]
# East game, four draws nobody is tenpai at: 25000 each after E4, nobody has the 30000 return points.
ALL_NOTEN = [{"round": f"E{n}", "honba": n - 1, "result": "draw"} for n in range(1, 5)]
# ... then Baba rons Aoki in S1-4, 3 han 40 fu: 5200 + 1200 honba, Baba 31400: sudden death ends it.
SUDDEN_DEATH = [{"round": "S1", "honba": 4, "result": "ron", "winner": "Baba", "loser": "Aoki", "han": 3, "fu": 40}]
# East game: three noten draws, then the dealer Doi tsumo mangan in E4-3: 4000 all + 300 = 37900, top.
DEALER_TOP = ALL_NOTEN[:3] + [{"round": "E4", "honba": 3, "result": "tsumo", "winner": "Doi", "han": 5}]
EAST = "tenhou;game_length=\"east\""


def _complete(rows, rules) -> bool:
    games = analyzer.score(game(rows), rules).games
    assert games["complete"].n_unique() == 1
    return games["complete"][0]


def _end_findings(rows, rules) -> list[tuple]:
    findings = check(game(rows), rules).findings.filter(field="end")
    return [(r["round"], r["honba"], r["recorded"], r["computed"], r["explanation"]) for r in findings.to_dicts()]


@pytest.mark.parametrize("rows, rules, complete", [
    (BUST, "tenhou", True),                        # tobi ends the game at once
    (BUST, "ema", False),                           # no tobi: the record stops at E1 of a hanchan
    (BUST + AFTER_BUST, "tenhou", False),           # went on after the bust
    (TO_ZERO, "tenhou", False),                     # exactly 0 plays on under Tenhou
    (TO_ZERO, "tenhou;tobi=\"zero_or_below\"", True),
    (ALL_NOTEN, EAST, False),                       # nobody has 30000: West extension
    (ALL_NOTEN, EAST + ";west_extension=false", True),
    (ALL_NOTEN + SUDDEN_DEATH, EAST, True),
    (DEALER_TOP, EAST, True),                       # agari-yame: the dealer may stop
    (DEALER_TOP + [{"round": "E4", "honba": 4, "result": "draw"}], EAST, True),  # or play on: noten, E4 is over
    (DEALER_TOP, EAST + ";last_dealer_stop=\"none\"", False),  # the dealer keeps the deal: E4 again
])
def test_complete(rows, rules, complete):
    assert _complete(rows, rules) is complete


def test_a_game_going_on_after_a_bust_is_a_finding():
    [(round_, honba, recorded, computed, why)] = _end_findings(BUST + AFTER_BUST, "tenhou")
    assert (round_, honba, recorded, computed) == ("E1", 0, "goes on", "ends")
    assert why == "the game should end after this hand: a score is below zero (-7000): the game ends at once (tobi)"


def test_going_on_after_sudden_death_is_a_finding():
    rows = ALL_NOTEN + SUDDEN_DEATH + [{"round": "S2", "honba": 0, "result": "draw"}]
    [(round_, _, recorded, _, why)] = _end_findings(rows, EAST)
    assert round_ == "S1" and recorded == "goes on" and "sudden death" in why


def test_stopping_without_the_west_extension_is_a_finding():
    [(round_, _, recorded, computed, why)] = _end_findings(ALL_NOTEN, EAST)
    assert (round_, recorded, computed) == ("E4", "ends", "goes on")
    assert why == "the game ends after this hand, but nobody has 30000 yet: the game goes on into S1 (West extension)"


def test_stopping_where_the_dealer_keeps_the_deal_is_a_finding():
    [(_, _, _, _, why)] = _end_findings(DEALER_TOP, EAST + ";last_dealer_stop=\"none\"")
    assert why == "the game ends after this hand, but the game goes on to E4 (E4 is the last round)"


@pytest.mark.parametrize("rows, rules", [
    (DEALER_TOP, EAST), (DEALER_TOP + [{"round": "E4", "honba": 4, "result": "draw"}], EAST),
    (BUST, "ema"),  # a record that stops early is incomplete, not a disagreement
    (BUST, "tenhou"),
])
def test_no_end_finding(rows, rules):
    assert _end_findings(rows, rules) == []


@pytest.mark.parametrize("preset", ["tenhou", "majsoul", "ema", "ema2025", "wrc", "mleague"])
def test_every_preset_sets_the_game_end_rules(preset):
    rules = analyzer.preset(preset)
    online = preset in ("tenhou", "majsoul")
    assert (rules.tobi, rules.west_extension, rules.last_dealer_stop) == (
        ("below_zero", True, "agari_tenpai") if online else ("off", False, "none")
    )
    assert rules.game_length == "hanchan"


def test_a_game_with_a_rejected_row_is_incomplete_but_not_one_with_an_exact_copy():
    bad = BUST + [{"round": "X9", "honba": 0, "result": "draw"}]
    assert _complete(bad, "tenhou") is False
    copied = analyzer.score(game(BUST + BUST), "tenhou")
    assert copied.rows_rejected == 1 and copied.games["complete"].all()


# A hanchan that goes into West: Baba tenpai alone at E1 (28000), Baba and Chiba tenpai at E2 where Baba deals
# and keeps the deal (29500, Chiba 25500), then noten draws to S4: nobody has 30000 (Aoki 22500, Doi 22500).
TO_WEST = [
    {"round": "E1", "honba": 0, "result": "draw", "tenpai": "Baba"},
    {"round": "E2", "honba": 1, "result": "draw", "tenpai": "Baba,Chiba"},
    *[{"round": r, "honba": h, "result": "draw"} for h, r in enumerate(["E2", "E3", "E4", "S1", "S2", "S3", "S4"], 2)],
]
# W1-9: Aoki (the dealer) and Baba tenpai: 1500 each from Chiba and Doi, Baba 31000 but the dealer keeps the deal.
WEST_RENCHAN = [{"round": "W1", "honba": 9, "result": "draw", "tenpai": "Aoki,Baba"}]
# W1-10: Chiba rons Doi, 1 han 30 fu (1000 + 3000 honba): the deal passes with Baba at 31000: sudden death.
WEST_PASSES = [{"round": "W1", "honba": 10, "result": "ron", "winner": "Chiba", "loser": "Doi", "han": 1, "fu": 30}]
# W1-10: the dealer Aoki (24000) rons Doi for a haneman, 18000 + 3000: 45000, top, and keeps the deal.
WEST_DEALER_TOP = [{"round": "W1", "honba": 10, "result": "ron", "winner": "Aoki", "loser": "Doi", "han": 6}]


@pytest.mark.parametrize("rules", ["tenhou", "majsoul"])
def test_a_dealer_keeping_the_deal_in_the_west_round_plays_on_though_someone_has_30000(rules):
    assert _complete(TO_WEST + WEST_RENCHAN + WEST_PASSES, rules) is True
    assert _end_findings(TO_WEST + WEST_RENCHAN + WEST_PASSES, rules) == []
    [(round_, honba, recorded, computed, why)] = _end_findings(TO_WEST + WEST_RENCHAN, rules)
    assert (round_, honba, recorded, computed) == ("W1", 9, "ends", "goes on")
    assert why == ("the game ends after this hand, but the dealer keeps the deal, not as top with 30000: the game "
                   "goes on to W1 (sudden death ends it when the deal passes)")


def test_the_west_round_dealer_top_with_30000_may_stop_as_at_south_4():
    assert _complete(TO_WEST + WEST_RENCHAN + WEST_DEALER_TOP, "tenhou") is True
    assert _complete(TO_WEST + WEST_RENCHAN + WEST_DEALER_TOP + [{"round": "W1", "honba": 11, "result": "draw"}],
                     "tenhou") is True  # playing on is the dealer's choice
    assert _complete(TO_WEST + WEST_RENCHAN + WEST_DEALER_TOP, "tenhou;last_dealer_stop=\"none\"") is False


@pytest.mark.parametrize("rules, into_west", [
    ("majsoul", True),                          # points count from 25000, but the game ends at 30000
    ("tenhou;extension_target=29000", False),   # the target is its own option, not return_points
    ("tenhou;return_points=29000", True),
])
def test_the_extension_target_is_its_own_option(rules, into_west):
    assert _complete(TO_WEST, rules) is not into_west
    assert analyzer.preset("majsoul").extension_target == 30000 and analyzer.preset("majsoul").return_points == 25000


@pytest.mark.parametrize("preset, target", [("tenhou", 30000), ("majsoul", 30000), ("tenhou_sanma", 40000),
                                            ("majsoul_sanma", 40000)])
def test_extension_targets_of_the_presets(preset, target):
    assert analyzer.preset(preset).extension_target == target
