"""tenhou.net/6 export: Tenhou's own JSON is the oracle. The 31 games of ../shared/data/pairs/mjx-mjlog exported
from their mjlog give the ``log`` arrays Tenhou wrote; every shared tenhou.net/6 log (and the Mahjong Soul test
logs) imported and exported gives its ``log`` back. Hand-worked value strings and call strings besides."""

from __future__ import annotations

import json

import pytest

from analyzer.formats.tenhou.tenhou6_write import _call_string, _value, game_to_tenhou6, tenhou_code
from analyzer.formats.model import Kyoku, Outcome
from analyzer.formats.parse import parse_file
from analyzer.formats.tile_text import RED

from conftest import SHARED_HINT
from tests.formats.export_logs import MJX_JSON, PAIRS, SHARED_LOGS, TESTS, tenhou6_objects


def _log(game) -> list:
    return json.loads(json.dumps(game_to_tenhou6(game), ensure_ascii=False))["log"]


def test_from_mjlog_gives_tenhous_own_json():
    if not PAIRS.is_dir():
        pytest.skip(f"shared mjlog/JSON pairs not found at {PAIRS} ({SHARED_HINT})")
    mjlogs = sorted(PAIRS.glob("*.mjlog"))
    assert len(mjlogs) == 31
    for mjlog in mjlogs:
        want = [k for obj in tenhou6_objects(MJX_JSON / f"{mjlog.stem}.json") for k in obj["log"]]
        assert _log(parse_file(mjlog)) == want, mjlog.name


def test_every_tenhou6_log_gives_its_log_back():
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
    paths = sorted(SHARED_LOGS.glob("tenhou-json/*/*.json")) + sorted((TESTS / "data" / "majsoul").glob("*.json"))
    assert len(paths) == 54  # 31 mjx, 20 mjai-reviewer, 3 Mahjong Soul
    for path in paths:
        want = [k for obj in tenhou6_objects(path) for k in obj["log"]]
        assert _log(parse_file(path)) == want, path.name


@pytest.mark.parametrize(("tile", "code"), [(0, 11), (8, 19), (9, 21), (26, 39), (27, 41), (33, 47),
                                            (RED + 4, 51), (RED + 13, 52), (RED + 22, 53)])
def test_tile_codes(tile, code):
    assert tenhou_code(tile) == code


@pytest.mark.parametrize(("letter", "tiles", "called", "caller", "frm", "text"), [
    ("c", [2, 3, 1], 1, 1, 0, "c121314"),  # chi of 2m from the left with 3m4m
    ("p", [4, RED + 4, 4], 4, 0, 3, "p151551"),  # from the left seat: first
    ("p", [13, RED + 13, 13], 13, 0, 2, "25p2552"),  # from across: in the middle
    ("p", [22, 22, 22], 22, 0, 1, "3535p35"),  # from the right: last
    ("m", [13, 13, RED + 13, 13], 13, 2, 3, "252552m25"),  # an open kan from the right: after all three
    ("m", [30, 30, 30, 30], 30, 2, 1, "m44444444"),
])  # fmt: skip
def test_call_strings(letter, tiles, called, caller, frm, text):
    assert _call_string(letter, tiles, called, caller, frm) == text


def _win(result: str, winner: int, points: int, **kw) -> Outcome:
    return Outcome(result=result, deltas=[0, 0, 0, 0], winner=winner, points=points, **kw)


@pytest.mark.parametrize(("outcome", "dealer", "players", "text"), [
    (_win("ron", 1, 7700, fu=30, han=4), 0, 4, "30符4飜7700点"),
    (_win("tsumo", 2, 2700, fu=40, han=2), 0, 4, "40符2飜700-1300点"),  # 700 + 700 + 1300
    (_win("tsumo", 3, 7900, fu=60, han=3), 0, 4, "60符3飜2000-3900点"),
    (_win("tsumo", 0, 6000, fu=30, han=3), 0, 4, "30符3飜2000点∀"),
    (_win("tsumo", 1, 8000, fu=40, han=5, limit="mangan"), 0, 4, "満貫2000-4000点"),
    (_win("tsumo", 1, 32000, han=13, limit="yakuman"), 0, 4, "数え役満8000-16000点"),
    (_win("ron", 2, 48000, limit="yakuman", yakuman=1), 2, 4, "役満48000点"),
    (_win("tsumo", 1, 2000, fu=40, han=2), 0, 3, "40符2飜700-1300点"),  # three players: no north share
])  # fmt: skip
def test_value_strings(outcome, dealer, players, text):
    k = Kyoku(kyoku=dealer, honba=0, kyotaku=0, scores=[25000] * 4, haipai=[[]] * 4, dora=[0], players=players)
    assert _value(outcome, k, players) == text
