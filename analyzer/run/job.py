"""What a run does, apart from where it runs: a *job* (the chunk / combine / aggregate of a Dask reduction).

A job scores one partition of whole games (:meth:`Job.run_part`), merges the small per-partition summaries
in any tree (:meth:`Job.combine`, associative) and turns the merged summary into the run's result
(:meth:`Job.finish`), handing its final tables to the sink. Executors (:mod:`analyzer.run.local`,
:mod:`analyzer.run.dask`) call these three and never ask which job they hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import polars as pl

from analyzer.run.sink import Sink


@dataclass
class PartOutput:
    """What one partition gives: its row ``tables`` (appended to the sink in partition order: hands, games),
    a small picklable ``summary`` the job combines, and the input ``rows`` it read (for progress)."""

    tables: dict[str, pl.DataFrame]
    summary: Any
    rows: int


@dataclass
class RunInfo:
    """How a run went, as the executor saw it: handed to :meth:`Job.finish`."""

    partitions: int
    spilled: bool
    workers: int = 1
    seconds: float = 0.0  # wall time up to the finish, making the plan included
    part_seconds: list[float] = field(default_factory=list)  # each partition's run_part, in partition order


class Job(Protocol):
    """What happens to each partition of a run and how the partitions' results come together."""

    def run_part(self, rows: pl.LazyFrame) -> PartOutput:
        """Score the rows of whole games (one partition)."""

    def combine(self, first: Any, second: Any) -> Any:
        """Two partial summaries as one; associative, and ``first`` comes before ``second`` in input order."""

    def finish(self, summary: Any, sink: Sink, info: RunInfo) -> Any:
        """The run's result from the combined summary; the job's final tables go to ``sink``, which it commits."""
