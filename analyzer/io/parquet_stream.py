"""One Parquet file written from a stream of frames by Polars' streaming engine, encoded on all cores.

Arrow's incremental writer (``pyarrow.parquet.ParquetWriter``) encodes every column of a row group on the
thread that calls it: a run's hands table then took 1.4 CPU seconds per million rows on one core, the floor of
a run on many cores. Here the frames appended are the source of a lazy query (a Python IO source, fed through
a short queue) whose ``sink_parquet`` Polars runs on a thread of its own, encoding columns and row groups in
parallel, in order (the rows come out as they were appended).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import polars as pl
from polars.io.plugins import register_io_source

PENDING = 2  # frames waiting to be encoded: bounds the memory the stream holds
_END = None


class ParquetStream:
    """``write`` frames of one schema (others are cast to it) into ``path``; ``close`` finishes the file and
    raises what went wrong in the encoder, if anything."""

    def __init__(self, path: str | Path, schema: pl.Schema, compression: str = "zstd") -> None:
        self.path, self.schema = Path(path), pl.Schema(schema)
        self._frames: queue.Queue = queue.Queue(maxsize=PENDING)
        self._error: BaseException | None = None
        source = register_io_source(self._source, schema=self.schema)
        self._thread = threading.Thread(target=self._encode, args=(source, compression), name="analyzer-parquet",
                                        daemon=True)
        self._thread.start()

    def _source(self, with_columns, predicate, n_rows, batch_size) -> Iterator[pl.DataFrame]:
        while (frame := self._frames.get()) is not _END:
            yield frame.select(with_columns) if with_columns is not None else frame

    def _encode(self, source: pl.LazyFrame, compression: str) -> None:
        try:
            source.sink_parquet(self.path, compression=compression, statistics=True, maintain_order=True)
        except BaseException as exc:  # handed to the writing thread at close
            self._error = exc
            while self._frames.get() is not _END:  # the writer is not left blocked on a full queue
                pass

    def write(self, frame: pl.DataFrame) -> None:
        if self._error is not None:
            raise self._error
        if frame.schema != self.schema:
            frame = frame.cast(self.schema)
        self._frames.put(frame)

    def close(self) -> None:
        if self._thread.is_alive():
            self._frames.put(_END)
            self._thread.join()
        if self._error is not None:
            raise self._error
