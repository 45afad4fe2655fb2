"""Mahjong Soul's rooms and what rules they give (``analyzer/formats/majsoul/rooms.py``): every ranked room,
length and player count by mode id and by name in each spelling is scored with open tanyao and red fives; a
name not known gets the same and a note naming it; a friendly room's rules come from its record or its play."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.formats import read_majsoul, read_tenhou
from analyzer.formats.majsoul.rooms import MODE_IDS, ROOMS, level_name, room_from_mode_id, room_from_name

DATA = Path(__file__).resolve().parents[2] / "data"
EAST_4P, SANMA_3P = DATA / "majsoul" / "majsoul_east.json", DATA / "majsoul" / "majsoul_sanma.json"
RAW_EAST, RAW_SOUTH, RAW_SANMA = (DATA / "majsoul_raw" / f"ranked_{n}.json" for n in ("east", "south", "sanma"))
RANKED = {"Bronze": 1, "Silver": 2, "Gold": 3, "Jade": 4, "Throne": 6}


def _spellings(room: int, players: int, east: bool) -> list[str]:
    """The names of a ranked room as tensoul, its English mode, the Japanese and Chinese clients' tools write them."""
    ja, en, chs, cht = ROOMS[room]
    wind_ja, wind_zh, wind_en = ("東", "东", "East") if east else ("南", "南", "South")
    count_ja = "三人" if players == 3 else "四人"
    return [
        ("三" if players == 3 else "") + ja + wind_ja + "喰赤",                        # tensoul
        ("3" if players == 3 else "") + ja + wind_ja + "喰赤",                         # tensoul's sanma before its ports
        ja + count_ja + wind_ja,                                                     # 玉の間四人南
        ("3-Player " if players == 3 else "") + f"{en} {wind_en}",                   # tensoul's English mode
        chs + count_ja + wind_zh,                                                    # 玉之间四人南
        cht + count_ja + wind_ja,                                                    # 玉之間四人南
    ]


CASES = [(room, players, east, name) for room in RANKED.values() for players in (4, 3) for east in (True, False)
         for name in _spellings(room, players, east)]


@pytest.mark.parametrize("room, players, east, name", CASES)
def test_every_ranked_room_name_is_read(room, players, east, name):
    got = room_from_name(name)
    assert (got.kind, got.name, got.players, got.length) == ("ranked", ROOMS[room][0], players,
                                                              "tonpuu" if east else "hanchan")


def _with_disp(tmp_path: Path, source: Path, disp: str, **changes) -> Path:
    game = json.loads(source.read_text(encoding="utf-8"))
    game["rule"] = {"disp": disp, **changes.pop("rule", {})}
    game |= changes
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("room, players, east, name", [c for c in CASES if c[2]])
def test_a_ranked_room_is_scored_with_open_tanyao_and_red_fives(tmp_path, room, players, east, name):
    """The east-only games of tests/data/majsoul under every ranked room's name: ``majsoul`` rules whatever
    letters the name has (before, ``玉の間四人南`` read as Tenhou's letters gave open_tanyao=false)."""
    hands, problems = read_tenhou([_with_disp(tmp_path, EAST_4P if players == 4 else SANMA_3P, name)])
    assert problems == []
    assert hands["rules"][0] == ("majsoul" if players == 4 else "majsoul_sanma") + ";game_length=east"
    assert analyzer.check(hands).ok


def test_the_issues_room_name_on_a_hanchan(tmp_path):
    hands, problems = read_tenhou([_with_disp(tmp_path, DATA / "majsoul" / "majsoul_south.json", "玉の間四人南")])
    assert (problems, hands["rules"][0]) == ([], "majsoul")
    assert analyzer.check(hands).ok


@pytest.mark.parametrize("name", ["Mystery Room", "謎の間東", ""])
def test_an_unknown_room_gets_the_ranked_rules_and_a_note_naming_it(tmp_path, name):
    hands, problems = read_tenhou([_with_disp(tmp_path, EAST_4P, name)])
    assert hands["rules"][0] == "majsoul;game_length=east"
    said = f"room {name!r} is not known" if name else "the record names no room"
    assert [p.reason for p in problems] == [f"{said}: scored under Mahjong Soul's ranked rules (open tanyao, red fives)"]
    assert analyzer.check(hands).ok


