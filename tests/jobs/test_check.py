"""`check`: recorded results against the rules, one corrupted field at a time.

The score sheet below was worked out by hand under Tenhou rules (start 25000, return 30000, uma 20/10):

* E1-0  Baba rons Chiba, 3 han 40 fu: base 1280, non-dealer ron 5120 -> 5200.
* E2-0  draw, Aoki riichi, Aoki and Baba tenpai: +1500 each, -1500 each noten; Aoki's stick goes on the table.
  The dealer (Baba) is tenpai: E2 again with 1 honba and 1 stick.
* E2-1  Doi tsumo 1 han 30 fu: base 240, dealer pays 500, others 300, +100 honba each, +1000 stick = 2400.
* E3-0  Chiba (dealer) rons Doi, 2 han 30 fu: base 480 x 6 = 2880 -> 2900.
* Final: Aoki 25100, Baba 31100, Chiba 20800, Doi 23000. Game points (Tenhou rounding): Baba 41, Aoki 5,
  Doi -17, Chiba -29.
"""

from __future__ import annotations

import polars as pl
import pytest

from analyzer.api import check
from analyzer.findings.report import write_findings
from conftest import game

SHEET = [
    {"round": "E1", "honba": 0, "kyotaku": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 3, "fu": 40,
     "recorded_han": 3, "recorded_fu": 40, "recorded_points": 5200, "deltas": [0, 5200, -5200, 0]},
    {"round": "E2", "honba": 0, "kyotaku": 0, "result": "draw", "riichi": "Aoki", "tenpai": "Aoki,Baba",
     "deltas": [500, 1500, -1500, -1500]},
    {"round": "E2", "honba": 1, "kyotaku": 1, "result": "tsumo", "winner": "Doi", "han": 1, "fu": 30,
     "recorded_han": 1, "recorded_fu": 30, "recorded_points": 1100, "deltas": [-400, -600, -400, 2400]},
    {"round": "E3", "honba": 0, "kyotaku": 0, "result": "ron", "winner": "Chiba", "loser": "Doi", "han": 2, "fu": 30,
     "recorded_han": 2, "recorded_fu": 30, "recorded_points": 2900, "deltas": [0, 0, 2900, -2900],
     "final": [25100, 31100, 20800, 23000], "game_points": [5, 41, -29, -17]},
]


def _sheet(changes: dict[int, dict] | None = None) -> pl.DataFrame:
    rows = []
    for i, row in enumerate(SHEET):
        row = {**row, **(changes or {}).get(i, {})}
        flat = {k: v for k, v in row.items() if k not in ("deltas", "final", "game_points")}
        flat |= {f"recorded_delta_{s}": row["deltas"][s] for s in range(4)}
        for key in ("final", "game_points"):
            flat |= {f"recorded_{key}_{s}": row.get(key, [None] * 4)[s] for s in range(4)}
        rows.append(flat)
    return game(rows)


def _mismatches(changes=None, rules="tenhou") -> set[tuple]:
    result = check(_sheet(changes), rules)
    return {
        (r["round"], r["field"], r["kind"], r["seat"], r["recorded"], r["computed"])
        for r in result.mismatches.iter_rows(named=True)
    }


def test_a_correct_sheet_has_no_findings():
    result = check(_sheet(), "tenhou")
    assert result.findings.height == 0, result.findings
    assert result.ok
    assert "everything agrees" in result.headline()
    assert {"han", "fu", "points", "delta_0", "final_0", "game_points_3"} <= set(result.fields_compared)


CASES = {
    "recorded han differs; its own han/fu do not give its points": (
        {0: {"recorded_han": 4}},
        {("E1", "han", "value", None, "4", "3"), ("E1", "points_from_han_fu", "plausibility", None, "5200", "8000")},
    ),
    "recorded points differ": (
        {3: {"recorded_points": 2000}},
        {("E3", "points", "value", None, "2000", "2900"),
         ("E3", "points_from_han_fu", "plausibility", None, "2000", "2900")},
    ),
    "a delta without the honba": (
        {2: {"deltas": [-300, -500, -300, 2400]}},
        {("E2", "delta_0", "payment", 0, "-300", "-400"), ("E2", "delta_1", "payment", 1, "-500", "-600"),
         ("E2", "delta_2", "payment", 2, "-300", "-400"), ("E2", "delta_sum", "money", None, "1300", "1000")},
    ),
    "recorded honba does not follow": (
        {3: {"honba": 2}},
        {("E3", "honba", "table", None, "2", "0")},
    ),
    "recorded sticks do not follow": (
        {2: {"kyotaku": 0}},
        {("E2", "kyotaku", "table", None, "0", "1")},
    ),
    "20 fu by ron is impossible": (
        {0: {"recorded_fu": 20}},
        {("E1", "fu", "value", None, "20", "40"), ("E1", "han_fu", "plausibility", None, "3 han 20 fu", None)},
    ),
    "25 fu needs 2 han": (
        {2: {"recorded_han": 1, "recorded_fu": 25}},
        {("E2", "fu", "value", None, "25", "30"), ("E2", "han_fu", "plausibility", None, "1 han 25 fu", None)},
    ),
    "final score and game points": (
        {3: {"final": [25100, 31100, 20800, 23100], "game_points": [5, 41, -29, -16]}},
        {("E3", "final_score", "game_end", 3, "23100", "23000"),
         ("E3", "game_points", "game_end", 3, "-16", "-17")},
    ),
}


