"""How a run executes: a *plan* (the partitions), a *job* (what each partition does, how results combine),
a *sink* (where tables go) and an *executor* (where the partitions run). See docs/architecture.md.

>>> from analyzer.run import LocalExecutor
>>> analyzer.score("sample_logs/csv", executor=LocalExecutor(progress=print))

:func:`run` is the one place these meet; ``analyzer.score``, ``score_to`` and ``check`` are built on it.
"""

from __future__ import annotations

from analyzer.run.dask import ClusterUnavailable, DaskExecutor
from analyzer.run.job import Job, PartOutput, RunInfo
from analyzer.run.local import LocalExecutor, Progress
from analyzer.run.plan import DEFAULT_PARTITION_ROWS, Plan, parse_size, partition_rows_for, plan, plan_input
from analyzer.run.sink import ClusterDirectorySink, DirectorySink, MemorySink, NullSink, PartFilesSink, Sink, read_part_files

__all__ = [
    "ClusterDirectorySink", "ClusterUnavailable", "DaskExecutor", "DEFAULT_PARTITION_ROWS", "DirectorySink", "Job", "LocalExecutor", "MemorySink", "NullSink", "PartFilesSink",
    "PartOutput", "Plan", "Progress", "RunInfo", "Sink", "executor_for", "parse_size", "partition_rows_for",
    "plan", "plan_input", "read_part_files", "run",
]


def executor_for(scheduler: str | None = None, client=None, workers: int | None = None,
                 scratch: str | None = None, progress: Progress | None = None, in_flight: int | None = None):
    """The executor the usual options ask for: a Dask one when ``scheduler``, ``client`` or ``workers`` is
    given (:class:`analyzer.run.dask.DaskExecutor`), else a :class:`LocalExecutor` with ``in_flight``
    partitions at once (default: half the cores, 2 to 8)."""
    if scheduler is None and client is None and workers is None:
        return LocalExecutor(progress=progress, in_flight=in_flight)
    if in_flight is not None:
        raise ClusterUnavailable("in_flight (--in-flight) is for a run on this machine: a Dask cluster runs a "
                                 "partition per worker thread (leave out in_flight, or workers/scheduler)")
    return DaskExecutor(scheduler=scheduler, client=client, workers=workers, scratch=scratch, progress=progress)


def run(job: Job, data, sink: Sink, executor=None, partition_rows: int = DEFAULT_PARTITION_ROWS):
    """Run ``job`` over ``data`` (paths or a frame) with ``executor`` (default: this machine) into ``sink``; the
    job's ``input_kind`` (if it has one) says what the input files are read as."""
    executor = executor or LocalExecutor()
    with executor.plan(data, partition_rows, scratch=sink.scratch,
                       input_kind=getattr(job, "input_kind", "auto")) as work:
        return executor.execute(job, work, sink)
