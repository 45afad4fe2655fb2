"""Every fu item and every wait, with the exact fu_detail (reasons are the constants of analyzer.tiles.fu)."""

from __future__ import annotations

from collections import Counter

import pytest

from analyzer.core.rules import Rules
from analyzer.tiles import fu as F
from tests.tiles.helpers import score_frame

R = dict(riichi=True)
# id, case, rules overrides, fu, fu_detail [(fu, reason)], wait
CASES = [
    ("pinfu_ron", dict(hand="12355m456p234789s", win="4s", **R), {}, 30,
     [(20, F.BASE), (10, F.MENZEN_RON)], "ryanmen"),
    ("pinfu_tsumo", dict(hand="12355m456p234789s", win="4s", tsumo=True, **R), {}, 20, [(20, F.BASE)], "ryanmen"),
    ("pinfu_tsumo_fu_rule", dict(hand="12355m456p234789s", win="4s", tsumo=True, **R), {"pinfu_tsumo_fu": True}, 30,
     [(20, F.BASE), (2, F.TSUMO)], "ryanmen"),
    ("kanchan", dict(hand="123m456p55p123789s", win="2s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.KANCHAN)], "kanchan"),
    ("penchan", dict(hand="123m456p55p123789s", win="3s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.PENCHAN)], "penchan"),
    ("tanki", dict(hand="123m456p22345789s", win="2s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.TANKI)], "tanki"),
    ("shanpon_ron_opens_triplet", dict(hand="123m33456p222789s", win="2s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, "open simple triplet")], "shanpon"),
    ("shanpon_tsumo_stays_closed", dict(hand="123m33456p222789s", win="2s", tsumo=True, **R), {}, 30,
     [(20, F.BASE), (2, F.TSUMO), (4, "closed simple triplet")], "shanpon"),
    ("shanpon_ron_terminal", dict(hand="123m33456p111789s", win="1s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (4, "open terminal triplet")], "shanpon"),
    # 45556 + 5 by ron: kanchan 4_6 keeps 555 concealed (better than the shanpon reading)
    ("kanchan_keeps_ankou", dict(hand="123m456p99p455556s", win="5s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.KANCHAN), (4, "closed simple triplet")], "kanchan"),
    ("closed_terminal_triplet", dict(hand="111m456p23455s789s", win="2s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (8, "closed terminal triplet")], "ryanmen"),
    ("closed_terminal_kan", dict(hand="123m456p23455s", melds="ankan:9999p", win="2s", **R), {}, 70,
     [(20, F.BASE), (10, F.MENZEN_RON), (32, "closed terminal kan")], "ryanmen"),
    ("closed_simple_kan", dict(hand="123m456p23455s", melds="ankan:5555m", win="2s", **R), {}, 50,
     [(20, F.BASE), (10, F.MENZEN_RON), (16, "closed simple kan")], "ryanmen"),
    ("open_kans", dict(hand="123m11s", melds="minkan:1111p kakan:5555s pon:777z", win="1m"), {}, 50,
     [(20, F.BASE), (16, "open terminal kan"), (8, "open simple kan"), (4, "open terminal triplet")], "ryanmen"),
    ("open_simple_triplet", dict(hand="234m567p34566s", melds="pon:888p", win="2m"), {}, 30,
     [(20, F.BASE), (2, "open simple triplet")], "ryanmen"),
    ("dragon_pair", dict(hand="123m456p789s234s77z", win="2s", **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.DRAGON_PAIR)], "ryanmen"),
    ("seat_wind_pair", dict(hand="123m456p789s234s22z", win="2s", seat=1, round=0, **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.SEAT_WIND_PAIR)], "ryanmen"),
    ("round_wind_pair", dict(hand="123m456p789s234s11z", win="2s", seat=1, round=0, **R), {}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.ROUND_WIND_PAIR)], "ryanmen"),
    ("double_wind_pair_4", dict(hand="999m123456p234s11z", win="4s", seat=0, round=0, **R), {}, 50,
     [(20, F.BASE), (10, F.MENZEN_RON), (4, F.DOUBLE_WIND_PAIR), (8, "closed terminal triplet")], "ryanmen"),
    ("double_wind_pair_2", dict(hand="999m123456p234s11z", win="4s", seat=0, round=0, **R),
     {"double_wind_pair_fu": 2}, 40,
     [(20, F.BASE), (10, F.MENZEN_RON), (2, F.DOUBLE_WIND_PAIR), (8, "closed terminal triplet")], "ryanmen"),
    ("rinshan_tsumo_fu", dict(hand="123m456p11s", melds="minkan:8888s pon:222s", win="4p", tsumo=True, rinshan=True),
     {}, 40, [(20, F.BASE), (2, F.TSUMO), (8, "open simple kan"), (2, "open simple triplet")], "ryanmen"),
    ("rinshan_no_tsumo_fu", dict(hand="123m456p11s", melds="minkan:8888s pon:222s", win="4p", tsumo=True,
                                 rinshan=True), {"rinshan_tsumo_fu": False}, 30,
     [(20, F.BASE), (8, "open simple kan"), (2, "open simple triplet")], "ryanmen"),
    ("open_pinfu_30", dict(hand="234m567p34566s", melds="chi:678p", win="2m"), {}, 30,
     [(20, F.BASE), (10, F.OPEN_PINFU)], "ryanmen"),
    ("chiitoitsu_25", dict(hand="1133m5577p22s4466z", win="4z", **R), {}, 25, [(25, F.CHIITOITSU)], "chiitoitsu"),
]


@pytest.mark.parametrize("name,case,overrides,fu,detail,wait", CASES, ids=[c[0] for c in CASES])
def test_fu(name, case, overrides, fu, detail, wait):
    row = score_frame([case], Rules().replace(**overrides) if overrides else None).row(0, named=True)
    assert row["tile_problem"] is None
    assert (row["fu"], row["wait"]) == (fu, wait)
    assert Counter((d["fu"], d["reason"]) for d in row["fu_detail"]) == Counter(detail)


def test_ambiguous_wait_chooses_pinfu():
    # 344556 won on 5: 34-5 ryanmen (pinfu) beats 4-5-6 kanchan
    row = score_frame([dict(hand="344556m678p23499s", win="5m", **R)]).row(0, named=True)
    assert (row["wait"], row["fu"], row["han"]) == ("ryanmen", 30, 2)
    # 123345 won on 3 with a yakuhai pair (no pinfu): penchan 12-3 (+2) beats ryanmen 3-45
    row = score_frame([dict(hand="123345m678p234s77z", win="3m", **R)]).row(0, named=True)
    assert (row["wait"], row["fu"]) == ("penchan", 40)


def test_batch_of_all_cases_matches_single_rows():
    # the same hands scored together (mixed readings, several ambiguous) give the same results
    cases = [c for _, c, o, *_ in CASES if not o]
    together = score_frame(cases)
    for i, case in enumerate(cases):
        single = score_frame([case])
        assert together.row(i, named=True) == single.row(0, named=True)
