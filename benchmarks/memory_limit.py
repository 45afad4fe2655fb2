"""``--memory-limit`` as a cap: ``analyzer score`` on N rows under each limit, its peak RSS beside the limit.

    .venv/bin/python -m benchmarks.memory_limit [--rows 2000000] [--limits 256MB,512MB,1GB,2GB] [-- EXTRA OPTIONS]

Each limit is a fresh process (Parquet in and out, the data of :mod:`benchmarks.scale`, made by a process of its
own so that its memory does not count in the runs' peaks). A limit is kept when the run's peak stays within
it, or when the run refuses it (exit status 2, ``memory limit … give at least …``) before writing anything.
The figures behind the partition size (:mod:`analyzer.run.memory`) come from these runs; they go to
``benchmarks/results/memory_limit-*.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from analyzer.run.plan import parse_size
from benchmarks.figures import RESULTS, run_info, save
from benchmarks.scale import DATA, dataset_path, timed

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--limits", default="256MB,512MB,1GB,2GB", help="sizes; none: a run without a limit")
    parser.add_argument("extra", nargs="*", help="more options for analyzer score")
    args = parser.parse_args(argv)
    data = dataset_path(args.rows, 0, False)
    if not data.exists():  # made in a process of its own: a child's peak would start at this one's size
        subprocess.run([sys.executable, "-c", f"from benchmarks.scale import dataset; dataset({args.rows}, 0, False)"],
                       cwd=REPO, check=True)
    out = DATA / "memory-limit-out"
    runs = []
    for limit in args.limits.split(","):
        shutil.rmtree(out, ignore_errors=True)
        given = [] if limit == "none" else ["--memory-limit", limit]
        result = timed([sys.executable, "-m", "analyzer.cli", "score", str(data), "-o", str(out), "--top", "0",
                        *given, *args.extra], cwd=REPO)
        refused = result["exit"] == 2 and "memory limit" in result["stderr_tail"]
        kept = refused or not given or result["peak_rss_mb"] <= parse_size(limit) / (1 << 20)
        runs.append({"limit": limit, **result, "refused": refused, "kept": kept})
        said = result["stderr_tail"].strip().splitlines()[-1:] if refused else ""
        print(f"{limit:>8}: exit {result['exit']}, peak {result['peak_rss_mb']:,.0f} MB, {result['seconds']:.1f} s"
              f" — {'refused' if refused else 'within' if kept else 'OVER THE LIMIT'} {said}", flush=True)
    shutil.rmtree(out, ignore_errors=True)
    figures = {"rows": args.rows, "runs": runs, **run_info()}
    save(figures, RESULTS, "memory_limit", f"{args.rows}")
    return figures


if __name__ == "__main__":
    main()
