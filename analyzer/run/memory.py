"""``--memory-limit``: a cap on a run's memory, turned into a partition size once the input's games are counted.

A run costs some memory whatever its partition size — the interpreter with Polars and analyzer loaded, the
writer's streams and queues, the freed pages the allocator keeps a while (``analyzer.allocator``) — and some
that grows with the input's games: the compact rows of every game kept for the ratings, the players' partial
sums, the final tables. What is left of the limit is shared by the partitions in flight. A limit that leaves
less than :data:`MIN_MEMORY_PARTITION_ROWS` rows per partition is refused with the figure it would need.

The figures are peaks of ``analyzer score`` measured by ``benchmarks/memory_limit.py`` (Parquet in and out,
``benchmarks.gamegen`` rows, 2 cores; 70 rows to 10 million, each run a fresh process), rounded up: every run
measured stays within the limit it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.io.load import InputError

MB = 1 << 20
# What a run of several partitions costs whatever their size, and what grows with its games: peaks with small
# partitions (25,000 rows, 2 in flight) of 644 MB on 1M rows (83,600 games), 753-858 MB on 2M, 972-1,136 MB
# on 4M, 1,880 MB on 10M (836,000 games). A run of one partition costs less (no streamed tables, nothing freed
# between partitions): 235 MB on the 70 rows of the sample, 427 MB on 100,000 rows.
PROGRAM_BYTES = 600 * MB
ONE_PART_PROGRAM_BYTES = 260 * MB
BYTES_PER_GAME = 1_700
# one row of a partition in flight, scored, its outputs queued and written: 2.1 kB at 2M rows between
# 200,000 and 400,000-row partitions (2,000 MB on 10M rows at the default, 500,000 rows in flight)
BYTES_PER_ROW = 2_100
ROWS_PER_GAME = 10  # where the games are not counted (a cluster's plan sees samples of them): an estimate
MIN_MEMORY_PARTITION_ROWS = 20_000  # smaller partitions make a run slow (25,000: 2.5x the time of 500,000)


def megabytes(size: int) -> str:
    """A size as whole megabytes, rounded up: ``512 MB`` (less than one: in bytes)."""
    return f"{-(-size // MB):,} MB" if size >= MB else f"{size:,} bytes"


@dataclass(frozen=True)
class MemoryBudget:
    """A memory limit in bytes, shared by ``in_flight`` partitions; ``most_rows``: a partition size given
    beside it (the smaller wins). :meth:`rows` is the partition size, once the input's games are known."""

    limit: int
    in_flight: int = 1
    most_rows: int | None = None

    def rows(self, games: int, total_rows: int) -> int:
        """Rows per partition for an input of ``games`` games and ``total_rows`` rows, or :class:`InputError`
        when the limit leaves no room for a partition."""
        state = BYTES_PER_GAME * games
        one_part = self.most_rows is None or self.most_rows >= total_rows
        if one_part and self.limit >= ONE_PART_PROGRAM_BYTES + state + total_rows * BYTES_PER_ROW:
            return max(total_rows, 1)  # the whole input at once
        fixed = PROGRAM_BYTES + state
        rows = (self.limit - fixed) // (self.in_flight * BYTES_PER_ROW)
        if rows < MIN_MEMORY_PARTITION_ROWS:
            least = fixed + self.in_flight * MIN_MEMORY_PARTITION_ROWS * BYTES_PER_ROW
            fewer = ", or fewer partitions in flight (--in-flight)" if self.in_flight > 1 else ""
            raise InputError(
                f"memory limit {megabytes(self.limit)} is below what this run needs: {megabytes(fixed)} whatever "
                f"the partition size (about {megabytes(PROGRAM_BYTES)} for the program, {BYTES_PER_GAME / 1000:g} "
                f"kB for each of its {games:,} games) and {megabytes(least - fixed)} for {self.in_flight} "
                f"partition(s) of {MIN_MEMORY_PARTITION_ROWS:,} rows in flight: give at least "
                f"{megabytes(least)}{fewer}")
        return min(rows, self.most_rows) if self.most_rows else rows
