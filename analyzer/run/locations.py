"""Paths a cluster's workers reach: local paths and fsspec URLs (``s3://…``, ``file://…``) alike."""

from __future__ import annotations

from pathlib import Path

from analyzer.io.load import InputError, expand_inputs, format_of


def location(place: str | Path):
    """(fsspec filesystem, path on it) of a local path or an fsspec URL."""
    import fsspec  # comes with the dask extra, which is optional

    return fsspec.core.url_to_fs(str(place))


def polars_path(fs, path: str) -> str:
    """What Polars reads or writes for ``path`` on ``fs``: the plain path locally, the URL elsewhere."""
    return path if "file" in fs.protocol else fs.unstrip_protocol(path)


def expand_locations(inputs: list[str | Path]) -> list[str]:
    """Like :func:`analyzer.io.load.expand_inputs`, for local paths and fsspec URLs: files, directories, globs."""
    files: list[str] = []
    for item in inputs:
        if "://" not in str(item):
            files.extend(str(p) for p in expand_inputs([item]) if str(p) not in files)
            continue
        fs, path = location(item)
        if fs.isdir(path):
            found = sorted(p for p in fs.find(path) if format_of(p))
        elif any(ch in path for ch in "*?["):
            found = sorted(p for p in fs.glob(path) if format_of(p))
        elif fs.exists(path):
            found = [path]
        else:
            raise InputError(f"no such file or directory: {item}")
        if not found:
            raise InputError(f"no CSV or Parquet files in {item}")
        files.extend(u for u in (polars_path(fs, p) for p in found) if u not in files)
    return files
