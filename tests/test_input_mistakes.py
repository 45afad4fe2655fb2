"""The input mistakes a new user makes: each one clear line before anything is written (InputError from the
library, exit status 2 from the command line), or a reject with its reason where it is one row's value."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

import analyzer
from analyzer import InputError
from analyzer.cli import main

SHEET = "sample_logs/csv/round1.csv"


@pytest.fixture
def rows() -> pl.DataFrame:
    return pl.read_csv(SHEET, infer_schema=False)


def _cli_error(path, tmp_path) -> str:
    """The one line ``score`` prints for ``path``, after checking it exits 2 and writes nothing."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["score", str(path), "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert not out.exists()  # refused before anything is written
    return lines[0]


def test_a_misspelled_required_column_is_one_error_naming_the_closest(tmp_path, rows):
    path = tmp_path / "sheet.csv"
    rows.rename({"winner": "winer"}).write_csv(path)
    with pytest.raises(InputError) as error:
        analyzer.score(path)
    assert str(error.value) == f"no column 'winner' in {path} — did you mean 'winer'?"
    assert _cli_error(path, tmp_path) == f"error: no column 'winner' in {path} — did you mean 'winer'?"


def test_a_missing_game_id_names_no_internal_column(tmp_path, rows):
    path = tmp_path / "sheet.csv"
    rows.rename({"game_id": "gameid"}).write_csv(path)
    line = _cli_error(path, tmp_path)
    assert "no column 'game_id'" in line and "did you mean 'gameid'?" in line
    assert not any(internal in line for internal in ("_row", "_file", "_pos"))


def test_a_missing_column_with_nothing_close_lists_the_columns_there(tmp_path, rows):
    path = tmp_path / "sheet.parquet"
    rows.drop("honba").write_parquet(path)
    with pytest.raises(InputError, match=r"no column 'honba' in .*sheet.parquet \(its columns: game_id, round, "):
        analyzer.score(path)


def test_the_data_frame_api_gets_the_same_error(rows):
    with pytest.raises(InputError, match="^no column 'winner' in the frame — did you mean 'winer'\\?$"):
        analyzer.score(rows.rename({"winner": "winer"}))
    with pytest.raises(InputError, match="no column 'loser' in the frame"):
        analyzer.check(rows.drop("loser"))


def test_winner_and_loser_are_needed_only_by_the_results_that_name_them(tmp_path, rows):
    draws = rows.filter(pl.col("result") == "draw").drop("winner", "loser")
    assert draws.height > 0
    draws.write_csv(tmp_path / "draws.csv")
    assert analyzer.score(tmp_path / "draws.csv").rejects.height == 0
    tsumo_only = rows.filter(pl.col("result").is_in(["draw", "tsumo"])).drop("loser")
    assert analyzer.score(tsumo_only).rejects.height == 0
    with pytest.raises(InputError, match="no column 'loser'"):
        analyzer.score(rows.filter(pl.col("result") != "chombo").drop("loser"))


def test_column_names_match_without_case_or_spaces(tmp_path, rows):
    path = tmp_path / "sheet.csv"
    rows.rename({"round": "Round", "result": " RESULT", "winner": "Winner"}).write_csv(path)
    result = analyzer.score(path)
    expected = analyzer.score(SHEET)
    assert result.rejects.height == 0
    assert result.games.equals(expected.games)
    assert {"round", "result", "winner"} <= set(result.hands.columns)
    unknown = analyzer.score(rows.with_columns(pl.lit("x").alias("Notes"))).hands
    assert "Notes" in unknown.columns  # a column analyzer does not read keeps its name as written


def test_two_columns_that_fold_to_one_name_are_refused(tmp_path, rows):
    path = tmp_path / "sheet.csv"
    rows.with_columns(pl.col("round").alias("Round")).write_csv(path)
    line = _cli_error(path, tmp_path)
    assert "'round' and 'Round'" in line and str(path) in line
    with pytest.raises(InputError, match="'round' and 'Round'"):
        analyzer.score(rows.with_columns(pl.col("round").alias("Round")))


