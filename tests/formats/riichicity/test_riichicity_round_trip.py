"""Riichi City games exported as mjai and as tenhou.net/6 import as the same hand records, every column but where
they were read from (the test records are composed for this project: ``tests/data/riichicity/games.py``)."""

from __future__ import annotations

import json

import pytest

from analyzer.formats.mjai.write import events_text, game_to_mjai
from analyzer.formats.parse import parse_file
from analyzer.formats.read import read_logs
from analyzer.formats.tenhou.tenhou6_write import game_to_tenhou6

from tests.formats.riichicity.rc_records import EAST, SANMA


def _records(path, log_format):
    hands, problems = read_logs([path], 1, log_format)
    assert hands.height and problems == [], [p.reason for p in problems]
    return hands.drop("log_file", "log_row")


@pytest.mark.parametrize("path", [EAST, SANMA], ids=["4p", "3p"])
@pytest.mark.parametrize("export", ["mjai", "tenhou6"])
def test_an_export_imports_as_the_same_hand_records(path, export, tmp_path):
    game = parse_file(path, "riichicity")
    if export == "mjai":
        out = tmp_path / "g.mjai.jsonl"
        out.write_text(events_text(game_to_mjai(game)), encoding="utf-8")
    else:
        out = tmp_path / "g.json"
        out.write_text(json.dumps(game_to_tenhou6(game), ensure_ascii=False), encoding="utf-8")
    original, again = _records(path, "riichicity"), _records(out, "mjai" if export == "mjai" else "tenhou")
    assert original.columns == again.columns
    differ = [c for c in original.columns if not original[c].equals(again[c])]
    assert differ == [], {c: (original[c].to_list(), again[c].to_list()) for c in differ[:3]}


def test_the_export_keeps_the_record_id_rules_and_start_time():
    start = game_to_mjai(parse_file(EAST, "riichicity"))[0]["analyzer"]
    assert (start["game_id"], start["platform"], start["rules"]) == (
        "cq3k9u2ai08a0i7c5tg0", "riichicity", "riichicity;game_length=east")
    assert start["started_at"] == "2023-11-14T22:13:20+00:00"
