"""Hands given as tiles flow through the whole pipeline: tiles win over given han/fu, bad tiles are flagged."""

import polars as pl
import pytest

from analyzer import preset, score
from analyzer.tiles.codes import TEXT_COLUMNS, encode_tiles
from conftest import SHARED, game

SEEDS = SHARED / "reference" / "seed_examples.csv"


@pytest.fixture
def seeds() -> pl.DataFrame:
    if not SEEDS.is_file():
        pytest.skip(f"seed examples not found at {SEEDS}")
    return pl.read_csv(SEEDS, infer_schema=False)


def test_seed_examples_score_as_worked(seeds):
    result = score(seeds.drop("expected_han", "expected_fu", "expected_points", "note", "example"), preset("tenhou"))
    assert result.rows_rejected == 0
    got = result.hands.select("game_id", "han", "fu", "points").rows()
    for (game_id, han, fu, points), expected in zip(got, seeds.iter_rows(named=True)):
        assert han == int(expected["expected_han"]), game_id
        if expected["expected_fu"]:
            assert fu == int(expected["expected_fu"]), game_id
        assert points == int(expected["expected_points"]), game_id


def test_seed_pinfu_tsumo_counts_tsumo_fu_only_as_an_option(seeds):
    row = seeds.filter(pl.col("example") == "000-2").drop("expected_han", "expected_fu", "expected_points", "note", "example")
    result = score(row, preset("tenhou").replace(pinfu_tsumo_fu=True))
    assert result.hands.select("fu", "points").row(0) == (30, 7900)


def _tile_row(**extra):
    base = {"round": "E1", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Aoki"}
    return game([{**base, **extra}])


def test_unscorable_tiles_without_han_are_rejected_with_the_reason():
    df = _tile_row(hand="123m456p789s11z23s", win_tile="4s")
    result = score(df, preset("tenhou"))
    assert result.hands.height == 0
    reject = result.rejects.row(0, named=True)
    assert reject["column"] == "hand" and reject["reason"].startswith("tiles cannot be scored")


def test_tiles_replace_given_values_and_flag_the_difference():
    # Pinfu, tanyao, riichi ron: 3 han 30 fu; the sheet says 2 han 30 fu.
    df = _tile_row(hand="234m456p678s55p234s", win_tile="2s", riichi="Chiba", han=2, fu=30)
    result = score(df, preset("tenhou"))
    row = result.hands.row(0, named=True)
    assert (row["han"], row["fu"], row["given_han"]) == (3, 30, 2)
    assert row["problems"] == ["han_mismatch"]
    assert row["points"] == 3900


def test_the_pipeline_scores_a_coded_table_like_its_text(seeds, tmp_path):
    records = seeds.drop("expected_han", "expected_fu", "expected_points", "note", "example")
    text = score(records, preset("tenhou"))
    melds = records.with_columns(pl.col("melds").str.split(" ").list.eval(pl.element().filter(pl.element() != "")))
    coded_path = tmp_path / "coded.parquet"
    encode_tiles(melds.lazy()).collect().drop(TEXT_COLUMNS, strict=False).write_parquet(coded_path)
    coded = score([coded_path], preset("tenhou"))
    assert coded.rows_rejected == text.rows_rejected == 0
    columns = ["game_id", "han", "fu", "yakuman", "points", "yaku", "fu_detail"]
    assert coded.hands.select(columns).equals(text.hands.select(columns))


def test_unreadable_tile_text_is_rejected_as_tiles_encode_reports_it():
    from conftest import game

    from analyzer import score

    too_long = "1111111111111111111m" + "2" * 60 + "p"
    rows = [{"round": "E1", "honba": 0, "result": "tsumo", "winner": "Aoki", "hand": too_long, "win_tile": "1m"},
            {"round": "E2", "honba": 0, "result": "tsumo", "winner": "Baba", "hand": "11111111111111111111m",
             "win_tile": "1m", "han": "2", "fu": "30"}]
    result = score(game(rows), "tenhou")
    assert result.rejects["reason"].to_list() == ["tiles cannot be scored: bad_notation"]
    assert (result.hands["problems"].list.first() == "bad_notation").all()  # given han/fu paid, with the code


@pytest.mark.parametrize(
    ("ippatsu", "han", "rejected"),
    [
        ("true", 4, False),  # the words a boolean column reads as: taken as they are
        ("false", 3, False),
        (" True ", 4, False),  # any spacing and case of the flag words
        ("YES", 4, False),
        ("maybe", None, True),  # not a flag word: the row is rejected, naming the column
    ],
)
def test_situation_flags_are_read_in_any_spelling_and_bad_ones_rejected(ippatsu, han, rejected):
    # Pinfu, tanyao, riichi ron: 3 han, ippatsu one more. A column of exact flag words is read as it is, any
    # other column is stripped and case-folded first, and the rejected row shows the text it had.
    df = _tile_row(hand="234m456p678s55p234s", win_tile="2s", riichi="Chiba", ippatsu=ippatsu)
    result = score(df, preset("tenhou"))
    if rejected:
        assert result.hands.height == 0
        reject = result.rejects.row(0, named=True)
        assert (reject["column"], reject["value"], reject["reason"]) == ("ippatsu", ippatsu, "not true/false")
    else:
        assert result.rows_rejected == 0 and result.hands["han"].to_list() == [han]
