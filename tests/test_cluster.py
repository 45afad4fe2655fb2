"""The same scoring on a real local Dask cluster (2 worker processes): identical tables to a single run."""

from __future__ import annotations

import sys

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.io.write import plain_types

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed (pip install 'analyzer[dask]')")

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


def _same_as_single_machine(outdir, single) -> None:
    tables = read_part_files(outdir)
    assert_frame_equal(tables["hands"], plain_types(single.hands))
    assert_frame_equal(tables["games"], single.games)
    assert_frame_equal(tables["players"], single.players)
    assert_frame_equal(tables["rejects"], single.rejects)


def test_sample_logs_score_as_on_one_machine(client, tmp_path):
    summary = score_on_cluster(SAMPLE_CSV, tmp_path / "out", "tenhou", client=client, partitions=5)
    assert summary.rows_read == 70 and summary.partitions == 5 and summary.workers == 2
    assert len(list((tmp_path / "out" / "hands").glob("part-*.parquet"))) > 1
    _same_as_single_machine(tmp_path / "out", analyzer.score(SAMPLE_CSV, "tenhou"))


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
    score_on_cluster(SAMPLE_CSV, tmp_path / "out", "tenhou", client=client, partitions=6)
    score_on_cluster(f"{SAMPLE_CSV}/round1.csv", tmp_path / "out", "tenhou", client=client, partitions=2)
    _same_as_single_machine(tmp_path / "out", analyzer.score(f"{SAMPLE_CSV}/round1.csv", "tenhou"))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["games", "hands", "players.parquet", "ratings.parquet",
                                                                  "rejects.parquet"]


def test_cli_on_a_local_cluster(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    done = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "out"), "--workers", "2", "--top", "3",
                                     "--report", str(tmp_path / "report.html")])
    assert done.exit_code == 0, done.output
    assert "Standings" in (tmp_path / "report.html").read_text()  # the report read from the part files
    assert "rows read: 70 = scored 70 + rejected 0" in done.output
    _same_as_single_machine(tmp_path / "out", analyzer.score(SAMPLE_CSV))
    csv = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "x"), "--workers", "2", "--format", "csv"])
    assert csv.exit_code == 2 and "Parquet part files" in csv.output


def test_without_the_extra_the_message_says_what_to_install(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ClusterUnavailable, match=r"analyzer\[dask\]"):
        score_on_cluster(SAMPLE_CSV, tmp_path / "out", scheduler="tcp://127.0.0.1:1")
    done = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "o"), "--scheduler", "tcp://127.0.0.1:1"])
    assert done.exit_code == 2 and "pip install 'analyzer[dask]'" in done.output and "Traceback" not in done.output


def test_fsspec_urls_for_inputs_and_outdir(client, tmp_path):
    from pathlib import Path

    source = "file://" + str(Path(SAMPLE_CSV).resolve())
    summary = score_on_cluster(source, "file://" + str(tmp_path / "out"), "tenhou", client=client, partitions=4)
    assert summary.rows_read == 70
    _same_as_single_machine(tmp_path / "out", analyzer.score(str(Path(SAMPLE_CSV).resolve()), "tenhou"))
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
