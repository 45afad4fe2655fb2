"""Bad rows get a problem code and null values; they never crash the batch or get dropped."""

from __future__ import annotations

import polars as pl
import pytest

from analyzer.core.rules import Rules
from analyzer.tiles import score_tiles
from tests.tiles.helpers import make_frame, score_frame

GOOD = dict(hand="12355m456p234789s", win="4s", riichi=True)
CASES = [
    ("bad_notation", dict(hand="123x55m456p234789s", win="4s")),
    ("bad_notation", dict(hand="12355m456p234789s", win="4x")),
    ("bad_notation", dict(hand="12355m456p234789s89z", win="4s")),
    ("bad_notation", dict(GOOD, dora="4q")),
    ("bad_meld", dict(hand="12355m456p234s", melds="chi:135s", win="4s")),
    ("bad_meld", dict(hand="12355m456p234s", melds="pon:789s", win="4s")),
    ("bad_meld", dict(hand="12355m456p234s", melds="kan:7777s", win="4s")),
    ("bad_meld", dict(hand="12355m456p234s", melds="chi:123z", win="4s")),
    ("tile_count", dict(hand="1235m456p234789s", win="4s")),
    ("tile_count", dict(hand="12355m456p234789s", melds="pon:111z", win="4s")),
    ("fifth_copy", dict(hand="11111m456p234s789s", win="4s")),
    ("fifth_copy", dict(hand="123m456p11555z", melds="pon:555z", win="1z")),
    ("win_tile_not_in_hand", dict(hand="12355m456p234789s", win="6s")),
    ("not_complete", dict(hand="12355m456p234788s", win="4s")),
    ("no_yaku", dict(hand="12355m456p234s", melds="chi:789s", win="4s")),
    ("no_yaku", dict(hand="123m33456p222789s", win="2s")),  # closed ron, no riichi: nothing
]


@pytest.fixture(scope="module")
def scored():
    return score_frame([GOOD, *[c for _, c in CASES], dict(GOOD, hand=None)])


def test_problem_codes(scored):
    assert scored["tile_problem"].to_list() == [None, *[p for p, _ in CASES], None]


def test_bad_rows_have_null_values(scored):
    bad = scored.slice(1, len(CASES))
    for col in ("han", "fu", "yakuman", "yaku", "fu_detail", "dora_count"):
        assert bad[col].null_count() == len(CASES), col
    # the wait is still reported on complete hands without yaku
    assert bad.filter(pl.col("tile_problem") == "no_yaku")["wait"].to_list() == ["ryanmen", "shanpon"]


def test_null_hand_row_is_kept_unscored(scored):
    last = scored.row(-1, named=True)
    assert last["keep"] == "x" and last["han"] is None and last["tile_problem"] is None


def test_output_schema_and_passthrough():
    df = make_frame([GOOD, dict(GOOD, hand="bad")]).with_columns(extra=pl.Series([1, 2]))
    out = score_tiles(df.lazy(), Rules()).collect()
    assert out.columns[: len(df.columns)] == df.columns
    assert out.select(df.columns).equals(df)
    # names and reasons are Enums (a fixed vocabulary: the list columns cost less to build and to store)
    yaku, fu_detail = out.schema["yaku"].inner, out.schema["fu_detail"].inner
    assert [f.name for f in yaku.fields] == ["name", "han"] and yaku.fields[1].dtype == pl.Int32
    assert isinstance(yaku.fields[0].dtype, pl.Enum) and {"riichi", "kokushi_13", "renhou"} <= set(
        yaku.fields[0].dtype.categories)
    assert [f.name for f in fu_detail.fields] == ["fu", "reason"] and fu_detail.fields[0].dtype == pl.Int32
    assert isinstance(fu_detail.fields[1].dtype, pl.Enum) and {"base", "closed terminal kan"} <= set(
        fu_detail.fields[1].dtype.categories)
    for col in ("han", "fu", "yakuman", "dora_count", "ura_dora", "aka_dora"):
        assert out.schema[col] == pl.Int64, col
    assert out.schema["wait"] == pl.String and out.schema["tile_problem"] == pl.String


def test_dora_ura_aka_and_kan_dora():
    case = dict(hand="123m406p23455s789s", win="2s", riichi=True, dora="4s8s", ura="1m3m")
    # dora 5s x2 (4s) + kan dora 9s x1 (8s); ura 2m x1 (1m) + 4m x0; aka 1
    r = score_frame([case]).row(0, named=True)
    assert (r["dora_count"], r["ura_dora"], r["aka_dora"]) == (3, 1, 1)
    assert r["han"] == 2 + 3 + 1 + 1
    r = score_frame([case], Rules(kan_dora=False, ura_dora=False, aka_dora=False)).row(0, named=True)
    assert (r["dora_count"], r["ura_dora"], r["aka_dora"], r["han"]) == (2, 0, 0, 4)
    # ura needs riichi; the compact indicator form "48s" is read as 4s then 8s
    r = score_frame([dict(case, riichi=False, tsumo=True, dora="48s")]).row(0, named=True)
    assert (r["dora_count"], r["ura_dora"]) == (3, 0)
    # wrap-arounds: 9 -> 1, N -> E, red -> white
    r = score_frame([dict(hand="111m456p789s55z123s", win="2s", riichi=True, dora="9m4z7z")]).row(0, named=True)
    assert r["dora_count"] == 3 + 0 + 2


def test_null_typed_and_narrow_dtype_inputs():
    # columns built without a schema: all-null dora/ura/melds/flags come as Null dtype, winds as Int8
    df = pl.DataFrame(
        {
            "hand": ["12355m456p234789s", None], "melds": [None, None], "win_tile": ["4s", None],
            "dora": [None, None], "ura": [None, None],
            **{f: [None, None] for f in ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan",
                                        "tenhou", "chiihou", "renhou")},
            "_is_tsumo": [True, None], "_is_riichi": [None, None],
            "_seat_wind": pl.Series([1, None], dtype=pl.Int8), "_round_wind": pl.Series([0, None], dtype=pl.UInt8),
            "_winner_is_dealer": [False, None],
        }
    )
    out = score_tiles(df.lazy(), Rules()).collect()
    assert out["han"].to_list() == [2, None]  # menzen tsumo + pinfu
    assert out["fu"].to_list() == [20, None]


def test_empty_frame():
    out = score_tiles(make_frame([GOOD]).head(0).lazy(), Rules()).collect()
    assert out.height == 0 and "yaku" in out.columns


def test_notation_variants():
    rows = score_frame([
        dict(hand="123m067p23455s789s", win="2s", riichi=True),   # red five first in its suit
        dict(hand="321m760p54325s987s", win="2s", riichi=True),   # unsorted digits, same tiles
        dict(hand="789s123m55432s760p", win="2s", riichi=True),   # suits out of order
        dict(hand="12m3m067p23455s789s", win="2s", riichi=True),  # a suit in two groups
        dict(hand="123m067p23455s789s0z", win="2s"),               # 0z is not a tile
        dict(hand="123m456p789s1102z", win="1z"),                  # nor inside an honour group
        dict(hand="m123456p789s11z123s", win="1z"),                # empty group
    ])
    first = rows.row(0, named=True)
    assert (first["han"], first["fu"], first["aka_dora"]) == (3, 30, 1)  # riichi pinfu aka
    for i in (1, 2, 3):
        r = rows.row(i, named=True)
        assert (r["han"], r["fu"], r["aka_dora"], r["tile_problem"]) == (3, 30, 1, None), i
    assert rows["tile_problem"].to_list()[4:] == ["bad_notation"] * 3
