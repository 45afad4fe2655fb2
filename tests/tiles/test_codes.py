"""Tile codes (analyzer.tiles.codes): text and codes score alike, bad codes are problems."""

import polars as pl
import pytest

from analyzer import preset
from analyzer.tiles import score_tiles
from analyzer.tiles.codes import CODE_COLUMNS, CODE_SCHEMA, TEXT_COLUMNS, encode_tiles
from benchmarks.handgen import generate
from tests.tiles.helpers import make_frame

OUTPUTS = ["yaku", "han", "fu", "fu_detail", "yakuman", "dora_count", "ura_dora", "aka_dora", "wait", "tile_problem"]
TENHOU = preset("tenhou")


def _codes_of(cases: list[dict]) -> pl.DataFrame:
    return encode_tiles(make_frame(cases).lazy()).collect()


def test_encoding_of_a_hand_by_hand():
    row = _codes_of([{"hand": "1230m11z", "melds": "chi:406p pon:777z ankan:1111s", "win": "1z",
                      "dora": "4p1z", "ura": "9s"}]).row(0, named=True)
    assert row["tc_m"] == 1 + 32 + 32**2 + 32**4  # 1m 2m 3m and the red 5m read as 5m
    assert row["tc_z"] == 2 and row["tc_win"] == 27 and row["tc_aka"] == 1
    assert row["tc_meld0"] == 1 + 0 * 34 + 12 + 256  # chi from 4p, one red five
    assert row["tc_meld1"] == 1 + 1 * 34 + 33 and row["tc_meld2"] == 1 + 4 * 34 + 18
    assert row["tc_dora"] == (1 + 12) + (1 + 27) * 64  # 4p, then the kan indicator 1z
    assert row["tc_ura"] == 1 + 26 and row["tc_error"] == 0


@pytest.mark.parametrize(
    "case, error",
    [
        ({"hand": "123x456p", "win": "1m"}, 1),
        ({"hand": "123m456p789s1122z", "win": "9z"}, 1),
        ({"hand": "123m456p789s1122z", "win": "1m", "dora": "4q"}, 1),
        ({"hand": "123m456p789s1122z", "win": "1m", "dora": "4p4"}, 1),
        ({"hand": "+23m456p789s11122z", "win": "2m"}, 1),  # a sign is no tile (to_integer would take it)
        ({"hand": "-0m23m456p789s1122z", "win": "2m"}, 1),
        ({"hand": "123m456p789s11102z", "win": "1m"}, 1),  # no red honour
        ({"hand": "123m456p789s11z", "win": "1m", "melds": "chi:468p"}, 2),
        ({"hand": "11z", "win": "1z", "melds": "pon:111m pon:222m pon:333m pon:444m pon:555m"}, 2),
    ],
)
def test_unreadable_text_is_an_encoding_error(case, error):
    assert _codes_of([case])["tc_error"].to_list() == [error]


@pytest.mark.parametrize(
    "hand, aka, fives",
    [("0123m456p789s1122z", 1, (1, 1, 0)), ("055m055p0s11122z", 3, (3, 3, 1)), ("50m50m456p11122z", 2, (4, 1, 0)),
     ("123m456p789s11122z", 0, (0, 1, 0))],
)
def test_red_fives_count_as_fives_and_as_aka(hand, aka, fives):
    row = _codes_of([{"hand": hand, "win": "1z"}]).row(0, named=True)
    assert row["tc_aka"] == aka and row["tc_error"] == 0
    assert tuple((row[f"tc_{suit}"] // 32**4) % 32 for suit in "mps") == fives


def test_null_hand_gives_null_codes_and_is_not_scored():
    codes = _codes_of([{"hand": None, "win": None}])
    assert codes.select(CODE_COLUMNS).row(0) == (None,) * len(CODE_COLUMNS)
    assert score_tiles(codes.lazy(), TENHOU).collect()["han"].to_list() == [None]


@pytest.mark.parametrize("rules", ["tenhou", "majsoul", "ema"])
def test_codes_score_exactly_like_the_text_they_came_from(rules):
    hands = generate(3000, seed=7)
    from_text = score_tiles(hands.lazy(), preset(rules)).collect()
    codes = encode_tiles(hands.lazy()).collect().drop(TEXT_COLUMNS)
    assert set(CODE_SCHEMA) <= set(codes.columns)
    from_codes = score_tiles(codes.lazy(), preset(rules)).collect()
    assert from_codes.select(OUTPUTS).equals(from_text.select(OUTPUTS))
    assert from_codes["han"].null_count() < 1000  # most generated hands score (open ones may lack a yaku)


def _coded(**changes) -> pl.DataFrame:
    codes = _codes_of([{"hand": "234m456p678s55p234s", "win": "2s", "dora": "1m", "riichi": True}])
    return codes.with_columns(**{k: pl.lit(v, dtype=CODE_SCHEMA[k]) for k, v in changes.items()})


@pytest.mark.parametrize(
    "changes, problem",
    [
        ({}, None),
        ({"tc_win": 40}, "bad_notation"),
        ({"tc_dora": 1 + 63 * 64}, "bad_notation"),
        ({"tc_p": None}, "bad_notation"),
        ({"tc_z": 32**7}, "bad_notation"),  # an 8z
        ({"tc_error": 1}, "bad_notation"),
        ({"tc_meld0": 200}, "bad_meld"),
        ({"tc_meld0": -1}, "bad_meld"),
        ({"tc_m": 32**1 + 32**2 + 32**3 + 32**4}, "tile_count"),
        ({"tc_s": 5 * 32**1 + 32**7}, "fifth_copy"),  # five 2s and an 8s for 234s678s
        ({"tc_win": 0}, "win_tile_not_in_hand"),
    ],
)
def test_codes_written_by_other_tools_are_checked(changes, problem):
    row = score_tiles(_coded(**changes).lazy(), TENHOU).collect().row(0, named=True)
    assert row["tile_problem"] == problem
    if problem is None:
        assert (row["han"], row["fu"], row["dora_count"]) == (4, 30, 1)  # riichi, pinfu, tanyao and the 2m dora


def test_without_lists_the_values_and_rows_are_the_same():
    codes = encode_tiles(generate(2000, seed=11).lazy()).collect().drop(TEXT_COLUMNS)
    full = score_tiles(codes.lazy(), TENHOU).collect()
    values = score_tiles(codes.lazy(), TENHOU, lists=False).collect()
    assert "yaku" not in values.columns and "fu_detail" not in values.columns
    assert values.equals(full.drop("yaku", "fu_detail"))
