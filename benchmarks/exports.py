"""Export benchmark: the shared Tenhou logs replicated to N distinct games, exported and imported in one run.

    .venv/bin/python -m benchmarks.exports [--games 10000] [--logs ../shared/data/logs] [--workers 0]
                                           [--repeat 2] [--out benchmarks/results]

The logs are replicated as the import benchmark does (:func:`benchmarks.tenhou.replicate`: each copy a distinct
game, its log id and content marked). Then each of these runs in a fresh Python process of its own, one after
the other, on the same files (so that each one's peak memory is its own):

* import: ``read_logs`` of every file (the baseline);
* export events: ``export_events`` into one Parquet file;
* export mjai: ``export_mjai`` into a directory, one file per game (skipped, with the reason, when this
  installation has no mjai converter);

each with ``--workers`` processes (0 = one per core): seconds, games/s, the ratio to import's time, and the
peak RSS of the parent process and of the largest worker. The runs alternate for ``--repeat`` rounds and each
keeps its fastest round, so that a load on a shared machine weighs on all of them alike. Printed, and written as JSON to
``benchmarks/results/``. Targets (docs/performance.md): each export at least 1,000 games/s on two cores, at
most 1.2x import's time, peak RSS at most 1 GB.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.figures import RESULTS, run_info, save
from benchmarks.tenhou import SHARED_LOGS, replicate

RUNS = ("import", "events", "mjai")


def measure(kind: str, root: Path, out: Path, workers: int) -> dict:
    """One run, in this process: its seconds, games, rows and peak RSS (this process, largest worker)."""
    if kind == "import":
        from analyzer.formats.read import read_logs

        t0 = time.perf_counter()
        hands, problems = read_logs([root], workers, "auto")
        seconds = time.perf_counter() - t0
        games, rows, failed = hands["game_id"].n_unique(), hands.height, sum(not p.imported for p in problems)
    else:
        from analyzer.formats.export import export_events, export_mjai

        target = out / "events.parquet" if kind == "events" else out / "mjai"
        t0 = time.perf_counter()
        summary = (export_events if kind == "events" else export_mjai)([root], target, workers=workers)
        seconds = time.perf_counter() - t0
        games, rows, failed = summary.games, summary.rows, summary.failed
    return {"seconds": round(seconds, 3), "games": games, "rows": rows, "files_failed": failed,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "worker_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)}


def _run_apart(kind: str, root: Path, out: Path, workers: int) -> dict:
    done = subprocess.run([sys.executable, "-m", "benchmarks.exports", "--measure", kind, str(root), str(out),
                           str(workers)], capture_output=True, text=True)
    if done.returncode:
        return {"skipped": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict:
    if argv is None and sys.argv[1:2] == ["--measure"]:
        kind, root, out, workers = sys.argv[2:6]
        print(json.dumps(measure(kind, Path(root), Path(out), int(workers))))
        return {}
    ap = argparse.ArgumentParser(prog="python -m benchmarks.exports", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="games to reach by replicating the logs")
    ap.add_argument("--logs", type=Path, default=SHARED_LOGS, help="directory of Tenhou logs to replicate")
    ap.add_argument("--workers", type=int, default=0, help="worker processes (0 = one per core)")
    ap.add_argument("--repeat", type=int, default=2,
                    help="rounds of all runs, alternating; each run's fastest round is kept (a shared machine)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    args = ap.parse_args(argv)
    if not args.logs.is_dir():
        raise SystemExit(f"no logs at {args.logs}: pass --logs DIR (the shared logs live beside the repository)")
    workers = args.workers or os.cpu_count() or 1
    fig: dict = {"games_asked": args.games, "logs": str(args.logs), "workers": workers, "cores": os.cpu_count(),
                 **run_info()}
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        root, out = Path(tmp) / "logs", Path(tmp) / "out"
        root.mkdir()
        fig["files"], fig["copies"] = replicate(args.logs, args.games, root)
        for _ in range(max(1, args.repeat)):
            for kind in RUNS:
                out.mkdir()
                run = _run_apart(kind, root, out, workers)
                shutil.rmtree(out)
                if kind not in fig or run.get("seconds", math.inf) < fig[kind].get("seconds", math.inf):
                    fig[kind] = run
    base = fig["import"]
    print(f"input          {base.get('games', 0):,} games from {fig['files']:,} files "
          f"({fig['copies']} copies of {args.logs}), {workers} worker(s)")
    for kind in RUNS:
        run = fig[kind]
        if "skipped" in run:
            print(f"{kind:<14} skipped: {run['skipped']}")
            continue
        run["games_per_s"] = round(run["games"] / max(run["seconds"], 1e-9))
        run["vs_import"] = round(run["seconds"] / max(base["seconds"], 1e-9), 2)
        print(f"{kind:<14} {run['seconds']:7.2f} s  {run['games_per_s']:>7,} games/s  {run['rows']:>10,} rows  "
              f"{run['vs_import']:.2f}x import  peak RSS {run['peak_rss_mb']:,} MB (largest worker "
              f"{run['worker_peak_rss_mb']:,} MB)")
    path = save(fig, args.out, "exports", f"g{base.get('games', 0)}")
    print(f"figures        {path}")
    return fig


if __name__ == "__main__":
    main()
