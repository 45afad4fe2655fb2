"""Running a job on this machine: the partitions of a plan one after another, each written as it is done."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from analyzer.run.job import Job, RunInfo
from analyzer.run.plan import DEFAULT_PARTITION_ROWS, Plan, plan_input
from analyzer.run.sink import Sink

Progress = Callable[[int, int, int], None]  # (rows done, rows in all or -1, partitions done)


class LocalExecutor:
    """Runs a job over the partitions of a local :class:`~analyzer.run.plan.Plan` (slices of the input files, or
    a spill of them), in ``game_id`` order. ``progress(rows_done, rows_total, partitions_done)`` is called after
    each partition."""

    remote = False
    workers = 1

    def __init__(self, progress: Progress | None = None, spill_dir: str | Path | None = None) -> None:
        self.progress = progress
        self.spill_dir = spill_dir

    def plan(self, data, partition_rows: int = DEFAULT_PARTITION_ROWS, scratch: str | None = None) -> Plan:
        """The partitions of ``data`` (``scratch`` is for cluster runs: a local run spills to ``spill_dir``)."""
        return plan_input(data, partition_rows, self.spill_dir)

    def execute(self, job: Job, plan: Plan, sink: Sink):
        started = time.perf_counter()
        summary, done, part_seconds = None, 0, []
        try:
            sink.open(len(plan.parts))
            writer = sink.part_writer()
            for number, part in enumerate(plan, start=1):
                begun = time.perf_counter()
                output = job.run_part(part.read())
                part_seconds.append(time.perf_counter() - begun)
                if writer is not None:
                    writer.write(part.index, output.tables)
                else:
                    for name, table in output.tables.items():
                        sink.append(name, table)
                summary = output.summary if summary is None else job.combine(summary, output.summary)
                done += output.rows
                if self.progress is not None:
                    self.progress(done, plan.rows, number)
            info = RunInfo(len(plan.parts), plan.spilled, self.workers, plan.seconds + time.perf_counter() - started,
                           part_seconds)
            return job.finish(summary, sink, info)
        except BaseException:
            try:
                sink.abort()
            except KeyboardInterrupt:  # one Ctrl-C can arrive twice (Polars raises it, then Python): still dropped
                sink.abort()
            raise

    def close(self) -> None:
        """Nothing to release: a local run holds nothing between runs."""
