"""The same scoring on a real local Dask cluster (2 worker processes): identical tables to a single run."""

from __future__ import annotations

import sys

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.io.write import plain_types

distributed = pytest.importorskip("distributed",
                                  reason="the dask extra is not installed (pip install 'riichi-analyzer[dask]')")

from analyzer.run import ClusterUnavailable, DaskExecutor, read_part_files  # noqa: E402
from analyzer.jobs import ScoreJob  # noqa: E402


def score_on_cluster(data, outdir, rules=None, *, client=None, scheduler=None, partitions=None, **options):
    """A cluster run into OUTDIR with a given client or scheduler (as `analyzer score --scheduler` does)."""
    with DaskExecutor(scheduler=scheduler, client=client, partitions=partitions) as executor:
        return analyzer.score_to(data, outdir, "parquet", rules, executor=executor, **options)

SAMPLE_CSV = "sample_logs/csv"


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


def _same_files_as_a_local_run(outdir, local) -> None:
    """The same files as a local run's OUTDIR, each table equal row for row (the manifest: the same tables)."""
    import json

    assert sorted(p.name for p in outdir.iterdir()) == sorted(p.name for p in local.iterdir())
    for path in local.iterdir():
        if path.suffix == ".parquet":
            assert_frame_equal(pl.read_parquet(outdir / path.name), pl.read_parquet(path))
        elif path.suffix == ".csv":
            assert (outdir / path.name).read_text() == path.read_text()
    manifest = json.loads((outdir / ".analyzer-run.json").read_text())
    assert manifest["tables"] == json.loads((local / ".analyzer-run.json").read_text())["tables"]


def _same_as_single_machine(outdir, single) -> None:
    tables = read_part_files(outdir)
    assert_frame_equal(tables["hands"], plain_types(single.hands))
    assert_frame_equal(tables["games"], single.games)
    assert_frame_equal(tables["players"], single.players)
    assert_frame_equal(tables["rejects"], single.rejects)


def test_sample_logs_score_as_on_one_machine(client, tmp_path):
    summary = score_on_cluster(SAMPLE_CSV, tmp_path / "out", "tenhou", client=client, partitions=5,
                               part_files=True)
    assert summary.rows_read == 70 and summary.partitions == 5 and summary.workers == 2
    assert len(list((tmp_path / "out" / "hands").glob("part-*.parquet"))) > 1
    single = analyzer.score(SAMPLE_CSV, "tenhou")
    _same_as_single_machine(tmp_path / "out", single)
    # the buckets are ranges of game ids: the parts in name order are the single-machine table, unsorted
    assert_frame_equal(pl.read_parquet(tmp_path / "out" / "hands" / "*.parquet"), plain_types(single.hands))


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_cluster_run_writes_the_files_of_a_local_run(client, tmp_path, fmt):
    """One layout whatever the executor: hands.parquet, games.parquet … and the manifest, equal row for row."""
    local = tmp_path / "local"
    analyzer.score_to(SAMPLE_CSV, local, fmt, "tenhou", partition_rows=20)
    with DaskExecutor(client=client, partitions=5) as executor:
        summary = analyzer.score_to(SAMPLE_CSV, tmp_path / "out", fmt, "tenhou", executor=executor)
    assert summary.partitions == 5 and summary.paths["hands"] == tmp_path / "out" / f"hands.{fmt}"
    _same_files_as_a_local_run(tmp_path / "out", local)


def test_a_tournament_sheet_on_a_cluster_writes_the_files_of_a_local_run(client, tmp_path):
    """Sessions and teams too; no hands table from the partitions (the run writes an empty one)."""
    from tests.tournament_sheet import generate

    generate().write_csv(tmp_path / "sheet.csv")
    analyzer.score_to(tmp_path / "sheet.csv", tmp_path / "local", "parquet", "ema", partition_rows=100)
    with DaskExecutor(client=client, partitions=4) as executor:
        analyzer.score_to(tmp_path / "sheet.csv", tmp_path / "out", "parquet", "ema", executor=executor)
    assert (tmp_path / "out" / "sessions.parquet").exists() and (tmp_path / "out" / "teams.parquet").exists()
    _same_files_as_a_local_run(tmp_path / "out", tmp_path / "local")


