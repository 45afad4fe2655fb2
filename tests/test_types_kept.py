"""Types kept: a column the run does not compute leaves ``score`` with the type it came in with.

Parquet and DataFrame columns keep their own types, a CSV file's pass-through columns the types Polars infers
from the whole file; the columns analyzer validates are still read from their text (a bad value rejects its
row). ``problems`` is a list of codes, joined by ';' in a CSV output.
"""

from __future__ import annotations

import csv
from datetime import datetime

import polars as pl
import pytest
from conftest import game

import analyzer
from analyzer.formats.read import read_tenhou
from analyzer.api import score_to

SAMPLE = "sample_logs/tenhou/sample_tonpuu.json"
TOKYO = pl.Datetime("us", "Asia/Tokyo")


@pytest.fixture(scope="module")
def imported() -> pl.DataFrame:
    hands, problems = read_tenhou([SAMPLE])
    assert problems == []
    # the hand-made sample has no rates or dates: give them values, so that the values are checked too
    return hands.with_columns(
        pl.lit(1834.5).alias("rate_0"),
        pl.lit(datetime(2024, 5, 1, 21, 30)).cast(pl.Datetime("us")).dt.replace_time_zone("Asia/Tokyo")
        .alias("played_at"),
    )


def test_tenhou_import_then_score_keeps_the_imported_types(imported, tmp_path):
    imported.write_parquet(tmp_path / "hands.parquet")
    for data in (tmp_path / "hands.parquet", imported):  # a file, and the DataFrame itself
        hands = analyzer.score(data).hands
        assert hands.height == imported.height
        for name, dtype in {"recorded_delta_0": pl.Int64, "recorded_kyotaku": pl.Int64, "open_0": pl.Boolean,
                            "calls_0": pl.Int64, "turn": pl.Int64, "rate_0": pl.Float64,
                            "recorded_game_points_0": pl.Float64, "played_at": TOKYO, "kita": pl.Int64}.items():
            assert hands.schema[name] == dtype, name
        assert hands["rate_0"].to_list() == [1834.5] * hands.height
        assert hands["played_at"].dt.hour().to_list() == [21] * hands.height
        # the point of it: computed and recorded values meet without a cast
        assert hands.select((pl.col(f"delta_{s}") - pl.col(f"recorded_delta_{s}")).abs().sum()
                            for s in range(4)).row(0) == (0, 0, 0, 0)


def test_tenhou_import_checks_alike_typed_or_as_text(imported, tmp_path):
    """The readers of recorded values and per-seat inputs read them whether typed (Parquet) or text (CSV)."""
    imported.write_parquet(tmp_path / "hands.parquet")
    flat = imported.with_columns(pl.col(c).list.join(",") for c, t in imported.schema.items() if t == pl.List(pl.String))
    # the text a spreadsheet would hold: flags as yes/no, numbers as text
    flat.with_columns(pl.col(f"open_{s}").replace_strict({True: "yes", False: "no"}, return_dtype=pl.String)
                      for s in range(4)).write_csv(tmp_path / "hands.csv")
    typed, text = analyzer.check(tmp_path / "hands.parquet"), analyzer.check(tmp_path / "hands.csv")
    assert typed.findings.height == text.findings.height == 0
    typed_players = analyzer.score(tmp_path / "hands.parquet").players
    text_players = analyzer.score(tmp_path / "hands.csv").players
    assert typed_players.equals(text_players)
    assert typed_players["opened_hands"].is_not_null().all()  # open_* were read, as Boolean and as yes/no


def test_a_dataframe_keeps_its_int_and_datetime_columns():
    df = game([
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Baba", "han": 2, "fu": 30},
        {"round": "E2", "honba": 0, "result": "tsumo", "winner": "Baba", "han": 1, "fu": 30},
    ]).with_columns(
        pl.Series("table_no", [7, 8], dtype=pl.Int64),
        pl.Series("started", [datetime(2024, 1, 2, 3, 4), datetime(2024, 1, 2, 3, 9)]),
    )
    result = analyzer.score(df, "tenhou")
    assert result.hands.schema["table_no"] == pl.Int64 and result.hands.schema["started"] == pl.Datetime("us")
    assert result.hands["table_no"].to_list() == [7, 8]
    assert result.hands["started"].to_list() == df["started"].to_list()


