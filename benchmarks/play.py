"""Play state benchmark: the seats' hands, shanten and hand facts of N replicated Tenhou games from their events.

    .venv/bin/python -m benchmarks.play [--games 10000] [--logs ../shared/data/logs] [--out benchmarks/results]

The shared logs are replicated to ``--games`` distinct games (as :mod:`benchmarks.tenhou` does) and their events
exported (``analyzer.export_events``, which gives each row its ``shanten``); then, in this process, on the events
table read back without its ``shanten``:

* floor: reading the events Parquet file;
* shanten: :func:`analyzer.play.state.shanten_column` (every seat's hand after every event, then the shanten);
* hand_seats: :func:`analyzer.hand_seats` (the hands, shanten, riichi waits, wait tiles left, furiten, …).

Printed: events/s of each step and the peak RSS; written as JSON to ``benchmarks/results/play-*.json``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import polars as pl

import analyzer
from analyzer.play.state import shanten_column
from benchmarks.figures import peak_rss_mb, run_info, save
from benchmarks.tenhou import replicate

SHARED_LOGS = Path(__file__).resolve().parents[2] / "shared" / "data" / "logs"


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.play", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--logs", type=Path, default=SHARED_LOGS)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="analyzer-play-") as tmp:
        logs, events_path = Path(tmp) / "logs", Path(tmp) / "events.parquet"
        logs.mkdir()
        files, copies = replicate(args.logs, args.games, logs)
        analyzer.export_events([str(logs)], events_path)
        started = time.perf_counter()
        events = pl.read_parquet(events_path).drop("shanten")
        floor = time.perf_counter() - started
        analyzer.hand_seats(events.head(2000))  # the tables loaded, Polars' pool started: not timed
        started = time.perf_counter()
        shanten_column(events)
        shanten = time.perf_counter() - started
        started = time.perf_counter()
        analyzer.hand_seats(events)
        seats = time.perf_counter() - started
    n, games = events.height, events["game_id"].n_unique()
    fig = {"run": run_info(), "games": games, "files": files, "copies": copies, "events": n, "peak_rss_mb": peak_rss_mb(),
           "seconds": {"floor": floor, "shanten": shanten, "hand_seats": seats}}
    print(f"{games:,} games, {n:,} events; peak RSS {fig['peak_rss_mb']:,.0f} MB")
    for step, seconds in fig["seconds"].items():
        print(f"{step:<11}{seconds:8.2f} s {n / seconds:14,.0f} events/s")
    print("figures:", save(fig, args.out, "play", str(games)))
    return fig


if __name__ == "__main__":
    main()
