"""The Parquet stream of a run's table: an encoder that stops (an error, or Ctrl-C cancelling Polars' queries
on every thread) never leaves the writer waiting on a queue nobody empties."""

from __future__ import annotations

import threading

import polars as pl
import pytest

import analyzer.io.parquet_stream as parquet_stream
from analyzer.io.parquet_stream import ParquetStream

FRAME = pl.DataFrame({"game_id": ["g1", "g2"], "points": [1, 2]})


def test_frames_written_read_back_in_order(tmp_path):
    stream = ParquetStream(tmp_path / "t.parquet", FRAME.schema)
    for _ in range(5):
        stream.write(FRAME)
    stream.close()
    assert pl.read_parquet(tmp_path / "t.parquet").equals(pl.concat([FRAME] * 5))


@pytest.mark.parametrize("stop", [RuntimeError("disk gone"), KeyboardInterrupt()])
def test_an_encoder_that_stops_hands_its_error_to_the_writer_without_a_hang(tmp_path, monkeypatch, stop):
    started = threading.Event()

    def sink_that_stops(self, *args, **kwargs):
        started.set()
        raise stop

    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", sink_that_stops)
    monkeypatch.setattr(parquet_stream, "POLL_SECONDS", 0.01)
    stream = ParquetStream(tmp_path / "t.parquet", FRAME.schema)
    started.wait(5)
    done = threading.Event()

    def write_more_than_the_queue_holds():
        with pytest.raises(type(stop)):
            for _ in range(10 * parquet_stream.PENDING):
                stream.write(FRAME)
        with pytest.raises(type(stop)):
            stream.close()
        done.set()

    writer = threading.Thread(target=write_more_than_the_queue_holds, daemon=True)
    writer.start()
    assert done.wait(10), "the writer waited on a queue nobody empties"


def test_ctrl_c_leaving_the_source_reading_does_not_hang_the_close(tmp_path, monkeypatch):
    """Ctrl-C cancels the sink while its source still waits on the queue: that source may take what the writer
    puts last (the end of the stream), which the encoder must not wait for."""

    made, source_reading = threading.Event(), threading.Event()

    def cancelled_sink(self, *args, **kwargs):
        made.wait(5)

        def source_left_behind():
            source_reading.set()
            stream._frames.get()

        threading.Thread(target=source_left_behind, daemon=True).start()
        source_reading.wait(5)
        raise KeyboardInterrupt

    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", cancelled_sink)
    stream = ParquetStream(tmp_path / "t.parquet", FRAME.schema)
    made.set()
    source_reading.wait(5)
    done = threading.Event()

    def close():
        with pytest.raises(KeyboardInterrupt):
            stream.close()
        done.set()

    threading.Thread(target=close, daemon=True).start()
    assert done.wait(10), "close waited on an encoder waiting for an end its source took"
