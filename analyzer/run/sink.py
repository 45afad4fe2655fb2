"""Where a run's tables go: a *sink*. The job hands it tables; the executor decides when.

* :class:`MemorySink`: every table kept as a DataFrame (``analyzer.score``);
* :class:`DirectorySink`: ``OUTDIR/NAME.{parquet,csv,json,ndjson}`` or ``OUTDIR/results.xlsx``, appended per partition, renamed into place together
  at the commit (``analyzer.score_to``, ``analyzer score``);
* :class:`ClusterDirectorySink`: the same files from a cluster (``score_to``'s default there): the workers'
  part files streamed into one file per table, then the same commit;
* :class:`PartFilesSink`: ``OUTDIR/{hands,games}/part-K.parquet`` written by the workers of a cluster, moved
  into place at the commit with ``players.parquet`` and ``rejects.parquet`` (``--part-files``; an OUTDIR
  given as a URL, as single files then);
* :class:`NullSink`: nothing kept (``analyzer check`` without the scored tables).

A sink's ``tables`` says which tables it takes: a job computes the players' statistics only for a sink that
takes ``players``. A sink whose :meth:`part_writer` returns a writer has partitions written where they are
scored (on a worker); otherwise the executor appends them in partition order. ``scratch`` is where a cluster
run may put its temporary files beside the outputs (a place every worker reaches), or None. A directory sink
made ``held`` only stages the tables at the commit; its ``release`` puts them in place with the rest of the
run's set (``score --report``: the report), so that a report that cannot be written leaves OUTDIR as it was.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Protocol

import polars as pl

from analyzer.io.faults import interrupts_held
from analyzer.io.write import MANIFEST_NAME, ResultWriter, current_umask, plain_types
from analyzer.run.locations import location, polars_path

# what a PartFilesSink's run directory may hold: part-file folders, or one file per table
PART_FILES_NAMES = ("hands", "games", "hand_seats", "hands.parquet", "games.parquet", "hand_seats.parquet",
                    "players.parquet", "rejects.parquet", "sessions.parquet", "teams.parquet", "ratings.parquet",
                    "platform_ranks.parquet")
RUN_TABLES = ("hands", "games", "hand_seats", "players", "rejects", "sessions", "teams", "ratings", "platform_ranks")
# the row tables a cluster's workers write as part files (a partition's rows each)
PART_TABLES = ("hands", "games", "hand_seats")
# written only where the input has what they need (sessions, teams, events): a run without removes an older run's
OPTIONAL_TABLES = ("sessions", "teams", "ratings", "platform_ranks", "hand_seats")


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
    """``OUTDIR/{hands,games,players,rejects}.{parquet,csv}`` with an atomic commit (:class:`ResultWriter`).

    ``held=True``: the commit only stages the tables in the run directory (:meth:`staged` says where each is)
    and :meth:`release` puts them in place, with what else belongs to the run's set (the report): until then
    OUTDIR is as it was, and :meth:`abort` drops the run."""

    tables = frozenset(RUN_TABLES)
    scratch = None

    def __init__(self, outdir: str | Path, fmt: str = "parquet", held: bool = False) -> None:
        self.outdir, self.fmt, self.held = Path(outdir), fmt, held
        self._writer: ResultWriter | None = None

    def open(self, partitions: int) -> None:
        with interrupts_held():  # a writer made is a writer kept, for abort to drop
            self._writer = ResultWriter(self.outdir, self.fmt, streamed=partitions > 1, optional=OPTIONAL_TABLES)

    def append(self, name: str, table: pl.DataFrame) -> None:
        self._writer.append(name, table)

    def part_writer(self) -> None:
        return None

    def commit(self, details: dict) -> dict[str, Path]:
        return self._writer.stage(details) if self.held else self._writer.commit(details)

    @property
    def staging(self) -> Path:
        """The run directory, where a held commit's tables are (and where the run's other files go)."""
        return self._writer.temp

    def staged(self, paths: dict) -> dict[str, Path]:
        """Where the tables of ``paths`` (as the commit returned them) are until :meth:`release`."""
        return {name: self.staging / Path(path).name for name, path in paths.items()}

    def release(self, extra: tuple[str, ...] = ()) -> None:
        """A held commit's tables put in place, with the ``extra`` files written into :attr:`staging`."""
        self._writer.publish(extra)

    @property
    def notes(self) -> list[str]:
        """What the commit could not write as asked (a table too big for a workbook)."""
        return [] if self._writer is None else self._writer.notes

    def abort(self) -> None:
        if self._writer is not None:
            self._writer.abort()


