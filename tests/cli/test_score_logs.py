"""`analyzer score` on game logs and on hand records with their events: every table in one command, the same
as importing first; a folder of logs and hand records; the events beside an import picked up; the hand_seats
table in every format; partitions and a local Dask cluster; a broken log is a problem line, never a
traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from analyzer.cli import main
from analyzer.io.formats import read_table, table_file
from conftest import SHARED_HINT, SHARED_LOGS

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_logs"
LOG_FOLDERS = ("tenhou", "mjlog", "tensoul", "mjai", "majsoul")  # every format the import tells from content
TABLES = ("hands", "games", "hand_seats", "players", "rejects", "ratings", "platform_ranks")
SOURCE = ("source_file", "source_row", "file", "row", "line")  # where a row was read: an input file or a log


def logs_folder(into: Path) -> Path:
    """A folder of the sample logs of every format (one game twice: a raw record and its tensoul copy)."""
    for name in LOG_FOLDERS:
        shutil.copytree(SAMPLES / name, into / name, ignore=shutil.ignore_patterns("*.md"))
    return into


def invoke(*args) -> object:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


def tables(outdir: Path, fmt: str = "parquet") -> dict[str, pl.DataFrame]:
    found = {}
    for name in TABLES:
        path = outdir / table_file(name, fmt)
        if path.exists() and (fmt != "xlsx" or name in ("hands", "hand_seats")):
            found[name] = read_table(path, name)
    return found


def assert_same_tables(left: dict, right: dict, drop_source: bool = False) -> None:
    assert sorted(left) == sorted(right)
    for name in left:
        a, b = left[name], right[name]
        if drop_source:
            a, b = a.drop(SOURCE, strict=False), b.drop(SOURCE, strict=False)
        assert a.columns == b.columns, name
        assert_frame_equal(a, b, check_exact=True)


def test_score_on_a_folder_of_logs_equals_import_then_score(tmp_path):
    logs = logs_folder(tmp_path / "logs")
    direct = invoke("score", logs, "-o", tmp_path / "direct", "--top", 0)
    assert direct.exit_code == 0, direct.output
    assert "logs: imported 6 game(s)" in direct.output and "1 file(s) skipped as the same game" in direct.output
    imported = invoke("import", logs, "-o", tmp_path / "hands.parquet", "--events")
    assert imported.exit_code == 0, imported.output
    assert f"event(s) into {tmp_path / 'hands.events.parquet'}" in imported.output
    two_step = invoke("score", tmp_path / "hands.parquet", "-o", tmp_path / "two_step", "--top", 0)
    assert two_step.exit_code == 0, two_step.output
    assert f"events: {tmp_path / 'hands.events.parquet'}" in two_step.output
    one, two = tables(tmp_path / "direct"), tables(tmp_path / "two_step")
    assert {"hand_seats", "hands", "players"} <= set(one)
    assert_same_tables(one, two, drop_source=True)
    # a row scored from a log is named by its log (its hand's row among the log's rows), not a temporary file
    hands = one["hands"]
    assert (hands["source_file"] == hands["log_file"]).all()
    assert hands.group_by("source_file").agg(pl.col("source_row").min())["source_row"].to_list() == [1] * 6
    assert set(one["hand_seats"]["game_id"]) == set(hands["game_id"])


def test_a_folder_of_logs_and_hand_records_reads_both(tmp_path):
    folder = logs_folder(tmp_path / "mixed")
    shutil.copy(SAMPLES / "csv" / "round1.csv", folder / "round1.csv")
    result = invoke("score", folder, "-o", tmp_path / "out", "--top", 0)
    assert result.exit_code == 0, result.output
    out = tables(tmp_path / "out")
    sheet_games = set(pl.read_csv(SAMPLES / "csv" / "round1.csv")["game_id"].cast(pl.String))
    log_games = set(out["hand_seats"]["game_id"])
    assert set(out["games"]["game_id"]) == sheet_games | log_games and len(log_games) == 6
    assert not sheet_games & log_games  # a score sheet has no events: no hand_seats rows


@pytest.mark.parametrize("events_beside", [True, False])
def test_a_game_given_as_its_log_and_its_import_is_scored_once(tmp_path, events_beside):
    """As any game given twice: the first in input order (the folder's path order) scored, the copy rejected."""
    logs = logs_folder(tmp_path / "logs")
    alone = invoke("score", logs, "-o", tmp_path / "alone", "--top", 0)
    assert alone.exit_code == 0, alone.output
    flags = ["--events"] if events_beside else []
    assert invoke("import", logs, "-o", logs / "zz_hands.parquet", *flags).exit_code == 0
    twice = invoke("score", logs, "-o", tmp_path / "twice", "--top", 0)
    assert twice.exit_code == 1, twice.output  # rows rejected, as for any copy
    assert "duplicate_row" in twice.output
    one, two = tables(tmp_path / "alone"), tables(tmp_path / "twice")
    assert two["rejects"].height == one["hands"].height  # every row of the import, as a copy
    assert set(two["rejects"]["file"]) == {str(logs / "zz_hands.parquet")}
    for name in ("hands", "games", "hand_seats"):
        assert_frame_equal(one[name], two[name], check_exact=True)


def test_the_events_beside_the_hand_records_are_picked_up_or_left(tmp_path):
    assert invoke("import", SAMPLES / "tenhou", "-o", tmp_path / "hands.parquet", "--events").exit_code == 0
    events = pl.read_parquet(tmp_path / "hands.events.parquet")
    assert set(events["game_id"]) == set(pl.read_parquet(tmp_path / "hands.parquet")["game_id"])
    with_events = invoke("score", tmp_path / "hands.parquet", "-o", tmp_path / "a", "--top", 0)
    seats = pl.read_parquet(tmp_path / "a" / "hand_seats.parquet")
    assert seats.height == 4 * 4, with_events.output  # 4 hands, 4 seats
    without = invoke("score", tmp_path / "hands.parquet", "-o", tmp_path / "a", "--top", 0, "--no-events")
    assert without.exit_code == 0 and not (tmp_path / "a" / "hand_seats.parquet").exists()  # an older run's removed
    elsewhere = tmp_path / "kept" / "events.parquet"
    elsewhere.parent.mkdir()
    shutil.move(tmp_path / "hands.events.parquet", elsewhere)
    assert invoke("score", tmp_path / "hands.parquet", "-o", tmp_path / "b", "--top", 0).exit_code == 0
    assert not (tmp_path / "b" / "hand_seats.parquet").exists()
    given = invoke("score", tmp_path / "hands.parquet", "-o", tmp_path / "c", "--top", 0, "--events", elsewhere)
    assert given.exit_code == 0, given.output
    assert_frame_equal(pl.read_parquet(tmp_path / "c" / "hand_seats.parquet"), seats)


def test_an_import_without_events_removes_an_earlier_imports_events(tmp_path):
    out = tmp_path / "hands.csv"
    assert invoke("import", SAMPLES / "tenhou", "-o", out, "--events").exit_code == 0
    assert (tmp_path / "hands.events.parquet").is_file()
    again = invoke("import", SAMPLES / "mjlog", "-o", out)
    assert again.exit_code == 0 and not (tmp_path / "hands.events.parquet").exists()
    assert "an earlier import's events" in again.output


@pytest.mark.parametrize("bad", [["--events", "missing.parquet"], ["--events", "hands.parquet"],
                                 ["--events", "hands.parquet", "--no-events"]])
def test_events_that_are_not_an_events_table_are_one_line(tmp_path, monkeypatch, bad):
    monkeypatch.chdir(tmp_path)
    assert invoke("import", SAMPLES / "tenhou", "-o", "hands.parquet").exit_code == 0
    result = invoke("score", "hands.parquet", "-o", "out", *bad)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_hand_seats_is_written_in_every_format(tmp_path, fmt):
    if fmt == "xlsx":
        pytest.importorskip("xlsxwriter", reason="the xlsx extra is not installed")
    logs = logs_folder(tmp_path / "logs")
    assert invoke("score", logs, "-o", tmp_path / "parquet", "--top", 0).exit_code == 0
    result = invoke("score", logs, "-o", tmp_path / fmt, "--top", 0, "--format", fmt)
    assert result.exit_code == 0, result.output
    expected = pl.read_parquet(tmp_path / "parquet" / "hand_seats.parquet")
    written = read_table(tmp_path / fmt / table_file("hand_seats", fmt), "hand_seats")
    assert written.columns == expected.columns and written.height == expected.height
    assert_frame_equal(written, expected, check_dtypes=False)


@pytest.mark.parametrize("options", [["--partition-rows", "3"], ["--partition-rows", "7", "--in-flight", "1"],
                                     ["--workers", "2"]])
def test_partitions_and_a_local_cluster_give_the_same_tables(tmp_path, options):
    if "--workers" in options:
        pytest.importorskip("distributed", reason="the dask extra is not installed")
    logs = logs_folder(tmp_path / "logs")
    shutil.copy(SAMPLES / "csv" / "round2.csv", logs / "round2.csv")
    assert invoke("score", logs, "-o", tmp_path / "whole", "--top", 0).exit_code == 0
    result = invoke("score", logs, "-o", tmp_path / "parts", "--top", 0, *options)
    assert result.exit_code == 0, result.output
    assert_same_tables(tables(tmp_path / "whole"), tables(tmp_path / "parts"))


def test_a_broken_log_is_a_problem_line_and_the_others_are_scored(tmp_path):
    folder = logs_folder(tmp_path / "logs")
    (folder / "cut.mjlog").write_text((SAMPLES / "mjlog" / "yakuman_bust.mjlog").read_text()[:400])
    (folder / "empty.json").write_text("")
    (folder / "bad.json.gz").write_bytes(b"\x1f\x8b not gzip")
    result = invoke("score", folder, "-o", tmp_path / "out", "--top", 0)
    assert result.exit_code == 1, result.output
    for name in ("cut.mjlog", "empty.json", "bad.json.gz"):
        assert f"{folder / name}: " in result.output
    assert "3 file(s) not imported" in result.output
    assert tables(tmp_path / "out")["games"]["game_id"].n_unique() == 6


def test_a_folder_of_broken_logs_only_is_one_error(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.mjlog").write_text("<mjloggm ver")
    (tmp_path / "logs" / "b.json").write_text("{not json")
    result = invoke("score", tmp_path / "logs", "-o", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1].startswith("error: no game imported from the 2 log file(s) given: ")
    assert not (tmp_path / "out").exists()


def test_the_shared_logs_score_as_they_import(tmp_path):
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"no shared logs at {SHARED_LOGS}: {SHARED_HINT}")
    direct = invoke("score", SHARED_LOGS, "-o", tmp_path / "direct", "--top", 0, "--partition-rows", "200")
    assert direct.exit_code in (0, 1), direct.output
    assert invoke("import", SHARED_LOGS, "-o", tmp_path / "hands.parquet", "--events").exit_code in (0, 1)
    two_step = invoke("score", tmp_path / "hands.parquet", "-o", tmp_path / "two_step", "--top", 0)
    assert direct.exit_code == two_step.exit_code or "not imported" in direct.output
    one, two = tables(tmp_path / "direct"), tables(tmp_path / "two_step")
    assert one["hand_seats"].height > 1000
    assert_same_tables(one, two, drop_source=True)


def test_every_sample_at_once_logs_beside_a_tournament_sheet(tmp_path):
    """The whole sample folder: logs of every format beside CSV and Parquet hand records and a tournament sheet
    with sessions — games of one partition with other label columns are put together, and the report has the
    shanten-by-turn chart of the logs' events."""
    out = tmp_path / "out"
    result = invoke("score", SAMPLES, "-o", out, "--report", out / "report.html")
    assert result.exit_code in (0, 1), result.output  # 1: the sample sheets' planted copies are rejected
    games = pl.read_parquet(out / "games.parquet")
    assert {"session", "rules"} <= set(games.columns)
    assert games.filter(pl.col("session").is_not_null()).height and games.filter(pl.col("session").is_null()).height
    assert (out / "hand_seats.parquet").exists() and (out / "sessions.parquet").exists()
    assert "mean shanten after the discard" in (out / "report.html").read_text()
