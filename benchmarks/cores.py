"""Cores benchmark: the same score run on 1, 2, … cores (``taskset``), partitions one at a time or several in flight.

    .venv/bin/python -m benchmarks.cores [--rows 10000000] [--cores 1,2] [--in-flight 1,2]
                                         [--baseline CHECKOUT]

For each core count C (the first C cores of this machine): the I/O floor (:mod:`benchmarks.scale`'s), then
``analyzer.score_to`` on the scale data set with each number of partitions in flight that C allows (what
``analyzer score --in-flight N`` runs), each in a fresh, pinned process. ``--baseline CHECKOUT`` also times
another checkout with one partition in flight. Printed: seconds, the speed-up over the first core count's one-in-flight run, CPU seconds and peak RSS
(the process tree's). Figures go to ``benchmarks/results/cores-*.json``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from benchmarks.figures import RESULTS, pinned, run_info, save
from benchmarks.scale import FLOOR, dataset, timed

SCORE = """
import os, sys
sys.path.insert(0, os.getcwd())  # the checkout run from (this one, or --baseline's)
from analyzer.api import score_to
from analyzer.run import LocalExecutor
how = {"in_flight": int(sys.argv[3])}
if __name__ == "__main__":
    score_to(sys.argv[1], sys.argv[2], executor=LocalExecutor(**how))
"""


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--cores", default="1,2", help="comma-separated core counts (each the first C cores)")
    parser.add_argument("--in-flight", default="1,2", help="comma-separated partitions in flight (≤ cores each)")
    parser.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    data = dataset(args.rows, 0, False)
    work = Path(tempfile.mkdtemp(prefix="analyzer-cores-"))
    script = work / "score_run.py"
    script.write_text(SCORE)
    fig = {"benchmark": "cores", **run_info(), "rows": args.rows, "input": str(data), "runs": []}
    try:
        for cores in (int(c) for c in args.cores.split(",")):
            pin = pinned(f"0-{cores - 1}")
            floor = timed([*pin, sys.executable, "-c", FLOOR, str(data), str(work / "copy.parquet")])
            _add(fig, cores, "floor", 1, floor)
            for in_flight in (int(n) for n in args.in_flight.split(",")):
                if in_flight > cores:
                    continue
                shutil.rmtree(work / "out", ignore_errors=True)
                run = timed([*pin, sys.executable, str(script), str(data), str(work / "out"), str(in_flight)])
                _add(fig, cores, "one" if in_flight == 1 else "in flight", in_flight, run)
            if args.baseline is not None:
                shutil.rmtree(work / "out", ignore_errors=True)
                run = timed([*pin, sys.executable, str(script), str(data.resolve()), str(work / "out"), "1"],
                            cwd=args.baseline.resolve())
                _add(fig, cores, "baseline", 1, run)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    path = save(fig, args.out, "cores", str(args.rows))
    print(f"figures: {path}")
    return fig


def _add(fig: dict, cores: int, mode: str, in_flight: int, result: dict) -> None:
    first = next((r for r in fig["runs"] if r["mode"] == "one"), None)
    result = {"cores": cores, "mode": mode, "in_flight": in_flight, **result}
    if result["exit"] != 0:
        print(f"{mode} on {cores} cores failed: {result['stderr_tail']}", file=sys.stderr)
    fig["runs"].append(result)
    speedup = f"{first['seconds'] / result['seconds']:.2f}x" if first and mode != "floor" else ""
    if len(fig["runs"]) == 1:
        print(f"{fig['rows']:,} rows; speed-up against the first one-in-flight run")
        print(f"{'cores':>5} {'mode':<10}{'in flight':>10}{'seconds':>9}{'speed-up':>10}{'CPU s':>8}{'peak RSS':>10}")
    print(f"{cores:>5} {mode:<10}{in_flight:>10}{result['seconds']:>9.2f}{speedup:>10}{result['cpu_seconds']:>8.1f}"
          f"{result['peak_rss_mb'] / 1024:>8.2f}GB", flush=True)


if __name__ == "__main__":
    main()