def test_buckets_are_ranges_of_game_ids_of_about_equal_rows():
    from analyzer.run.dask import bucket_bounds

    games = pl.DataFrame({"_key": list("hgfedcba"), "rows": [10] * 8})
    assert bucket_bounds(games, 4).to_list() == ["c", "e", "g"]  # a b | c d | e f | g h
    assert bucket_bounds(games, 3).to_list() == ["d", "g"]  # rows before each game's start, times 3 // 80
    assert bucket_bounds(games, 1).to_list() == []
    big_first = pl.DataFrame({"_key": ["a", "b", "c", "d"], "rows": [100, 1, 1, 1]})
    assert bucket_bounds(big_first, 4).to_list() == ["b", "b", "b"]  # a fills bucket 0; 1 and 2 stay empty
    split = pl.DataFrame({"_key": ["b", "a", "b"], "rows": [5, 10, 5]})  # a game in two files counts once
    assert bucket_bounds(split, 2).to_list() == ["b"]
    huge = pl.DataFrame({"_key": ["a", "b"], "rows": [3_000_000_000, 3_000_000_000]}, schema_overrides={"rows": pl.UInt32})
    assert bucket_bounds(huge.with_columns(pl.col("rows") // 2), 100).to_list()[-1] == "b"  # no overflow


def test_a_file_of_many_games_is_counted_in_runs_of_games(tmp_path, monkeypatch):
    import analyzer.run.dask as dask_run

    pl.DataFrame({"game_id": [f"g{i:04d}" for i in range(1000) for _ in range(3)]}).write_parquet(tmp_path / "a.parquet")
    assert dask_run._games_of(0, str(tmp_path / "a.parquet")).height == 1000
    monkeypatch.setattr(dask_run, "SAMPLE_GAMES", 100)
    runs = dask_run._games_of(0, str(tmp_path / "a.parquet"))
    assert runs.height == 100 and runs["rows"].sum() == 3000 and runs["_key"][:2].to_list() == ["g0000", "g0010"]


def test_games_split_across_files_and_rejected_rows(client, tmp_path):
    rows = pl.read_csv(f"{SAMPLE_CSV}/round1.csv", infer_schema=False)
    first = rows["game_id"][0]
    one = rows.filter(pl.col("game_id") == first)
    one.gather_every(2).write_csv(tmp_path / "a.csv")
    bad = pl.concat([rows.filter(pl.col("game_id") != first), one.gather_every(2, offset=1)]).with_columns(
        pl.when(pl.int_range(pl.len()) % 5 == 2).then(pl.lit("x")).otherwise(pl.col("honba")).alias("honba")
    )
    bad.reverse().write_parquet(tmp_path / "b.parquet")
    inputs = [tmp_path / "b.parquet", tmp_path / "a.csv"]
    single = analyzer.score(inputs, "tenhou")
    assert single.rows_rejected > 0
    score_on_cluster(inputs, tmp_path / "out", "tenhou", client=client, partitions=3, partition_rows=7)
    _same_as_single_machine(tmp_path / "out", single)


def test_check_finds_the_same(client):
    inputs = ["sample_logs/checks/sheet_with_mistakes.csv", SAMPLE_CSV]
    on_cluster = analyzer.check(inputs, "tenhou", client=client)
    here = analyzer.check(inputs, "tenhou")
    assert not here.ok
    assert_frame_equal(on_cluster.findings, here.findings)
    assert on_cluster.headline() == here.headline()


def test_python_api_on_a_cluster_returns_what_a_local_run_does(client):
    here = analyzer.score(SAMPLE_CSV, "ema", partition_rows=20)
    there = analyzer.score(SAMPLE_CSV, "ema", executor=DaskExecutor(client=client, partitions=4))
    for name in ("hands", "games", "players", "rejects", "yaku_stats"):
        assert_frame_equal(getattr(there, name), getattr(here, name))
    assert there.rulesets == here.rulesets


def test_yaku_stats_on_a_cluster_are_those_of_a_local_run(client, tmp_path):
    hands, _ = analyzer.read_tenhou(["sample_logs/tenhou"])  # tiles: yaku to count
    hands.write_parquet(tmp_path / "hands.parquet")
    here = analyzer.score(tmp_path / "hands.parquet")
    there = analyzer.score(tmp_path / "hands.parquet", client=client)
    assert here.yaku_stats.height > 0
    assert_frame_equal(there.yaku_stats, here.yaku_stats)
    assert_frame_equal(there.hands, here.hands)


def test_a_second_run_replaces_the_first(client, tmp_path):
    score_on_cluster(SAMPLE_CSV, tmp_path / "out", "tenhou", client=client, partitions=6, part_files=True)
    score_on_cluster(f"{SAMPLE_CSV}/round1.csv", tmp_path / "out", "tenhou", client=client, partitions=2,
                     part_files=True)
    _same_as_single_machine(tmp_path / "out", analyzer.score(f"{SAMPLE_CSV}/round1.csv", "tenhou"))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".analyzer-run.json", "games", "hands",
                                                                     "players.parquet", "ratings.parquet", "rejects.parquet"]


@pytest.mark.parametrize("first_parts", [True, False])
def test_a_run_in_one_layout_replaces_a_run_in_the_other(client, tmp_path, first_parts):
    """Part files after single files, or single files after part files: only the second run's layout stays."""
    import json

    out = tmp_path / "out"
    score_on_cluster(SAMPLE_CSV, out, "tenhou", client=client, partitions=3, part_files=first_parts)
    score_on_cluster(f"{SAMPLE_CSV}/round1.csv", out, "tenhou", client=client, partitions=2,
                     part_files=not first_parts)
    _same_as_single_machine(out, analyzer.score(f"{SAMPLE_CSV}/round1.csv", "tenhou"))
    names = sorted(p.name for p in out.iterdir())
    if first_parts:  # single files: the local layout, with its manifest
        assert names == [".analyzer-run.json", "games.parquet", "hands.parquet", "players.parquet", "ratings.parquet", "rejects.parquet"]
    else:  # the manifest names the part-file folders
        assert names == [".analyzer-run.json", "games", "hands", "players.parquet", "ratings.parquet", "rejects.parquet"]
        assert json.loads((out / ".analyzer-run.json").read_text())["tables"]["hands"] == "hands"
    analyzer.score_to(SAMPLE_CSV, out, "parquet", "tenhou")  # a local run after either: the local layout
    assert sorted(p.name for p in out.iterdir()) == [".analyzer-run.json", "games.parquet", "hands.parquet",
                                                     "players.parquet", "ratings.parquet", "rejects.parquet"]


def test_cli_on_a_local_cluster(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    done = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "out"), "--workers", "2", "--top", "3",
                                     "--report", str(tmp_path / "report.html")])
    assert done.exit_code == 0, done.output
    assert "Standings" in (tmp_path / "report.html").read_text()
    assert "rows read: 70 = scored 70 + rejected 0" in done.output
    assert CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "local")]).exit_code == 0
    _same_files_as_a_local_run(tmp_path / "out", tmp_path / "local")
    parts = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "parts"), "--workers", "2",
                                      "--part-files", "--report", str(tmp_path / "parts.html")])
    assert parts.exit_code == 0, parts.output
    assert "Standings" in (tmp_path / "parts.html").read_text()  # the report read from the part files
    _same_as_single_machine(tmp_path / "parts", analyzer.score(SAMPLE_CSV))
    csv = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "x"), "--workers", "2", "--format", "csv",
                                    "--part-files"])
    assert csv.exit_code == 2 and "part files, and an OUTDIR given as a URL, are written as Parquet" in csv.output
    here = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "y"), "--part-files"])
    assert here.exit_code == 2 and "written by a cluster's workers" in here.output


