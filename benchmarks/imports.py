"""The mjlog (mjai, tenhou.net/6 JSON, Mahjong Soul raw) import and the exports against the commit an issue was
filed at: the shared mjlog files replicated to N distinct games (as :mod:`benchmarks.tenhou` replicates them), with
``--format mjai`` or ``tenhou6`` those games exported to mjai or tenhou.net/6 JSON files first (by this checkout,
not timed); with ``--format majsoul`` the raw test records replicated instead (as :mod:`benchmarks.majsoul`
does); every step a fresh process of the command line, all in one run.

    .venv/bin/python -m benchmarks.imports [--games 10000] [--logs ../shared/data/logs/mjlog] [--format tenhou6]
                                           [--baseline CHECKOUT] [--repeat 2] [--steps …] [--out benchmarks/results]

Steps (``--steps``, comma-separated; all by default):

* ``floor``: the files read and split into their tags by one Polars regular-expression pass (``str.extract_all``,
  then ``explode``; mjai: the files' bytes read and their lines counted by numpy, as the columnar reader finds
  them; tenhou.net/6 JSON and Mahjong Soul raw records: the files read and decoded by ``orjson``): what reading
  the logs costs before any of their meaning is read;
* ``tables`` (asked for in ``--steps``): the columnar reader alone, the files into the log tables in batches of
  512 on two threads (:func:`analyzer.formats.read_columns.read_batch_tables`), no hand records: the parse pass;
* ``import``: ``analyzer import tenhou DIR -o hands.parquet`` (``import mjai``, ``import majsoul``; defaults: one
  worker per core);
* ``import_1`` (asked for in ``--steps``): the same with ``--workers 1``, all in one process;
* ``import_events``: the same with ``--events`` (the events and their ``hand_seats`` beside);
* ``export_events``, ``export_mjai``, ``export_tenhou6``: ``analyzer export …`` of the same files;
* ``write_mjai``, ``write_tenhou6`` (asked for in ``--steps``): the files that export writes (made by this
  checkout before the rounds, not timed) read into memory and written again as new files, staged in a folder and
  renamed into place as the export does: what writing one file per game costs alone, the floor of the exports
  of files; ``write_events``: the events file that ``export events`` writes, read back a row group at a time and
  written again as it writes it (zstd, the same statistics, 2^18 rows at a time);
* ``import_dask`` (asked for in ``--steps``): the import as tasks on a local Dask cluster of 2 worker processes
  started by this benchmark for the step alone (``--scheduler``; the workers' CPU is not in the step's CPU
  seconds); ``export_events_dask``, ``export_mjai_dask``, ``export_tenhou6_dask`` likewise for the exports, whose
  files are compared with the local export's where that step ran too (``same_as_local``: ``bytes``, ``rows``
  for an events file whose bytes differ, or ``different``);
* with ``--baseline CHECKOUT``: ``baseline_import`` and ``baseline_export_…``, the same commands run in that
  checkout (``-m`` puts it first on the path: its analyzer is the one run); a commit without ``import --events``
  makes the same two files with ``import`` and ``export events``.

Each: wall seconds, games/s, CPU seconds, peak RSS (the process tree's), the ratio to ``import`` (and to
``baseline_import``). The steps alternate for ``--repeat`` rounds and each keeps its fastest round (a shared
machine weighs on all alike). Printed, and written as JSON to ``benchmarks/results/``.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import polars as pl

from analyzer.formats.outputs import STATISTICS
from benchmarks.figures import RESULTS, run_info, save
from benchmarks.majsoul import replicate as replicate_raw
from benchmarks.scale import timed
from benchmarks.tenhou import SHARED_LOGS, replicate

FLOOR = """
import sys
from pathlib import Path
import polars as pl
texts = [f.read_text(encoding="utf-8") for f in sorted(Path(sys.argv[1]).rglob("*.mjlog"))]
tags = pl.DataFrame({"text": texts}).select(pl.col("text").str.extract_all("<[^<>]*>")).explode("text")
print(len(texts), tags.height)
"""

MJAI_FLOOR = """
import sys
from pathlib import Path
import numpy as np
texts = [f.read_bytes() for f in sorted(Path(sys.argv[1]).rglob("*.jsonl"))]
lines = sum(int(np.count_nonzero(np.frombuffer(t, np.uint8) == 10)) for t in texts)
print(len(texts), lines)
"""

JSON_FLOOR = """
import sys
from pathlib import Path
import orjson
games = [orjson.loads(f.read_bytes()) for f in sorted(Path(sys.argv[1]).rglob("*.json"))]
print(len(games))
"""

WRITE = """
import os, sys, tempfile
from pathlib import Path
source, target = Path(sys.argv[1]), Path(sys.argv[2])
texts = [(f.name, f.read_bytes()) for f in sorted(source.rglob("*")) if f.is_file()]
staging = Path(tempfile.mkdtemp(prefix=".staged-", dir=target))
for name, text in texts:
    (staging / name).write_bytes(text)