@pytest.mark.parametrize("mode_id", sorted(MODE_IDS))
def test_every_matchmaking_mode_id(tmp_path, mode_id):
    room = room_from_mode_id(mode_id)
    source = RAW_SANMA if room.players == 3 else RAW_EAST
    record = json.loads(source.read_text(encoding="utf-8"))
    record["head"]["config"]["meta"] = {"mode_id": mode_id}
    record["head"]["config"]["mode"]["mode"] = (10 if room.players == 3 else 0) + (1 if room.length == "tonpuu" else 2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    hands, problems = read_majsoul([path])
    assert problems == []
    base = "majsoul" if room.players == 4 else "majsoul_sanma"
    assert hands["rules"][0] == base + (";game_length=east" if room.length == "tonpuu" else "")
    assert hands["room"][0] == ("三" if room.players == 3 else "") + room.name + (
        "東喰赤" if room.length == "tonpuu" else "南喰赤")
    assert room.kind == ("casual" if mode_id >= 29 else "ranked")


def _south_ending_at_s4(tmp_path: Path) -> Path:
    """The Jade hanchan as a friendly room's game that ends after South 4 with nobody at 30,000 (28,900 at
    most): its West hands cut, its result the scores after S4 with uma 15/5/-5/-15."""
    record = json.loads(RAW_SOUTH.read_text(encoding="utf-8"))
    records = record["data"]["data"]["records"]
    west = [i for i, r in enumerate(records) if r["name"].endswith("NewRound") and r["data"]["chang"] == 2][0]
    record["data"]["data"]["records"] = records[:west]
    finals = [26100, 28900, 21300, 23700]
    points = [6.1, 18.9, -18.7, -6.3]  # 1.1 + 5, 3.9 + 15, -3.7 - 15, -1.3 - 5
    record["head"]["result"]["players"] = [{"seat": s, "part_point_1": finals[s], "total_point": round(points[s] * 1000)}
                                           for s in range(4)]
    record["head"]["config"] = {"meta": {"room_id": 654321}, "mode": {"mode": 2}}
    record["head"]["uuid"] = "231014-11111111-2222-4333-8444-555555555555"
    path = tmp_path / "friendly.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_friendly_room_without_its_rules_is_read_from_its_play(tmp_path):
    hands, problems = read_majsoul([_south_ending_at_s4(tmp_path)])
    assert hands["rules"][0] == "majsoul;west_extension=false"
    assert [p.reason for p in problems] == [
        "a friendly room's rules are not in the record: read from its play (red fives seen, start points 25000); "
        "the game ended after its last round with nobody at the target: no West round"]
    assert analyzer.check(hands).ok  # not "goes on into West"


def test_the_issues_friend_room_as_tensoul_writes_it(tmp_path):
    """``四麻 半庄``: no room word; a hanchan that ends after S4 below 30,000 is not said to go into West."""
    tensoul = json.loads((DATA / "majsoul" / "majsoul_south.json").read_text(encoding="utf-8"))
    tensoul["log"] = tensoul["log"][:9]
    tensoul["sc"] = [26100, 6.1, 28900, 18.9, 21300, -18.7, 23700, -6.3]
    tensoul["ref"] = "231014-11111111-2222-4333-8444-555555555556"
    path = _with_disp(tmp_path, DATA / "majsoul" / "majsoul_south.json", "四麻 半庄", log=tensoul["log"],
                      sc=tensoul["sc"], ref=tensoul["ref"], rule={"aka51": 1, "aka52": 1, "aka53": 1})
    converted, problems = read_tenhou([path])
    assert converted["rules"][0] == "majsoul;west_extension=false"
    assert [p.reason for p in problems] == [
        "room '四麻 半庄' is not known: scored under Mahjong Soul's ranked rules (open tanyao, red fives); the game "
        "ended after its last round with nobody at the target: no West round"]
    assert analyzer.check(converted).ok


def test_a_friendly_room_without_red_fives_as_tensoul_writes_it(tmp_path):
    hands, _ = read_tenhou([_with_disp(tmp_path, DATA / "majsoul" / "majsoul_south.json", "友人戦南喰",
                                       rule={"aka51": 0, "aka52": 0, "aka53": 0})])
    assert hands["rules"][0] == "majsoul;aka_dora=false"


@pytest.mark.parametrize("level_id, name", [
    (10101, "初心★1"), (10203, "雀士★3"), (10301, "雀傑★1"), (10401, "雀豪★1"), (20402, "雀豪★2"), (10503, "雀聖★3"),
    (10601, "魂天"), (20703, "魂天Lv3"), (10720, "魂天Lv20"), (10104, None), (30101, None), (10801, None), ("10401", None),
])
def test_level_names(level_id, name):
    assert level_name(level_id) == name


def test_the_rooms_table_covers_every_ranked_room_length_and_player_count():
    seen = {(r.name, r.players, r.length) for r in map(room_from_mode_id, MODE_IDS) if r.kind == "ranked"}
    assert len(seen) == 5 * 2 * 2
    assert pl.Series([r.kind for r in map(room_from_mode_id, MODE_IDS)]).value_counts().height == 2
