"""``--format xlsx`` and ``--format json``: every table read back equals the Parquet table of the same run (lists
as comma-joined text in a workbook and arrays in JSON; time-zoned times as local times with the zone in the
header in a workbook, ISO 8601 with the offset in JSON); the workbook's sheets in order, standings first; a
table beyond a sheet's rows left out with a note; a clear error without xlsxwriter."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import analyzer
from analyzer.cli import main
from analyzer.io import workbook
from analyzer.io.formats import read_sheet, read_table, table_file
from analyzer.io.workbook import excel_columns, write_workbook

pytest.importorskip("xlsxwriter", reason="the xlsx extra (pip install 'riichi-analyzer[xlsx]')")
pytest.importorskip("fastexcel", reason="the workbook is read back with fastexcel (the test extra)")

ROOT = Path(__file__).parents[2]
# the sample tournament, its hand records and a table with a bad cell (rejects)
INPUTS = [str(ROOT / "sample_logs" / "tournament" / "sheet.csv"), str(ROOT / "sample_logs" / "csv"),
          str(Path(__file__).parents[1] / "data" / "sheet_bad_cell.csv")]
TABLES = ["players", "sessions", "teams", "ratings", "games", "hands", "rejects"]


@pytest.fixture(scope="module")
def parquet_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("parquet")
    analyzer.score_to(INPUTS, out, "parquet")
    return {name: pl.read_parquet(out / f"{name}.parquet") for name in TABLES}


def as_in_a_workbook(df: pl.DataFrame) -> pl.DataFrame:
    """What a workbook holds of ``df``: lists as text, local times; empty text is an empty cell."""
    df = excel_columns(df)
    return df.with_columns(pl.col(pl.String).replace("", None))


def test_the_workbook_holds_every_table_as_parquet_does(tmp_path, parquet_run):
    summary = analyzer.score_to(INPUTS, tmp_path, "xlsx")
    book = tmp_path / "results.xlsx"
    assert set(summary.paths.values()) == {book}
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["results.xlsx"]
    sheets = pl.read_excel(book, sheet_id=0, raise_if_empty=False)
    assert list(sheets) == TABLES  # standings first
    for name in TABLES:
        expected = as_in_a_workbook(parquet_run[name])
        assert_frame_equal(read_sheet(book, name, expected.schema), expected, check_exact=False, abs_tol=1e-9)


def test_a_workbook_cell_by_cell(tmp_path):
    """Typed cells, lists comma-joined, a time-zoned time as its local time with the zone in the header, the
    header row frozen."""
    tokyo = pl.Series([dt.datetime(2024, 5, 1, 12, 0), None]).dt.replace_time_zone("UTC").dt.convert_time_zone(
        "Asia/Tokyo")
    table = pl.DataFrame({"n": [1, 2], "x": [1.5, -2.25], "ok": [True, False], "yaku": [["riichi", "tsumo"], []],
                          "day": [dt.date(2024, 5, 1), None], "at": tokyo})
    path = tmp_path / "book.xlsx"
    assert write_workbook({"players": table}, path) == []
    back = read_sheet(path, "players")
    assert back.columns == ["n", "x", "ok", "yaku", "day", "at (Asia/Tokyo)"]
    assert back.select("n", "x", "ok").rows() == [(1, 1.5, True), (2, -2.25, False)]
    assert back["yaku"].to_list() == ["riichi,tsumo", None]
    assert back["day"].to_list() == [dt.date(2024, 5, 1), None]
    assert back["at (Asia/Tokyo)"].to_list() == [dt.datetime(2024, 5, 1, 21, 0), None]  # 12:00 UTC
    import zipfile
    sheet_xml = zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()
    assert 'ySplit="1"' in sheet_xml and 'state="frozen"' in sheet_xml  # the header stays in view
    assert "<cols>" in sheet_xml  # column widths set


def test_a_table_beyond_a_sheet_is_left_out_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr(workbook, "EXCEL_MAX_ROWS", 80)  # hands: 70 rows (fit), games: 88 (do not)
    run = CliRunner().invoke(main, ["score", *INPUTS, "-o", str(tmp_path), "--format", "xlsx", "--top", "0"])
    assert run.exit_code == 1, run.output  # rows rejected (the bad cell), the run written
    note = [line for line in run.output.splitlines() if line.startswith("note:")]
    assert len(note) == 1 and "games" in note[0] and "--format parquet" in note[0]
    sheets = pl.read_excel(tmp_path / "results.xlsx", sheet_id=0, raise_if_empty=False)
    assert list(sheets) == ["players", "sessions", "teams", "hands", "rejects"]
    manifest = json.loads((tmp_path / ".analyzer-run.json").read_text())
    assert "games" not in manifest["tables"]
    assert list(tmp_path.glob("*.parquet")) == []


def test_without_xlsxwriter_one_line_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "xlsxwriter", None)  # import fails
    out = tmp_path / "out"
    run = CliRunner().invoke(main, ["score", *INPUTS, "-o", str(out), "--format", "xlsx"])
    assert run.exit_code == 2
    assert run.output == ("error: --format xlsx needs the xlsxwriter package: pip install 'riichi-analyzer[xlsx]'\n")
    assert not out.exists()


@pytest.mark.parametrize("partition_rows", [None, 20])
def test_json_tables_equal_the_parquet_ones(tmp_path, parquet_run, partition_rows):
    """Arrays of records for the small tables, NDJSON for hands and rejects; in parts (partition_rows) the array
    is still one valid JSON document."""
    summary = analyzer.score_to(INPUTS, tmp_path, "json", partition_rows=partition_rows)
    assert {n: Path(p).name for n, p in summary.paths.items()} == {n: table_file(n, "json") for n in TABLES}
    for name in TABLES:
        path = tmp_path / table_file(name, "json")
        if name in ("hands", "rejects"):
            lines = path.read_text().splitlines()
            assert len(lines) == parquet_run[name].height and all(line.startswith("{") for line in lines)
        else:
            assert isinstance(json.loads(path.read_text()), list)
        expected = parquet_run[name]
        back = read_table(path, name, expected.schema)
        if name not in ("hands", "rejects"):  # the records' keys are in the table's order
            assert list(json.loads(path.read_text())[0]) == expected.columns
        # Polars' JSON reader infers the types (and orders the columns) on its own: given in the table's
        assert_frame_equal(back.select(expected.columns).cast(expected.schema), expected, check_exact=False,
                           abs_tol=1e-9)


def test_json_times_carry_their_offset(tmp_path):
    frame = pl.DataFrame({"at": [dt.datetime(2024, 5, 1, 12, 0)], "codes": [["a", "b"]]}).with_columns(
        pl.col("at").dt.replace_time_zone("UTC").dt.convert_time_zone("Asia/Tokyo"))
    paths = analyzer.write_results({"players": frame, "hands": frame}, tmp_path, "json")
    assert json.loads(paths["players"].read_text()) == [{"at": "2024-05-01T21:00:00+09:00", "codes": ["a", "b"]}]
    assert paths["hands"].name == "hands.ndjson"


def test_the_report_reads_back_each_format(tmp_path):
    pages = {}
    for fmt in ("parquet", "xlsx", "json"):
        report = tmp_path / f"{fmt}.html"
        analyzer.score_to(INPUTS, tmp_path / fmt, fmt, report=report)
        pages[fmt] = report.read_text()
    for fmt in ("xlsx", "json"):
        assert "Ines" in pages[fmt] and len(pages[fmt]) > 0.9 * len(pages["parquet"])


def test_write_results_names_only_the_sheets_the_workbook_holds(tmp_path, monkeypatch):
    monkeypatch.setattr(workbook, "EXCEL_MAX_ROWS", 3)
    small, big = pl.DataFrame({"a": [1, 2]}), pl.DataFrame({"a": [1, 2, 3]})
    paths = analyzer.write_results({"players": small, "hands": big}, tmp_path, "xlsx")
    assert paths == {"players": tmp_path / "results.xlsx"}
    assert list(pl.read_excel(tmp_path / "results.xlsx", sheet_id=0)) == ["players"]


def test_types_excel_has_no_cell_for_are_text(tmp_path):
    table = pl.DataFrame({"kind": pl.Series(["a", "b"]).cast(pl.Categorical), "took": [dt.timedelta(seconds=5), None],
                          "raw": [b"ab", None], "empty": [None, None]})
    path = tmp_path / "book.xlsx"
    write_workbook({"players": table}, path)
    assert read_sheet(path, "players").rows() == [("a", "PT5S", "6162", None), ("b", None, None, None)]


@pytest.mark.parametrize(("fmt", "files"), [
    ("xlsx", ["results.xlsx"]),
    ("json", ["hands.ndjson", "games.json", "ratings.json", "players.json", "sessions.json", "teams.json",
              "rejects.ndjson"]),
])
def test_the_command_says_what_it_wrote(tmp_path, fmt, files):
    run = CliRunner().invoke(main, ["score", *INPUTS, "-o", str(tmp_path), "--format", fmt, "--top", "0"])
    assert run.exit_code == 1, run.output  # the bad cell's rows rejected
    written = next(line for line in run.output.splitlines() if line.startswith("written: "))
    assert written == "written: " + ", ".join(str(tmp_path / f) for f in files)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == sorted(files)


def test_text_that_looks_like_a_formula_is_a_text_cell(tmp_path):
    """A player named ``=1+1`` (Excel would show 2) or a Tenhou nickname ``=_=`` (a broken formula Excel asks to
    repair) is written as the text it is: a string cell, never a formula."""
    import zipfile

    names = ["=1+1", "=_=", "+Ana", "-Ben", "@Cho", "=HYPERLINK(\"http://x\")"]
    path = tmp_path / "book.xlsx"
    write_workbook({"players": pl.DataFrame({"player": names})}, path)
    with zipfile.ZipFile(path) as book:
        sheet_xml = book.read("xl/worksheets/sheet1.xml").decode()
        strings = book.read("xl/sharedStrings.xml").decode()
    assert "<f>" not in sheet_xml and "<f " not in sheet_xml  # no cell is a formula
    assert sheet_xml.count('t="s"') == len(names) + 1  # every name a string cell, the header too
    assert all(name.replace('"', "&quot;") in strings or name in strings for name in names)
    assert read_sheet(path, "players")["player"].to_list() == names
