"""The same scoring on a Dask cluster (the optional ``dask`` extra: ``pip install 'analyzer[dask]'``).

:func:`score_on_cluster` runs the partition-wise plan of :mod:`analyzer.partition` with Dask distributed tasks
instead of one loop, with exactly the tables of a single-machine run:

1. **map**: each task reads a slice of the input files (whole files, or row ranges of big Parquet files) and
   splits its rows into ``P`` buckets by a hash of ``game_id``, writing one Parquet file per bucket under the
   run directory (``RUN/buckets/_bucket=K/task-NNNNN.parquet``). Rows of one game land in one bucket
   whatever file they came from.
2. **score**: each bucket (whole games) is scored by :func:`analyzer.pipeline.score_partition` — the code of
   the single-machine path — and writes ``hands/part-KKKKK.parquet`` and ``games/part-KKKKK.parquet`` in the
   run directory; it returns its rejects and the players' partial sums (small) to the client.
3. **combine**: the client merges the partial sums into ``players.parquet`` and sorts the rejects into input
   order (``rejects.parquet``); then the run directory's tables are renamed into OUTDIR.

A failed task is retried by Dask; a run that fails leaves OUTDIR as it was. Paths must be reachable by every
worker under the same name (a shared filesystem), or be fsspec URLs the workers reach (``s3://…``). Part
files hold whole games in replay order: all of ``hands/*.parquet`` read together and sorted by ``game_id`` keeping each part's order (a stable sort) is the
single-machine ``hands`` table; ``games`` likewise (by ``game_id``, then place and seat).
"""

from __future__ import annotations

import math
import tempfile
import uuid
from pathlib import Path

import polars as pl

from analyzer.io.load import expand_inputs, scan_file, text_schema
from analyzer.io.write import plain_types
from analyzer.partition import DEFAULT_PARTITION_ROWS, unified
from analyzer.pipeline import RunSummary, finish_players, finish_rejects, score_partition, unique_rulesets
from analyzer.problems import rows_with_problems
from analyzer.rules import Rules, load_rules

EXTRA_MESSAGE = "running on a cluster needs the dask extra: pip install 'analyzer[dask]'"
RETRIES = 2


class ClusterUnavailable(RuntimeError):
    """The ``distributed`` package is missing, or the scheduler cannot be reached."""


def _client(scheduler: str | None, workers: int | None, client=None):
    """(client, cluster to close or None) for the given scheduler address, or a local cluster of N workers."""
    if client is not None:
        return client, None
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


def _location(place: str | Path):
    """(fsspec filesystem, path on it) of a local path or an fsspec URL (``s3://…``, ``file://…``)."""
    import fsspec

    return fsspec.core.url_to_fs(str(place))


def _polars_path(fs, path: str) -> str:
    """What Polars reads or writes for ``path`` on ``fs``: the plain path locally, the URL elsewhere."""
    return path if "file" in fs.protocol else fs.unstrip_protocol(path)


def expand_locations(inputs: list[str | Path]) -> list[str]:
    """Like :func:`analyzer.io.load.expand_inputs`, for local paths and fsspec URLs: files, directories, globs."""
    from analyzer.io.load import InputError, _format_of

    files: list[str] = []
    for item in inputs:
        if "://" not in str(item):
            files.extend(str(p) for p in expand_inputs([item]) if str(p) not in files)
            continue
        fs, path = _location(item)
        if fs.isdir(path):
            found = sorted(p for p in fs.find(path) if _format_of(p))
        elif any(ch in path for ch in "*?["):
            found = sorted(p for p in fs.glob(path) if _format_of(p))
        elif fs.exists(path):
            found = [path]
        else:
            raise InputError(f"no such file or directory: {item}")
        if not found:
            raise InputError(f"no CSV or Parquet files in {item}")
        files.extend(u for u in (_polars_path(fs, p) for p in found) if u not in files)
    return files


def _slices(files: list[str], rows_per_task: int) -> list[list[tuple[int, str, tuple[int, int] | None]]]:
    """Map tasks: lists of (file index, path, row range) of about ``rows_per_task`` rows."""
    tasks, current, size = [], [], 0
    for index, path in enumerate(files):
        total = scan_file(path, index).select(pl.len()).collect().item()
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


def _bucket_rows(task: int, pieces, schema: dict, buckets: int, run: str) -> int:
    """Map task: the rows of ``pieces`` into bucket files by a hash of ``game_id``; returns the rows read."""
    frames = [scan_file(path, index, rows=rows) for index, path, rows in pieces]
    rows = unified(frames, schema).with_columns(
        (pl.col("game_id").str.strip_chars().fill_null("").hash(seed=0) % buckets).alias("_bucket")
    ).collect()
    fs, root = _location(run)
    for (bucket,), part in rows.partition_by("_bucket", as_dict=True, include_key=False).items():
        target = f"{root}/buckets/_bucket={bucket}"
        fs.makedirs(target, exist_ok=True)
        with fs.open(f"{target}/task-{task:05d}.parquet", "wb") as handle:
            part.write_parquet(handle)
    return sum(frame.select(pl.len()).collect().item() for frame in frames)