@pytest.mark.parametrize("separator", [";", "\t"])
def test_semicolon_and_tab_separated_files_are_read(tmp_path, rows, separator):
    path = tmp_path / "sheet.csv"
    rows.write_csv(path, separator=separator)
    result = analyzer.score(path)
    assert result.rejects.height == 0
    assert result.games.equals(analyzer.score(SHEET).games)


def test_a_file_that_still_cannot_be_read_says_which_separator_was_found(tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text("game_id;round;honba;player_0;player_1;player_2;player_3;result\n"
                    "g;E1;0;A;B;C;D;draw\n"
                    "g;E2;0;A;B;C;D;draw;extra;fields\n", encoding="utf-8")
    line = _cli_error(path, tmp_path)
    assert f"cannot read {path} (read as semicolon-separated; line 3 has 10 fields, the header 8)" in line


def test_a_column_named_twice_in_one_file_is_refused(tmp_path):
    path = tmp_path / "sheet.csv"
    header, rest = open(SHEET, encoding="utf-8").read().split("\n", 1)
    text = header.replace(",pao", ",honba", 1) + "\n" + rest
    path.write_text(text, encoding="utf-8")
    assert _cli_error(path, tmp_path) == f"error: the column 'honba' appears twice in {path}: keep one"


def test_parquet_bytes_that_are_not_text_name_the_file_and_column(tmp_path, rows):
    bad = pl.when(pl.int_range(pl.len()) == 3).then(pl.lit(b"\xff\xfe")).otherwise(pl.col("winner").cast(pl.Binary))
    path = tmp_path / "bytes.parquet"
    rows.with_columns(bad.alias("winner")).write_parquet(path)
    with pytest.raises(InputError, match=f"cannot read column 'winner' of {path} \\(Binary\\) as text"):
        analyzer.score(path)
    assert "column 'winner'" in _cli_error(path, tmp_path)
    good = tmp_path / "good_bytes.parquet"
    rows.with_columns(pl.col("winner").cast(pl.Binary)).write_parquet(good)
    assert analyzer.score(good).rejects.height == 0  # bytes that are text are read as text


def test_a_list_of_lists_names_the_file_and_column(tmp_path, rows):
    path = tmp_path / "nested.parquet"
    nested = pl.col("tenpai").str.split(" ").map_elements(lambda names: [names.to_list()],
                                                          return_dtype=pl.List(pl.List(pl.String)))
    rows.with_columns(nested.alias("tenpai")).write_parquet(path)
    line = _cli_error(path, tmp_path)
    assert f"column 'tenpai' of {path} is a list of lists" in line
    with pytest.raises(InputError, match="column 'tenpai' of the frame is a list of lists"):
        analyzer.score(rows.with_columns(nested.alias("tenpai")))


@pytest.mark.parametrize("value", ["100000000000000000000", "-1", "2.5", "101", "x"])
def test_a_recorded_kyotaku_no_table_can_hold_rejects_its_row(tmp_path, rows, value):
    path = tmp_path / "sheet.csv"
    kyotaku = pl.when(pl.int_range(pl.len()) == 2).then(pl.lit(value)).otherwise(pl.lit("0"))
    rows.with_columns(kyotaku.alias("kyotaku")).write_csv(path)
    result = analyzer.score(path)
    assert result.rejects.select("file", "row", "column", "value").rows() == [(str(path), 3, "kyotaku", value)]
    assert result.rejects["reason"].item() == "kyotaku must be a whole number from 0 to 100"


def test_a_recorded_kyotaku_in_range_is_accepted(tmp_path, rows):
    kyotaku = pl.when(pl.int_range(pl.len()) == 2).then(pl.lit("100")).otherwise(pl.lit(None, pl.String))
    assert analyzer.score(rows.with_columns(kyotaku.alias("kyotaku"))).rejects.height == 0
