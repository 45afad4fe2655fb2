"""Reject summaries by kind of reason (analyzer.scoring.rejects.reasons_summary): reasons that name something of their row
(a copy's original row, a table's players) are counted as one kind, with one example."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.cli import main
from analyzer.scoring import parts
from analyzer.scoring.rejects import reasons_summary

HEADER = "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,riichi,tenpai,han,fu"
ROUNDS = [f"{wind}{n}" for wind in "ES" for n in range(1, 5)]


def _hands(games: int) -> list[str]:
    """Whole hanchan of dealer-passing rons: 8 rows a game."""
    return [f"G{g},{r},0,A,B,C,D,ron,{'BCDA'[i % 4]},{'ABCD'[i % 4]},,,2,30"
            for g in range(1, games + 1) for i, r in enumerate(ROUNDS)]


def test_copies_are_one_kind_of_reason_with_one_example(tmp_path):
    rows = _hands(3)
    path = tmp_path / "hands.csv"
    path.write_text("\n".join([HEADER, *rows, *rows]) + "\n", encoding="utf-8")  # every row given twice
    summary = analyzer.score(path).reject_reasons
    assert summary.rows() == [(None, "duplicate_row: an exact copy of an earlier row", 24, f"row 1 of {path}")]
    result = CliRunner().invoke(main, ["score", str(path), "-o", str(tmp_path / "out"), "--top", "0"])
    assert result.exit_code == 1
    assert result.output.rstrip().endswith(
        f"24 row(s) rejected — see {tmp_path / 'out' / 'rejects.parquet'}: 24× duplicate_row: an exact copy of an "
        f"earlier row (e.g. row 1 of {path})")


def test_one_reject_shows_its_own_row(tmp_path):
    rows = _hands(1)
    path = tmp_path / "hands.csv"
    path.write_text("\n".join([HEADER, *rows, rows[2]]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(path), "-o", str(tmp_path / "out"), "--top", "0"])
    assert result.output.rstrip().endswith(
        f"1× duplicate_row: an exact copy of an earlier row (row 3 of {path})")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=80, max_size=80), st.randoms(use_true_random=False))
def test_copies_anywhere_are_rejected_naming_their_original_and_scored_once(copies, random):
    """Runs of copies of one row (up to three), at the start, the end and between, more runs than are sliced
    around (analyzer.scoring.parts.MANY_RUNS) or fewer: the scores are those of the rows without them."""
    rows = _hands(10)
    tail = [rows[i] for i, n in enumerate(copies) for _ in range(n)]
    random.shuffle(tail)
    frame = pl.read_csv("\n".join([HEADER, *rows, *tail]).encode(), infer_schema_length=0)
    once = analyzer.score(pl.read_csv("\n".join([HEADER, *rows]).encode(), infer_schema_length=0))
    twice = analyzer.score(frame)
    assert twice.hands.drop("_row", strict=False).equals(once.hands.drop("_row", strict=False))
    assert twice.players.equals(once.players)
    first_row = {row: i + 1 for i, row in reversed(list(enumerate(rows)))}
    expected = sorted((len(rows) + k + 1, first_row[row]) for k, row in enumerate(tail))
    said = twice.rejects.select("row", pl.col("reason").str.extract(r"copy of row (\d+) ").cast(pl.Int64))
    assert sorted(said.rows()) == expected


@settings(max_examples=25, deadline=None)
@given(st.sets(st.integers(0, 79), max_size=80), st.sets(st.integers(0, 79), max_size=20))
def test_rows_left_out_by_slices_are_those_a_filter_leaves_out(bad, copied):
    """Rejected rows and copies anywhere (runs of them, at the start and the end): the partition sliced around
    them (analyzer.scoring.parts.without_rows) scores as the same partition filtered."""
    rows = [row.replace(",2,30", ",x,30") if i in bad else row for i, row in enumerate(_hands(10))]
    rows += [rows[i] for i in sorted(copied)]
    frame = pl.read_csv("\n".join([HEADER, *rows]).encode(), infer_schema_length=0)
    sliced = analyzer.score(frame)
    many_runs = parts.MANY_RUNS
    parts.MANY_RUNS = -1  # every partition filtered
    try:
        filtered = analyzer.score(frame)
    finally:
        parts.MANY_RUNS = many_runs
    for table in ("hands", "games", "rejects", "players"):
        assert getattr(sliced, table).equals(getattr(filtered, table)), table
    assert sliced.rejects.select(pl.col("row").n_unique()).item() == len(bad) + len(copied)


SHEET = """game_id,player,final_score
T1,Ana,40000
T1,Ana,30000
T1,Cho,20000
T1,Dai,10000
T2,Eve,40000
T2,Eve,30000
T2,Gus,20000
T2,Hal,10000
T3,Ian,40000
T3,Jo,30000
T3,Kim,30000
"""


def test_table_reasons_are_counted_by_kind(tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text(SHEET, encoding="utf-8")
    summary = analyzer.score(path).reject_reasons
    assert summary.rows() == [
        ("player", "a player is at the table twice", 8, "Ana"),
        ("player", "the table has another number of players than its rules play", 3,
         "the table has 3 players (Ian, Jo, Kim); the rules (tenhou) play 4"),
    ]
    # the rejects table itself keeps each row's own reason
    rejects = analyzer.score(path).rejects
    assert set(rejects["reason"]) == {"Ana is at this table twice", "Eve is at this table twice",
                                      "the table has 3 players (Ian, Jo, Kim); the rules (tenhou) play 4"}


@pytest.mark.parametrize(("column", "reason", "rows", "example"), [
    ("fu", "not a whole number", 1, None),  # a reason that names nothing of its row is its own kind
    ("player", "a player is at the table twice", 2, "Ana"),
    ("seat", "two players in one seat", 1, "seat 1"),
    ("game_id", "the game cannot be settled without its rejected row(s)", 1, "row(s) 2, 3"),
])
def test_reasons_summary_table(column, reason, rows, example):
    texts = {
        "not a whole number": ["not a whole number"],
        "a player is at the table twice": ["Ana is at this table twice", "Bob is at this table twice"],
        "two players in one seat": ["two players in seat 1"],
        "the game cannot be settled without its rejected row(s)":
            ["the game cannot be settled without its rejected row(s) 2, 3"],
    }[reason]
    rejects = pl.DataFrame({"file": "f.csv", "row": list(range(1, len(texts) + 1)), "column": column,
                            "reason": texts})
    assert reasons_summary(rejects).rows() == [(column, reason, rows, example)]


def test_a_row_counts_once_per_kind():
    rejects = pl.DataFrame({"file": ["f", "f", "f"], "row": [1, 1, 2], "column": ["han", "fu", "han"],
                            "reason": ["not a whole number"] * 3})
    assert reasons_summary(rejects).rows() == [("han", "not a whole number", 2, None),
                                               ("fu", "not a whole number", 1, None)]


def test_a_reject_names_the_spreadsheet_line_beside_the_data_row(tmp_path):
    """``row`` is the data row (the first below the header is 1); ``line`` the line a spreadsheet shows it on (the
    header is line 1), for CSV files — one row, one line, even where a quoted cell holds a line break. A Parquet
    file has no lines: empty there."""
    rows = _hands(1)
    rows[0] = rows[0].replace("ron,B,A", '"ron\nron",B,A')  # a cell of two lines: still one row, one line
    rows[2] = rows[2].replace(",2,30", ",2,x")
    path = tmp_path / "hands.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    rejects = analyzer.score(path).rejects
    assert rejects.columns == ["file", "row", "line", "log_file", "log_row", "game_id", "column", "value", "reason"]
    bad = rejects.filter(pl.col("column") == "fu")
    assert bad.select("row", "line").rows() == [(3, 4)]
    assert rejects.filter(pl.col("column") == "result").select("row", "line").rows()[0] == (1, 2)
    parquet = tmp_path / "hands.parquet"
    pl.read_csv(path, infer_schema=False).write_parquet(parquet)
    assert analyzer.score(parquet).rejects.filter(pl.col("column") == "fu").select("row", "line").rows() == [(3, None)]
    CliRunner().invoke(main, ["score", str(path), "-o", str(tmp_path / "out"), "--format", "csv"])
    written = pl.read_csv(tmp_path / "out" / "rejects.csv")
    assert written.filter(pl.col("column") == "fu").select("row", "line").rows() == [(3, 4)]