def _score_bucket(bucket: int, run: str, schema: dict, rules) -> dict:
    """Score task: one bucket's games into part files; returns counts, rejects and partial sums."""
    frame = _bucket_frame(bucket, run, schema)
    if frame is None:
        return {"bucket": bucket, "empty": True}
    result = score_partition(frame, rules)
    fs, root = _location(run)
    for name, table in (("hands", result.hands), ("games", result.games)):
        fs.makedirs(f"{root}/{name}", exist_ok=True)
        with fs.open(f"{root}/{name}/part-{bucket:05d}.parquet", "wb") as handle:
            plain_types(table).write_parquet(handle)
    return {
        "bucket": bucket, "empty": False, "rejects": result.rejects, "partials": result.partials,
        "rulesets": result.rulesets, "scored": result.hands.height,
        "problems": rows_with_problems(result.hands),
        "games": result.games["game_id"].n_unique(),
    }


def _map(dask_client, files: list[Path], schema: dict, run: Path, partitions: int | None, partition_rows: int,
         workers: int | None) -> int:
    """The map stage: every input row into its bucket file; returns the number of buckets P."""
    n_workers = max(1, len(dask_client.scheduler_info().get("workers", {})) or (workers or 1))
    tasks = _slices(files, partition_rows)
    rows = sum(scan_file(path, i).select(pl.len()).collect().item() for i, path in enumerate(files))
    buckets = partitions or max(2 * n_workers, math.ceil(rows / partition_rows))
    futures = [dask_client.submit(_bucket_rows, i, pieces, schema, buckets, str(run), pure=False, retries=RETRIES)
               for i, pieces in enumerate(tasks)]
    dask_client.gather(futures)
    return buckets


class _Run:
    """A cluster run: the client (and a local cluster to close), the inputs and the run directory."""

    def __init__(self, data, outdir, scheduler, workers, client, scratch=None) -> None:
        self.files = expand_locations([data] if isinstance(data, (str, Path)) else list(data))
        self.schema = text_schema([scan_file(path, i) for i, path in enumerate(self.files)])
        self.outdir = str(outdir) if outdir is not None else None
        self.client, self._cluster = _client(scheduler, workers, client)
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        if self.outdir is None:  # check: scratch space only, which every worker must reach
            self.dir = (str(scratch).rstrip("/") + f"/analyzer-run-{uuid.uuid4().hex[:12]}" if scratch
                        else tempfile.mkdtemp(prefix="analyzer-run-"))
        else:
            fs, root = _location(self.outdir)
            fs.makedirs(root, exist_ok=True)
            self.dir = self.outdir.rstrip("/") + f"/.analyzer-run-{uuid.uuid4().hex[:12]}"
        self._fs, self._root = _location(self.dir)
        self._fs.makedirs(self._root, exist_ok=True)

    def close(self, failed: bool) -> None:
        if (failed or self.outdir is None) and self._fs.exists(self._root):
            self._fs.rm(self._root, recursive=True)
        if self._cluster is not None:
            self.client.close()
            self._cluster.close()


def score_on_cluster(
    data: str | Path | list[str | Path],
    outdir: str | Path,
    rules: Rules | str | Path | None = None,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    client=None,
    partitions: int | None = None,
    partition_rows: int = DEFAULT_PARTITION_ROWS,
) -> RunSummary:
    """Score hand records on a Dask cluster into OUTDIR (see the module doc for the plan and the layout).

    ``scheduler``: the address of a running scheduler (``tcp://host:8786``); else ``client``: a
    ``distributed.Client``; else a local cluster of ``workers`` processes (2 by default) for this run.
    ``partitions``: the number of buckets P (default: enough for ``partition_rows`` rows each, at least two
    per worker).
    """
    ruleset = load_rules(rules)
    work = _Run(data, outdir, scheduler, workers, client)
    failed = True
    try:
        buckets = _map(work.client, work.files, work.schema, work.dir, partitions, partition_rows, workers)
        futures = [work.client.submit(_score_bucket, b, str(work.dir), work.schema, rules, pure=False,
                                      retries=RETRIES) for b in range(buckets)]
        results = [r for r in work.client.gather(futures) if not r["empty"]]
        if not results:
            raise ValueError("no rows to score in " + ", ".join(map(str, work.files)))
        players = finish_players([r["partials"] for r in results])
        rejects = finish_rejects([r["rejects"] for r in results])
        paths = _commit(work.dir, work.outdir, players, rejects)
        failed = False
    finally:
        work.close(failed)
    rejected = rejects.select(pl.struct("file", "row").n_unique()).item() if rejects.height else 0
    return RunSummary(
        rows_scored=sum(r["scored"] for r in results), rows_rejected=rejected,
        rows_with_problems=sum(r["problems"] for r in results), games=sum(r["games"] for r in results),
        players=players, rules=ruleset, rulesets=unique_rulesets([x for r in results for x in r["rulesets"]]),
        paths=paths, partitions=buckets, spilled=True, workers=work.workers,
    )


