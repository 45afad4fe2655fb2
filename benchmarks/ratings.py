"""Ratings benchmark: what ``--ratings`` adds to ``analyzer score``, against the same run with ``--ratings none``.

    .venv/bin/python -m benchmarks.ratings [--rows 10000000] [--seed 0] [--systems tenhou,openskill]
                                           [--repeat 1] [--cpus LIST]

The scale benchmark's data set (:mod:`benchmarks.scale`: N han/fu rows of generated east-south games, one
Parquet file, made once and kept) is scored as a fresh process per run, Parquet in and out, ``--ratings none``
first, then each system of ``--systems``, alternating ``--repeat`` times (the best of each is kept: on a shared
machine the runs' order and their neighbours' load matter less). Each run's wall time and peak RSS (``wait4`` and
the process tree), and the seconds the run spent on the ratings (its manifest, ``OUTDIR/.analyzer-run.json``).
Printed: each system's time and peak as a ratio to ``none`` — the targets: ``tenhou`` at most 1.15× the time
and 1.10× the peak at 10M rows. Figures to ``benchmarks/results/ratings-*.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import polars as pl

from benchmarks.figures import RESULTS, pinned, run_info, save
from benchmarks.scale import dataset_path, timed

TIME_TARGET, MEMORY_TARGET = 1.15, 1.10  # tenhou against none, at 10M rows


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--systems", default="tenhou", help="comma-separated: tenhou, openskill")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--cpus", default=None, metavar="LIST", help="pin every run to these cores")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    systems = ["none", *[s.strip() for s in args.systems.split(",") if s.strip()]]

    data = dataset_path(args.rows, args.seed, False)
    if not data.exists():  # made in a child: this process stays small
        made = timed([sys.executable, "-c", f"from benchmarks.scale import dataset; dataset({args.rows}, {args.seed}, False)"])
        if made["exit"] != 0:
            raise SystemExit(f"generating the data failed: {made['stderr_tail']}")
    rows = pl.scan_parquet(data).select(pl.len()).collect().item()
    analyzer = [*pinned(args.cpus), sys.executable, "-m", "analyzer.cli"]
    work = Path(tempfile.mkdtemp(prefix="analyzer-ratings-"))
    runs: dict[str, list[dict]] = {s: [] for s in systems}
    try:
        for _ in range(args.repeat):
            for system in systems:
                out = work / system
                shutil.rmtree(out, ignore_errors=True)
                run = timed([*analyzer, "score", str(data), "-o", str(out), "--top", "0", "--ratings", system])
                if run["exit"] not in (0, 1):
                    raise SystemExit(f"--ratings {system} failed: {run['stderr_tail']}")
                manifest = out / ".analyzer-run.json"
                run["stages"] = json.loads(manifest.read_text()).get("seconds", {}) if manifest.exists() else {}
                if system != "none":
                    run["rating_rows"] = pl.scan_parquet(out / "ratings.parquet").select(pl.len()).collect().item()
                runs[system].append(run)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    fig = {"benchmark": "ratings", **run_info(), "rows": rows, "input": str(data), "pinned": args.cpus}
    for system, results in runs.items():
        fig[system] = min(results, key=lambda r: r["seconds"])
    base = fig["none"]
    print(f"{rows:,} rows; each system against --ratings none in the same run (best of {args.repeat})")
    print(f"{'ratings':<10}{'seconds':>9}{'ratio':>8}{'peak RSS':>11}{'ratio':>8}{'ratings s':>11}{'rows rated':>12}")
    for system in systems:
        r = fig[system]
        r["time_ratio"] = round(r["seconds"] / base["seconds"], 3)
        r["memory_ratio"] = round(r["peak_rss_mb"] / base["peak_rss_mb"], 3)
        print(f"{system:<10}{r['seconds']:>9.2f}{r['time_ratio']:>7.2f}x{r['peak_rss_mb'] / 1024:>9.2f}GB"
              f"{r['memory_ratio']:>7.2f}x{r['stages'].get('ratings', 0.0):>11.2f}{r.get('rating_rows', 0):>12,}")
    if "tenhou" in fig:
        met = fig["tenhou"]["time_ratio"] <= TIME_TARGET and fig["tenhou"]["memory_ratio"] <= MEMORY_TARGET
        print(f"tenhou target (<= {TIME_TARGET}x time, <= {MEMORY_TARGET}x peak): {'met' if met else 'NOT met'}")
    path = save(fig, args.out, "ratings", f"{rows}")
    print(f"figures: {path}")
    return fig


if __name__ == "__main__":
    main()
