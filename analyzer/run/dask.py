"""Running a job on a Dask cluster (the optional ``dask`` extra: ``pip install 'riichi-analyzer[dask]'``).

The plan of a cluster run (:class:`BucketPlan`) is made by the cluster itself:

1. **map**: each task reads a slice of the input files (whole files, or row ranges of big Parquet files) and
   splits its rows into ``P`` buckets by ranges of ``game_id``, one Parquet file per bucket under a scratch
   directory (``SCRATCH/buckets/_bucket=K/task-NNNNN.parquet``). Rows of one game land in one bucket whatever
   file they came from, so each bucket is a partition of whole games; the ranges (:func:`bucket_bounds`, from
   each file's games and their rows, counted by tasks first) hold about as many rows each, and bucket K's
   games all come before bucket K+1's, so the buckets' tables, one after the other, are in game id order —
   the single-machine order.
2. **run**: each bucket is one task running the job's ``run_part`` — the code of a local run. A sink with a
   part writer (:class:`~analyzer.run.sink.PartFilesSink`) has the task write its tables; otherwise they travel
   back to the client, which appends them in bucket order.
3. **finish**: the client combines the summaries in bucket order and the job finishes as on one machine.

A failed task is retried by Dask; a run that fails leaves OUTDIR as it was. Paths must be reachable by every
worker under the same name (a shared filesystem), or be fsspec URLs the workers reach (``s3://…``).
"""

from __future__ import annotations

import math
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from functools import reduce
from pathlib import Path

import polars as pl

from analyzer.io.columns import check_required
from analyzer.io.load import InputError, input_schema, read_frame, scan_file
from analyzer.run.job import Job, PartOutput, RunInfo
from analyzer.run.locations import expand_locations, location, polars_path
from analyzer.run.local import Progress
from analyzer.run.memory import ROWS_PER_GAME
from analyzer.run.plan import DEFAULT_PARTITION_ROWS, rows_within, unified
from analyzer.run.sink import PartWriter, Sink

EXTRA_MESSAGE = "running on a cluster needs the dask extra: pip install 'riichi-analyzer[dask]'"
RETRIES = 2
SAMPLE_GAMES = 10_000  # games (or runs of games) per input file the client sees when it cuts the buckets


class ClusterUnavailable(RuntimeError):
    """The ``distributed`` package is missing, or the scheduler cannot be reached."""


@dataclass
class BucketPart:
    """One bucket of a cluster run: read on a worker from the bucket's files (None when it got no rows)."""

    index: int
    run: str
    schema: dict

    def read(self) -> pl.LazyFrame | None:
        fs, root = location(self.run)
        files = sorted(fs.glob(f"{root}/buckets/_bucket={self.index}/*.parquet"))
        if not files:
            return None
        frame = pl.concat([pl.scan_parquet(polars_path(fs, f)) for f in files], how="diagonal_relaxed")
        names = frame.collect_schema().names()
        full = {**self.schema, "_file": pl.String, "_row": pl.Int64, "_pos": pl.Int64}
        return frame.select(pl.col(n) if n in names else pl.lit(None, t).alias(n) for n, t in full.items())


@dataclass
class BucketPlan:
    """The buckets of a cluster run and the scratch directory holding them (removed on close)."""

    parts: list[BucketPart]
    rows: int
    files: list[str]
    run: str
    spilled: bool = True
    games: int = -1
    seconds: float = 0.0  # the map stage's wall time
    _scratch: list[str] = field(default_factory=list, repr=False)

    def __iter__(self):
        return iter(self.parts)

    def __enter__(self) -> BucketPlan:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for place in self._scratch:
            fs, root = location(place)
            if fs.exists(root):
                fs.rm(root, recursive=True)
        self._scratch = []


def _slices(files: list[str], totals: list[int],
            rows_per_task: int) -> list[list[tuple[int, str, tuple[int, int] | None]]]:
    """Map tasks: lists of (file index, path, row range) of about ``rows_per_task`` rows (``totals``: each
    file's rows)."""
    tasks, current, size = [], [], 0
    for index, (path, total) in enumerate(zip(files, totals)):
        parquet = str(path).lower().endswith((".parquet", ".pq"))
        ranges = [(first, min(rows_per_task, total - first)) for first in range(0, total, rows_per_task)] \
            if parquet and total > rows_per_task else [None]
        for rows in ranges:
            current.append((index, str(path), rows))
            size += rows[1] if rows else total
            if size >= rows_per_task:
                tasks.append(current)
                current, size = [], 0
    if current:
        tasks.append(current)
    return tasks