def _bucket_frame(bucket: int, run: str, schema: dict) -> pl.LazyFrame | None:
    fs, root = _location(run)
    files = sorted(fs.glob(f"{root}/buckets/_bucket={bucket}/*.parquet"))
    if not files:
        return None
    frame = pl.concat([pl.scan_parquet(_polars_path(fs, f)) for f in files], how="diagonal_relaxed")
    names = frame.collect_schema().names()
    full = {**schema, "_file": pl.String, "_row": pl.Int64, "_pos": pl.Int64}
    return frame.select(pl.col(n) if n in names else pl.lit(None, t).alias(n) for n, t in full.items())


def _check_bucket(bucket: int, run: str, schema: dict, rules):
    from analyzer.check import check_partition

    frame = _bucket_frame(bucket, run, schema)
    return None if frame is None else check_partition(frame, rules)


def check_on_cluster(
    data: str | Path | list[str | Path],
    rules: Rules | str | Path | None = None,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    client=None,
    partitions: int | None = None,
    partition_rows: int = DEFAULT_PARTITION_ROWS,
    scratch: str | Path | None = None,
):
    """:func:`analyzer.check` on a Dask cluster: the same findings, each bucket checked by a task.

    ``scratch``: where the bucket files go (a shared path or URL; default: the client's temporary directory,
    which serves a local cluster but not workers on other machines)."""
    from analyzer.check import combine_checks

    ruleset = load_rules(rules)
    work = _Run(data, None, scheduler, workers, client, scratch)
    try:
        buckets = _map(work.client, work.files, work.schema, work.dir, partitions, partition_rows, workers)
        futures = [work.client.submit(_check_bucket, b, str(work.dir), work.schema, rules, pure=False,
                                      retries=RETRIES) for b in range(buckets)]
        checked = [c for c in work.client.gather(futures) if c is not None]
    finally:
        work.close(True)
    if not checked:
        raise ValueError("no rows to check in " + ", ".join(map(str, work.files)))
    return combine_checks(checked, ruleset)


def _commit(run: str, outdir: str, players: pl.DataFrame, rejects: pl.DataFrame) -> dict[str, str]:
    """Write the client's tables into the run directory, then move every table into OUTDIR.

    On a local or shared filesystem these are renames; on an object store (no renames) copies and deletes,
    so there a reader may briefly see a table of the old run beside one of the new."""
    fs, root = _location(run)
    _, out = _location(outdir)
    for name, table in (("players.parquet", players), ("rejects.parquet", rejects)):
        with fs.open(f"{root}/{name}", "wb") as handle:
            plain_types(table).write_parquet(handle)
    if fs.exists(f"{root}/buckets"):
        fs.rm(f"{root}/buckets", recursive=True)
    paths = {}
    for name in ("hands", "games", "players.parquet", "rejects.parquet"):
        source, final = f"{root}/{name}", f"{out}/{name}"
        if not fs.exists(source):
            continue
        if fs.exists(final):  # an earlier run's table (or parts): moved aside, then dropped
            old = f"{out}/.{name}.old-{uuid.uuid4().hex[:8]}"
            fs.mv(final, old, recursive=True)
            fs.mv(source, final, recursive=True)
            fs.rm(old, recursive=True)
        else:
            fs.mv(source, final, recursive=True)
        paths[name.split(".")[0]] = outdir.rstrip("/") + "/" + name
    fs.rm(root, recursive=True)
    return paths


def read_parts(outdir: str | Path) -> dict[str, pl.DataFrame]:
    """The tables of a cluster run's OUTDIR in the single-machine order (parts read together, stable sorts)."""
    fs, root = _location(outdir)
    base = _polars_path(fs, root)
    return {
        "hands": pl.read_parquet(f"{base}/hands/*.parquet").sort("game_id", maintain_order=True),
        "games": pl.read_parquet(f"{base}/games/*.parquet").sort("game_id", maintain_order=True),
        "players": pl.read_parquet(f"{base}/players.parquet"),
        "rejects": pl.read_parquet(f"{base}/rejects.parquet"),
    }
