"""The import and the exports through the columns (:mod:`analyzer.formats.read_columns`): for every shared and
test log, alone and all together, the hand records and problems are those of the per-game path (the oracle), in
one thread or several, for ``tenhou`` and ``auto``; ``import --events`` of mjlog files writes the rows ``export
events`` writes; ``export events``, ``mjai`` and ``tenhou6`` write the per-game path's bytes; and which runs
take the columns' path."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from analyzer.cli import main
from analyzer.formats import export_run, read
from analyzer.formats.export import export_events, export_mjai, export_tenhou6
from analyzer.formats.read_columns import reads_as_columns
from conftest import SHARED
from tests.formats.export_logs import all_logs, log_id

DATA = Path(__file__).resolve().parents[1] / "data"
MJLOGS = SHARED / "data" / "logs" / "mjlog"


def _read(paths, fmt: str, columns: bool, monkeypatch, workers: int = 1):
    monkeypatch.setattr(read, "reads_as_columns", lambda files, log_format, processes=1: columns)
    try:
        return read.read_logs(paths, workers=workers, log_format=fmt)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("item", [item for item in all_logs() if item[1] == "tenhou"], ids=log_id)
def test_every_tenhou_log_gives_the_per_game_paths_records_and_problems(item, monkeypatch):
    path, fmt = item
    new, new_problems = _read([path], fmt, True, monkeypatch)
    old, old_problems = _read([path], fmt, False, monkeypatch)
    assert_frame_equal(new, old)
    assert new_problems == old_problems


def _every_log() -> list[Path]:
    if not MJLOGS.is_dir():
        pytest.skip(f"the shared logs are not at {MJLOGS}")
    return [MJLOGS.parent, DATA]  # every format: what is no mjlog is read by the per-game reader in its batch


@pytest.mark.parametrize("fmt", ["tenhou", "auto"])
def test_all_logs_at_once_in_threads_give_the_per_game_paths_records_and_problems(fmt, monkeypatch):
    paths = _every_log()
    old, old_problems = _read(paths, fmt, False, monkeypatch, workers=2)
    for workers in (1, 2):
        new, new_problems = _read(paths, fmt, True, monkeypatch, workers=workers)
        assert_frame_equal(new, old)
        assert new_problems == old_problems


def test_import_events_of_mjlog_files_are_the_rows_export_events_writes(tmp_path):
    logs = tmp_path / "logs"
    shutil.copytree(DATA / "mjlog", logs, ignore=shutil.ignore_patterns("*.py"))
    first = sorted(logs.iterdir())[0]
    shutil.copy(first, logs / ("zz_copy_of_" + first.name))  # skipped by the import as a copy: no events twice
    assert reads_as_columns(sorted(logs.iterdir()), "tenhou")
    out = tmp_path / "hands.parquet"
    result = CliRunner().invoke(main, ["import", "tenhou", str(logs), "-o", str(out), "--events", "--workers", "2"])
    assert result.exit_code in (0, 1), result.output
    assert "skipped as the same game as another" in result.output
    export_events([logs], tmp_path / "exported.parquet", workers=1)
    written, exported = (pl.read_parquet(tmp_path / name) for name in ("hands.events.parquet", "exported.parquet"))
    assert_frame_equal(written, exported)
    hands = pl.read_parquet(out)
    assert hands["game_id"].n_unique() == len(list(logs.iterdir())) - 1


@pytest.mark.parametrize("names, fmt, columns", [
    (["a.mjlog", "b.xml", "c.json"], "tenhou", True),
    (["a.mjlog", "b.json", "c.json"], "tenhou", False),
    (["a.MJLOG.gz", "b.xml.gz"], "auto", True),
    (["a.mjlog", "b.mjlog"], "mjai", True),
    (["a.jsonl", "b.mjson.gz", "c.json"], "auto", True),
    (["a.jsonl", "b.json", "c.json"], "auto", False),
    (["a.jsonl", "b.jsonl"], "tenhou", False),
    (["a.mjlog"], "majsoul", False),
    ([], "tenhou", False),
])
def test_which_runs_read_as_columns(names, fmt, columns):
    assert reads_as_columns([Path(n) for n in names], fmt) is columns


def _export(fn, paths, target: Path, columns: bool, monkeypatch):
    monkeypatch.setattr(export_run, "reads_as_columns", lambda files, log_format, processes=1: columns)
    try:
        return fn(paths, target, workers=2)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("workers, scheduler, processes", [(2, None, 2), (1, None, 1), (None, "tcp://x:1", 1)])
def test_an_export_takes_the_columns_as_the_import_would(workers, scheduler, processes, tmp_path, monkeypatch):
    """The processes an export would fork decide its path as they decide the import's (tenhou.net/6 JSON is read
    a game at a time where there are such processes)."""
    asked = []
    monkeypatch.setattr(export_run, "reads_as_columns", lambda files, log_format, n=1: asked.append(n))
    monkeypatch.setattr(export_run, "check_where", lambda *args: None)
    monkeypatch.setattr(export_run, "map_in_order", lambda *args, **kwargs: iter(()))
    export_tenhou6([DATA], tmp_path / "games", workers=workers, scheduler=scheduler)
    assert asked == [processes]


@pytest.mark.parametrize("kind", ["events", "mjai", "tenhou6"])
def test_exports_through_the_columns_are_the_per_game_paths_files(kind, tmp_path, monkeypatch):
    """Every shared and test log exported through the columns (mjlog files read as columns, the others by the
    per-game reader in their batch, on two threads) gives the same problems and the same bytes in every file."""
    paths = _every_log()
    fn = {"events": export_events, "mjai": export_mjai, "tenhou6": export_tenhou6}[kind]
    name = "events.parquet" if kind == "events" else "games"
    new = _export(fn, paths, tmp_path / "new" / name, True, monkeypatch)
    old = _export(fn, paths, tmp_path / "old" / name, False, monkeypatch)
    assert (new.games, new.rows) == (old.games, old.rows) and new.games > 100
    assert new.problems == old.problems
    if kind == "events":
        assert_frame_equal(pl.read_parquet(tmp_path / "new" / name), pl.read_parquet(tmp_path / "old" / name))
        return
    files = sorted(p.name for p in (tmp_path / "old" / name).iterdir())
    assert sorted(p.name for p in (tmp_path / "new" / name).iterdir()) == files
    for f in files:
        assert (tmp_path / "new" / name / f).read_bytes() == (tmp_path / "old" / name / f).read_bytes(), f


def test_a_dask_cluster_of_processes_imports_mjlog_files_as_a_local_run(monkeypatch):
    """The columns' batches as tasks on worker processes (started, not forked: Polars runs there)."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    paths = [DATA / "mjlog", DATA / "lobby"]
    local, local_problems = read.read_logs(paths, 1, "tenhou")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
                                  ) as cluster, distributed.Client(cluster) as client:
        dask, dask_problems = read.read_logs(paths, None, "tenhou", client=client)
    assert reads_as_columns([p for d in paths for p in d.iterdir()], "tenhou")
    assert_frame_equal(dask, local)
    assert dask_problems == local_problems


