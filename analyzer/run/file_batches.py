"""Batches of log files read in parallel, on this machine's processes or as tasks on a Dask cluster.

``import`` and ``export`` read files in batches (a worker parses a batch and sends back one Arrow table or a
few texts); :func:`map_in_order` runs a function over the batches and yields its results in the batches'
order, whichever worker finished first, so that a run on a cluster writes the same output as a local one.
At most ``window`` batches are in flight: results wait in memory only as long as the parent is behind,
never the whole archive.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Callable, Iterable, Iterator, TypeVar

from analyzer.run.dask import RETRIES, ClusterUnavailable, DaskExecutor

Item = TypeVar("Item")
Result = TypeVar("Result")

IN_FLIGHT_PER_WORKER = 4  # batches queued per worker: enough to keep every worker busy while results are written


def check_where(workers: int | None, scheduler: str | None, client) -> None:
    """``workers`` are processes on this machine, ``scheduler``/``client`` a Dask cluster: one or the other."""
    if workers is not None and (scheduler is not None or client is not None):
        raise ClusterUnavailable("--workers (processes on this machine) and --scheduler (a Dask cluster): "
                                 "give one of them")


def default_workers(files: int, parallel_from: int) -> int:
    """One process per core (at most 8) once there are enough files to pay for starting them."""
    return min(os.cpu_count() or 1, 8) if files >= parallel_from else 1


def map_in_order(function: Callable[[Item], Result], items: Iterable[Item], workers: int = 1,
                 scheduler: str | None = None, client=None, threads: bool = False) -> Iterator[Result]:
    """``function`` over ``items`` in ``workers`` local processes (1: in this process), or as tasks on the
    Dask cluster at ``scheduler`` (an address) or of ``client``; results in the order of ``items``.
    ``threads``: the local workers are threads of this process (for work that runs Polars, whose threads do not
    survive a fork into a worker process; it works outside the GIL)."""
    if scheduler is not None or client is not None:
        yield from _on_dask(function, items, scheduler, client)
        return
    items = list(items)
    if workers <= 1 or len(items) <= 1:
        yield from map(function, items)
        return
    if threads:  # one batch more than threads: memory holds what is being read, not a queue of results
        with ThreadPoolExecutor(max_workers=workers) as pool:
            yield from _windowed(pool.submit, function, items, workers + 1, lambda f: f.result())
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from _windowed(pool.submit, function, items, workers * IN_FLIGHT_PER_WORKER, lambda f: f.result())


def _on_dask(function, items, scheduler: str | None, client) -> Iterator:
    with DaskExecutor(scheduler=scheduler, client=client) as executor:
        dask = executor.client

        def submit(fn, item):
            return dask.submit(fn, item, pure=False, retries=RETRIES)

        yield from _windowed(submit, function, items, executor.workers * IN_FLIGHT_PER_WORKER,
                             lambda f: f.result())


def _windowed(submit, function, items, window: int, result) -> Iterator:
    pending: deque = deque()
    for item in items:
        pending.append(submit(function, item))
        if len(pending) >= window:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())
