"""Running a job on this machine: the partitions of a plan, one or several at a time, each written as it is done."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from pathlib import Path

from analyzer.run.job import Job, PartOutput, RunInfo
from analyzer.run.plan import DEFAULT_PARTITION_ROWS, Part, Plan, plan_input
from analyzer.run.sink import Sink

Progress = Callable[[int, int, int], None]  # (rows done, rows in all or -1, partitions done)


class LocalExecutor:
    """Runs a job over the partitions of a local :class:`~analyzer.run.plan.Plan` (slices of the input files, or
    a spill of them). ``in_flight`` partitions (default: :func:`default_in_flight`) are scored at once, and
    their outputs are appended and combined in partition order, so the tables are the same for any number in
    flight.

    Partitions in flight run on threads of this process and share Polars' one pool of cores: a partition's
    critical path has stretches of little parallel work (planning, the replay's small frames, Python between
    queries) that another partition's queries fill. Threads measured better than worker processes, which pay
    for moving every table between processes (10M rows on 16 cores: 7.5 s with 8 threads in flight, 22 s with
    8 processes; docs/performance.md). ``progress(rows_done, rows_total, partitions_done)`` is called after
    each partition."""

    remote = False
    workers = 1

    def __init__(self, progress: Progress | None = None, spill_dir: str | Path | None = None,
                 in_flight: int | None = None) -> None:
        in_flight = default_in_flight() if in_flight is None else in_flight
        if in_flight < 1:
            raise ValueError("in_flight must be at least 1")
        self.progress = progress
        self.spill_dir = spill_dir
        self.in_flight = in_flight

    def plan(self, data, partition_rows: int = DEFAULT_PARTITION_ROWS, scratch: str | None = None,
             input_kind: str = "auto") -> Plan:
        """The partitions of ``data`` (``scratch`` is for cluster runs: a local run spills to ``spill_dir``)."""
        return plan_input(data, partition_rows, self.spill_dir, input_kind)

    def execute(self, job: Job, plan: Plan, sink: Sink):
        started = time.perf_counter()
        summary, done, part_seconds = None, 0, []
        pool = ThreadPoolExecutor(self.in_flight, thread_name_prefix="analyzer-part")
        try:
            sink.open(len(plan.parts))
            writer = sink.part_writer()
            for number, (output, seconds, index) in enumerate(_in_order(pool, job, plan, self.in_flight), start=1):
                part_seconds.append(seconds)
                if writer is not None:
                    writer.write(index, output.tables)
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
                pool.shutdown(wait=True, cancel_futures=True)  # no partition still writing beside the cleanup
                sink.abort()
            except KeyboardInterrupt:  # one Ctrl-C can arrive twice (Polars raises it, then Python): still dropped
                sink.abort()
            raise
        finally:
            pool.shutdown(wait=False)

    def close(self) -> None:
        """Nothing to release: a local run holds nothing between runs."""


def default_in_flight(cores: int | None = None) -> int:
    """Partitions in flight for a machine with ``cores`` cores (default: those this process may use): half the
    cores, at least 2 and at most 8 — on 2 cores two in flight took 35.6 s for 10M rows where one took 41.4 s;
    on 16 cores eight took 8.1 s where one took 15.2 s (docs/performance.md). One on a single core."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 1 if cores < 2 else min(8, max(2, cores // 2))


def _timed_part(job: Job, part: Part) -> tuple[PartOutput, float, int]:
    begun = time.perf_counter()
    output = job.run_part(part.read())
    return output, time.perf_counter() - begun, part.index


def _in_order(pool: ThreadPoolExecutor, job: Job, plan: Plan, in_flight: int) -> Iterator[tuple[PartOutput, float, int]]:
    """The partitions' outputs in partition order, at most ``in_flight`` of them being scored or waiting."""
    waiting: deque[Future] = deque()
    parts = iter(plan)
    for part in islice(parts, in_flight):
        waiting.append(pool.submit(_timed_part, job, part))
    while waiting:
        output = waiting.popleft().result()
        nxt = next(parts, None)
        if nxt is not None:  # submitted before the caller handles this output: the window stays full
            waiting.append(pool.submit(_timed_part, job, nxt))
        yield output
