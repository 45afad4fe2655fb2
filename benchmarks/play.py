"""Play benchmark: the seats' hands, shanten and play statistics of N replicated Tenhou games, from their events.

    .venv/bin/python -m benchmarks.play [--games 10000] [--logs ../shared/data/logs] [--out benchmarks/results]

1. Data (not timed): the shared logs replicated to ``--games`` distinct games (as :mod:`benchmarks.tenhou` does),
   their events exported (``analyzer.export_events``), their hand records imported and scored (the scored rows
   with the columns the statistics read, and the games table), all written to a temporary folder.
2. Measured in a fresh process (``--measure DIR``), so that its peak RSS is the chain's alone, on the events
   table read back with the columns the facts are made of (:data:`analyzer.play.seats.EVENT_COLUMNS`, as a
   score run reads them) but its ``shanten``, one step after another:

   * floor: reading those columns of the events Parquet file;
   * states: :func:`analyzer.play.state.seat_states` (every seat's hand after every event, as suit codes);
   * shanten: :func:`analyzer.play.state.shanten_column` given the states (the events' ``shanten`` column);
   * hand_seats: :func:`analyzer.hand_seats` given the states (riichi waits, wait tiles left, furiten, …);
   * statistics: :func:`analyzer.players.play.play_sums`, the play statistics' partial sums of the part;

   the chain is states + shanten + hand_seats + statistics (the issue's target: 1,000,000 events/s or more),
   run twice: the faster pass is the figure (the first, kept as ``first_pass_seconds``, also pays for the
   fresh process's first touch of its memory).
   Also, for the score path: ``player_partials`` of the part without and with its events (with them
   hand_seats is made again inside, from states without every row's hand and without the shanten column:
   what a score run does where no hand_seats were written with the events).

Printed: seconds and events/s of each step, the chain's, and the child's peak RSS; written as JSON to
``benchmarks/results/play-*.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

TARGET = 1_000_000  # events/s of the chain
CHAIN = ("states", "shanten", "hand_seats", "statistics")
PASSES = 2  # the chain is run twice; the faster pass is the figure, the first is kept beside it
SHARED_LOGS = Path(__file__).resolve().parents[2] / "shared" / "data" / "logs"


def prepare(logs: Path, games: int, folder: Path) -> dict:
    """The replicated games' events, scored hands and games table in ``folder``."""
    import analyzer
    from analyzer.jobs.outputs import assemble_part
    from analyzer.scoring.parts import raw_input, score_parts
    from benchmarks.tenhou import replicate

    copies_dir = folder / "logs"
    copies_dir.mkdir()
    files, copies = replicate(logs, games, copies_dir)
    analyzer.export_events([str(copies_dir)], folder / "events.parquet")
    rows, _ = analyzer.read_tenhou([str(copies_dir)])
    parts = score_parts(raw_input(rows))
    scored = pl.concat([p.scored for p in parts], how="diagonal_relaxed")
    scored.sink_parquet(folder / "hands.parquet")
    assemble_part(parts, statistics=False).games.write_parquet(folder / "games.parquet")
    return {"files": files, "copies": copies}


def measure(folder: Path) -> dict:
    """The timed steps, in this process (see the module docstring)."""
    from analyzer.play.seats import EVENT_COLUMNS, hand_seats
    from analyzer.play.state import seat_states, shanten_column
    from analyzer.play.suits import wide_tables
    from analyzer.players import player_partials
    from analyzer.players.play import play_sums
    from benchmarks.figures import peak_rss_mb

    hands = pl.read_parquet(folder / "hands.parquet").lazy()
    games = pl.read_parquet(folder / "games.parquet").lazy()
    wide_tables(False), wide_tables(True)  # built once per process (0.3 s): not timed
    seconds = {}
    started = time.perf_counter()
    # the columns the facts are made of, as a score run reads them (the events' own shanten left out: made here)
    events = pl.read_parquet(folder / "events.parquet", columns=[c for c in EVENT_COLUMNS if c != "shanten"])
    seconds["floor"] = time.perf_counter() - started
    hand_seats(events.head(3000))  # Polars' pool started: not timed
    passes = []
    for _ in range(PASSES):
        timed = {}
        for step in CHAIN:
            started = time.perf_counter()
            if step == "states":
                states = None  # the last pass's freed first, as a score run's partitions free theirs
                states = seat_states(events)
            elif step == "shanten":
                shanten_column(events, states)
            elif step == "hand_seats":
                seats = hand_seats(events, states=states)
            else:
                play_sums(hands, games, seats).collect()
            timed[step] = time.perf_counter() - started
        passes.append(timed)
    # the first pass touches the process's memory for the first time (the kernel's fresh pages): a score run
    # meets that once, its later partitions reuse the memory
    seconds |= min(passes, key=lambda timed: sum(timed.values()))
    chain_rss = peak_rss_mb()
    del states
    for name, given in (("partials_without_events", None), ("partials_with_events", events)):
        started = time.perf_counter()
        player_partials(hands, games, given).collect()
        seconds[name] = time.perf_counter() - started
    return {"events": events.height, "games": events["game_id"].n_unique(), "hand_seats": seats.height,
            "seconds": seconds, "first_pass_seconds": passes[0], "chain_peak_rss_mb": chain_rss,
            "peak_rss_mb": peak_rss_mb()}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.play", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--logs", type=Path, default=SHARED_LOGS)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child's: a prepared folder
    args = parser.parse_args(argv)
    if args.measure is not None:
        print(json.dumps(measure(args.measure)))
        return {}
    from benchmarks.figures import run_info, save

    with tempfile.TemporaryDirectory(prefix="analyzer-play-") as tmp:
        data = prepare(args.logs, args.games, Path(tmp))
        done = subprocess.run([sys.executable, "-m", "benchmarks.play", "--measure", tmp], capture_output=True,
                              text=True)
    if done.returncode:
        sys.exit(f"the measuring process failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    fig = {"run": run_info(), **data, **json.loads(done.stdout.strip().splitlines()[-1])}
    n, seconds = fig["events"], fig["seconds"]
    chain = sum(seconds[s] for s in CHAIN)
    fig["chain"] = {"seconds": chain, "events_per_s": n / chain, "target_met": n / chain >= TARGET}
    print(f"{fig['games']:,} games, {n:,} events, {fig['hand_seats']:,} hand seats; chain peak RSS "
          f"{fig['chain_peak_rss_mb']:,.0f} MB (process {fig['peak_rss_mb']:,.0f} MB)")
    for step, value in seconds.items():
        print(f"{step:<24}{value:8.2f} s {n / value:14,.0f} events/s")
    print(f"{'chain':<24}{chain:8.2f} s {n / chain:14,.0f} events/s (target {TARGET:,}: "
          f"{'met' if fig['chain']['target_met'] else 'not met'}; first pass "
          f"{sum(fig['first_pass_seconds'].values()):.2f} s)")
    print("figures:", save(fig, args.out, "play", str(fig["games"])))
    return fig


if __name__ == "__main__":
    main()