for name, _ in texts:
    os.replace(staging / name, target / name)
staging.rmdir()
print(len(texts))
"""

WRITE_EVENTS = """
import sys
import pyarrow as pa
import pyarrow.parquet as pq
source = pq.ParquetFile(sys.argv[1])  # read a batch at a time, as the export has a few batches in memory
writer = pq.ParquetWriter(sys.argv[2], source.schema_arrow, compression="zstd",
                          write_statistics=sys.argv[3].split(","))
rows = 0
for group in range(source.num_row_groups):  # (iter_batches does not read nested columns in chunks)
    for batch in source.read_row_group(group).to_batches(1 << 18):
        writer.write_table(pa.Table.from_batches([batch]))
        rows += batch.num_rows
writer.close()
print(rows)
"""

TABLES = """
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from analyzer.formats.read_columns import BATCH_FILES, read_batch_tables
files = sorted(f for f in Path(sys.argv[1]).rglob("*") if f.is_file())
batches = [files[i:i + BATCH_FILES] for i in range(0, len(files), BATCH_FILES)]
with ThreadPoolExecutor(2) as pool:
    games = sum(t.games.height for t, _ in pool.map(lambda b: read_batch_tables(b, 64 << 20, sys.argv[2]), batches))
print(len(files), games)
"""

SCRIPT_STEPS = ("floor", "write_", "tables")  # steps that run a script of this file, not analyzer
STEPS = ("floor", "import", "import_events", "export_events", "export_mjai", "export_tenhou6")
BASELINE_STEPS = ("baseline_import", "baseline_import_1", "baseline_export_events", "baseline_export_mjai",
                  "baseline_export_tenhou6")


def _command(step: str, logs: Path, work: Path, scheduler: str | None = None, fmt: str = "tenhou") -> list[str]:
    analyzer = [sys.executable, "-m", "analyzer.cli"]
    kind = step.removeprefix("baseline_")
    if kind == "floor":
        floor = {"mjai": MJAI_FLOOR, "tenhou6": JSON_FLOOR, "majsoul": JSON_FLOOR}.get(fmt, FLOOR)
        return [sys.executable, "-c", floor, str(logs)]
    if kind == "write_events":
        return [sys.executable, "-c", WRITE_EVENTS, str(work / "written" / "events.parquet"),
                str(work / step / "events.parquet"), ",".join(STATISTICS)]  # as the export writes it
    if kind.startswith("write_"):
        return [sys.executable, "-c", WRITE, str(work / "written" / kind.removeprefix("write_")), str(work / step)]
    if kind == "tables":
        return [sys.executable, "-c", TABLES, str(logs), "tenhou" if fmt == "tenhou6" else fmt]
    if kind.startswith("import"):
        extra = {"import_events": ["--events"], "import_dask": ["--scheduler", str(scheduler)],
                 "import_1": ["--workers", "1"]}.get(kind, [])
        command = "tenhou" if fmt == "tenhou6" else fmt
        return [*analyzer, "import", command, str(logs), "-o", str(work / step / "hands.parquet"), *extra]
    on_cluster = ["--scheduler", str(scheduler)] if kind.endswith("_dask") else []
    kind = kind.removesuffix("_dask")
    target = work / step / ("events.parquet" if kind == "export_events" else "games")
    return [*analyzer, "export", kind.removeprefix("export_"), str(logs), "-o", str(target), *on_cluster]


def same_output(ours: Path, local: Path) -> str:
    """Whether an export on the cluster wrote what the local export did: ``bytes`` (every file), ``rows`` (an
    events file of the same rows, other bytes) or ``different``."""
    if ours.is_file() or local.is_file():
        if not (ours.is_file() and local.is_file()):
            return "different"
        if ours.read_bytes() == local.read_bytes():
            return "bytes"
        return "rows" if pl.read_parquet(ours).equals(pl.read_parquet(local)) else "different"
    names = sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
    same = names == sorted(p.relative_to(local) for p in local.rglob("*") if p.is_file()) and all(
        (ours / n).read_bytes() == (local / n).read_bytes() for n in names)
    return "bytes" if same and names else "different"


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.imports", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="games to reach by replicating the logs")
    ap.add_argument("--logs", type=Path, default=SHARED_LOGS / "mjlog", help="directory of mjlog files")
    ap.add_argument("--format", choices=("tenhou", "mjai", "tenhou6", "majsoul"), default="tenhou",
                    help="the files' format: mjai or tenhou.net/6 exports of the replicated mjlog games, or "
                         "Mahjong Soul raw records (the test records replicated)")
    ap.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT", help="another commit's checkout")
    ap.add_argument("--repeat", type=int, default=2, help="rounds of all steps; each step's fastest is kept")
    ap.add_argument("--steps", default=",".join(STEPS), help="which steps, comma-separated")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    args = ap.parse_args(argv)
    steps = [s for s in args.steps.split(",") if s]
    if args.baseline is not None:
        steps += [s for s in BASELINE_STEPS if s.removeprefix("baseline_") in steps]
    fig = _run(args, steps, Path(tempfile.mkdtemp(prefix="analyzer-imports-")))
    _print(fig, steps)
    path = save(fig, args.out, "imports" if args.format == "tenhou" else f"imports_{args.format}", f"g{fig['files']}")
    print(f"figures  {path}")
    return fig


@contextlib.contextmanager
def _cluster(step: str):
    """The address of a local Dask cluster of 2 worker processes for a ``…_dask`` step, else None."""
    if not step.endswith("_dask"):
        yield None
        return
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def _run(args, steps: list[str], work: Path) -> dict:
    try:
        logs = work / "logs"
        if args.format == "majsoul":
            copies = replicate_raw(args.games, work)
            logs, files = work / "raw", sum(1 for f in (work / "raw").rglob("*.json"))
        else:
            files, copies = replicate(args.logs, args.games, logs)
            for f in logs.rglob("*"):  # the floor reads *.mjlog: every replicated file under one name
                if f.is_file() and not f.name.endswith(".mjlog"):
                    f.rename(f.with_name(f.name.rsplit(".", 1)[0] + ".mjlog"))
        if args.format in ("mjai", "tenhou6"):
            logs = _exports(logs, work / args.format, args.format)
        for fmt in (s.removeprefix("write_") for s in steps if s.startswith("write_")):
            _exports(logs, work / "written" / ("events.parquet" if fmt == "events" else fmt), fmt)
        runs: dict[str, list[dict]] = {s: [] for s in steps}
        for _ in range(args.repeat):
            for step in steps:
                shutil.rmtree(work / step, ignore_errors=True)
                (work / step).mkdir()
                cwd = args.baseline.resolve() if step.startswith("baseline_") else None
                with _cluster(step) as scheduler:  # only while its step runs: its workers would share the cores
                    command = _command(step, logs.resolve(), work.resolve(), scheduler, args.format)
                    runs[step].append(timed(command, cwd=cwd))
        fig = {"benchmark": "imports", **run_info(), "format": args.format, "files": files, "copies": copies,
               "logs": "tests/data/majsoul_raw" if args.format == "majsoul" else str(args.logs),
               "baseline_checkout": str(args.baseline) if args.baseline else None}
        for step, results in runs.items():
            # analyzer exits 1 when some files are not read; a script of our own (the floors) only 0
            fine = (0,) if step.removeprefix("baseline_").startswith(SCRIPT_STEPS) else (0, 1)
            best = min(results, key=lambda r: (r["exit"] not in fine, r["seconds"]))  # a failed run is no best
            if best["exit"] not in fine:
                print(f"{step} failed: {best['stderr_tail']}", file=sys.stderr)
            best["games_per_s"] = round(files / best["seconds"])
            fig[step] = best
        _ratios(fig, steps)
        for step in steps:
            local = step.removesuffix("_dask")
            if step.startswith("export_") and step != local and local in steps:
                name = "events.parquet" if local == "export_events" else "games"
                fig[step]["same_as_local"] = same_output(work / step / name, work / local / name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return fig


def _exports(logs: Path, target: Path, fmt: str) -> Path:
    """The games of the log files under ``logs`` exported as ``fmt`` (mjai, tenhou6: files under ``target``;
    events: the Parquet file ``target``) by this checkout."""
    done = subprocess.run([sys.executable, "-m", "analyzer.cli", "export", fmt, str(logs), "-o", str(target)],
                          capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"export {fmt} of the replicated logs failed: {done.stderr[-500:]}")
    return target


def _ratios(fig: dict, steps: list[str]) -> None:
    for step in steps:
        for against in ("import", "floor", f"baseline_{step}"):
            if against in fig and step != against:
                fig[step][f"ratio_to_{against}"] = round(fig[step]["seconds"] / fig[against]["seconds"], 2)


def _print(fig: dict, steps: list[str]) -> None:
    print(f"input  {fig['files']:,} {fig['format']} files ({fig['copies']} copies of {fig['logs']})")
    print(f"{'step':<24}{'seconds':>8}{'games/s':>9}{'CPU s':>7}{'peak MB':>9}{'/import':>8}{'/floor':>7}")
    for step in steps:
        r = fig[step]
        ratios = "".join(f"{r[k]:>{w}.2f}" if k in r else " " * w
                         for k, w in (("ratio_to_import", 8), ("ratio_to_floor", 7)))
        print(f"{step:<24}{r['seconds']:>8.2f}{r['games_per_s']:>9,}{r['cpu_seconds']:>7.1f}"
              f"{r['peak_rss_mb']:>9.0f}{ratios}")
    for step in steps:
        if f"baseline_{step}" in fig:
            print(f"{step}: {fig[f'baseline_{step}']['seconds'] / fig[step]['seconds']:.2f}x the baseline's speed")
    for step in steps:
        if "same_as_local" in fig[step]:
            print(f"{step}: {fig[step]['same_as_local']} as {step.removesuffix('_dask')} wrote, "
                  f"{fig[step]['seconds'] / fig[step.removesuffix('_dask')]['seconds']:.2f}x its time")
    for step in steps:
        if step.startswith("write_") and f"export_{step[6:]}" in fig and "import" in fig:
            rest = fig[f"export_{step[6:]}"]["seconds"] - fig[step]["seconds"]
            print(f"export_{step[6:]} less the write: {rest:.2f} s, {rest / fig['import']['seconds']:.2f}x the "
                  "import's time")
    if {"import_events", "baseline_import", "baseline_export_events"} <= set(fig):
        both = fig["baseline_import"]["seconds"] + fig["baseline_export_events"]["seconds"]
        print(f"import --events: {fig['import_events']['seconds']:.2f} s against {both:.2f} s for the baseline's "
              "import "
              f"and export events ({both / fig['import_events']['seconds']:.2f}x)")


if __name__ == "__main__":
    main()