def test_a_score_of_an_mjlog_folder_writes_the_tables_of_the_per_game_path(tmp_path, monkeypatch):
    """``analyzer score LOGS`` (its own import with the events) gives every table the per-game path gives."""
    logs = tmp_path / "logs"
    shutil.copytree(DATA / "mjlog", logs, ignore=shutil.ignore_patterns("*.py"))
    if MJLOGS.is_dir():
        for f in sorted(MJLOGS.rglob("*.mjlog"))[:12]:
            shutil.copy(f, logs / f"shared_{f.name}")
    outputs = {}
    for columns in (True, False):
        monkeypatch.setattr(read, "reads_as_columns", lambda files, log_format, c=columns: c)
        out = tmp_path / f"out_{columns}"
        result = CliRunner().invoke(main, ["score", str(logs), "-o", str(out), "--top", "0"])
        assert result.exit_code in (0, 1), result.output
        outputs[columns] = out
    monkeypatch.undo()
    tables = sorted(p.name for p in outputs[False].glob("*.parquet"))
    assert "hand_seats.parquet" in tables and sorted(p.name for p in outputs[True].glob("*.parquet")) == tables
    for name in tables:
        assert_frame_equal(pl.read_parquet(outputs[True] / name), pl.read_parquet(outputs[False] / name))


@pytest.mark.parametrize("size", [1, 2, 5])
def test_small_batches_with_copies_across_them_give_the_per_game_paths_records(size, tmp_path, monkeypatch):
    """Many batches on two threads (a copy of a game in another batch than its first file, in order or not):
    the rows and problems of the per-game path, each batch's games numbered apart."""
    logs = tmp_path / "logs"
    shutil.copytree(DATA / "mjlog", logs, ignore=shutil.ignore_patterns("*.py"))
    for i, f in enumerate(sorted(logs.iterdir())[:3]):
        shutil.copy(f, logs / f"{9 - i}_copy_of_{f.name}")  # sorted before and after their originals
    (logs / "zz_broken.mjlog").write_text("<mjloggm ver=\"2.3\"><GO type=\"169\"/>", encoding="utf-8")
    old, old_problems = _read([logs], "tenhou", False, monkeypatch, workers=2)
    monkeypatch.setattr(read, "COLUMN_BATCH_FILES", size)
    new, new_problems = _read([logs], "tenhou", True, monkeypatch, workers=2)
    assert_frame_equal(new, old)
    assert new_problems == old_problems
    assert any("same game" in p.reason for p in new_problems) and any(not p.imported for p in new_problems)