def _sheet(rows: list[dict], **extra) -> pl.DataFrame:
    return game(rows).with_columns(pl.col("riichi", "tenpai").list.join(","), **extra)


ROWS = [
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Baba", "han": 2, "fu": 30},
    {"round": "E2", "honba": 0, "result": "tsumo", "winner": "Baba", "han": 1, "fu": 30},
    {"round": "E3", "honba": 0, "result": "draw", "tenpai": "Chiba"},
]


def test_csv_extra_columns_get_the_types_polars_infers(tmp_path):
    _sheet(ROWS, table=pl.Series(["3", "4", "5"]), stake=pl.Series(["0.5", "1", "2.25"]),
           online=pl.Series(["true", "false", "true"]), note=pl.Series(["a", "b", None])).write_csv(tmp_path / "s.csv")
    hands = analyzer.score(tmp_path / "s.csv", "tenhou").hands
    assert {n: hands.schema[n] for n in ("table", "stake", "online", "note")} == {
        "table": pl.Int64, "stake": pl.Float64, "online": pl.Boolean, "note": pl.String}
    assert hands["table"].to_list() == [3, 4, 5] and hands["stake"].to_list() == [0.5, 1.0, 2.25]
    # the validated columns are read from their text: a seat-number winner stays text, numbers are parsed
    assert hands.schema["winner"] == pl.String and hands.schema["han"] == pl.Int64


def test_csv_types_are_inferred_from_every_row(tmp_path):
    rows = [{"round": "E1", "honba": 0, "result": "draw"} for _ in range(150)]
    sheet = _sheet(rows, weight=pl.Series([str(i) for i in range(149)] + ["1.5"]))
    sheet.write_csv(tmp_path / "s.csv")
    for partition_rows in (None, 40):
        hands = analyzer.score(tmp_path / "s.csv", "tenhou", partition_rows=partition_rows).hands
        assert hands.schema["weight"] == pl.Float64  # not Int64, as the first 100 rows would say
        assert sorted(hands["weight"].to_list()) == sorted([float(i) for i in range(149)] + [1.5])


@pytest.mark.parametrize("column, value, reason", [
    ("honba", "x", "honba must be a whole number >= 0"),
    ("han", "2.5", "not a whole number"),
    ("round", "E9", "round must be E1-E4, S1-S4, W1-W4 or N1-N4"),
])
def test_a_bad_text_value_in_a_validated_column_still_rejects_its_row(tmp_path, column, value, reason):
    sheet = _sheet(ROWS)
    # every other value of the column looks like a number (or a round): read as text all the same
    sheet.with_columns(pl.when(pl.int_range(pl.len()) == 1).then(pl.lit(value)).otherwise(pl.col(column))
                       .alias(column)).write_csv(tmp_path / "s.csv")
    result = analyzer.score(tmp_path / "s.csv", "tenhou")
    assert result.hands.height == 2
    assert result.rejects.select("row", "column", "value", "reason").rows() == [(2, column, value, reason)]


def test_a_bad_value_in_a_typed_parquet_column_rejects_as_before(tmp_path):
    """A Parquet file's validated numbers may be Int64 (as the importer writes them) or text."""
    sheet = _sheet(ROWS).with_columns(pl.col("honba").cast(pl.Int64), pl.Series("han", [2, -1, None], pl.Int64))
    sheet.write_parquet(tmp_path / "s.parquet")
    result = analyzer.score(tmp_path / "s.parquet", "tenhou")
    assert result.hands.height == 2
    assert result.rejects.select("row", "column", "value").rows() == [(2, "han", "-1")]


