"""Decimal commas (analyzer.io.decimal_comma): a semicolon-separated CSV saved by Excel in a European locale
(``2,0``, ``18,2``) is read as the same sheet with decimal points, and the run says so once; a comma-separated
file keeps refusing ``2,0``."""

from __future__ import annotations

import warnings
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import analyzer
from analyzer.cli import main

DATA = Path(__file__).parents[1] / "data"
ROOT = Path(__file__).parents[2]
DECIMAL = r"^(-?\d+)\.(\d+)$"


def _european(source: Path, path: Path) -> Path:
    """``source`` as Excel writes it in a European locale: semicolons between fields, decimal commas."""
    rows = pl.read_csv(source, infer_schema=False)
    rows.with_columns(pl.all().str.replace(DECIMAL, "${1},${2}")).write_csv(path, separator=";")
    return path


def _score(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return analyzer.score(path)


@pytest.mark.parametrize("sheet", ["sheet_ema.csv", "sheet_wide.csv"])
def test_a_european_sheet_is_read_as_the_sheet_with_decimal_points(tmp_path, sheet):
    path = _european(DATA / sheet, tmp_path / "results.csv")
    assert ";" in path.read_text() and "2,0" in path.read_text()
    european, original = _score(path), _score(DATA / sheet)
    assert european.rejects.height == 0, european.rejects
    columns = ["game_id", "player", "final_score", "penalty", "game_points"]
    assert_frame_equal(european.games.select(columns), original.games.select(columns))
    assert_frame_equal(european.players.drop("rank", strict=False), original.players.drop("rank", strict=False))


def test_the_run_says_so_once(tmp_path):
    first = _european(DATA / "sheet_ema.csv", tmp_path / "a.csv")
    second = _european(DATA / "sheet_ema.csv", tmp_path / "b.csv")
    second.write_text(second.read_text().replace("S1-T1", "S2-T1"))  # another game
    with pytest.warns(UserWarning, match=r"^decimal commas read as decimal points \(2,0 is 2\.0\) in penalty, "
                                         r"recorded_points of .*a\.csv and 1 more file\(s\)$"):
        analyzer.score([first, second])
    run = CliRunner().invoke(main, ["score", str(first), str(second), "-o", str(tmp_path / "out")])
    assert run.exit_code == 0, run.output
    assert run.output.count("decimal comma") == 1, run.output


def test_hand_records_read_decimal_commas_in_number_columns_only(tmp_path):
    """``han`` of ``3,0`` is 3; a list of seats ``0,1`` stays two seats; an extra column of ``1,5`` is 1.5."""
    rows = pl.read_csv(ROOT / "sample_logs" / "csv" / "round1.csv", infer_schema=False)
    rows = rows.with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(pl.col("han") + ",0").otherwise(pl.col("han")).alias("han"),
        pl.col("riichi").str.replace_all(" ", ","),
        pl.lit("1,5").alias("rate"),
    )
    path = tmp_path / "round1.csv"
    rows.write_csv(path, separator=";")
    assert "3,0" in path.read_text() or "2,0" in path.read_text()
    european = _score(path)
    original = _score(ROOT / "sample_logs" / "csv" / "round1.csv")
    assert european.rejects.height == 0, european.rejects
    assert european.hands["rate"].dtype == pl.Float64 and european.hands["rate"].to_list() == [1.5] * rows.height
    deltas = [f"delta_{s}" for s in range(4)]
    assert european.hands.select(deltas).rows() == original.hands.select(deltas).rows()


def test_a_comma_separated_file_keeps_refusing_a_decimal_comma(tmp_path):
    path = tmp_path / "results.csv"
    pl.read_csv(DATA / "sheet_ema.csv", infer_schema=False).with_columns(
        pl.col("penalty").str.replace(DECIMAL, "${1},${2}")).write_csv(path)
    assert '"2,0"' in path.read_text()
    rejects = _score(path).rejects
    assert rejects.filter(pl.col("column") == "penalty")["value"].to_list() == ["2,0"]


def test_a_semicolon_file_without_decimal_commas_says_nothing(tmp_path):
    path = tmp_path / "results.csv"
    pl.read_csv(DATA / "sheet_ema.csv", infer_schema=False).write_csv(path, separator=";")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert analyzer.score(path).rejects.height == 0


def test_a_semicolon_file_of_decimal_points_keeps_its_numbers(tmp_path):
    """A semicolon-separated file written with decimal points (by a script, not Excel) reads them as before: an
    extra column of ``1.5`` is Float64, a mixed one (``1.5`` and ``2,5``) text."""
    rows = pl.read_csv(ROOT / "sample_logs" / "csv" / "round1.csv", infer_schema=False)
    mixed = pl.when(pl.int_range(pl.len()) == 0).then(pl.lit("2,5")).otherwise(pl.lit("1.5"))
    path = tmp_path / "round1.csv"
    rows.with_columns(pl.lit("1.5").alias("rate"), mixed.alias("mixed")).write_csv(path, separator=";")
    hands = _score(path).hands
    assert hands["rate"].dtype == pl.Float64 and hands["rate"].to_list() == [1.5] * rows.height
    assert hands["mixed"].dtype == pl.String
