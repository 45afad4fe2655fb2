"""What an export writes, staged: a table (:class:`TableOutput`, one Parquet file the batches' Arrow tables are
appended to) or a directory (:class:`DirectoryOutput`, one text file per game), each written in a staging folder
(:class:`Staged`) and put in place when the run ends; a fault or Ctrl-C leaves nothing behind, and an OS error
names the output (:class:`~analyzer.io.faults.OutputError`)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.io.faults import interrupts_held, set_aside, writing


# min/max kept for the columns a reader filters on (row groups skipped); the others' cost a third of the write
STATISTICS = ["game_id", "log_row", "event", "seat", "round"]


class Staged:
    """What an output writes, in a folder of its own (``.analyzer-export-…``; an import's ``.analyzer-import-…``,
    :mod:`.import_file`) beside the files it makes, put in place together at the commit; the abort (a fault,
    Ctrl-C) removes it and the folders the output made, so a failed export leaves the disk as it was. Its files
    follow the umask, as ``score``'s."""

    def __init__(self, path: Path, folder: Path, prefix: str = ".analyzer-export-") -> None:
        self.path, self.folder = path, folder  # the output named in errors; where its files go
        self.prefix = prefix  # the staging folder's name begins so: what made a folder left by a killed run
        self.made: list[Path] = []
        self.staging: Path | None = None

    def open(self) -> None:
        with interrupts_held(), writing(self.path):  # Ctrl-C while they are made: known, for the abort
            self.made = [f for f in [self.folder, *self.folder.parents] if not f.exists()]
            self.folder.mkdir(parents=True, exist_ok=True)
            self.staging = Path(tempfile.mkdtemp(prefix=self.prefix, dir=self.folder))

    def put_in_place(self, names: list[str]) -> None:
        """The staged files ``names`` renamed into the folder together: a file one replaces is kept until all
        are in, and put back if a rename fails or Ctrl-C comes meanwhile."""
        kept, done = self.staging / ".replaced", []
        with interrupts_held() as held, writing(self.path):
            kept.mkdir()
            try:
                for name in names:
                    final = self.folder / name
                    if final.exists():
                        set_aside(final, kept / name)
                    done.append(name)
                    os.replace(self.staging / name, final)
            except BaseException:
                self._put_back(done, kept)
                raise
            if held.interrupted:  # the export is not written, as for Ctrl-C before
                self._put_back(done, kept)
            self.remove(keep_folders=not held.interrupted)

    def _put_back(self, names: list[str], kept: Path) -> None:
        for name in reversed(names):
            if (kept / name).exists():
                os.replace(kept / name, self.folder / name)
            else:
                (self.folder / name).unlink(missing_ok=True)

    def remove(self, keep_folders: bool = False) -> None:
        """The staging folder removed, and (``keep_folders`` aside) the folders the output made."""
        with interrupts_held():
            if self.staging is not None:
                shutil.rmtree(self.staging, ignore_errors=True)
                self.staging = None
            for folder in [] if keep_folders else self.made:  # deepest first; one holding something else stays
                try:
                    folder.rmdir()
                except OSError:
                    break
            self.made = []


class TableOutput:
    """Arrow tables appended to one Parquet file, written in a staging folder beside it and renamed at the end."""

    unit = "event row(s)"

    def __init__(self, path: str | Path, schema: pa.Schema) -> None:
        self.path, self.schema = Path(path), schema
        self.files = Staged(self.path, self.path.parent)
        self.writer: pq.ParquetWriter | None = None

    def open(self) -> None:
        self.files.open()
        with writing(self.path):
            self.writer = pq.ParquetWriter(self.staged, self.schema, compression="zstd",
                                           write_statistics=STATISTICS)

    def write(self, table: pa.Table) -> int:
        if table.num_rows:
            with writing(self.path):
                self.writer.write_table(table.cast(self.schema))
        return table.num_rows

    def commit(self) -> None:
        self.close()
        self.files.put_in_place([self.path.name])

    def close(self) -> None:
        """The file finished in the staging folder (not yet in place)."""
        with writing(self.path):  # closing writes what is buffered: the disk may be full
            self.writer, writer = None, self.writer
            writer.close()

    @property
    def staged(self) -> Path:
        """Where the file is written until it is put in place."""
        return self.files.staging / self.path.name

    def abort(self) -> None:
        with interrupts_held():
            try:
                if self.writer is not None:
                    self.writer, writer = None, self.writer
                    writer.close()
            except Exception:  # a full disk again: the run's own error is what matters
                pass
            finally:
                self.files.remove()


class DirectoryOutput:
    """One text file per game in a directory, ``GAME_ID`` + ``suffix``, written in a staging folder inside it
    and renamed into place together at the end: the directory holds this export's files all, or none."""

    unit = "file(s)"

    def __init__(self, path: str | Path, suffix: str) -> None:
        self.path, self.suffix = Path(path), suffix
        self.files = Staged(self.path, self.path)
        self.names: list[str] = []

    def open(self) -> None:
        self.files.open()

    def write_game(self, gid: str, text: str) -> None:
        name = _safe_name(gid) + self.suffix
        with writing(self.path / name):
            (self.files.staging / name).write_text(text, encoding="utf-8", newline="\n")
        self.names.append(name)

    def commit(self) -> None:
        self.files.put_in_place(list(dict.fromkeys(self.names)))

    def abort(self) -> None:
        self.files.remove()


def _safe_name(gid: str) -> str:
    """A game id as a file name: ids are letters, digits, dashes and dots; anything else (a separator) is _."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", gid)
    return "_" + name if name.startswith(".") else name
