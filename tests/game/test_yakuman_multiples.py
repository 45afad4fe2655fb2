"""``check`` compares a multiple yakuman by its count and its points, not by the log's label: Tenhou writes
``yakuman`` (役満) for a double or triple yakuman and for a kazoe yakuman alike, and pays the multiple.

``tests/data/mjlog/triple_yakuman.mjlog`` (``compose.py`` there): the East-1 dealer tsumos daisangen,
tsuuiisou and suuankou, 48,000 from each seat (144,000); the others end at -23,000 and the game ends.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from analyzer.api import check
from analyzer.formats.read import read_tenhou
from conftest import game
from tests.formats.tenhou.mjlog_to_tenhou_json import mjlog_to_tenhou_json

TRIPLE = Path(__file__).resolve().parents[1] / "data" / "mjlog" / "triple_yakuman.mjlog"


@pytest.fixture(scope="module")
def triple() -> pl.DataFrame:
    hands, problems = read_tenhou([TRIPLE])
    assert problems == []
    return hands


def test_the_log_records_one_label_and_three_yakuman(triple):
    row = triple.row(0, named=True)
    assert (row["recorded_limit"], row["recorded_yakuman"], row["recorded_points"]) == ("yakuman", 3, 144000)
    assert sorted(row["recorded_yaku"]) == ["daisangen", "suuankou", "tsuuiisou"]


def test_a_triple_yakuman_labelled_yakuman_agrees(triple, tmp_path):
    result = check(triple, None)
    assert result.findings.height == 0, result.findings
    # the same game as tenhou.net/6 JSON: the value string says 役満 too
    (tmp_path / "triple.json").write_text(json.dumps(mjlog_to_tenhou_json(TRIPLE), ensure_ascii=False),
                                          encoding="utf-8")
    as_json, problems = read_tenhou([tmp_path / "triple.json"])
    assert problems == [] and as_json["recorded_limit"].to_list() == ["yakuman"]
    assert check(as_json, None).findings.height == 0


@pytest.mark.parametrize(
    "change, field",
    [
        ({"recorded_yakuman": 2}, "yakuman"),  # the count is compared
        ({"recorded_points": 96000}, "points"),  # and the points
        ({"recorded_limit": "2x yakuman"}, "limit"),  # a label naming another multiple is not this hand's
        ({"recorded_limit": "sanbaiman"}, "limit"),
    ],
)
def test_what_is_still_compared(triple, change, field):
    changed = triple.with_columns(pl.lit(v).cast(triple.schema[k]).alias(k) for k, v in change.items())
    result = check(changed, None)
    assert field in set(result.mismatches["field"]), result.mismatches


@pytest.mark.parametrize(
    "han, yakuman, recorded, agrees",
    [
        (13, 0, "yakuman", True),  # kazoe yakuman, as Tenhou labels it
        (13, 0, "kazoe yakuman", True),
        (0, 2, "yakuman", True),
        (0, 2, "2x yakuman", True),
        (0, 2, "3x yakuman", False),
        (11, 0, "yakuman", False),  # sanbaiman
        (0, 1, "mangan", False),
    ],
)
def test_limit_labels_on_a_score_sheet(han, yakuman, recorded, agrees):
    sheet = game([{"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": han,
                   "fu": 30, "yakuman": yakuman, "recorded_limit": recorded}])
    found = check(sheet, "tenhou").mismatches
    assert ("limit" not in set(found["field"])) == agrees, found
