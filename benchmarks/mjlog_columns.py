"""The columnar mjlog reader against its floor: the shared mjlog files replicated to N distinct games (as
``benchmarks.tenhou`` replicates them), then, each step in a process of its own (its own peak memory):

* ``read``: the files' texts read (``read_log_bytes``, decoded), nothing else;
* ``floor``: the texts read and split into tags by one Polars regular-expression pass (``str.extract_all``,
  then ``explode``): the floor the issue measures;
* ``parse``: :func:`analyzer.formats.tenhou.mjlog_columns.read_mjlog_tables` on batches of ``--batch`` files,
  ``--threads`` batches at once (files -> the four log tables; the tables are counted, then dropped);
* ``old`` (``--old``): today's path to the same tables, the per-game reader and
  :func:`analyzer.formats.tables_from_games.tables_of_games`, on the same batches.

    .venv/bin/python -m benchmarks.mjlog_columns [--games 10000] [--batch 1000] [--threads 2] [--old]

Figures are printed and written as JSON to ``benchmarks/results/`` (gitignored). The machine is shared: the
figures are indicative, the ratio to the floor (measured in the same run) the steadier one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

from analyzer.formats.files import expand_paths, read_log_bytes
from analyzer.formats.read import read_game
from analyzer.formats.tables_from_games import tables_of_games
from analyzer.formats.tenhou.mjlog_columns import read_mjlog_tables
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save
from benchmarks.tenhou import replicate

ROOT = Path(__file__).resolve().parents[1]
MJLOGS = ROOT.parent / "shared" / "data" / "logs" / "mjlog"
STEPS = ("read", "floor", "parse", "old")


def _files(root: Path) -> list[Path]:
    return expand_paths([root])[0]


def _texts(files: list[Path]) -> list[str]:
    return [read_log_bytes(f).decode("utf-8-sig") for f in files]


def _batches(files: list[Path], size: int) -> list[list[Path]]:
    return [files[i : i + size] for i in range(0, len(files), size)]


def step(name: str, root: Path, batch: int, threads: int) -> dict:
    """Run one step on the files under ``root``; its figures (games, rows, seconds, CPU seconds, peak RSS)."""
    files = _files(root)
    started, cpu = time.perf_counter(), time.process_time()
    games = rows = 0
    if name == "read":
        games = len(_texts(files))
    elif name == "floor":
        tags = pl.DataFrame({"text": _texts(files)}).select(pl.col("text").str.extract_all("<[^<>]*>")).explode("text")
        games, rows = len(files), tags.height
    else:
        def old(part: list[Path]):
            read = [read_game(f) for f in part]
            return tables_of_games([g for g, *_ in read if g is not None], [i for g, i, *_ in read if g is not None])

        def one(part: list[Path]) -> tuple[int, int]:
            tables = read_mjlog_tables(part)[0] if name == "parse" else old(part)
            return tables.games.height, tables.events.height

        with ThreadPoolExecutor(threads) as pool:
            for g, r in pool.map(one, _batches(files, batch)):
                games, rows = games + g, rows + r
    return {"step": name, "games": games, "rows": rows, "seconds": round(time.perf_counter() - started, 3),
            "cpu_seconds": round(time.process_time() - cpu, 3), "peak_rss_mb": peak_rss_mb()}


def _run(name: str, root: Path, batch: int, threads: int) -> dict:
    command = [sys.executable, "-m", "benchmarks.mjlog_columns", "--step", name, "--root", str(root),
               "--batch", str(batch), "--threads", str(threads)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"step {name} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mjlog_columns", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="games to reach by replicating the logs")
    ap.add_argument("--logs", type=Path, default=MJLOGS, help="directory of mjlog files to replicate")
    ap.add_argument("--batch", type=int, default=1000, help="files a call of the reader takes")
    ap.add_argument("--threads", type=int, default=2, help="batches read at once (threads of one process)")
    ap.add_argument("--old", action="store_true", help="also time today's per-game path to the same tables")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    ap.add_argument("--step", choices=STEPS, help=argparse.SUPPRESS)  # one step, in a child process
    ap.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.step:
        print(json.dumps(step(args.step, args.root, args.batch, args.threads)))
        return {}
    if not args.logs.is_dir():
        raise SystemExit(f"no logs at {args.logs}: pass --logs DIR (the shared logs live beside the repository)")
    fig: dict = {"games_asked": args.games, "logs": str(args.logs), "batch": args.batch, "threads": args.threads,
                 "cores": os.cpu_count(), **run_info()}
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        root = Path(tmp)
        files, copies = replicate(args.logs, args.games, root)
        fig |= {"files": files, "copies": copies}
        for name in ("read", "floor", "parse") + (("old",) if args.old else ()):
            fig[name] = _run(name, root, args.batch, args.threads)
            fig[name]["load_average"] = round(os.getloadavg()[0], 1)
    games = fig["parse"]["games"]
    for name in ("read", "floor", "parse", "old"):
        if name in fig:
            r = fig[name]
            r["games_per_s"] = round(games / max(r["seconds"], 1e-9))
            r["ratio_to_floor"] = round(r["seconds"] / max(fig["floor"]["seconds"], 1e-9), 2)
            print(f"{name:<6}{r['seconds']:8.2f} s {r['games_per_s']:>8,} games/s {r['ratio_to_floor']:>6.2f}x floor"
                  f"  CPU {r['cpu_seconds']:6.2f} s  peak {r['peak_rss_mb']:,.0f} MB  (load {r['load_average']})")
    path = save(fig, args.out, "mjlog_columns", f"g{games}")
    print(f"{games:,} games, {fig['parse']['rows']:,} events; figures {path}")
    return fig


if __name__ == "__main__":
    main()