def test_a_column_of_different_types_in_two_files_is_read_as_their_supertype(tmp_path):
    first, second = _sheet(ROWS[:2]), _sheet(ROWS[2:], game_id=pl.lit("g2"))
    first.with_columns(pl.Series("weight", [1, 2], pl.Int64), pl.Series("when", [datetime(2024, 1, 1)] * 2),
                       pl.Series("code", [1, 2], pl.Int64)).write_parquet(tmp_path / "a.parquet")
    second.with_columns(pl.Series("weight", [0.5], pl.Float64), pl.Series("when", ["yesterday"]),
                        pl.Series("code", [[1, 2]], pl.List(pl.Int64))).write_parquet(tmp_path / "b.parquet")
    # and a CSV file beside them: its inferred Int64 meets the others' types
    _sheet(ROWS[:1], game_id=pl.lit("g3"), weight=pl.lit("3"), when=pl.lit("7"), code=pl.lit("9")).write_csv(
        tmp_path / "c.csv")
    for partition_rows in (None, 1):
        hands = analyzer.score(sorted(tmp_path.glob("*.*")), "tenhou", partition_rows=partition_rows).hands
        assert hands.height == 4
        # Int64 and Float64 meet in Float64; a datetime and text, or a list and a number, have no supertype: text
        assert hands.schema["weight"] == pl.Float64 and hands.schema["when"] == pl.String
        assert hands.schema["code"] == pl.String
        by_game = dict(zip(hands["game_id"] + hands["round"], hands["weight"]))
        assert by_game == {"g1E1": 1.0, "g1E2": 2.0, "g2E3": 0.5, "g3E1": 3.0}
        assert set(hands["when"]) == {"2024-01-01 00:00:00.000000", "yesterday", "7"}
        assert set(hands["code"]) == {"1", "2", "1,2", "9"}


def test_problems_are_a_list_in_parquet_and_text_in_csv(tmp_path):
    df = game([
        {"round": "E1", "honba": 0, "result": "draw", "riichi": "Aoki", "tenpai": "Aoki"},
        {"round": "E1", "honba": 0, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
    ]).with_columns(kyotaku=pl.Series(["0", "0"]))
    expected = [[], ["honba_mismatch", "kyotaku_mismatch"]]
    result = analyzer.score(df, "tenhou")
    assert result.hands.schema["problems"] == pl.List(pl.String)
    assert result.hands["problems"].to_list() == expected and result.rows_with_problems == 1
    df.write_parquet(tmp_path / "in.parquet")
    score_to(tmp_path / "in.parquet", tmp_path / "pq", "parquet", "tenhou")
    assert pl.read_parquet(tmp_path / "pq" / "hands.parquet")["problems"].to_list() == expected
    summary = score_to(tmp_path / "in.parquet", tmp_path / "csv", "csv", "tenhou")
    assert summary.rows_with_problems == 1
    with open(tmp_path / "csv" / "hands.csv", newline="", encoding="utf-8") as handle:
        assert [row["problems"] for row in csv.DictReader(handle)] == ["", "honba_mismatch;kyotaku_mismatch"]


def test_a_csv_hands_output_read_back_counts_its_problems(tmp_path):
    from analyzer.players import yaku_stats_from_hands
    from analyzer.game.problems import problem_lists, rows_with_problems

    df = game([
        {"round": "E1", "honba": 0, "result": "draw", "riichi": "Aoki", "tenpai": "Aoki"},
        {"round": "E1", "honba": 0, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
    ]).with_columns(kyotaku=pl.Series(["0", "0"]))
    df.write_parquet(tmp_path / "in.parquet")
    score_to(tmp_path / "in.parquet", tmp_path / "csv", "csv", "tenhou")
    back = pl.read_csv(tmp_path / "csv" / "hands.csv")
    assert rows_with_problems(back) == 1
    assert problem_lists(back)["problems"].to_list() == [[], ["honba_mismatch", "kyotaku_mismatch"]]
    assert yaku_stats_from_hands(back).height == yaku_stats_from_hands(analyzer.score(df, "tenhou").hands).height