def test_without_the_extra_the_message_says_what_to_install(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ClusterUnavailable, match=r"riichi-analyzer\[dask\]"):
        score_on_cluster(SAMPLE_CSV, tmp_path / "out", scheduler="tcp://127.0.0.1:1")
    done = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "o"), "--scheduler", "tcp://127.0.0.1:1"])
    assert done.exit_code == 2 and "pip install 'riichi-analyzer[dask]'" in done.output and "Traceback" not in done.output


def test_fsspec_urls_for_inputs_and_outdir(client, tmp_path):
    from pathlib import Path

    source = "file://" + str(Path(SAMPLE_CSV).resolve())
    summary = score_on_cluster(source, "file://" + str(tmp_path / "out"), "tenhou", client=client, partitions=4)
    assert summary.rows_read == 70
    assert (tmp_path / "out" / "hands.parquet").is_file()  # single files, streamed from the parts at the URL
    _same_as_single_machine(tmp_path / "out", analyzer.score(str(Path(SAMPLE_CSV).resolve()), "tenhou"))
    score_on_cluster(source, "file://" + str(tmp_path / "parts"), "tenhou", client=client, partitions=4,
                     part_files=True)
    assert (tmp_path / "parts" / "hands").is_dir()
    _same_as_single_machine(tmp_path / "parts", analyzer.score(str(Path(SAMPLE_CSV).resolve()), "tenhou"))
    found = analyzer.check(source, "tenhou", client=client, scratch="file://" + str(tmp_path / "scratch"))
    assert found.rows_read == 70
    assert_frame_equal(found.findings, analyzer.check(str(Path(SAMPLE_CSV).resolve()), "tenhou").findings)


def test_a_failed_run_leaves_outdir_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out"
    cluster = distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0")
    with distributed.Client(cluster) as in_process:
        score_on_cluster(SAMPLE_CSV, out, "tenhou", client=in_process, partitions=3)
        before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

        def broken(*args, **kwargs):
            raise RuntimeError("worker lost")

        monkeypatch.setattr(ScoreJob, "run_part", broken)
        with pytest.raises(RuntimeError, match="worker lost"):
            score_on_cluster(SAMPLE_CSV, out, "ema", client=in_process, partitions=3)
    cluster.close()
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_cluster_run_reports_progress_and_its_time(client, tmp_path):
    calls = []
    with DaskExecutor(client=client, partitions=4, progress=lambda *a: calls.append(a)) as executor:
        summary = analyzer.score_to(SAMPLE_CSV, tmp_path / "out", "parquet", "tenhou", executor=executor)
    assert [c[2] for c in calls] == [1, 2, 3, 4] and calls[-1][:2] == (70, 70)
    assert summary.seconds > 0 and summary.workers == 2 and summary.yaku_stats is not None
