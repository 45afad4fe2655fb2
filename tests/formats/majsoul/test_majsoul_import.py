"""Mahjong Soul games in tenhou.net/6 JSON (tensoul and its forks, see ``analyzer/formats/majsoul/tensoul.py``): the
games of ``tests/data/majsoul`` (written by its ``compose.py``, every hand worked by hand there) import under
Mahjong Soul's rules with the record id as game id, and ``check`` agrees with every recorded value; the room,
the ranks, the accounts of ``playerMapping``, the yaku names and the uma of the result are read as worked out
below."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main
from analyzer.formats import read_tenhou
from analyzer.formats.identity import game_id, log_id_from_name
from analyzer.formats.majsoul.tensoul import is_majsoul, record_id
from analyzer.formats.tenhou.tenhou6_read import parse_json
from analyzer.formats.tenhou.yaku_names import yaku_name
from tests.data.majsoul.compose import Table, Turn, rotation, tile

DATA = Path(__file__).resolve().parents[2] / "data" / "majsoul"
EAST, SOUTH, SANMA = DATA / "majsoul_east.json", DATA / "majsoul_south.json", DATA / "majsoul_sanma.json"
EAST_ID = "230826-5e1b3c7a-2f4d-4b8e-9a61-0c3d7e9f2a14"
SOUTH_ID = "231014-84c11a6f-b3f7-4363-966e-25f37886cfbf"
SANMA_ID = "240301-0b9d2e41-7c3a-4f58-b1e6-93a2d5c8f071"


@pytest.fixture(scope="module")
def imported() -> pl.DataFrame:
    hands, problems = read_tenhou([DATA])
    assert problems == []  # no "not a Tenhou dan", no unknown yaku
    return hands


def _game(hands: pl.DataFrame, gid: str) -> dict:
    return hands.filter(pl.col("game_id") == gid).row(0, named=True)


def _edit(tmp_path: Path, source: Path, file_name: str = "game.json", **changes) -> Path:
    game = json.loads(source.read_text(encoding="utf-8")) | changes
    path = tmp_path / file_name
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("gid, rules, room, game_length, rows", [
    (EAST_ID, "majsoul;game_length=east", "金の間東喰赤", "tonpuu", 6),
    (SOUTH_ID, "majsoul", "玉の間南喰赤", "hanchan", 11),
    # tensoul-py-ng names no length in a three-player room: a game that ends in East with nobody below zero
    (SANMA_ID, "majsoul_sanma;game_length=east", "三金の間赤", "tonpuu", 4),
])
def test_each_game_imports_under_mahjong_souls_rules(imported, gid, rules, room, game_length, rows):
    game = _game(imported, gid)
    assert (game["rules"], game["room"], game["game_length"], game["lobby"]) == (rules, room, game_length, None)
    assert imported.filter(pl.col("game_id") == gid).height == rows
    assert game["played_at"] is None  # the record id's YYMMDD has no hour or time zone


def test_check_agrees_with_every_recorded_value(imported):
    report = analyzer.check(imported)
    assert report.ok, report.findings
    games = analyzer.score(imported).games
    assert games["complete"].all()
    points = {(g, s): p for g, s, p in games.select("game_id", "seat", "game_points").rows()}
    # (final - 25000)/1000 + 15/5/-5/-15, no oka; three players (final - 35000)/1000 + 15/0/-15
    assert [points[EAST_ID, s] for s in range(4)] == [-3.5, 11.0, -28.7, 21.2]
    assert [points[SOUTH_ID, s] for s in range(4)] == [7.6, 20.4, -21.5, -6.5]
    assert [points[SANMA_ID, s] for s in range(3)] == [-19.9, 20.4, -0.5]


def test_as_tenhou_games_their_game_points_disagree(imported):
    """What the issue saw: scored as Tenhou's (oka 20, uma 20/10) the game points differ, but second place's
    (31,000: 31 - 30 + 10 = 11.0 is Mahjong Soul's 6.0 + 5 by chance)."""
    four = imported.filter(pl.col("game_id") == EAST_ID)
    findings = analyzer.check(four, "tenhou;game_length=east").findings
    assert findings.filter(field="game_points")["seat"].to_list() == [0, 2, 3]


def test_mahjong_soul_ranks_are_text_not_tenhou_dan(imported):
    game = _game(imported, SOUTH_ID)
    assert [game[f"platform_rank_{s}"] for s in range(4)] == ["雀豪★1", "雀豪★2", "雀聖★1", "雀豪★3"]
    assert [game[f"dan_{s}"] for s in range(4)] == [None] * 4
    assert [game[f"rate_{s}"] for s in range(4)] == [None] * 4  # tensoul's rate is the rank's points, not R
    sanma = _game(imported, SANMA_ID)
    assert [sanma[f"platform_rank_{s}"] for s in range(4)] == ["雀傑★3", "雀豪★1", "雀傑★2", None]


def test_players_are_told_apart_by_account(imported):
    game = _game(imported, SOUTH_ID)
    assert [game[f"player_{s}"] for s in range(4)] == ["Sakura#101234", "Sakura#202345", "Kenji#303456",
                                                       "Mio#404567"]
    standings = analyzer.score(imported).players
    assert {"Sakura#101234", "Sakura#202345"} <= set(standings["player"])
    east = _game(imported, EAST_ID)  # no playerMapping: the names as written
    assert [east[f"player_{s}"] for s in range(4)] == ["Aoi", "Ren", "Yui", "Sora"]


@pytest.mark.parametrize("mapping, expected", [
    # tensoul-py-ng gives bots negative ids: not accounts
    ([{"nickname": "Sakura", "account_id": 7}, {"nickname": "AI1", "account_id": -1001}, {}, None],
     ["Sakura#7", "Sakura", "Kenji", "Mio"]),
    ({"Kenji": 5, "Mio": "x"}, ["Sakura", "Sakura (2)", "Kenji#5", "Mio"]),  # nickname -> id; "x" is no id
    ("nonsense", ["Sakura", "Sakura (2)", "Kenji", "Mio"]),
])
def test_player_mapping_forms(tmp_path, mapping, expected):
    hands, problems = read_tenhou([_edit(tmp_path, SOUTH, playerMapping=mapping)])
    assert problems == []
    assert [hands[f"player_{s}"][0] for s in range(4)] == expected


def test_a_tournament_uma_is_read_from_the_result(tmp_path):
    """A tournament's own uma (+30/+10/-10/-30): each place's points less (final - 25000)/1000."""
    sc = [26500, -3.5 - 5, 31000, 11.0 + 5, 11300, -28.7 - 15, 31200, 21.2 + 15]
    hands, _ = read_tenhou([_edit(tmp_path, EAST, sc=sc, rule={"disp": "大会戦東喰赤", "aka51": 1, "aka52": 1,
                                                                  "aka53": 1})])
    assert hands["rules"][0] == "majsoul;game_length=east;uma=30/10/-10/-30"
    assert analyzer.check(hands).ok


def test_a_friendly_rooms_number_is_its_lobby(tmp_path):
    hands, _ = read_tenhou([_edit(tmp_path, EAST, rule={"disp": "友人戦東喰赤", "aka51": 1, "aka52": 1, "aka53": 1},
                                  title=["友人戦東喰赤: 123456", "2023/8/26 21:14:05"])])
    assert (hands["room"][0], hands["lobby"][0], hands["rules"][0]) == ("友人戦東喰赤", 123456, "majsoul;game_length=east")


@pytest.mark.parametrize("ref, disp, expected", [
    (SOUTH_ID, "鳳南喰赤", True),                # the record id alone
    (None, "銅の間東喰赤", True),                 # the room alone
    (None, "Gold Room South", True),             # tensoul's English names
    (None, "3玉の間南喰赤", True),
    (None, "大会戦南喰赤", True),
    ("2019050417gm-0029-0000-4f2a8622", "特南喰赤", False),  # Tenhou
    (None, "鳳南喰赤", False),
    ("not-an-id", "", False),
])
def test_recognised_by_record_id_or_room(ref, disp, expected):
    assert is_majsoul(ref, disp) is expected


def test_record_ids():
    assert record_id(SOUTH_ID + "_a123456789") == SOUTH_ID  # a replay link's viewer is not part of the id
    assert record_id("231014-84C11A6F-b3f7-4363-966e-25f37886cfbf") is None
    assert game_id(SOUTH_ID, Path("x.json"), "0" * 16) == SOUTH_ID
    assert log_id_from_name(f"/logs/{SOUTH_ID}.json.gz") == SOUTH_ID
    assert game_id(None, Path(f"{SOUTH_ID}_a9.json"), "0" * 16) == SOUTH_ID


def test_another_version_of_a_mahjong_soul_game_is_named_by_its_record_id(tmp_path):
    first = _edit(tmp_path, EAST, "a.json")
    second = _edit(tmp_path, EAST, "b.json", name=["W", "X", "Y", "Z"])
    hands, [problem] = read_tenhou([first, second])
    assert hands["game_id"].unique().to_list() == [EAST_ID]
    assert problem.reason.startswith(f"the same Mahjong Soul record id {EAST_ID} as {first} but other content")


@pytest.mark.parametrize("name, ours", [
    ("役牌:自風牌", "seat_wind"), ("役牌:場風牌", "round_wind"), ("ダブル立直", "double_riichi"),
    ("国士無双十三面待ち", "kokushi_13"), ("Seat Wind", "seat_wind"), ("Prevalent Wind", "round_wind"),
    ("True Nine Gates", "junsei_chuuren"), ("Four Big Winds", "daisuushii"), ("Four Little Winds", "shousuushii"),
    ("Single-wait Four Concealed Triplets", "suuankou_tanki"), ("Thirteen-wait Thirteen Orphans", "kokushi_13"),
])
def test_mahjong_soul_yaku_names(name, ours):
    assert yaku_name(name) == ours


def test_a_double_yakuman_written_once_counts_twice(tmp_path):
    """Mahjong Soul writes each yakuman "(役満)" and pays the 13-sided kokushi twice: seat 1 (one of each terminal
    and honour) rons seat 2's 9s on its second turn: 64,000."""
    t = Table(4, 25000)
    t.kyoku(0, 0, "5m", {1: "19m19p19s1234567z"}, rotation(0, 4, 7, {6: Turn(2, draw=tile("9s"))}),
            ("ron", 1, 2, 64000, "役満64000点", ["国士無双十三面待ち(役満)"]), keep_out="19m19p19s1234567z", seed=5)
    game = t.game("240101-00000000-0000-4000-8000-000000000001", "金の間南喰赤", ["A", "B", "C", "D"], [""] * 4,
                  [0] * 4, [15, 5, -5, -15], {"aka51": 1, "aka52": 1, "aka53": 1}, "")
    path = tmp_path / "kokushi.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    hands, problems = read_tenhou([path])
    assert problems == []
    assert (hands["recorded_yakuman"][0], hands["recorded_points"][0], hands["recorded_yaku"][0].to_list()) == (
        2, 64000, ["kokushi_13"])
    scored = analyzer.score(hands).hands
    assert (scored["yakuman"][0], scored["points"][0]) == (2, 64000)


def test_import_then_check_from_the_command_line(tmp_path):
    out = tmp_path / "majsoul.parquet"
    imported = CliRunner().invoke(main, ["import", "tenhou", str(DATA), "-o", str(out)])
    assert imported.exit_code == 0, imported.output
    checked = CliRunner().invoke(main, ["check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "everything agrees" in checked.output


def test_north_bisection_is_read_from_the_payments(tmp_path):
    """A friendly three-player room without tsumo loss: seat 0's E3 tsumo (500-1000) is paid 800 by seat 1 and
    1300 by the dealer (the missing seat's 500 halved, rounded up to 300, added to each share): +2100."""
    game = json.loads(SANMA.read_text(encoding="utf-8"))
    game["log"][-1][-1][1] = [2100, -800, -1300, 0]
    game["sc"] = [30700, -19.3, 40100, 20.1, 34200, -0.8, 0, 0]  # -4.3 - 15, 5.1 + 15, -0.8 + 0
    path = _edit(tmp_path, SANMA, log=game["log"], sc=game["sc"],
                 rule={"disp": "3友人戦東喰赤", "aka51": 0, "aka52": 1, "aka53": 1})
    hands, problems = read_tenhou([path])
    # a friendly room's rules are read from its play, said once (red fives as the log's rule says them)
    assert [p.reason for p in problems] == ["a friendly room's rules are not in the record: read from its play "
                                            "(red fives as the log says, start points 35000)"]
    assert hands["rules"][0] == "majsoul_sanma;game_length=east;tsumo_loss=split"
    assert hands["recorded_points"][-1] == 2100  # what was paid, not the value string's 500 + 1000
    assert analyzer.check(hands).ok


EN_NAMES = {"役牌:自風牌": "Seat Wind", "役牌:場風牌": "Prevalent Wind", "門前清自摸和": "Fully Concealed Hand",
            "立直": "Riichi", "平和": "Pinfu", "裏ドラ": "Ura Dora", "断幺九": "All Simples", "ドラ": "Dora",
            "赤ドラ": "Red Five", "役牌 中": "Red Dragon"}  # tensoul data.json name_en


def test_tensouls_english_mode_reads_the_same(tmp_path, imported):
    """tensoul's English mode (NAMEPREF 2): "40Fu2Han3900点", English yaku and results, "Gold Room East"."""
    game = json.loads(EAST.read_text(encoding="utf-8"))
    for kyoku in game["log"]:
        result = kyoku[-1]
        if result[0] == "流局":
            result[0] = "Exhaustive Draw"
            continue
        info = result[2]
        info[3] = info[3].replace("符", "Fu").replace("飜", "Han")
        info[4:] = [EN_NAMES[y.split("(")[0]] + "(" + y.split("(")[1] for y in info[4:]]
    path = _edit(tmp_path, EAST, log=game["log"], rule={"disp": "Gold Room East", "aka51": 1, "aka52": 1, "aka53": 1})
    hands, problems = read_tenhou([path])
    assert problems == []
    assert hands["rules"][0] == "majsoul;game_length=east"
    same = imported.filter(pl.col("game_id") == EAST_ID).drop("room", "log_file")
    assert hands.drop("room", "log_file").equals(same)
    assert analyzer.check(hands).ok


@pytest.mark.parametrize("value, limit, points", [
    ("Mangan 8000点", "mangan", 8000), ("Haneman 6000-12000点", "haneman", 24000),
    ("Kazoe Yakuman 16000点∀", "yakuman", 48000),
    ("切り上げ満貫8000点", "mangan", 8000), ("Rounded Mangan 2000-4000点", "mangan", 8000),
])
def test_tensouls_limit_words(tmp_path, value, limit, points):
    """The value strings of tensoul's three languages (convert.js RUNES), read through a whole import."""
    game = json.loads(EAST.read_text(encoding="utf-8"))
    game["log"] = game["log"][:1]
    game["log"][0][-1][2][3] = value
    hands, problems = read_tenhou([_edit(tmp_path, EAST, log=game["log"])])
    assert problems == []
    assert (hands["recorded_limit"][0], hands["recorded_points"][0]) == (limit, points)


@pytest.mark.parametrize("result, kind", [
    ("四開槓", "abort"), ("三家和", "abort"), ("Nine Terminal Abortion", "abort"), ("Suufon Renda", "abort"),
    ("Ryuukyoku", "draw"), ("Mangan at Draw", "nagashi"),
])
def test_tensouls_result_words(result, kind):
    game = json.loads(EAST.read_text(encoding="utf-8"))
    kyoku = game["log"][2]  # the exhaustive draw
    kyoku[-1] = [result, [0, 0, 0, 0]]
    parsed = parse_json(json.dumps({**game, "log": [kyoku]}), "x.json")
    assert parsed.kyokus[0].outcomes[0].result == kind


@pytest.mark.parametrize("mapping, expected", [
    ([["Mio", 4], ["Kenji", 3], ["Sakura", 1], ["Sakura", 2]], ["Sakura#1", "Sakura#2", "Kenji#3", "Mio#4"]),
    ([{"nickname": "Kenji", "account_id": 3}, {"nickname": "Sakura", "account_id": 1},
      {"nickname": "Mio", "account_id": 4}, {"nickname": "Sakura", "account_id": 2}],
     ["Sakura#1", "Sakura#2", "Kenji#3", "Mio#4"]),
])
def test_a_mapping_in_another_order_goes_by_nickname(tmp_path, mapping, expected):
    names = ["Sakura", "Sakura", "Kenji", "Mio"]
    hands, _ = read_tenhou([_edit(tmp_path, SOUTH, playerMapping=mapping, name=names)])
    assert [hands[f"player_{s}"][0] for s in range(4)] == expected
