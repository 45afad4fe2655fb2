"""Scale benchmark: `analyzer score` on N han/fu hand rows, beside the I/O floor measured in the same run.

    .venv/bin/python -m benchmarks.scale [--rows 10000000] [--seed 0] [--shuffle] [--repeat 1] [--check]
                                         [--keep] [-- EXTRA SCORE OPTIONS such as --partition-rows 250000]

1. Data: N rows of realistic east-south games (:mod:`benchmarks.gamegen`; every outcome kind, double rons,
   riichi sticks carried, honba consistent), written game by game to ``benchmarks/data/scale-N-SEED.parquet``
   (kept: a later run reuses it). ``--shuffle`` writes the rows in random order instead, the input that
   needs a spill pass.
2. Floor: a fresh Python process reads that Parquet with Polars and writes a same-size copy.
3. Score: ``analyzer score DATA -o OUTDIR`` as a fresh process, Parquet in and out, default settings plus
   the extra options; ``--baseline CHECKOUT`` also times another checkout's ``analyzer score`` (another
   commit, as a ``git worktree``) in the same run, alternating with this one; ``--check`` also times ``analyzer check`` on the same file; ``--workers N`` (or
   ``--scheduler ADDRESS``) also times the same run on a Dask cluster (``analyzer score --workers N``: a
   local cluster of N worker processes started by the run; its peak RSS is the client's only).

Each child is timed on its own (wall clock) and its peak RSS read from ``wait4``. Printed: rows/s, the ratio
score / floor, peak RSS, and the share of the players' statistics in the score run: the run times them itself
(the players' partial sums of each partition, their merges and the final table) and writes the seconds into
its manifest, ``OUTDIR/.analyzer-run.json``. The figures go to ``benchmarks/results/scale-*.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

from benchmarks.figures import RESULTS, run_info, save
from benchmarks.gamegen import generate

DATA = Path(__file__).resolve().parent / "data"
FLOOR = """
import sys, polars as pl
df = pl.read_parquet(sys.argv[1])
df.write_parquet(sys.argv[2])
"""


def dataset_path(rows: int, seed: int, shuffle: bool) -> Path:
    return DATA / f"scale-{rows}-{seed}{'-shuffled' if shuffle else ''}.parquet"


def dataset(rows: int, seed: int, shuffle: bool) -> Path:
    """The cached input file, made if missing."""
    path = dataset_path(rows, seed, shuffle)
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    chunk = 2_000_000  # generated in chunks of games: the generator's arrays stay small
    frames, made = [], 0
    while made < rows:
        part = generate(min(chunk, rows - made), seed=seed + made)
        if part.height == 0:
            break
        offset = made  # game ids stay unique and in order across chunks
        frames.append(part.with_columns(pl.format("{}-{}", pl.lit(f"{offset:010d}"), pl.col("game_id")).alias("game_id")))
        made += part.height
    frame = pl.concat(frames)
    if shuffle:
        frame = frame.sample(fraction=1.0, shuffle=True, seed=seed)
    temp = path.with_suffix(".tmp")
    frame.write_parquet(temp)
    temp.replace(path)
    return path


def timed(command: list[str], cwd: Path | None = None) -> dict:
    """Run ``command`` (in ``cwd``); wall seconds, exit status and peak RSS (MB) of that child alone."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    out = child.stdout.read().decode(errors="replace")
    err = child.stderr.read().decode(errors="replace")
    child.returncode = os.waitstatus_to_exitcode(status)
    return {"seconds": round(seconds, 3), "exit": child.returncode, "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2), "stdout_tail": out[-400:],
            "stderr_tail": err[-400:]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shuffle", action="store_true", help="rows in random order (needs a spill pass)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of floor and score; the best is reported")
    parser.add_argument("--check", action="store_true", help="also time `analyzer check`")
    parser.add_argument("--workers", type=int, default=None,
                        help="also time `analyzer score --workers N` (a local Dask cluster of N processes)")
    parser.add_argument("--scheduler", default=None, help="also time `analyzer score --scheduler ADDRESS`")
    parser.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                        help="also time the score run of another checkout (e.g. `git worktree add ../base REV`), "
                             "alternating with this one in the same run")
    parser.add_argument("--keep", action="store_true", help="keep the outputs (printed path)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="after --: options for `analyzer score`")
    args = parser.parse_args(argv)
    extra = [a for a in args.extra if a != "--"]

    # made in a child process: this one stays small, so the children it starts report their own peak memory
    # (a forked child starts with its parent's resident pages counted)
    data = dataset_path(args.rows, args.seed, args.shuffle)
    made_in = None
    if not data.exists():
        made = timed([sys.executable, "-c",
                      f"from benchmarks.scale import dataset; dataset({args.rows}, {args.seed}, {args.shuffle})"])
        if made["exit"] != 0:
            raise SystemExit(f"generating the data failed: {made['stderr_tail']}")
        made_in = made["seconds"]
    rows = pl.scan_parquet(data).select(pl.len()).collect().item()
    work = Path(tempfile.mkdtemp(prefix="analyzer-scale-"))
    analyzer = [sys.executable, "-m", "analyzer.cli"]
    fig = {"benchmark": "scale", **run_info(), "rows": rows, "input": str(data), "input_mb": round(data.stat().st_size / 2**20, 1),
           "shuffled": args.shuffle, "generated_seconds": made_in, "score_options": extra, "cpus": os.cpu_count()}
    try:
        runs = {"floor": [], "score": [], "baseline": [], "check": [], "cluster": []}
        cluster = (["--workers", str(args.workers)] if args.workers else []) + (
            ["--scheduler", args.scheduler] if args.scheduler else [])
        for _ in range(args.repeat):
            runs["floor"].append(timed([sys.executable, "-c", FLOOR, str(data), str(work / "copy.parquet")]))
            shutil.rmtree(work / "out", ignore_errors=True)
            runs["score"].append(timed([*analyzer, "score", str(data), "-o", str(work / "out"), "--top", "0", *extra]))
            runs["score"][-1]["stages"] = _stage_seconds(work / "out")
            if args.baseline is not None:  # `-m` puts the checkout first on the path: its analyzer is the one run
                shutil.rmtree(work / "base", ignore_errors=True)
                runs["baseline"].append(timed([*analyzer, "score", str(data.resolve()), "-o", str(work / "base"),
                                               "--top", "0", *extra], cwd=args.baseline.resolve()))
            if args.check:
                runs["check"].append(timed([*analyzer, "check", str(data), "--show", "0", *extra]))
            if cluster:
                shutil.rmtree(work / "cluster", ignore_errors=True)
                runs["cluster"].append(timed([*analyzer, "score", str(data), "-o", str(work / "cluster"), "--top", "0",
                                              *cluster, *extra]))
        for name, results in runs.items():
            if results:
                fig[name] = min(results, key=lambda r: r["seconds"])
        if args.baseline is not None:
            fig["baseline_checkout"] = str(args.baseline)
        for name in ("score", "baseline", "check", "cluster"):
            if name in fig:
                if fig[name]["exit"] not in (0, 1):
                    print(f"{name} failed: {fig[name]['stderr_tail']}", file=sys.stderr)
                fig[name]["rows_per_s"] = round(rows / fig[name]["seconds"])
                fig[name]["ratio_to_floor"] = round(fig[name]["seconds"] / fig["floor"]["seconds"], 2)
        if args.keep:
            fig["outputs"] = str(work / "out")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    path = save(fig, args.out, "scale", f"{rows}")
    _print(fig)
    print(f"figures: {path}")
    return fig


def _stage_seconds(outdir: Path) -> dict:
    """The seconds the score run reports in its manifest: the whole run and its statistics."""
    manifest = outdir / ".analyzer-run.json"
    return json.loads(manifest.read_text()).get("seconds", {}) if manifest.exists() else {}


def _print(fig: dict) -> None:
    print(f"{fig['rows']:,} rows ({fig['input_mb']} MB Parquet{', shuffled' if fig['shuffled'] else ''}), "
          f"{fig['cpus']} CPUs, options: {' '.join(fig['score_options']) or 'defaults'}")
    print(f"{'step':<8}{'seconds':>10}{'rows/s':>14}{'ratio':>8}{'peak RSS':>12}{'CPU s':>9}")
    for name in ("floor", "score", "baseline", "check", "cluster"):
        if name in fig:
            r = fig[name]
            rate = f"{fig['rows'] / r['seconds']:,.0f}"
            ratio = f"{r['seconds'] / fig['floor']['seconds']:.2f}x"
            print(f"{name:<8}{r['seconds']:>10.2f}{rate:>14}{ratio:>8}{r['peak_rss_mb'] / 1024:>10.2f}GB{r['cpu_seconds']:>9.1f}")
    stages = fig.get("score", {}).get("stages", {})
    if "statistics" in stages:
        share = stages["statistics"] / fig["score"]["seconds"]
        print(f"statistics: {stages['statistics']:.2f} s of {fig['score']['seconds']:.2f} s = {share:.1%} of the score run "
              f"(players' partial sums, merges and table, timed by the run; {stages['run']:.2f} s inside the run)")


if __name__ == "__main__":
    main()
