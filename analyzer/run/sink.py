"""Where a run's tables go: a *sink*. The job hands it tables; the executor decides when.

=================== ==========================================================================================
:class:`MemorySink`    every table kept as a DataFrame (``analyzer.score``)
:class:`DirectorySink` ``OUTDIR/NAME.{parquet,csv}``, appended per partition, renamed into place together at
                       the commit (``analyzer.score_to``, ``analyzer score``)
:class:`PartFilesSink` ``OUTDIR/{hands,games}/part-K.parquet`` written by the workers of a cluster, moved into
                       place at the commit with ``players.parquet`` and ``rejects.parquet``
:class:`NullSink`      nothing kept (``analyzer check`` without the scored tables)
=================== ==========================================================================================

A sink's ``tables`` says which tables it takes: a job computes the players' statistics only for a sink that
takes ``players``. A sink whose :meth:`part_writer` returns a writer has partitions written where they are
scored (on a worker); otherwise the executor appends them in partition order. ``scratch`` is where a cluster
run may put its temporary files beside the outputs (a place every worker reaches), or None.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Protocol

import polars as pl

from analyzer.io.write import ResultWriter, plain_types
from analyzer.run.locations import location, polars_path

RUN_TABLES = ("hands", "games", "players", "rejects", "sessions", "teams", "ratings", "platform_ranks")
# written only where the input has what they need (sessions, teams): a run without removes an older run's
OPTIONAL_TABLES = ("sessions", "teams", "ratings", "platform_ranks")


class PartWriter(Protocol):
    """Writes one partition's row tables where every worker reaches (picklable)."""

    def write(self, index: int, tables: dict[str, pl.DataFrame]) -> None: ...


class Sink(Protocol):
    tables: frozenset[str]
    scratch: str | None

    def open(self, partitions: int) -> None:
        """Before the first partition: how many there will be."""

    def append(self, name: str, table: pl.DataFrame) -> None:
        """Rows of table ``name``, in partition order."""

    def part_writer(self) -> PartWriter | None:
        """A writer for the workers, or None: the executor appends each partition's tables."""

    def commit(self, details: dict) -> dict:
        """Make the run's tables visible together; returns where they are (paths, or the frames)."""

    def abort(self) -> None:
        """Drop what a failed run wrote."""


class MemorySink:
    """Every table kept in memory: after the commit, ``frames`` holds them by name."""

    tables = frozenset(RUN_TABLES)
    scratch = None

    def __init__(self) -> None:
        self._frames: dict[str, list[pl.DataFrame]] = {}
        self.frames: dict[str, pl.DataFrame] = {}

    def open(self, partitions: int) -> None:
        self._frames, self.frames = {}, {}

    def append(self, name: str, table: pl.DataFrame) -> None:
        self._frames.setdefault(name, []).append(table)

    def part_writer(self) -> None:
        return None

    def commit(self, details: dict) -> dict:
        """The tables put together (in ``frames``); no paths to return."""
        self.frames = {name: pl.concat(frames, how="vertical") for name, frames in self._frames.items()}
        self._frames = {}
        return {}

    def abort(self) -> None:
        self._frames = {}


class NullSink(MemorySink):
    """Keeps nothing: a run for its summary alone (``check`` without the scored tables)."""

    tables = frozenset()

    def append(self, name: str, table: pl.DataFrame) -> None:
        pass


class DirectorySink:
    """``OUTDIR/{hands,games,players,rejects}.{parquet,csv}`` with an atomic commit (:class:`ResultWriter`)."""

    tables = frozenset(RUN_TABLES)
    scratch = None

    def __init__(self, outdir: str | Path, fmt: str = "parquet") -> None:
        self.outdir, self.fmt = Path(outdir), fmt
        self._writer: ResultWriter | None = None

    def open(self, partitions: int) -> None:
        self._writer = ResultWriter(self.outdir, self.fmt, streamed=partitions > 1, optional=OPTIONAL_TABLES)

    def append(self, name: str, table: pl.DataFrame) -> None:
        self._writer.append(name, table)

    def part_writer(self) -> None:
        return None

    def commit(self, details: dict) -> dict[str, Path]:
        return self._writer.commit(details)

    def abort(self) -> None:
        if self._writer is not None:
            self._writer.abort()


class PartFiles:
    """The part writer of :class:`PartFilesSink`: ``RUN/NAME/part-K.parquet``."""

    def __init__(self, run: str) -> None:
        self.run = run

    def write(self, index: int, tables: dict[str, pl.DataFrame]) -> None:
        fs, root = location(self.run)
        for name, table in tables.items():
            fs.makedirs(f"{root}/{name}", exist_ok=True)
            with fs.open(f"{root}/{name}/part-{index:05d}.parquet", "wb") as handle:
                plain_types(table).write_parquet(handle)


class PartFilesSink:
    """Part files under OUTDIR (a local path or an fsspec URL every worker reaches), written by the workers.

    Everything goes into a run directory inside OUTDIR first; the commit moves the tables into place. On a
    local or shared filesystem these are renames; on an object store (no renames) copies and deletes, so there
    a reader may briefly see a table of the old run beside one of the new."""

    tables = frozenset(RUN_TABLES)

    def __init__(self, outdir: str | Path) -> None:
        self.outdir = str(outdir)
        self.scratch = self.outdir
        self.run: str | None = None

    def open(self, partitions: int) -> None:
        fs, root = location(self.outdir)
        fs.makedirs(root, exist_ok=True)
        self.run = self.outdir.rstrip("/") + f"/.analyzer-run-{uuid.uuid4().hex[:12]}"
        fs.makedirs(location(self.run)[1], exist_ok=True)

    def part_writer(self) -> PartFiles:
        return PartFiles(self.run)

    def append(self, name: str, table: pl.DataFrame) -> None:
        fs, root = location(self.run)
        with fs.open(f"{root}/{name}.parquet", "wb") as handle:
            plain_types(table).write_parquet(handle)

    def commit(self, details: dict) -> dict[str, str]:
        fs, root = location(self.run)
        _, out = location(self.outdir)
        paths = {}
        for name in ("hands", "games", "hands.parquet", "games.parquet", "players.parquet", "rejects.parquet",
                     "sessions.parquet", "teams.parquet", "ratings.parquet",
                     "platform_ranks.parquet"):
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
            paths[name.split(".")[0]] = self.outdir.rstrip("/") + "/" + name
        fs.rm(root, recursive=True)
        return paths

    def abort(self) -> None:
        if self.run is None:
            return
        fs, root = location(self.run)
        if fs.exists(root):
            fs.rm(root, recursive=True)


def read_part_files(outdir: str | Path) -> dict[str, pl.DataFrame]:
    """The tables of a :class:`PartFilesSink`'s OUTDIR in the single-machine order (parts read together,
    stable sorts: each part holds whole games in replay order)."""
    fs, root = location(outdir)
    base = polars_path(fs, root)
    tables = {}
    for name in ("hands", "games"):  # part files, or one file (a table no partition gave: sheets have no hands)
        path = f"{base}/{name}/*.parquet" if fs.exists(f"{root}/{name}") else f"{base}/{name}.parquet"
        tables[name] = pl.read_parquet(path).sort("game_id", maintain_order=True)
    for name in ("players", "rejects", "sessions", "teams", "ratings", "platform_ranks"):
        if name in ("players", "rejects") or fs.exists(f"{root}/{name}.parquet"):
            tables[name] = pl.read_parquet(f"{base}/{name}.parquet")
    return tables
