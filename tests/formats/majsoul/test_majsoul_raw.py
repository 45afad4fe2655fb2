"""Mahjong Soul's raw game records (``analyzer/formats/majsoul/raw.py``): the games of ``tests/data/majsoul``
(every hand worked by hand in its ``compose.py``) written as the server records them by
``tests/data/majsoul_raw/compose.py`` (following smly/RiichiEnv's ``MjSoulReplay`` reader, Apache-2.0, and
Equim-chan/tensoul's ``convert.js``) import with every server value, agree with ``check``, and give the hand
records their tensoul copies give where tensoul is right; every accepted shape reads the same hands."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.cli import main
from analyzer.formats import read_majsoul, read_tenhou
from analyzer.formats.majsoul.raw import looks_like_majsoul_raw

RAW = Path(__file__).resolve().parents[2] / "data" / "majsoul_raw"
TENSOUL = Path(__file__).resolve().parents[2] / "data" / "majsoul"
EAST, SOUTH, SANMA = RAW / "ranked_east.json", RAW / "ranked_south.json", RAW / "ranked_sanma.json"
FRIENDLY, RIICHI_RON = RAW / "friendly_south.json", RAW / "riichi_ron.json"
HAND_COLUMNS = [
    "round", "honba", "kyotaku", "result", "winner", "loser", "pao", "riichi", "tenpai", "hand", "melds", "kita",
    "win_tile", "dora", "ura", "ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou",
    "chiihou", "renhou", "recorded_han", "recorded_points", "recorded_limit", "recorded_yaku", "recorded_dora",
    "recorded_ura_dora", "recorded_aka_dora", "recorded_yakuman", *[f"recorded_delta_{s}" for s in range(4)],
    *[f"recorded_final_{s}" for s in range(4)], *[f"recorded_game_points_{s}" for s in range(4)], "rules",
    "game_length", "lobby", "room", *[f"riichi_turn_{s}" for s in range(4)], *[f"calls_{s}" for s in range(4)],
    *[f"open_{s}" for s in range(4)], "turn", *[f"platform_rank_{s}" for s in range(4)], "log_row",
]  # fmt: skip


def _read(*paths: Path) -> pl.DataFrame:
    hands, problems = read_majsoul(list(paths))
    assert problems == []
    return hands


@pytest.fixture(scope="module")
def raw() -> pl.DataFrame:
    return _read(EAST, SOUTH, SANMA, FRIENDLY, RIICHI_RON)


def _last(hands: pl.DataFrame, gid: str) -> dict:
    return hands.filter(pl.col("game_id") == gid).row(-1, named=True)


@pytest.mark.parametrize("path, rules, room, rows, players, ranks, start, finals, points, grading", [
    (EAST, "majsoul;game_length=east", "金の間東喰赤", 6, ["Aoi#111001", "Ren#111002", "Yui#111003", "Sora#111004"],
     ["雀士★2", "雀傑★1", "雀士★3", "雀傑★2"], 1693052045, [26500, 31000, 11300, 31200], [-3.5, 11.0, -28.7, 21.2],
     [-3, 31, -58, 62]),
    (SOUTH, "majsoul", "玉の間南喰赤", 11, ["Sakura#101234", "Sakura#202345", "Kenji#303456", "Mio#404567"],
     ["雀豪★1", "雀豪★2", "雀聖★1", "雀豪★3"], 1697290897, [27600, 30400, 18500, 23500], [7.6, 20.4, -21.5, -6.5],
     [63, 131, -231, -6]),
    (SANMA, "majsoul_sanma;game_length=east", "三金の間東喰赤", 4, ["Hana#121001", "Taro#121002", "Yuki#121003", None],
     ["雀傑★3", "雀豪★1", "雀傑★2", None], 1709291151, [30100, 40400, 34500, None], [-19.9, 20.4, -0.5, None],
     [-79, 76, 0, None]),
])
def test_a_ranked_raw_record_imports_with_every_server_value(raw, path, rules, room, rows, players, ranks, start,
                                                             finals, points, grading):
    gid = json.loads(path.read_text(encoding="utf-8"))["head"]["uuid"]
    game = raw.filter(pl.col("game_id") == gid)
    last = _last(raw, gid)
    assert (game.height, last["rules"], last["room"]) == (rows, rules, room)
    assert [last[f"player_{s}"] for s in range(4)] == players
    assert [last[f"platform_rank_{s}"] for s in range(4)] == ranks
    assert last["played_at"] == datetime.fromtimestamp(start, timezone.utc)
    assert [last[f"recorded_final_{s}"] for s in range(4)] == finals
    assert [last[f"recorded_game_points_{s}"] for s in range(4)] == points
    assert [last[f"recorded_rank_points_{s}"] for s in range(4)] == grading
    assert game["recorded_rank_points_0"].null_count() == rows - 1  # the game's last row only


def test_import_then_check_agrees_with_every_server_value(raw):
    report = analyzer.check(raw)
    assert report.ok, report.findings
    games = analyzer.score(raw).games
    assert games["complete"].all()
    last = raw.group_by("game_id").last()
    server = {(g, s): last.filter(pl.col("game_id") == g)[f"recorded_game_points_{s}"][0]
              for g in last["game_id"] for s in range(4)}
    assert all(p == server[g, s] for g, s, p in games.select("game_id", "seat", "game_points").rows())


@pytest.mark.parametrize("raw_path, tensoul_path", [
    (EAST, TENSOUL / "majsoul_east.json"), (SOUTH, TENSOUL / "majsoul_south.json"),
    (SANMA, TENSOUL / "majsoul_sanma.json"),
])
def test_the_same_game_as_tensoul_json_gives_the_same_hand_records(raw_path, tensoul_path):
    """tensoul's copy writes no fu for limit hands and no accounts without playerMapping; the rest is the same
    (the three-player tensoul copy's room names no length: ``三金の間赤``)."""
    from_raw, from_tensoul = _read(raw_path), _read(tensoul_path)
    columns = [c for c in HAND_COLUMNS if c != "room"]
    assert from_raw.select(columns).to_dicts() == from_tensoul.select(columns).to_dicts()
    assert from_raw["game_id"].to_list() == from_tensoul["game_id"].to_list()


def test_where_tensoul_is_wrong_check_on_its_copy_names_the_hand():
    """E4-0: seat 0 declares riichi on the 2s seat 1 rons; the server never places that stick and pays seat 1
    1300 and its own stick back (+2300); tensoul's copy gives +3300."""
    assert analyzer.check(_read(RIICHI_RON)).ok
    tensoul = _read(RAW / "riichi_ron_tensoul.json")
    findings = analyzer.check(tensoul).findings
    payment = findings.filter(pl.col("field") == "delta_1")
    assert payment.select("round", "honba", "log_row", "recorded", "computed").rows() == [("E4", 0, 6, "2300", "1300")]
    assert set(findings["log_row"]) == {6}


def test_a_friendly_room_without_red_fives(raw):
    last = _last(raw, "231014-0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0")
    assert (last["rules"], last["room"], last["lobby"]) == ("majsoul;aka_dora=false;extension_target=30000",
                                                             "友人戦南喰", 123456)


# --- every shape read ------------------------------------------------------------------------------------

def _rounds(path: Path) -> list[dict]:
    """The round actions of a composed record as ``{"name", "data"}`` with the ``.lq.`` prefix."""
    body = json.loads(path.read_text(encoding="utf-8"))["data"]["data"]
    return [a["result"] for a in body["actions"]] if "actions" in body else body["records"]


def _renamed(actions: list[dict], style: str) -> list[dict]:
    names = {"riichienv": lambda n: n.removeprefix(".lq.Record"), "record": lambda n: n.removeprefix(".lq."),
             "live": lambda n: "Action" + n.removeprefix(".lq.Record")}[style]
    return [{"name": names(a["name"]), "data": a["data"]} for a in actions]


def _split(actions: list[dict]) -> list[list[dict]]:
    rounds: list[list[dict]] = []
    for a in actions:
        if a["name"].endswith("NewRound"):
            rounds.append([])
        rounds[-1].append(a)
    return rounds


def _shapes() -> dict[str, object]:
    record = json.loads(EAST.read_text(encoding="utf-8"))
    head, actions = record["head"], _rounds(EAST)
    return {
        "head, GameDetailRecords wrapper, actions": record,
        "head, GameDetailRecords content, actions": {"head": head, "data": record["data"]["data"]},
        "head, records": {"head": head, "data": {"name": ".lq.GameDetailRecords", "data": {"records": actions}}},
        "head, data a list of records": {"head": head, "data": _renamed(actions, "record")},
        "head, actions of other types among them": {"head": head, "data": {"actions": [
            {"type": 2, "user_input": {"seat": 0}}, *({"type": 1, "result": a} for a in actions)]}},
        # riichienv (MjSoulReplay, mjsoul_replay.rs): names without prefixes, no head; a flat list, rounds,
        # or its GameLog {"rounds": [...]}
        "riichienv: bare list of actions": _renamed(actions, "riichienv"),
        "riichienv: list of rounds": _split(_renamed(actions, "riichienv")),
        "riichienv: GameLog": {"rounds": _split(_renamed(actions, "riichienv"))},
        "client's Action names": _renamed(actions, "live"),
    }


@pytest.mark.parametrize("shape", list(_shapes()))
def test_every_shape_reads_the_same_hands(tmp_path, shape):
    path = tmp_path / "game.json"
    obj = _shapes()[shape]
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    assert looks_like_majsoul_raw(obj) and looks_like_majsoul_raw(path.read_text(encoding="utf-8"))
    hands, problems = read_majsoul([path])
    expected = _read(EAST)
    columns = [c for c in HAND_COLUMNS if not c.startswith(("recorded_final", "recorded_game_points", "platform_rank"))]
    if "head" in shape:
        assert problems == []
        assert hands.select(HAND_COLUMNS).to_dicts() == expected.select(HAND_COLUMNS).to_dicts()
    else:  # no head: no room, no players, no result; the rounds the same, under the ranked rules with a note
        assert [p.reason for p in problems] == ["the record names no room: scored under Mahjong Soul's ranked rules "
                                                "(open tanyao, red fives)"]
        columns = [c for c in columns if c not in ("rules", "room", "game_length")]
        assert hands.select(columns).to_dicts() == expected.select(columns).to_dicts()
        assert hands["rules"][0] == "majsoul;game_length=east"  # east-only: the game ended in East, nobody bust


def test_tensoul_json_is_read_by_import_majsoul_too():
    assert _read(TENSOUL / "majsoul_south.json").height == 11


@pytest.mark.parametrize("content, reason", [
    (b"\x0a\x12\x08\x01\x12\x0e.lq.RecordGame\xff\x00", "a binary (protobuf) Mahjong Soul record: not read here"),
    (b'{"head": {}, "data": "CgQIARIA"}', "a binary (protobuf) Mahjong Soul record: not read here"),
    (b'{"head": {"uuid": "x"}, "data": {"actions": []}}', "not a Mahjong Soul record"),
    (b'[{"name": "DealTile", "data": {"seat": 0, "tile": "1m"}}]', "not a Mahjong Soul record"),
    (b'{"head": ', "not valid JSON"),
])
def test_what_is_not_read_is_refused_saying_which_form_to_give(tmp_path, content, reason):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    hands, problems = read_majsoul([path])
    assert hands.height == 0 and len(problems) == 1 and problems[0].reason.startswith(reason)
    if "binary" in reason:
        assert "decoded JSON" in problems[0].reason


@pytest.mark.parametrize("edit, reason", [
    (lambda r: r["head"]["config"]["mode"].update(mode=11), "the head's mode 11 is a 3-player game"),
    (lambda r: r["data"]["data"]["actions"][1]["result"]["data"].update(tile="9z"), "hand 1 (E1): bad tile '9z'"),
    (lambda r: r["data"]["data"]["actions"][1]["result"].update(name=".lq.RecordSelectGap"),
     "hand 1 (E1): round action 'SelectGap' is not read here"),
    (lambda r: r["data"]["data"]["actions"][0]["result"]["data"].update(scores=[1, 2]), "NewRound scores [1, 2]"),
])
def test_a_broken_record_is_one_problem_for_its_file(tmp_path, edit, reason):
    record = json.loads(EAST.read_text(encoding="utf-8"))
    edit(record)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    hands, problems = read_majsoul([path, SOUTH])
    assert [p.reason[: len(reason)] for p in problems] == [reason]
    assert hands["game_id"].n_unique() == 1  # the other file imports


def test_import_tenhou_sends_a_raw_record_to_import_majsoul():
    _, problems = read_tenhou([EAST])
    assert [p.reason for p in problems] == ["a Mahjong Soul raw record, not a Tenhou log: import it with "
                                            "`analyzer import majsoul`"]


@pytest.mark.parametrize("obj, expected", [
    ({"log": []}, False), ({"head": {}}, False), ([], False), ("not json", False), (None, False),
    ([{"name": "NewRound", "data": {}}], True), ({"head": {}, "data": [{"name": ".lq.RecordNewRound", "data": {}}]}, True),
])
def test_looks_like_majsoul_raw(obj, expected):
    assert looks_like_majsoul_raw(obj) is expected


def test_the_command_line(tmp_path):
    out = tmp_path / "hands.parquet"
    result = CliRunner().invoke(main, ["import", "majsoul", str(EAST), str(SANMA), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "imported 2 game(s), 10 row(s)" in result.output
    hands = pl.read_parquet(out)
    assert analyzer.check(hands).ok
    assert hands["recorded_rank_points_1"].drop_nulls().to_list() == [31, 76]


def test_check_compares_the_server_result_block(tmp_path):
    """A result block that says seat 2 ended with 12,300 (the hands leave it 11,300) and -27.7 is named, seat by
    seat, on the game's last hand."""
    record = json.loads(EAST.read_text(encoding="utf-8"))
    for player in record["head"]["result"]["players"]:
        if player["seat"] == 2:
            player |= {"part_point_1": 12300, "total_point": -27700}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    findings = analyzer.check(_read(path)).findings
    assert findings.select("round", "field", "seat", "recorded", "computed").rows() == [
        ("E4", "final_score", 2, "12300", "11300"), ("E4", "game_points", 2, "-27.7", "-28.7")]


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 200), st.sampled_from(["1m", "0p", "5z", "9z", "x", ""]),
                    st.lists(st.integers(-1, 5), max_size=3))


@settings(max_examples=30, deadline=None)
@given(cut=st.integers(0, 500), field=st.sampled_from(["seat", "tile", "tiles", "type", "froms", "hules", "scores",
                                                        "is_liqi", "delta_scores", "doras", "name"]),
       value=_VALUES, drop=st.booleans())
def test_a_damaged_record_imports_or_is_one_problem_never_a_crash(tmp_path_factory, cut, field, value, drop):
    """Any one action of a record dropped or one of its fields changed: the file imports (then ``check`` runs) or
    is one problem with a reason; nothing raises."""
    record = json.loads(EAST.read_text(encoding="utf-8"))
    actions = record["data"]["data"]["actions"]
    at = cut % len(actions)
    if drop:
        del actions[at]
    elif field == "name":
        actions[at]["result"]["name"] = str(value)
    else:
        actions[at]["result"]["data"][field] = value
    path = tmp_path_factory.mktemp("damaged") / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    hands, problems = read_majsoul([path])
    if hands.height:
        assert all(p.imported for p in problems)
        analyzer.check(hands)
    else:
        assert len(problems) == 1 and problems[0].reason


def test_a_tenhou_log_is_sent_to_import_tenhou(tmp_path):
    game = json.loads((TENSOUL / "majsoul_east.json").read_text(encoding="utf-8"))
    game |= {"ref": "2019050417gm-0029-0000-4f2a8622", "rule": {"disp": "鳳東喰赤", "aka": 1}}
    path = tmp_path / "tenhou.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    _, problems = read_majsoul([path])
    assert [p.reason for p in problems] == ["a Tenhou log, not a Mahjong Soul game (no record id, no Mahjong Soul "
                                            "room): import it with `analyzer import tenhou`"]
