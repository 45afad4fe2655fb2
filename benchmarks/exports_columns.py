"""Exports from the log tables against the model's exports and the imports: the shared mjlog files replicated to N
distinct games (as :mod:`benchmarks.tenhou` does), each run in a fresh process of its own, in one run.

    .venv/bin/python -m benchmarks.exports_columns [--games 10000] [--logs ../shared/data/logs/mjlog]
                                                   [--workers 0] [--batch 512] [--repeat 2] [--out benchmarks/results]

Runs (``--workers`` processes for the model's paths, 0 = one per core; the columns' paths in one process, Polars
on all cores):

* ``import model``: ``read_logs`` (the per-game reader, the hand records per game);
* ``import columns``: the columnar mjlog reader (``read_mjlog_tables``) and the hand records from its tables
  (``records_of_tables``), ``--batch`` files at a time: the import's work through the log tables;
* ``mjai model``, ``tenhou6 model``: ``export_mjai``, ``export_tenhou6`` (the per-game reader and writers);
* ``mjai columns``, ``tenhou6 columns``: the columnar reader, :func:`analyzer.formats.game_files_columns.
  texts_of_tables` and the runner's directory output (one file per game, staged and put in place together),
  ``--batch`` files at a time; their parts apart: ``read`` (the tables), ``texts``, ``write`` (the files).

Each: seconds, games/s, CPU seconds of the process (and its workers), the ratio to ``import columns``. The runs
alternate for ``--repeat`` rounds and each keeps its fastest round (a shared machine weighs on all alike).
Printed, and written as JSON to ``benchmarks/results/``.
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

RUNS = ("import model", "import columns", "mjai model", "mjai columns", "tenhou6 model", "tenhou6 columns")


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _columns(files: list[Path], batch: int, fmt: str | None, out: Path) -> dict:
    """The columnar mjlog reader over ``files`` in batches, then the hand records (``fmt`` None) or the files
    of ``fmt`` written into ``out``; seconds per part."""
    from analyzer.formats.outputs import DirectoryOutput
    from analyzer.formats.game_files import SUFFIXES
    from analyzer.formats.game_files_columns import texts_of_tables
    from analyzer.formats.records_from_tables import records_of_tables
    from analyzer.formats.tenhou.mjlog_columns import read_mjlog_tables

    parts = {"read": 0.0, "texts": 0.0, "write": 0.0} if fmt else {"read": 0.0, "records": 0.0}
    games = rows = 0
    output = DirectoryOutput(out / fmt, SUFFIXES[fmt]) if fmt else None
    if output is not None:
        output.open()
    for i in range(0, len(files), batch):
        t0 = time.perf_counter()
        tables, reads = read_mjlog_tables(files[i:i + batch])
        t1 = time.perf_counter()
        parts["read"] += t1 - t0
        if fmt is None:
            rows += records_of_tables(tables).records.height
            games += tables.games.height
            parts["records"] += time.perf_counter() - t1
            continue
        texts = texts_of_tables(tables, fmt)
        t2 = time.perf_counter()
        parts["texts"] += t2 - t1
        for number, gid in enumerate(texts.game_ids):
            text = texts.text(number)
            if text is not None:
                output.write_game(gid, text)
                games += 1
        parts["write"] += time.perf_counter() - t2
    if output is not None:
        t3 = time.perf_counter()
        output.commit()
        parts["write"] += time.perf_counter() - t3
        rows = games
    return {"games": games, "rows": rows, "parts": {k: round(v, 3) for k, v in parts.items()}}


def measure(kind: str, root: Path, out: Path, workers: int, batch: int) -> dict:
    """One run, in this process: seconds, games, rows, CPU seconds (this process and its workers)."""
    from analyzer.formats.files import expand_paths

    files, _ = expand_paths([root])
    what, path = kind.split()
    t0, c0 = time.perf_counter(), _cpu()
    if kind == "import model":
        from analyzer.formats.read import read_logs

        hands, _ = read_logs([root], workers, "auto")
        run = {"games": hands["game_id"].n_unique(), "rows": hands.height}
    elif path == "model":
        from analyzer.formats.export import export_mjai, export_tenhou6

        summary = (export_mjai if what == "mjai" else export_tenhou6)([root], out / what, workers=workers)
        run = {"games": summary.games, "rows": summary.rows}
    else:
        run = _columns(files, batch, None if what == "import" else what, out)
    return {**run, "seconds": round(time.perf_counter() - t0, 3), "cpu_seconds": round(_cpu() - c0, 3),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def _run_apart(kind: str, root: Path, out: Path, workers: int, batch: int) -> dict:
    done = subprocess.run([sys.executable, "-m", "benchmarks.exports_columns", "--measure", kind, str(root),
                           str(out), str(workers), str(batch)], capture_output=True, text=True)
    if done.returncode:
        return {"skipped": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict:
    if argv is None and sys.argv[1:2] == ["--measure"]:
        kind, root, out, workers, batch = sys.argv[2:7]
        print(json.dumps(measure(kind, Path(root), Path(out), int(workers), int(batch))))
        return {}
    ap = argparse.ArgumentParser(prog="python -m benchmarks.exports_columns", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="games to reach by replicating the logs")
    ap.add_argument("--logs", type=Path, default=SHARED_LOGS / "mjlog", help="directory of mjlog files")
    ap.add_argument("--workers", type=int, default=0, help="worker processes of the model's paths (0: per core)")
    ap.add_argument("--batch", type=int, default=512, help="files per batch of the columns' paths")
    ap.add_argument("--repeat", type=int, default=2, help="rounds of all runs; each run's fastest is kept")
    ap.add_argument("--runs", default=",".join(RUNS), help="which runs, comma-separated")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    args = ap.parse_args(argv)
    if not args.logs.is_dir():
        raise SystemExit(f"no logs at {args.logs}: pass --logs DIR (the shared logs live beside the repository)")
    runs = [r.strip() for r in args.runs.split(",") if r.strip() in RUNS]
    workers = args.workers or os.cpu_count() or 1
    fig: dict = {"games_asked": args.games, "logs": str(args.logs), "workers": workers, "batch": args.batch,
                 "cores": os.cpu_count(), **run_info()}
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        root, out = Path(tmp) / "logs", Path(tmp) / "out"
        root.mkdir()
        fig["files"], fig["copies"] = replicate(args.logs, args.games, root)
        for _ in range(max(1, args.repeat)):
            for kind in runs:
                out.mkdir()
                run = _run_apart(kind, root, out, workers, args.batch)
                shutil.rmtree(out)
                if kind not in fig or run.get("seconds", math.inf) < fig[kind].get("seconds", math.inf):
                    fig[kind] = run
    base = fig.get("import columns", {})
    print(f"input            {fig['files']:,} files ({fig['copies']} copies of {args.logs}), {workers} worker(s) "
          f"for the model's paths, batches of {args.batch} for the columns'")
    for kind in runs:
        run = fig[kind]
        if "skipped" in run:
            print(f"{kind:<16} skipped: {run['skipped']}")
            continue
        run["games_per_s"] = round(run["games"] / max(run["seconds"], 1e-9))
        if base.get("seconds"):
            run["vs_import_columns"] = round(run["seconds"] / base["seconds"], 2)
        parts = "  ".join(f"{k} {v:.2f}s" for k, v in run.get("parts", {}).items())
        print(f"{kind:<16} {run['seconds']:7.2f} s  {run['games_per_s']:>6,} games/s  cpu {run['cpu_seconds']:6.2f} s  "
              f"{run.get('vs_import_columns', float('nan')):.2f}x import columns  {parts}")
    path = save(fig, args.out, "exports_columns", f"g{base.get('games', 0)}")
    print(f"figures          {path}")
    return fig


if __name__ == "__main__":
    main()