def _game_key() -> pl.Expr:
    """A row's game as the single-machine plan knows it (:mod:`analyzer.run.plan`): the id without spaces."""
    return pl.col("game_id").cast(pl.String).str.strip_chars().fill_null("")


def _games_of(index: int, path: str) -> pl.DataFrame:
    """Count task: the games of one input file (``_key``, in order) with their rows (``rows``); a file of more
    than :data:`SAMPLE_GAMES` games as runs of consecutive games, each named by its first (enough to cut
    buckets of about equal rows, and what travels to the client stays small)."""
    games = scan_file(path, index).group_by(_game_key().alias("_key")).agg(pl.len().cast(pl.Int64).alias("rows")).sort("_key")
    step = max(1, -(-games.select(pl.len()).collect().item() // SAMPLE_GAMES))
    return games.group_by(pl.int_range(pl.len()) // step, maintain_order=True).agg(
        pl.col("_key").first(), pl.col("rows").sum()).select("_key", "rows").collect()


def bucket_bounds(games: pl.DataFrame, buckets: int) -> pl.Series:
    """The first game id of buckets 1 … P-1, for buckets of whole games holding about as many rows each, in
    game id order: ``games`` has each game's ``_key`` and ``rows`` (a game in several files: several rows).
    A game of more rows than a bucket's share fills its bucket alone (the next ones may then be empty)."""
    games = games.group_by("_key").agg(pl.col("rows").cast(pl.Int64).sum()).sort("_key")
    total = games["rows"].sum()
    if not total or buckets < 2:
        return pl.Series("_key", [], pl.String)
    first = games.with_columns(  # the bucket each game starts: by the rows before it
        ((pl.col("rows").cum_sum() - pl.col("rows")) * buckets // total).alias("_bucket")
    ).filter(pl.col("_bucket") != pl.col("_bucket").shift(1).fill_null(0))
    return first.select(pl.col("_key").repeat_by(pl.col("_bucket") - pl.col("_bucket").shift(1).fill_null(0))
                        .explode())["_key"]


def _bucket_rows(task: int, pieces, schema: dict, bounds: pl.Series, run: str) -> int:
    """Map task: the rows of ``pieces`` into bucket files by the range of their ``game_id`` (``bounds``: the
    first id of each bucket after the first); returns the rows read."""
    frames = [scan_file(path, index, rows=rows) for index, path, rows in pieces]
    rows = unified(frames, schema).with_columns(
        pl.lit(bounds, pl.String).search_sorted(_game_key(), side="right").alias("_bucket")
    ).collect()
    fs, root = location(run)
    for (bucket,), part in rows.partition_by("_bucket", as_dict=True, include_key=False).items():
        target = f"{root}/buckets/_bucket={bucket}"
        fs.makedirs(target, exist_ok=True)
        with fs.open(f"{target}/task-{task:05d}.parquet", "wb") as handle:
            part.write_parquet(handle)
    return rows.height


def run_bucket(job: Job, part: BucketPart, writer: PartWriter | None) -> tuple[int, PartOutput | None, float]:
    """Run task: one bucket through the job; its tables written by ``writer`` when there is one."""
    frame = part.read()
    if frame is None:
        return part.index, None, 0.0
    begun = time.perf_counter()
    output = job.run_part(frame)
    if writer is not None:
        writer.write(part.index, output.tables)
        output = PartOutput({}, output.summary, output.rows)
    return part.index, output, time.perf_counter() - begun


class DaskExecutor:
    """Runs a job on a Dask cluster: ``scheduler`` (an address, ``tcp://host:8786``), else ``client`` (a
    ``distributed.Client``), else a local cluster of ``workers`` processes (2 by default) started on first use
    and stopped by :meth:`close`. ``partitions``: the number of buckets (default: enough for the partition
    size, at least two per worker). ``scratch``: where bucket files go when the sink has no place of its own
    (a path or URL every worker reaches; default: a local temporary directory, which serves a local cluster)."""

    remote = True

    def __init__(self, scheduler: str | None = None, client=None, workers: int | None = None,
                 partitions: int | None = None, scratch: str | Path | None = None,
                 progress: Progress | None = None) -> None:
        self.scheduler, self.requested_workers, self.partitions = scheduler, workers, partitions
        self.scratch = str(scratch) if scratch is not None else None
        self.progress = progress
        self._client, self._cluster = client, None

    @property
    def client(self):
        if self._client is None:
            self._client, self._cluster = _connect(self.scheduler, self.requested_workers)
        return self._client

    @property
    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the local cluster this executor started (a given client or scheduler is left running)."""
        if self._cluster is not None:
            self._client.close()
            self._cluster.close()
            self._client = self._cluster = None

    def plan(self, data, partition_rows: int = DEFAULT_PARTITION_ROWS, scratch: str | None = None,
             input_kind: str = "auto") -> BucketPlan:
        """The map stage: every input row into its bucket under ``scratch`` (or the executor's own)."""
        started = time.perf_counter()
        client = self.client
        base = scratch or self.scratch
        run = (base.rstrip("/") + f"/.analyzer-run-{uuid.uuid4().hex[:12]}" if base
               else tempfile.mkdtemp(prefix="analyzer-run-"))
        fs, root = location(run)
        fs.makedirs(root, exist_ok=True)
        try:
            if isinstance(data, (pl.DataFrame, pl.LazyFrame)):  # a frame travels as a Parquet file
                check_required(read_frame(data), "the frame", input_kind)  # named as the caller knows it, not its file
                frame_path = f"{root}/input.parquet"
                with fs.open(frame_path, "wb") as handle:
                    data.lazy().collect().write_parquet(handle)
                data = polars_path(fs, frame_path)
            files = expand_locations([data] if isinstance(data, (str, Path)) else list(data))
            scans = [scan_file(path, i) for i, path in enumerate(files)]
            for path, scan in zip(files, scans):  # a missing column is one error, not a rejected file
                check_required(scan, path, input_kind)
            schema = input_schema(scans)
            counted = client.gather([client.submit(_games_of, i, path, pure=False, retries=RETRIES)
                                     for i, path in enumerate(files)])  # a CSV is parsed for it: once
            totals = [games["rows"].sum() for games in counted]
            # a memory limit: the games estimated, as the client sees samples of them
            partition_rows = rows_within(partition_rows, sum(totals) // ROWS_PER_GAME, sum(totals))
            tasks = _slices(files, totals, partition_rows)
            buckets = self.partitions or max(2 * self.workers, math.ceil(sum(totals) / partition_rows))
            bounds = bucket_bounds(pl.concat(counted), buckets)
            futures = [client.submit(_bucket_rows, i, pieces, schema, bounds, run, pure=False, retries=RETRIES)
                       for i, pieces in enumerate(tasks)]
            rows = sum(client.gather(futures))
        except BaseException:
            fs.rm(root, recursive=True)
            raise
        parts = [BucketPart(b, run, schema) for b in range(buckets)]
        return BucketPlan(parts, rows, files, run, seconds=time.perf_counter() - started, _scratch=[run])

    def execute(self, job: Job, plan: BucketPlan, sink: Sink):
        from distributed import as_completed

        started = time.perf_counter()
        try:
            sink.open(len(plan.parts))
            writer = sink.part_writer()
            futures = [self.client.submit(run_bucket, job, part, writer, pure=False, retries=RETRIES)
                       for part in plan.parts]
            outputs, seconds, done, finished = {}, {}, 0, 0
            for future in as_completed(futures):
                index, output, took = future.result()
                finished += 1
                if output is not None:
                    outputs[index], seconds[index] = output, took
                    done += output.rows
                if self.progress is not None:
                    self.progress(done, plan.rows, finished)
            ordered = [outputs[i] for i in sorted(outputs)]
            if not ordered:
                raise InputError("no rows in " + ", ".join(map(str, plan.files)))
            for name in ordered[0].tables:  # tables that travelled back: in the single-machine order
                table = pl.concat([o.tables[name] for o in ordered], how="vertical")
                key = getattr(job, "order", {}).get(name)
                sink.append(name, table.sort(key, maintain_order=True) if key else table)
            summary = reduce(job.combine, [o.summary for o in ordered])
            info = RunInfo(len(plan.parts), True, self.workers, plan.seconds + time.perf_counter() - started,
                           [seconds[i] for i in sorted(seconds)])
            return job.finish(summary, sink, info)
        except BaseException:
            try:
                sink.abort()
            except KeyboardInterrupt:  # one Ctrl-C can arrive twice (Polars raises it, then Python): still dropped
                sink.abort()
            raise


def _connect(scheduler: str | None, workers: int | None):
    """(client, local cluster to close or None) for a scheduler address, or a local cluster of N workers."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ClusterUnavailable(EXTRA_MESSAGE) from exc
    if scheduler:
        try:
            return Client(scheduler, timeout="10s"), None
        except OSError as exc:
            raise ClusterUnavailable(f"cannot reach the scheduler at {scheduler}: {exc}") from exc
    cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cluster), cluster
