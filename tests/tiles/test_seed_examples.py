"""The seven worked examples of seed_examples.csv (copied from /work/shared/reference), scored from tiles."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from analyzer.core.rules import Rules
from tests.tiles.helpers import score_frame

ROWS = list(csv.DictReader((Path(__file__).parent / "seed_examples.csv").open(encoding="utf-8")))


def to_case(r: dict) -> dict:
    dealer = int(r["round"][1:]) - 1  # E1/S1: seat 0 deals
    winner = int(r["winner"])
    riichi = {int(x) for x in r["riichi"].split()} if r["riichi"] else set()
    return dict(
        hand=r["hand"], melds=r["melds"] or None, win=r["win_tile"], dora=r["dora"] or None,
        tsumo=r["result"] == "tsumo", riichi=winner in riichi, seat=(winner - dealer) % 4,
        round="ESWN".index(r["round"][0]), dealer=winner == dealer,
    )


@pytest.mark.parametrize("r", ROWS, ids=[r["example"] for r in ROWS])
def test_seed_example(r):
    row = score_frame([to_case(r)]).row(0, named=True)
    assert row["tile_problem"] is None
    assert row["han"] == int(r["expected_han"])
    if r["expected_fu"]:
        assert row["fu"] == int(r["expected_fu"])
    assert row["points"] == int(r["expected_points"])


def test_seed_000_2_pinfu_tsumo_fu_option():
    r = next(r for r in ROWS if r["example"] == "000-2")
    row = score_frame([to_case(r)], Rules(pinfu_tsumo_fu=True)).row(0, named=True)
    assert (row["han"], row["fu"], row["points"]) == (4, 30, 7900)  # 2000/3900


def test_seed_yaku_names():
    got = {r["example"]: sorted(y["name"] for y in score_frame([to_case(r)]).row(0, named=True)["yaku"]) for r in ROWS}
    assert got == {
        "000-1": ["haku", "toitoi"],
        "000-2": ["menzen_tsumo", "pinfu", "riichi", "tanyao"],
        "000-3": ["chanta"],
        "000-4": ["honitsu", "round_wind", "seat_wind"],
        "001-1": ["chanta", "riichi"],
        "001-2": ["tanyao"],
        "001-3": ["menzen_tsumo", "riichi", "tanyao"],
    }
