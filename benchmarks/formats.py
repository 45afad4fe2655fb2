"""Output format benchmark: `analyzer score` of one input into each `--format`, Parquet the baseline of the same
run.

    .venv/bin/python -m benchmarks.formats [--rows 50000] [--seed 0] [--repeat 1] [--formats parquet,csv,json,xlsx]

1. Data: the scale benchmark's hand records (:func:`benchmarks.scale.dataset`, ``scale-N-SEED.parquet``).
2. Score: ``analyzer score DATA -o OUTDIR --format FMT`` as a fresh process per format, the formats in turn,
   repeat by repeat (on a shared machine only figures of one run compare), the best of each kept.

Printed per format: seconds, the ratio to Parquet, peak RSS, CPU seconds and the size written. The workbook is
the slow one (xlsxwriter is pure Python, and keeps every cell in memory until the file is closed). The
figures go to ``benchmarks/results/formats-*.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from benchmarks.figures import RESULTS, run_info, save
from benchmarks.scale import dataset, timed


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each format; the best is reported")
    parser.add_argument("--formats", default="parquet,csv,json,xlsx")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    formats = [f for f in args.formats.split(",") if f]
    if "parquet" not in formats:
        formats.insert(0, "parquet")  # the baseline
    data = dataset(args.rows, args.seed, False)
    work = Path(tempfile.mkdtemp(prefix="analyzer-formats-"))
    fig = {"benchmark": "formats", **run_info(), "rows": args.rows, "input": str(data)}
    try:
        for _ in range(args.repeat):
            for fmt in formats:
                out = work / fmt
                shutil.rmtree(out, ignore_errors=True)
                run = timed([sys.executable, "-m", "analyzer.cli", "score", str(data), "-o", str(out), "--top", "0",
                             "--format", fmt])
                if run["exit"] not in (0, 1):
                    print(f"{fmt} failed: {run['stderr_tail']}", file=sys.stderr)
                run["written_mb"] = round(sum(p.stat().st_size for p in out.iterdir()) / 2**20, 1)
                if fmt not in fig or run["seconds"] < fig[fmt]["seconds"]:
                    fig[fmt] = run
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = fig["parquet"]["seconds"]
    print(f"{args.rows:,} hand rows; Parquet the baseline of this run")
    print(f"{'format':<9}{'seconds':>9}{'ratio':>8}{'peak RSS':>11}{'CPU s':>8}{'written':>10}")
    for fmt in formats:
        r = fig[fmt]
        r["ratio_to_parquet"] = round(r["seconds"] / base, 2)
        print(f"{fmt:<9}{r['seconds']:>9.2f}{r['ratio_to_parquet']:>7.2f}x{r['peak_rss_mb']:>8.0f} MB"
              f"{r['cpu_seconds']:>8.1f}{r['written_mb']:>7.1f} MB")
    path = save(fig, args.out, "formats", str(args.rows))
    print(f"figures: {path}")
    return fig


if __name__ == "__main__":
    main()
