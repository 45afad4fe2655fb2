"""``analyzer import riichicity``: Riichi City (麻雀一番街) records into hand records, checked against what the server
paid and recorded.

No public Riichi City record has a licence that allows copying it: the records read here are composed for this
project from the format the reader documents (``tests/data/riichicity/games.py``, hand by hand), a ranked
four-player East game (ron after calls, a closed kan and a tsumo, riichi, an exhaustive draw with noten payments,
an added kan, kiriage) and a ranked three-player game (a north set aside, tsumo loss, honba 200).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.cli import main
from analyzer.formats.detect import RIICHI_CITY, detect_format
from analyzer.formats.read import read_logs
from analyzer.formats.riichicity.read import _rinshan_after_open_kan

from tests.formats.riichicity.rc_records import EAST, SANMA, end_of, events, read, record, write

ROW_COLUMNS = ("round", "honba", "kyotaku", "result", "winner", "loser", "riichi", "melds", "recorded_yaku",
               "recorded_points", "recorded_han", "recorded_fu", "recorded_limit", "tenpai")
DELTAS = tuple(f"recorded_delta_{s}" for s in range(4))
EAST_ROWS = [
    ("E1", 0, 0, "ron", "2", "3", [], ["pon:555z", "chi:567p"], ["haku"], 2000, 2, 30, None, None, 0, 0, 2000, -2000),
    ("E2", 0, 0, "tsumo", "0", None, ["0"], ["ankan:9999m"], ["riichi", "menzen_tsumo"], 4000, 2, 60, None, None,
     4000, -2000, -1000, -1000),
    ("E3", 0, 0, "draw", None, None, ["1"], None, None, None, None, None, None, ["1", "2"], -1500, 500, 1500, -1500),
    ("E3", 1, 1, "ron", "3", "0", [], ["kakan:7777z"], ["chun"], 1300, 1, 40, None, None, -1600, 0, 0, 2600),
    ("E4", 0, 0, "ron", "2", "1", ["2"], [], ["riichi", "pinfu", "tanyao"], 8000, 4, 30, "mangan", None,
     0, -8000, 8000, 0),
]
SANMA_ROWS = [
    ("E1", 0, 0, "tsumo", "0", None, ["0"], [], ["riichi", "menzen_tsumo"], 4000, 3, 30, None, None,
     4000, -2000, -2000, None),
    ("E1", 1, 0, "ron", "2", "0", [], ["pon:666z"], ["hatsu"], 1000, 1, 30, None, None, -1200, 0, 1200, None),
    ("E2", 0, 0, "draw", None, None, [], None, None, None, None, None, None, ["0"], 2000, -1000, -1000, None),
    ("E3", 1, 0, "ron", "0", "1", ["0"], [], ["riichi", "pinfu"], 2000, 2, 30, None, None, 2200, -2200, 0, None),
]


@pytest.mark.parametrize("path, rows", [(EAST, EAST_ROWS), (SANMA, SANMA_ROWS)], ids=["4p", "3p"])
def test_each_hand_is_read_as_the_server_recorded_it(path, rows):
    hands, problems = read(path)
    assert problems == []
    assert hands.select(*ROW_COLUMNS, *DELTAS).rows() == rows


@pytest.mark.parametrize("path, game_id, rules, room, names, finals, points", [
    (EAST, "cq3k9u2ai08a0i7c5tg0", "riichicity;game_length=east", "Riichi City ranked Milky Way 4P East",
     ["Aoi#812100047", "Botan#613632115", "Chika#614791416", "Daichi#812927032"],
     [25900, 15500, 35500, 23100], [5.9, -44.5, 55.5, -16.9]),
    (SANMA, "cq3kb61ai08a0i7c6p10", "riichicity_sanma;game_length=east", "Riichi City ranked Milky Way 3P East",
     ["Emi#812100047", "Fuji#613632115", "Gin#614791416", None], [42000, 29800, 33200, None],
     [37.0, -30.2, -6.8, None]),
], ids=["4p", "3p"])
def test_the_game_its_players_its_rules_and_its_result(path, game_id, rules, room, names, finals, points):
    hands, _ = read(path)
    last = hands.row(-1, named=True)
    assert set(hands["game_id"]) == {game_id} and set(hands["rules"]) == {rules} and set(hands["room"]) == {room}
    assert [last[f"player_{s}"] for s in range(4)] == names
    assert [last[f"recorded_final_{s}"] for s in range(4)] == finals
    assert [last[f"recorded_game_points_{s}"] for s in range(4)] == points
    assert last["settlement"] is None  # the ranked rules give the recorded points
    assert hands["played_at"][0] == datetime(2023, 11, 14, 22, 13, 20, tzinfo=timezone.utc)  # the first event's time
    assert set(hands["game_length"]) == {"tonpuu"}


def test_flags_and_the_north_set_aside():
    east, _ = read(EAST)
    assert east.select("rinshan", "ippatsu", "haitei", "chankan").rows()[1] == (False, False, False, False)
    sanma, _ = read(SANMA)
    assert sanma["kita"].to_list() == [1, 0, None, 0]
    assert sanma["recorded_dora"][0] == 1  # the north is a dora, as Tenhou counts it


@pytest.mark.parametrize("path", [EAST, SANMA], ids=["4p", "3p"])
def test_check_agrees_with_every_server_value(path):
    hands, _ = read(path)
    assert analyzer.check(hands).ok


def _changed(tmp_path, edit, path=EAST):
    rec = record(path)
    edit(rec)
    return read(write(rec, tmp_path / "record.json"))


def _profit(rec, hand, seat, **values):
    user = rec["data"]["handRecord"][0]["players"][seat]["userId"]
    next(p for p in end_of(rec, hand)["user_profit"] if p["user_id"] == user).update(values)


def _user_data(rec, seat, **values):
    user = rec["data"]["handRecord"][0]["players"][seat]["userId"]
    next(u for u in end_of(rec, 5, 6)["user_data"] if u["user_id"] == user).update(values)


def test_check_compares_each_hands_point_profit(tmp_path):
    hands, _ = _changed(tmp_path, lambda rec: _profit(rec, 2, 2, point_profit=-1300))
    rows = analyzer.check(hands).findings.select("round", "field", "seat", "recorded", "computed").rows()
    assert ("E2", "delta_2", 2, "-1300", "-1000") in rows


def test_check_compares_each_hands_li_zhi_profit(tmp_path):
    """Seat 1's stick of the E3 draw, said not put out: a note on import, and its change is the record's."""
    hands, problems = _changed(tmp_path, lambda rec: _profit(rec, 3, 1, li_zhi_profit=0))
    assert [p.reason for p in problems] == ["E3-0: li_zhi_profit of seat 1 is +0, the play's riichi sticks give -1000"]
    rows = analyzer.check(hands).findings.select("round", "field", "seat", "recorded", "computed").rows()
    assert ("E3", "delta_1", 1, "1500", "500") in rows


def test_check_compares_the_final_scores_and_points(tmp_path):
    def edit(rec):
        _user_data(rec, 2, point_num=36500, score=565)
    hands, _ = _changed(tmp_path, edit)
    rows = analyzer.check(hands).findings.select("round", "field", "seat", "recorded", "computed").rows()
    assert ("E4", "final_score", 2, "36500", "35500") in rows


def test_points_no_rule_gives_are_said(tmp_path):
    hands, _ = _changed(tmp_path, lambda rec: [_user_data(rec, 2, score=545), _user_data(rec, 0, score=69)])
    assert "fit no rule we know" in hands["settlement"][-1]


def test_a_wall_not_matching_its_hash_is_said(tmp_path):
    def edit(rec):
        hand = rec["data"]["handRecord"][1]
        hand["handCardEncode"] = hand["handCardEncode"][2:] + hand["handCardEncode"][:2]
    hands, problems = _changed(tmp_path, edit)
    assert hands.height == 5
    assert [(p.hand, p.imported, p.reason) for p in problems] == [
        (2, True, "E2-0: handCardsSHA256 is not the SHA-256 of handCardEncode (the wall as recorded): the record's "
                  "wall may have been edited")]
    hand = record()["data"]["handRecord"][0]
    assert hashlib.sha256(hand["handCardEncode"].encode()).hexdigest() == hand["handCardsSHA256"]


def test_told_by_content_and_sent_to_its_import(tmp_path):
    assert detect_format(EAST.read_text(encoding="utf-8")) == RIICHI_CITY
    hands, problems = read_logs([EAST, SANMA], 1, "auto")
    assert problems == [] and hands["game_id"].n_unique() == 2
    _, problems = read_logs([EAST], 1, "tenhou")
    assert [p.reason for p in problems] == [
        "a Riichi City record, not a Tenhou log: import it with `analyzer import riichicity`"]


def test_the_game_alone_or_in_the_apis_envelope(tmp_path):
    alone = tmp_path / "alone.json"
    alone.write_text(json.dumps(record()["data"], ensure_ascii=False), encoding="utf-8")
    a, _ = read(alone)
    b, _ = read(EAST)
    assert a.drop("log_file").equals(b.drop("log_file"))


def test_the_command_line(tmp_path):
    out = tmp_path / "hands.parquet"
    result = CliRunner().invoke(main, ["import", "riichicity", str(EAST), str(SANMA), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "imported 2 game(s), 9 row(s)" in result.output
    assert analyzer.check(pl.read_parquet(out)).ok


def _set(hand, event_type, key, value, action=None):
    def edit(rec):
        e = next(e for e in events(rec, hand) if e["eventType"] == event_type
                 and (action is None or e["_data"].get("action") == action))
        e["_data"][key] = value
    return edit


@pytest.mark.parametrize("edit, reason", [
    (lambda rec: rec["data"].update(playerCount=5), "playerCount 5: expected 3 or 4"),
    (lambda rec: rec["data"].update(handRecord=[]), "the record has no hand (handRecord is empty)"),
    (_set(1, 2, "in_card", 0x7F), "hand 1: malformed (KeyError: 127)"),
    (_set(2, 5, "end_type", 9), "hand 2: the hand ended by a false win (chombo) (end_type 9), which is not read"),
    (_set(1, 4, "action", 12, action=5), "hand 1: action 12 is not read here"),
    (lambda rec: events(rec, 1).pop(-1), "hand 1: the hand has no end (eventType 5)"),
    (lambda rec: rec["data"]["handRecord"][0]["handEventRecord"][5].update(data="{not json"),
     "hand 1: event 5: its data is not JSON"),
    (_set(1, 1, "dealer_pos", 7), "the first deal's dealer_pos 7 is no position of the 4 players"),
    (_set(1, 1, "dealer_pos", 10**20),
     "the first deal's dealer_pos 100000000000000000000 is no position of the 4 players"),
], ids=["players", "no hand", "tile", "end type", "action", "no end", "data", "dealer", "dealer past 64 bits"])
def test_a_broken_record_is_one_problem_for_its_file(tmp_path, edit, reason):
    hands, problems = _changed(tmp_path, edit)
    assert hands.height == 0 and [p.reason for p in problems] == [reason]


def test_a_number_past_64_bits_is_read_as_the_number_it_is(tmp_path):
    """Not a float (orjson's reading of it), which the reader would take for a missing value: said in a note."""
    _, problems = _changed(tmp_path, lambda rec: rec["data"].update(initPoints=25 * 10**21))
    assert [p.reason.split(", but")[0] for p in problems] == ["initPoints is 25000000000000000000000"]


def test_not_a_record(tmp_path):
    tenhou = tmp_path / "tenhou.json"
    tenhou.write_text(json.dumps({"log": [], "name": ["a", "b", "c", "d"]}), encoding="utf-8")
    _, problems = read_logs([SANMA.parent / "compose.py", tenhou], 1, "riichicity")
    assert [p.reason.split(" (")[0] for p in problems] == ["not valid JSON", "not a Riichi City record"]


def test_a_rinshan_tsumo_after_an_open_kan_is_told():
    kan = [("call", 1, "minkan", [5, 5, 5, 5], 5, 0), ("dora", 3), ("draw", 1, 7, True)]
    assert _rinshan_after_open_kan(kan)
    assert not _rinshan_after_open_kan([("call", 1, "ankan", [5, 5, 5, 5], 5, 1), ("draw", 1, 7, True)])
    assert not _rinshan_after_open_kan([("discard", 0, 5, False, False), ("draw", 1, 7, False)])


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.sampled_from(["x", "", "{}"]),
                    st.lists(st.integers(-1, 0x125), max_size=4))


@settings(max_examples=30, deadline=None)
@given(cut=st.integers(0, 400), field=st.sampled_from(["in_card", "card", "group_cards", "action", "is_li_zhi",
                                                        "move_cards_pos", "user_profit", "win_info", "end_type",
                                                        "cards", "hand_cards", "dealer_pos"]),
       value=_VALUES, drop=st.booleans())
def test_a_damaged_record_imports_or_is_one_problem_never_a_crash(tmp_path_factory, cut, field, value, drop):
    """Any one event dropped or one field of its data changed: the file imports (then ``check`` runs) or is one
    problem with a reason; nothing raises."""
    rec = record(SANMA)
    hand = rec["data"]["handRecord"][cut % 4]
    evs = events(rec, cut % 4 + 1)
    at = cut % len(evs)
    if drop:
        del evs[at]
    else:
        evs[at]["_data"][field] = value
    hands, problems = read(write(rec, tmp_path_factory.mktemp("damaged") / "record.json"))
    assert hand is rec["data"]["handRecord"][cut % 4]
    if hands.height:
        assert all(p.imported for p in problems)
        analyzer.check(hands)
    else:
        assert len(problems) == 1 and problems[0].reason
