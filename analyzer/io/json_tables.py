"""Tables as JSON for web pages and APIs, written a part at a time.

A table goes out as an array of records (``[{"rank": 1, "player": "Ana", …}, …]``, :class:`JsonArrayFile`) or
as NDJSON, one record a line (:class:`NdjsonFile`), for the tables that may hold millions of rows. Values are
Polars' JSON: lists are arrays, structs objects, dates and times ISO 8601 text (a time-zoned time with its
offset: ``2024-05-01T21:00:00+09:00``), NaN and infinities null.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl


class NdjsonFile:
    """``append`` adds the frame's rows, one JSON record a line."""

    def __init__(self, path: str | Path) -> None:
        self._handle = open(path, "w", encoding="utf-8")

    def append(self, df: pl.DataFrame) -> None:
        if df.height:
            self._handle.write(df.write_ndjson())

    def close(self) -> None:
        self._handle.close()


class JsonArrayFile(NdjsonFile):
    """One JSON array of the records of every frame appended: the records of each part are Polars' NDJSON lines
    (a line holds no raw newline), put between the brackets with commas — no part held back."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        self._handle.write("[")
        self._records = 0

    def append(self, df: pl.DataFrame) -> None:
        if not df.height:
            return
        lines = df.write_ndjson().rstrip("\n")
        self._handle.write(("\n" if self._records == 0 else ",\n") + lines.replace("\n", ",\n"))
        self._records += df.height

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.write("\n]\n" if self._records else "]\n")
        super().close()


def json_file(path: str | Path, records_per_line: bool) -> NdjsonFile:
    """The writer of one table: NDJSON (``records_per_line``) or a JSON array."""
    return NdjsonFile(path) if records_per_line else JsonArrayFile(path)
