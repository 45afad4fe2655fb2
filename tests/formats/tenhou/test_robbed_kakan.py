"""A kakan robbed by chankan counts in ``calls_*``: it was declared (its ``<N>`` is in the log), though the
rinshan draw never came.

``tests/data/mjlog/commented_chankan.mjlog`` (``compose.py`` there): seat 1 pons seat 0's 3m, later draws the
fourth 3m and adds it (kakan); seat 2, waiting on 3m (12m), rons it: chankan, 1 han 40 fu, 1,300.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.api import check
from analyzer.formats.parse import parse_file
from analyzer.formats.read import read_mjai, read_tenhou
from tests.formats.tenhou.mjlog_to_tenhou_json import mjlog_to_tenhou_json
from tests.formats.mjai.tenhou_to_mjai import to_mjai

CHANKAN = Path(__file__).resolve().parents[2] / "data" / "mjlog" / "commented_chankan.mjlog"


def _as(fmt: str, tmp_path: Path):
    if fmt == "mjlog":
        return read_tenhou([CHANKAN])
    if fmt == "tenhou.net/6":
        (tmp_path / "g.json").write_text(json.dumps(mjlog_to_tenhou_json(CHANKAN), ensure_ascii=False), "utf-8")
        return read_tenhou([tmp_path / "g.json"])
    (tmp_path / "g.mjson").write_text(to_mjai(parse_file(CHANKAN)), encoding="utf-8")
    return read_mjai([tmp_path / "g.mjson"])


@pytest.mark.parametrize("fmt", ["mjlog", "tenhou.net/6", "mjai"])
def test_the_robbed_kakan_is_a_call(tmp_path, fmt):
    hands, problems = _as(fmt, tmp_path)
    assert problems == []
    row = hands.row(0, named=True)
    assert (row["result"], row["winner"], row["loser"], row["chankan"]) == ("ron", "2", "1", True)
    # seat 1: the pon and the added kan; its hand stays open; the hand ends on the kan caller's turn
    assert [row[f"calls_{s}"] for s in range(4)] == [0, 2, 0, 0]
    assert [row[f"open_{s}"] for s in range(4)] == [False, True, False, False]
    assert row["turn"] == 2
    assert check(hands, None).mismatches.height == 0
