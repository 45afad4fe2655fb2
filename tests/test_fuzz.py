"""Fuzz: random damage to the sample score sheets never gives a traceback, never loses a row, and exits 0/1/2."""

from __future__ import annotations

import polars as pl
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli import main

SHEET = pl.read_csv("sample_logs/csv/round2.csv", infer_schema=False)
NASTY = ["", " ", "x", "1e309", "inf", "-inf", "NaN", "-1", "3.5", "3.0", "9" * 25, "Bob [pro]", "[/]", "E9",
         "ron", "tsumo", "draw", "chombo", "nagashi", "abort", "0", "1", "2", "3", "4", "東", "a,b,c", "\"", "'",
         "123m456p789s11122z", "S4", "W1", "-0", "+3", "1" * 400]

mutation = st.tuples(st.integers(0, SHEET.height - 1), st.sampled_from(SHEET.columns), st.sampled_from(NASTY))


def _damaged(mutations, drop_column, copy_rows) -> pl.DataFrame:
    frame = SHEET.clone()
    for row, column, value in mutations:
        frame = frame.with_columns(
            pl.when(pl.int_range(pl.len()) == row).then(pl.lit(value)).otherwise(pl.col(column)).alias(column)
        )
    if drop_column:
        frame = frame.drop(drop_column)
    if copy_rows:
        frame = pl.concat([frame, frame.head(copy_rows)])
    return frame


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    mutations=st.lists(mutation, max_size=12),
    drop_column=st.sampled_from([None, None, None, "honba", "result", "player_3", "fu", "winner"]),
    copy_rows=st.integers(0, 3),
    as_parquet=st.booleans(),
)
def test_damaged_sheets_keep_every_row_and_exit_cleanly(tmp_path_factory, mutations, drop_column, copy_rows, as_parquet):
    tmp = tmp_path_factory.mktemp("fuzz")
    frame = _damaged(mutations, drop_column, copy_rows)
    source = tmp / ("sheet.parquet" if as_parquet else "sheet.csv")
    frame.write_parquet(source) if as_parquet else frame.write_csv(source)
    result = CliRunner().invoke(main, ["score", str(source), "-o", str(tmp / "out"), "--top", "3"])
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 2:
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1
        return
    hands = pl.read_parquet(tmp / "out" / "hands.parquet")
    rejects = pl.read_parquet(tmp / "out" / "rejects.parquet")
    rejected = rejects.select(pl.struct("file", "row").n_unique()).item() if rejects.height else 0
    assert hands.height + rejected == frame.height
    assert (result.exit_code == 1) == (rejected > 0)


def _shared_logs():
    from conftest import SHARED_LOGS

    files = sorted(p for p in SHARED_LOGS.rglob("*") if p.is_file() and p.suffix in (".xml", ".json", ".mjlog"))[:6]
    return files


@settings(max_examples=30, deadline=None)
@given(
    which=st.integers(0, 5),
    cut=st.floats(0.05, 1.0),
    garbage=st.sampled_from([b"", b"<", b"\x00\xff", b"<INIT seed=\"x\" ten=\"1e309\"/>", b'"sc":[1e999]', b"}}}", b"&amp;"]),
    at=st.floats(0, 1),
)
def test_damaged_logs_import_without_a_traceback(tmp_path_factory, which, cut, garbage, at):
    import pytest

    files = _shared_logs()
    if not files:
        from conftest import SHARED_HINT, SHARED_LOGS

        pytest.skip(f"shared Tenhou logs not found at {SHARED_LOGS} ({SHARED_HINT})")
    source = files[which % len(files)]
    data = source.read_bytes()
    data = data[: max(1, int(len(data) * cut))]
    pos = int(len(data) * at)
    data = data[:pos] + garbage + data[pos:]
    tmp = tmp_path_factory.mktemp("logs")
    (tmp / source.name).write_bytes(data)
    result = CliRunner().invoke(main, ["import", "tenhou", str(tmp / source.name), "-o", str(tmp / "hands.parquet")])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
