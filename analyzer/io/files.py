"""Which files an input names: files, directories (searched recursively) and globs, and the format of each by
its suffix (``.csv`` and ``.tsv`` are CSV, their separator read off the header line; ``.parquet`` and ``.pq``
Parquet)."""

from __future__ import annotations

import glob as globlib
from pathlib import Path, PurePosixPath

from analyzer.io.errors import InputError

SUFFIXES = {".csv": "csv", ".tsv": "csv", ".parquet": "parquet", ".pq": "parquet"}
EXPECTED = "expected .csv, .tsv or .parquet"


def format_of(path: str | Path) -> str | None:
    """``csv`` or ``parquet`` by the file's suffix (any case); None for any other file."""
    return SUFFIXES.get(PurePosixPath(str(path)).suffix.lower())


def expand_inputs(inputs: list[str | Path]) -> list[Path]:
    """Files from paths, directories (searched recursively) and globs, in the order given, without repeats:
    the same file given twice (relative and absolute, or through a symlink) is read once."""
    files: list[Path] = []
    seen: set[Path] = set()
    for item in inputs:
        text = str(item)
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and format_of(p))
            if not found:
                raise InputError(f"no CSV or Parquet files in directory {text}")
        elif path.is_file():
            if not format_of(path):
                raise InputError(f"{text}: unsupported file type ({EXPECTED})")
            found = [path]
        elif globlib.has_magic(text):
            found = sorted(Path(p) for p in globlib.glob(text, recursive=True) if format_of(Path(p)))
            if not found:
                raise InputError(f"no CSV or Parquet files match {text}")
        else:
            raise InputError(f"no such file or directory: {text}")
        for p in found:
            real = p.resolve()
            if real not in seen:
                seen.add(real)
                files.append(p)
    if not files:
        raise InputError("no input files given")
    return files