@pytest.mark.parametrize("changes, expected", CASES.values(), ids=CASES.keys())
def test_each_corrupted_field_is_reported(changes, expected):
    assert _mismatches(changes) == expected


def test_dealer_must_pass_after_a_non_dealer_win():
    # E2 after E1 where the dealer (Aoki) did not win is right; staying in E1 is not
    rows = [
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 1, "fu": 30},
        {"round": "E1", "honba": 1, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
    ]
    result = check(game(rows), "tenhou")
    found = {(r["field"], r["recorded"], r["computed"]) for r in result.mismatches.iter_rows(named=True)}
    assert ("round", "E1", "E2") in found
    assert ("honba", "1", "0") in found


def test_dealer_stays_when_tenpai_at_a_draw_and_after_an_abort():
    rows = [
        {"round": "E1", "honba": 0, "result": "draw", "tenpai": "Aoki"},
        {"round": "E1", "honba": 1, "result": "abort"},
        {"round": "E1", "honba": 2, "result": "draw", "tenpai": "Baba"},
        {"round": "E2", "honba": 3, "result": "ron", "winner": "Baba", "loser": "Doi", "han": 1, "fu": 30},
        {"round": "E2", "honba": 4, "result": "ron", "winner": "Chiba", "loser": "Doi", "han": 1, "fu": 30},
        {"round": "E3", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Doi", "han": 1, "fu": 30},
    ]
    assert check(game(rows), "tenhou").ok


def test_head_bump_allows_one_winner_only():
    rows = [
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Aoki", "han": 1, "fu": 30},
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Aoki", "han": 1, "fu": 30},
    ]
    assert check(game(rows), "tenhou").ok  # double ron allowed
    result = check(game(rows), "tenhou;multi_ron=atamahane")
    assert [(r["field"], r["kind"]) for r in result.mismatches.iter_rows(named=True)] == [("winner", "plausibility")]


def test_rejected_rows_are_findings_and_fragments_are_notes():
    rows = [
        {"round": "E2", "honba": 1, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 1, "fu": 30},
        {"round": "E3", "honba": 0, "result": "ron", "winner": "Nobody", "loser": "Chiba", "han": 1, "fu": 30},
    ]
    result = check(game(rows), "tenhou")
    kinds = {(r["kind"], r["field"]) for r in result.findings.iter_rows(named=True)}
    assert kinds == {("note", "round"), ("reject", "winner")}
    assert not result.ok and result.mismatches.height == 1


def test_yaku_and_fu_explanations_come_from_the_tiles():
    rows = [{
        "round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "riichi": "Baba",
        "hand": "234m456p678s22z567s", "win_tile": "5s", "dora": "9m",
        "recorded_han": 2, "recorded_fu": 30, "recorded_yaku": "riichi,tanyao",
    }]
    frame = game(rows).with_columns(pl.col("recorded_yaku").str.split(","))
    result = check(frame, "tenhou")
    found = {r["field"]: r for r in result.mismatches.iter_rows(named=True)}
    assert set(found) == {"han", "fu", "yaku"}
    assert found["han"]["recorded"] == "2" and found["han"]["computed"] == "1"
    assert found["han"]["explanation"] == "record has tanyao"
    assert found["fu"]["computed"] == "40" and "menzen ron 10, seat wind pair 2" in found["fu"]["explanation"]
    assert found["yaku"]["recorded"] == "riichi, tanyao" and found["yaku"]["computed"] == "riichi"


@pytest.mark.parametrize("suffix", ["csv", "parquet", "html"])
def test_report_files(tmp_path, suffix):
    result = check(_sheet({0: {"recorded_han": 4}}), "tenhou")
    path = write_findings(result, tmp_path / f"report.{suffix}")
    assert path.exists() and not list(tmp_path.glob(".*.tmp"))
    if suffix == "parquet":
        assert pl.read_parquet(path).height == result.findings.height
    elif suffix == "csv":
        assert pl.read_csv(path).height == result.findings.height
    else:
        text = path.read_text()
        assert "<h2>Summary</h2>" in text and "points_from_han_fu" in text