@pytest.fixture(scope="module")
def mjai_logs(tmp_path_factory) -> Path:
    """The test mjai logs and mjai exports of the test mjlogs (and of some shared ones), in one folder."""
    out = tmp_path_factory.mktemp("mjai_logs")
    shared = sorted(MJLOGS.rglob("*.mjlog"))[:40] if MJLOGS.is_dir() else []
    sources = sorted((DATA / "mjlog").glob("*.mjlog")) + shared
    result = CliRunner().invoke(main, ["export", "mjai", *map(str, sources), "-o", str(out / "exported")])
    assert result.exit_code == 0, result.output
    shutil.copytree(DATA / "mjai", out / "tests", ignore=shutil.ignore_patterns("*.py"))
    return out


@pytest.mark.parametrize("fmt", ["mjai", "auto"])
def test_mjai_files_import_through_the_columns_as_by_the_per_game_path(fmt, mjai_logs, monkeypatch):
    assert reads_as_columns(sorted(mjai_logs.rglob("*.jsonl")), fmt)
    old, old_problems = _read([mjai_logs], fmt, False, monkeypatch, workers=2)
    new, new_problems = _read([mjai_logs], fmt, True, monkeypatch, workers=2)
    assert old.height > 200
    assert_frame_equal(new, old)
    assert new_problems == old_problems


@pytest.mark.parametrize("kind", ["events", "mjai", "tenhou6"])
def test_exports_of_mjai_files_through_the_columns_are_the_per_game_paths_files(kind, mjai_logs, tmp_path,
                                                                                 monkeypatch):
    fn = {"events": export_events, "mjai": export_mjai, "tenhou6": export_tenhou6}[kind]
    name = "events.parquet" if kind == "events" else "games"
    new = _export(fn, [mjai_logs], tmp_path / "new" / name, True, monkeypatch)
    old = _export(fn, [mjai_logs], tmp_path / "old" / name, False, monkeypatch)
    assert (new.games, new.rows, new.problems) == (old.games, old.rows, old.problems)
    if kind == "events":
        assert_frame_equal(pl.read_parquet(tmp_path / "new" / name), pl.read_parquet(tmp_path / "old" / name))
        return
    files = sorted(p.name for p in (tmp_path / "old" / name).iterdir())
    assert files and sorted(p.name for p in (tmp_path / "new" / name).iterdir()) == files
    for f in files:
        assert (tmp_path / "new" / name / f).read_bytes() == (tmp_path / "old" / name / f).read_bytes(), f


def test_a_dask_cluster_of_processes_imports_mjai_files_as_a_local_run(mjai_logs):
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    local, local_problems = read.read_logs([mjai_logs], 1, "mjai")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
                                  ) as cluster, distributed.Client(cluster) as client:
        dask, dask_problems = read.read_logs([mjai_logs], None, "mjai", client=client)
    assert_frame_equal(dask, local)
    assert dask_problems == local_problems and local.height > 200


def test_an_auto_run_of_mjai_files_named_json_is_read_as_columns_as_by_the_per_game_path(mjai_logs, tmp_path,
                                                                                          monkeypatch):
    """mjai logs named ``.json`` (as Mortal's often are) are told by their first bytes; Tenhou's JSON logs,
    named alike, are not."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for f in sorted(mjai_logs.rglob("*.jsonl")):
        shutil.copy(f, logs / f.name.replace(".jsonl", ".json"))
    files = sorted(logs.iterdir())
    assert reads_as_columns(files, "auto") and not reads_as_columns(files, "tenhou")
    old, old_problems = _read([logs], "auto", False, monkeypatch, workers=2)
    new, new_problems = read.read_logs([logs], workers=2, log_format="auto")
    assert old.height > 200
    assert_frame_equal(new, old)
    assert new_problems == old_problems
    samples = DATA.parents[1] / "sample_logs"
    tenhou = sorted((samples / "tenhou").glob("*.json")) + sorted((samples / "tensoul").glob("*.json"))
    # not as mjai files: Tenhou's JSON logs take the tenhou.net/6 columns, in one process only
    assert tenhou and not reads_as_columns(tenhou, "auto", processes=2) and reads_as_columns(tenhou, "auto")