class ClusterDirectorySink(DirectorySink):
    """The files of :class:`DirectorySink`, from a cluster: the workers write their partitions' tables as part
    files into the run's temporary directory inside OUTDIR (a local path every worker reaches), which are then
    streamed, in partition order, into one file per table before the commit. The buckets of a cluster run are
    ranges of game ids (:mod:`analyzer.run.dask`), so one after the other they give the single-machine table.
    ``--format csv`` is written the same way."""

    def __init__(self, outdir: str | Path, fmt: str = "parquet", held: bool = False) -> None:
        super().__init__(outdir, fmt, held)
        self.scratch = str(self.outdir)  # the map stage's bucket files go beside the outputs, as the parts do
        self._parts: Path | None = None

    def open(self, partitions: int) -> None:
        super().open(partitions)
        run = self._writer.temp
        run.chmod(0o777 & ~current_umask())  # a cluster's workers write into it; private would shut out other users
        self._parts = run / "parts"

    def part_writer(self) -> PartFiles:
        return PartFiles(str(self._parts))

    def append(self, name: str, table: pl.DataFrame) -> None:
        self._join_parts()  # the partitions' tables come first, as in a local run
        super().append(name, table)

    def commit(self, details: dict) -> dict[str, Path]:
        self._join_parts()
        return super().commit(details)

    def _join_parts(self) -> None:
        if self._parts is None or not self._parts.is_dir():
            return
        for folder in sorted(self._parts.iterdir(), key=lambda f: RUN_TABLES.index(f.name)):
            self._writer.write_whole(folder.name, pl.scan_parquet(sorted(folder.glob("part-*.parquet"))))
        # the part files are read by the writes above, which are done: they go with the run directory
        self._parts = None


class PartFiles:
    """The part writer of :class:`PartFilesSink` and :class:`ClusterDirectorySink`: ``RUN/NAME/part-K.parquet``."""

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
    a reader may briefly see a table of the old run beside one of the new. ``part_files=False``: each table's
    parts are streamed into one file (``hands.parquet``) before the commit, in partition order — the
    single-machine order, as the buckets are ranges of game ids."""

    tables = frozenset(RUN_TABLES)

    def __init__(self, outdir: str | Path, part_files: bool = True, held: bool = False) -> None:
        self.outdir = str(outdir)
        self.scratch = self.outdir
        self.part_files, self.held = part_files, held  # held: as DirectorySink's
        self.run: str | None = None
        self._details: dict = {}

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
        """The tables joined (without part files), then moved into place (``held``: by :meth:`release`)."""
        fs, root = location(self.run)
        if not self.part_files:
            for table in PART_TABLES:
                if fs.exists(f"{root}/{table}"):
                    parts = sorted(fs.glob(f"{root}/{table}/part-*.parquet"))
                    pl.scan_parquet([polars_path(fs, part) for part in parts]).sink_parquet(
                        polars_path(fs, f"{root}/{table}.parquet"), compression="zstd")
                    fs.rm(f"{root}/{table}", recursive=True)
        self._details = details
        paths = {name.split(".")[0]: self.outdir.rstrip("/") + "/" + name for name in self._staged_names()}
        if not self.held:
            self.release()
        return paths

    def _staged_names(self) -> list[str]:
        fs, root = location(self.run)
        return [name for name in PART_FILES_NAMES if fs.exists(f"{root}/{name}")]

    @property
    def staging(self) -> str:
        """The run directory, where a held commit's tables are."""
        return self.run

    def staged(self, paths: dict) -> dict[str, str]:
        """Where the tables of ``paths`` (as the commit returned them) are until :meth:`release`."""
        return {name: self.run + "/" + str(path).rsplit("/", 1)[-1] for name, path in paths.items()}

    def release(self, extra: tuple[str, ...] = ()) -> None:
        """The committed tables moved into place, with the ``extra`` files written into :attr:`staging`; the
        manifest last."""
        fs, root = location(self.run)
        _, out = location(self.outdir)
        if fs.exists(f"{out}/{MANIFEST_NAME}"):  # out first: no manifest names a mixed set
            fs.rm(f"{out}/{MANIFEST_NAME}")
        files = {}
        for name in [*self._staged_names(), *extra]:
            source, final = f"{root}/{name}", f"{out}/{name}"
            # an earlier run's table in either layout (parts or one file): moved aside, then dropped
            stem = name.split(".")[0]
            places = [final] if name in extra else dict.fromkeys([final, f"{out}/{stem}", f"{out}/{stem}.parquet"])
            earlier = [place for place in places if fs.exists(place)]
            aside = [f"{out}/.{place.rsplit('/', 1)[-1]}.old-{uuid.uuid4().hex[:8]}" for place in earlier]
            for place, old in zip(earlier, aside):
                fs.mv(place, old, recursive=True)
            fs.mv(source, final, recursive=True)
            for old in aside:
                fs.rm(old, recursive=True)
            if name not in extra:
                files[name.split(".")[0]] = name
        fs.rm(root, recursive=True)
        with fs.open(f"{out}/{MANIFEST_NAME}", "w") as handle:  # last, as a local run's
            handle.write(json.dumps({"run": uuid.uuid4().hex, "tables": files, **self._details}, indent=2) + "\n")

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
    for name in PART_TABLES:  # part files, or one file (a table no partition gave: sheets have no hands)
        if name == "hand_seats" and not (fs.exists(f"{root}/{name}") or fs.exists(f"{root}/{name}.parquet")):
            continue  # a run without events
        path = f"{base}/{name}/*.parquet" if fs.exists(f"{root}/{name}") else f"{base}/{name}.parquet"
        tables[name] = pl.read_parquet(path).sort("game_id", maintain_order=True)
    for name in ("players", "rejects", "sessions", "teams", "ratings", "platform_ranks"):
        if name in ("players", "rejects") or fs.exists(f"{root}/{name}.parquet"):
            tables[name] = pl.read_parquet(f"{base}/{name}.parquet")
    return tables
