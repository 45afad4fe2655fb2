"""A Riichi City game's rules, room and caveats from its record's fields; its yaku ids and tile codes (the test
records are composed for this project: ``tests/data/riichicity/games.py``)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.rules import from_spec
from analyzer.formats.riichicity.codes import TILES
from analyzer.formats.riichicity.yaku import FANG_NAMES, fang_name, yakuman_times
from analyzer.formats.tenhou.yaku_names import TENHOU_YAKU_IDS
from analyzer.formats.tile_text import RED, tile_str

from tests.formats.riichicity.rc_records import EAST, SANMA, end_of, events, read, record, write


@pytest.mark.parametrize("fang, name", [
    (0, "riichi"), (1, "menzen_tsumo"), (7, "chun"), (9, "haku"), (10, "round_wind"), (11, "seat_wind"),
    (13, "pinfu"), (15, "double_riichi"), (35, "kokushi_13"), (39, "suuankou_tanki"), (45, "daisangen"),
    (52, "riichi"), (53, "double_riichi"), (48, "unknown:paarenchan"), (56, "unknown:north_value_honour"),
    (99, "unknown:99"),
])
def test_fang_ids_are_our_yaku_names(fang, name):
    assert fang_name(fang) == name


def test_every_fang_name_is_a_canonical_yaku():
    assert set(FANG_NAMES.values()) <= set(TENHOU_YAKU_IDS)


@pytest.mark.parametrize("fang, num, times", [(45, 13, 1), (39, 26, 2), (45, 1, 1), (39, 0, 2), (34, 0, 1), (43, 2, 2)])
def test_how_many_yakuman_an_entry_is(fang, num, times):
    assert yakuman_times(fang, num) == times


@pytest.mark.parametrize("code, text", [(0x01, "1p"), (0x09, "9p"), (0x11, "1s"), (0x29, "9m"), (0x31, "1z"),
                                        (0x61, "4z"), (0x71, "5z"), (0x91, "7z"), (0x105, "0p"), (0x115, "0s"),
                                        (0x125, "0m")])
def test_tile_codes(code, text):
    assert tile_str(TILES[code]) == text


@given(st.sampled_from(sorted(TILES)))
def test_a_tile_code_is_its_suit_and_number(code):
    t = TILES[code]
    number, suit = code & 0xF, code >> 4 & 0xF
    assert (t >= RED) == bool(code & 0x100)
    assert tile_str(t) == (f"{'0' if t >= RED else number}{'psm'[suit]}" if suit < 3 else f"{suit - 2}z")


def _read_changed(tmp_path, edit, path=EAST):
    rec = record(path)
    edit(rec)
    return read(write(rec, tmp_path / "record.json"))


def _top(**fields):
    return lambda rec: rec["data"].update(fields)


def _open_riichi(rec):
    win = end_of(rec, 2)["win_info"][0]
    win["fang_info"][0] = {"fang_type": 52, "fang_num": 2}
    win["all_fang_num"] = 3


def _chips(rec):
    rec["data"]["isLuck"] = True
    for seat, entry in enumerate(end_of(rec, 5, 6)["user_data"]):
        entry["luck_score"] = [2, -1, 0, -1][seat]


def _yakitori(rec):
    rec["data"]["isShaoJi"] = True
    end_of(rec, 5, 6)["user_data"][1]["shao_ji_score"] = -15


def _no_red_fives(rec):
    for hand in rec["data"]["handRecord"]:
        hand["handCardEncode"] = hand["handCardEncode"].replace("0", "5")
        hand["handCardsSHA256"] = hashlib.sha256(hand["handCardEncode"].encode()).hexdigest()


@pytest.mark.parametrize("edit, path, rules, room, said", [
    (_top(round=2), EAST, "riichicity", "Riichi City ranked Milky Way 4P South", []),
    (_top(gamePlay=1002), EAST, "riichicity;game_length=east", "Riichi City tournament 4P East", []),
    (_top(round=3), EAST, "riichicity", "Riichi City ranked Milky Way 4P one hand",
     ["round 3 (one hand): no game length the rules have; the game is not ended where its rules end it"]),
    (_top(isGeMu=True), EAST, "riichicity;game_length=east", None,
     ["wareme (割れ目, isGeMu: the seat of the dice's wall pays and is paid double), which the rules do not "
      "reproduce: its hands' payments differ from the computed ones"]),
    (_top(fangFu=2), EAST, "riichicity;game_length=east", None,
     ["fangFu 2 (a friendly room's minimum han) is not decoded: hands are checked under the usual one-han minimum"]),
    (_top(northOperateType=1), SANMA, "riichicity_sanma;game_length=east", None,
     ["northOperateType 1 (north a value honour, not set aside): the rules set norths aside, and have no north "
      "value honour"]),
    (_top(initPoints=30000), EAST, "riichicity;game_length=east", None,
     ["initPoints is 30000, but the first hand deals [25000, 25000, 25000, 25000]: the game is read from its hands"]),
    (_open_riichi, EAST, "riichicity;game_length=east", None,
     ["E2-0: an open riichi (開立直, isKaiLiZhi) with the han the room gives it: the rules have no open riichi, it "
      "is checked as a riichi (its extra han shows)"]),
    (_yakitori, EAST, "riichicity;game_length=east", None,
     ["yakitori (焼き鳥, isShaoJi) penalties [-15] were paid at the end: the rules have no yakitori, the final "
      "points show them"]),
    (_no_red_fives, EAST, "riichicity;aka_dora=false;game_length=east", None, []),
], ids=["south", "tournament", "one hand", "wareme", "min han", "north honour", "start", "open riichi", "yakitori",
        "no reds"])
def test_the_rules_and_caveats_from_the_records_fields(tmp_path, edit, path, rules, room, said):
    hands, problems = _read_changed(tmp_path, edit, path)
    assert set(hands["rules"]) == {rules}
    from_spec(rules)  # a spec the rules read
    if room is not None:
        assert set(hands["room"]) == {room}
    assert [p.reason for p in problems] == said and all(p.imported for p in problems)


def test_a_chip_room_gives_the_chips(tmp_path):
    hands, _ = _read_changed(tmp_path, _chips)
    assert [hands[f"recorded_chips_{s}"][-1] for s in range(4)] == [2, -1, 0, -1]


def test_an_open_riichi_is_a_riichi_with_the_records_han(tmp_path):
    hands, _ = _read_changed(tmp_path, _open_riichi)
    assert (hands["recorded_yaku"][1].to_list(), hands["recorded_han"][1]) == (["riichi", "menzen_tsumo"], 3)


@settings(max_examples=6, deadline=None)
@given(turn=st.integers(1, 3))
def test_the_seats_count_from_the_first_dealer(tmp_path_factory, turn):
    """Positions and dealer positions turned round by ``turn``: the same hand records (seat 0 is E1's dealer)."""
    def rotate(rec):
        for number, hand in enumerate(rec["data"]["handRecord"], 1):
            for p in hand["players"]:
                p["position"] = (p["position"] + turn) % 4
            for e in events(rec, number):
                if e["eventType"] == 1:
                    e["_data"]["dealer_pos"] = (e["_data"]["dealer_pos"] + turn) % 4
    rec = record(EAST)
    rotate(rec)
    turned, _ = read(write(rec, tmp_path_factory.mktemp("turned") / "record.json"))
    original, _ = read(EAST)
    assert turned.drop("log_file").equals(original.drop("log_file"))
