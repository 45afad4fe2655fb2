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
POLL_SECONDS = 0.1  # how often a writer waiting on a full queue looks whether the encoder still runs


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
        except BaseException as exc:  # handed to the writing thread at the next write or at close
            self._error = exc

    def write(self, frame: pl.DataFrame) -> None:
        if frame.schema != self.schema:
            frame = frame.cast(self.schema)
        self._put(frame)
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        self._put(_END)
        self._thread.join()
        if self._error is not None:
            raise self._error

    def _put(self, item) -> None:
        """``item`` queued for the source while the encoder runs. An encoder that failed reads no more — and
        Ctrl-C cancels Polars' queries on every thread, which may leave the source reading a queue its sink
        dropped — so the writer never waits on a queue nobody empties: it gives up once the encoder ends."""
        while self._thread.is_alive():
            try:
                self._frames.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                continue
