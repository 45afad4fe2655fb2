"""The run path: plans, jobs, sinks and executors, each doing its one part whatever the others are."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.jobs import CheckJob, ScoreJob
from analyzer.jobs.outputs import finish_players, merge_partials
from analyzer.run import (
    ClusterUnavailable, DirectorySink, LocalExecutor, MemorySink, NullSink, PartOutput, RunInfo, partition_rows_for,
    plan_input, run,
)
from analyzer.run.local import default_in_flight

SAMPLE_CSV = "sample_logs/csv"


@dataclass
class GamesPerPart:
    """A job that knows nothing of scoring: the games of each partition, and their number."""

    def run_part(self, rows: pl.LazyFrame) -> PartOutput:
        ids = rows.select(pl.col("game_id").unique().sort()).collect()
        return PartOutput({"games": ids}, ids.height, rows.select(pl.len()).collect().item())

    def combine(self, first: int, second: int) -> int:
        return first + second

    def finish(self, summary: int, sink, info: RunInfo) -> tuple[int, int]:
        sink.commit({})
        return summary, info.partitions


def test_an_executor_runs_any_job_over_any_plan():
    sink = MemorySink()
    games, partitions = run(GamesPerPart(), SAMPLE_CSV, sink, LocalExecutor(), partition_rows=10)
    assert games == 6 and partitions > 2
    assert sink.frames["games"]["game_id"].is_sorted()  # the partitions come in game order


def test_progress_after_each_partition():
    calls = []
    analyzer.score(SAMPLE_CSV, "tenhou", partition_rows=20, executor=LocalExecutor(progress=lambda *a: calls.append(a)))
    assert len(calls) > 2 and [c[2] for c in calls] == list(range(1, len(calls) + 1))
    assert calls[-1][0] == calls[-1][1] == 70 and all(a[0] < b[0] for a, b in zip(calls, calls[1:]))


def test_combine_is_associative():
    """Partials merged in any tree give the same players table (what lets a cluster combine as results come)."""
    job = ScoreJob("tenhou")
    with plan_input(SAMPLE_CSV, 20) as plan:
        first, second, third = [job.run_part(part.read()).summary for part in list(plan)[:3]]
    left = job.combine(job.combine(first, second), third)
    right = job.combine(first, job.combine(second, third))
    assert_frame_equal(finish_players(merge_partials(left.partials)), finish_players(merge_partials(right.partials)))
    assert left.rows_scored == right.rows_scored and left.games == right.games


def test_the_sink_decides_what_is_computed(tmp_path):
    """A sink that takes no players table gets no statistics; the findings are the same either way."""
    kept = analyzer.check(SAMPLE_CSV, "tenhou")
    bare = analyzer.check(SAMPLE_CSV, "tenhou", keep_scored=False)
    assert kept.scored is not None and kept.run.players is not None
    assert bare.scored is None and bare.run.players is None
    assert_frame_equal(kept.findings, bare.findings)
    assert not NullSink.tables and {"hands", "players"} <= DirectorySink.tables


def test_memory_and_directory_sinks_hold_the_same_tables(tmp_path):
    in_memory = analyzer.score(SAMPLE_CSV, "ema", partition_rows=25)
    summary = analyzer.score_to(SAMPLE_CSV, tmp_path / "out", "parquet", "ema", partition_rows=25)
    for name in ("hands", "games", "players", "rejects"):
        assert_frame_equal(pl.read_parquet(summary.paths[name]), getattr(in_memory, name), check_dtypes=False)
    assert_frame_equal(summary.yaku_stats, in_memory.yaku_stats)
    assert summary.seconds > 0 and summary.partitions > 1


def test_ranking_happens_before_the_commit(tmp_path):
    summary = analyzer.score_to(SAMPLE_CSV, tmp_path / "out", rules="ema", rank_by=["place_1", "total_points"])
    written = pl.read_parquet(summary.paths["players"])
    assert_frame_equal(written, summary.players)
    firsts = written.sort("rank")["place_1"].to_list()
    assert firsts == sorted(firsts, reverse=True)


def test_a_failing_job_leaves_outdir_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out"
    analyzer.score_to(SAMPLE_CSV, out, rules="tenhou")
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    calls = []

    def broken(self, rows):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        return original(self, rows)

    original = ScoreJob.run_part
    monkeypatch.setattr(ScoreJob, "run_part", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        analyzer.score_to(SAMPLE_CSV, out, rules="ema", partition_rows=20)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


def test_check_is_the_score_job_plus_findings():
    job = CheckJob(ScoreJob("tenhou"))
    with plan_input("sample_logs/checks/sheet_with_mistakes.csv") as plan:
        output = job.run_part(plan.parts[0].read())
    assert set(output.tables) == {"hands", "games"} and output.summary.findings[0].height > 0
    assert output.summary.score.rows_scored == output.tables["hands"].height


@pytest.mark.parametrize("in_flight", [2, 3])
def test_partitions_in_flight_give_the_same_tables(tmp_path, in_flight):
    """Several partitions scored at once: outputs appended and combined in partition order all the same."""
    inputs = ["sample_logs/checks/sheet_with_mistakes.csv", SAMPLE_CSV]
    one = analyzer.score(inputs, "tenhou", partition_rows=9)
    calls = []
    many = analyzer.score(inputs, "tenhou", partition_rows=9,
                          executor=LocalExecutor(in_flight=in_flight, progress=lambda *a: calls.append(a)))
    for name in ("hands", "games", "players", "rejects", "yaku_stats"):
        assert_frame_equal(getattr(many, name), getattr(one, name))
    assert [c[2] for c in calls] == list(range(1, len(calls) + 1)) and len(calls) > in_flight
    found = analyzer.check(inputs, "tenhou", partition_rows=9, executor=LocalExecutor(in_flight=in_flight))
    assert_frame_equal(found.findings, analyzer.check(inputs, "tenhou", partition_rows=9).findings)


def test_a_failing_partition_in_flight_stops_the_run_and_writes_nothing(tmp_path, monkeypatch):
    original = ScoreJob.run_part

    def broken(self, rows):
        if rows.select(pl.col("game_id").first()).collect().item() == "R1-T2":
            raise RuntimeError("worker fault")
        return original(self, rows)

    monkeypatch.setattr(ScoreJob, "run_part", broken)
    with pytest.raises(RuntimeError, match="worker fault"):
        analyzer.score_to(SAMPLE_CSV, tmp_path / "out", rules="tenhou", partition_rows=5,
                          executor=LocalExecutor(in_flight=3))
    assert not (tmp_path / "out").exists()  # the run made OUTDIR: an aborted one removes it


@pytest.mark.parametrize(("cores", "expected"), [(1, 1), (2, 2), (3, 2), (4, 2), (8, 4), (16, 8), (64, 8)])
def test_partitions_in_flight_follow_the_cores(cores, expected):
    assert default_in_flight(cores) == expected


def test_the_memory_limit_is_shared_by_the_partitions_in_flight():
    # what the limit leaves beside the run's fixed cost is shared (tests/run/test_memory_limit.py)
    one, four = partition_rows_for(None, "2GB").rows(1_000, 10**8), partition_rows_for(None, "2GB", 4).rows(1_000, 10**8)
    assert four == one // 4


def test_in_flight_is_refused_with_a_cluster(tmp_path):
    with pytest.raises(ClusterUnavailable, match="in_flight"):
        analyzer.score(SAMPLE_CSV, "tenhou", workers=2, in_flight=2)


def test_the_default_partition_size_is_shared_by_the_partitions_in_flight():
    assert partition_rows_for(None, None) == 500_000
    assert partition_rows_for(None, None, in_flight=2) == 250_000
    assert partition_rows_for(None, None, in_flight=8) == 125_000  # no smaller by default
    assert partition_rows_for(1_000, None, in_flight=8) == 1_000
