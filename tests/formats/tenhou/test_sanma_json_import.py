"""Three-player tenhou.net/6 JSON (the layout documented in ``analyzer/formats/tenhou/tenhou6_read.py``): the real
Phoenix sanma game ``sanma2.xml`` written as JSON by a test-only converter imports as the mjlog does, in both
layouts seen in public writers (seat 3 empty, or left out); a hand-written fragment with a north set aside
(``"f44"``), a tsumo under tsumo-zon and an exhaustive draw gives the rows worked out below; malformed
three-player logs are refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import analyzer
from analyzer.formats.read import read_tenhou
from tests.formats.tenhou.mjlog_to_tenhou_json import as_three_seats, mjlog_to_tenhou_json


@pytest.fixture
def sanma2(shared_logs) -> Path:
    return shared_logs / "mjlog" / "dnovikoff-tenhou" / "sanma2.xml"


def _write(path: Path, game: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("layout", ["seat 3 empty", "seat 3 left out"])
def test_sanma2_as_json_imports_as_the_mjlog(sanma2, tmp_path, layout):
    game = mjlog_to_tenhou_json(sanma2)
    assert game["name"][3] == "" and game["rule"]["disp"] == "三鳳南喰赤"
    assert sum(x == "f44" for raw in game["log"] for s in range(3) for x in raw[6 + 3 * s]) == 16
    if layout == "seat 3 left out":
        game = as_three_seats(game)
    from_json, problems = read_tenhou([_write(tmp_path / "sanma2.json", game)])
    assert problems == []
    from_mjlog, _ = read_tenhou([sanma2])
    # the JSON value string of a limit hand ("満貫2000-4000点") has no fu; the converter writes no ranks or
    # ratings; the game id is each file's content hash (the log carries no Tenhou id); everything else is carried
    differ = ["recorded_fu", "game_id", "log_file", *[f"{c}_{s}" for c in ("dan", "rate") for s in range(4)]]
    assert from_json.drop(differ).equals(from_mjlog.drop(differ))
    assert from_mjlog["recorded_limit"].to_list() == ["mangan", "mangan", None, "haneman", None, "baiman"]
    assert from_json["recorded_fu"].to_list() == [None, None, None, None, 30, None]
    assert from_json["recorded_points"].to_list() == [6000, 12000, None, 12000, 3000, 16000]  # tsumo-zon totals
    report = analyzer.check(from_json)
    assert report.ok, report.findings
    games = analyzer.score(from_json).games.sort("seat")
    assert games["final_score"].to_list() == [27_400, 83_100, -5_500]
    assert games["game_points"].to_list() == [-13.0, 79.0, -66.0]


# --- a hand-written fragment ----------------------------------------------------------------------------
# E1 (dealer seat 0, dora indicator East: the dora is South, held by no one). Seat 1 draws chun, sets its north
# aside ("f44"), draws hatsu as the replacement and lets it go, draws 9p (discarding chun) to wait on 5s-8s
# with 234p 678p 99p 345s 67s, and draws 8s: menzen tsumo 1 + pinfu 1 + one north set aside 1 = 3 han, 20 fu
# (pinfu tsumo). Base 20 x 2^5 = 640: the non-dealer pays 700, the dealer 1300, the missing fourth seat's 700
# is not paid (tsumo-zon): the winner gains 2000.
E1 = [
    [0, 0, 0], [35000, 35000, 35000, 0], [41], [],
    [11, 11, 19, 19, 21, 25, 31, 32, 39, 41, 42, 43, 45], [45, 41, 42], [60, 60, 60],
    [22, 23, 24, 26, 27, 28, 29, 33, 34, 35, 36, 37, 44], [47, 46, 29, 38], ["f44", 60, 47],
    [19, 21, 25, 25, 31, 32, 39, 39, 41, 43, 45, 46, 47], [33, 24], [60, 60],
    [], [], [],
    ["和了", [-1300, 2000, -700, 0], [1, 1, 1, "20符3飜700-1300点", "門前清自摸和(1飜)", "平和(1飜)", "抜きドラ(1飜)"]],
]  # fmt: skip
# E2 (dealer seat 1, tenpai on 1m / chun from the deal, every discard the tile just drawn). Seat 2 sets a north
# aside on its first turn and draws its replacement: 18 turns each plus that replacement make the 55 draws of
# a three-player wall (108 - 14 dead wall - 39 dealt). Only the dealer is tenpai: the 2000 of noten money is
# paid 1000 by each of the other two.
E2 = [
    [1, 0, 0], [33700, 37000, 34300, 0], [43], [],
    [19, 19, 27, 28, 29, 34, 35, 36, 41, 41, 42, 45, 46],
    [11, 11, 31, 22, 19, 25, 33, 41, 34, 28, 22, 33, 21, 21, 36, 29, 24, 27], [60] * 18,
    [11, 11, 21, 22, 23, 24, 25, 26, 31, 32, 33, 47, 47],
    [32, 29, 24, 28, 38, 32, 34, 34, 28, 42, 24, 23, 26, 43, 33, 27, 36, 44], [60] * 18,
    [19, 21, 22, 23, 37, 38, 39, 42, 43, 44, 45, 46, 29],
    [37, 26, 38, 36, 39, 25, 35, 31, 27, 32, 45, 25, 23, 37, 35, 35, 26, 41, 31], ["f44"] + [60] * 18,
    [], [], [],
    ["流局", [-1000, 2000, -1000, 0]],
]  # fmt: skip
FRAGMENT = {"title": ["hand-written", ""], "name": ["A", "B", "C", ""], "rule": {"disp": "三般東喰赤", "aka": 1},
            "log": [E1, E2]}
_COMMON = {"player_0": "A", "player_1": "B", "player_2": "C", "player_3": None, "kyotaku": 0, "honba": 0,
           "rules": "tenhou_sanma;game_length=east", "game_length": "tonpuu", "lobby": None, "riichi": [],
           "calls_0": 0, "calls_1": 0, "calls_2": 0, "calls_3": None, "open_0": False, "open_1": False,
           "open_2": False, "open_3": None, "recorded_delta_3": None, "riichi_turn_3": None}
EXPECTED = [
    _COMMON | {"round": "E1", "result": "tsumo", "winner": "1", "loser": None, "hand": "23467899p345678s",
               "melds": [], "kita": 1, "win_tile": "8s", "dora": "1z", "ura": None, "rinshan": False,
               "haitei": False, "recorded_han": 3, "recorded_fu": 20, "recorded_points": 2000,
               "recorded_limit": None, "recorded_yaku": ["menzen_tsumo", "pinfu"], "recorded_dora": 1,
               "recorded_ura_dora": 0, "recorded_aka_dora": 0, "recorded_yakuman": 0, "recorded_delta_0": -1300,
               "recorded_delta_1": 2000, "recorded_delta_2": -700, "turn": 3, "tenpai": None},
    _COMMON | {"round": "E2", "result": "draw", "winner": None, "hand": None, "kita": None, "dora": "3z",
               "recorded_han": None, "recorded_points": None, "tenpai": ["1"], "recorded_delta_0": -1000,
               "recorded_delta_1": 2000, "recorded_delta_2": -1000, "turn": 18},
]


def test_hand_written_fragment_gives_the_rows_worked_out(tmp_path):
    hands, problems = read_tenhou([_write(tmp_path / "fragment.json", FRAGMENT)])
    assert problems == []
    rows = hands.to_dicts()
    assert len(rows) == 2
    for got, expected in zip(rows, EXPECTED):
        assert {k: got[k] for k in expected} == expected
    report = analyzer.check(hands)
    assert report.ok, report.findings
    scored = analyzer.score(hands).hands.sort("round")
    assert scored["dora_count"].to_list()[0] == 1  # the north set aside, and no other dora
    assert scored.select([f"delta_{s}" for s in range(3)]).rows() == [(-1300, 2000, -700), (-1000, 2000, -1000)]


def _edited(change) -> dict:
    game = json.loads(json.dumps(FRAGMENT))
    change(game)
    return game


@pytest.mark.parametrize(("change", "words"), [
    (lambda g: g["log"][0][9].__setitem__(0, "f45"), "a north set aside is 'f44'"),  # seat 1's discards
    (lambda g: g["log"][0][1].__setitem__(3, 1000), "seat 3 plays"),
    (lambda g: g["log"][0][16][1].__setitem__(3, -700), "seat 3 gains or loses"),
    (lambda g: g["name"].__setitem__(3, "D"), "names a fourth player"),
    (lambda g: g["log"][1][8].append(38), "after 56 draws (expected 55)"),  # the dealer draws once more
])  # fmt: skip
def test_broken_three_player_logs_are_refused_with_the_reason(tmp_path, change, words):
    hands, problems = read_tenhou([_write(tmp_path / "g.json", _edited(change))])
    assert hands.height == 0
    assert len(problems) == 1 and words in problems[0].reason, problems[0].reason


def test_a_north_set_aside_in_a_four_player_game_is_refused(tmp_path):
    game = json.loads((Path(__file__).resolve().parents[3] / "sample_logs" / "tenhou" / "sample_tonpuu.json")
                      .read_text(encoding="utf-8"))
    game["log"][0][6][0] = "f44"
    hands, problems = read_tenhou([_write(tmp_path / "g.json", game)])
    assert hands.height == 0 and "three players only" in problems[0].reason

