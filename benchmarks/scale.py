"""Scale benchmark: `analyzer score` on N han/fu hand rows, beside the I/O floor measured in the same run.

    .venv/bin/python -m benchmarks.scale [--rows 10000000] [--seed 0] [--shuffle] [--repeat 1] [--check]
                                         [--text] [--files N --unsorted] [--copies K] [--cpus LIST]
                                         [--keep] [-- EXTRA SCORE OPTIONS such as --partition-rows 250000]

1. Data: N rows of realistic east-south games (:mod:`benchmarks.gamegen`; every outcome kind, double rons,
   riichi sticks carried, honba consistent), written game by game to ``benchmarks/data/scale-N-SEED.parquet``
   (kept: a later run reuses it). ``--shuffle`` writes the rows in random order instead, the input that
   needs a spill pass. ``--copies K``: K copies of that data set, one file each, game ids prefixed (100M rows
   as 10 x 10M without generating them in memory).
2. Floor: a fresh Python process reads that Parquet with Polars and writes a same-size copy (as a stream for
   ``--copies``). ``--cpus LIST`` pins the floor and every run to those cores.
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
import threading
import time
from pathlib import Path

import polars as pl

from benchmarks.figures import RESULTS, core_set, keep_best, pinned, print_steps, run_info, save
from benchmarks.gamegen import generate

DATA = Path(__file__).resolve().parent / "data"
FLOOR = """
import sys, polars as pl
source = sys.argv[1]
df = pl.read_parquet(source + "/*.parquet" if not source.endswith(".parquet") else source)
df.write_parquet(sys.argv[2])
"""

# an input too big for memory (--copies): read and written as a stream
FLOOR_STREAMED = """
import sys, polars as pl
pl.scan_parquet(sys.argv[1] + "/*.parquet").sink_parquet(sys.argv[2])
"""


def dataset_path(rows: int, seed: int, shuffle: bool, text: bool = False, files: int = 1,
                 unsorted: bool = False) -> Path:
    """A file, or a directory of ``files`` Parquet files."""
    name = (f"scale-{rows}-{seed}{'-shuffled' if shuffle else ''}{'-text' if text else ''}"
            f"{'-unsorted' if unsorted else ''}")
    return DATA / (f"{name}-{files}files" if files > 1 else f"{name}.parquet")


def dataset(rows: int, seed: int, shuffle: bool, text: bool = False, files: int = 1, unsorted: bool = False) -> Path:
    """The cached input (a file, or a directory of ``files`` files), made if missing.

    ``text``: every column as text (what a CSV-to-Parquet export gives); ``unsorted``: each game's rows
    together but the games in random order (their ids out of order); ``files``: the games dealt round-robin
    into that many files."""
    path = dataset_path(rows, seed, shuffle, text, files, unsorted)
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
    if text:
        frame = frame.select(pl.all().cast(pl.String))
    if shuffle:
        frame = frame.sample(fraction=1.0, shuffle=True, seed=seed)
    game = pl.col("game_id").rank("dense") - 1
    if unsorted:  # games kept together, their order random: a stable sort by a random key per game
        keys = frame.select(pl.col("game_id").unique(maintain_order=True)).with_columns(
            pl.int_range(pl.len()).shuffle(seed=seed).alias("_key"))
        frame = frame.join(keys, on="game_id", how="left", maintain_order="left").sort("_key", maintain_order=True).drop("_key")
    if files == 1:
        temp = path.with_suffix(".tmp")
        frame.write_parquet(temp)
        temp.replace(path)
        return path
    temp = path.with_name(path.name + ".tmp")
    temp.mkdir()
    frame = frame.with_columns((game % files).alias("_file"))
    for index in range(files):
        frame.filter(pl.col("_file") == index).drop("_file").write_parquet(temp / f"part-{index:03d}.parquet")
    temp.replace(path)
    return path


def tree_rss_mb(root: int) -> float:
    """Resident memory of process ``root`` and all its descendants together, in MB (Linux ``/proc``)."""
    parents, rss = {}, {}
    page_mb = os.sysconf("SC_PAGE_SIZE") / 2**20
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            parents[int(entry.name)] = int(fields[1])
            rss[int(entry.name)] = int(fields[21]) * page_mb
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(rss.get(pid, 0.0) for pid in tree)


def replicated(rows: int, seed: int, copies: int) -> Path:
    """``copies`` copies of the ``rows``-row data set in a directory, one file each, game ids prefixed with the
    copy's number (so still in game order, no spill): inputs bigger than one generated frame fits in memory."""
    path = DATA / f"scale-{rows}-{seed}-x{copies}"
    if path.exists():
        return path
    source = dataset(rows, seed, False)
    temp = path.with_name(path.name + ".tmp")
    shutil.rmtree(temp, ignore_errors=True)
    temp.mkdir(parents=True)
    for copy in range(copies):
        pl.scan_parquet(source).with_columns(pl.format("{}-{}", pl.lit(f"{copy:04d}"), "game_id").alias("game_id")) \
            .sink_parquet(temp / f"copy-{copy:04d}.parquet")
    temp.replace(path)
    return path


def _read_back(file) -> str:
    file.seek(0)
    text = file.read().decode(errors="replace")
    file.close()
    return text


def timed(command: list[str], cwd: Path | None = None) -> dict:
    """Run ``command`` (in ``cwd``); wall seconds, exit status and peak RSS (MB): the largest of the child's own
    peak (``wait4``) and the sum over its process tree sampled every 0.1 s (worker processes of --in-flight)."""
    started = time.perf_counter()
    # the output into files, not pipes: a command that prints more than a pipe holds would wait on us forever
    stdout, stderr = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    child = subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=cwd)
    tree_peak, sampling = [0.0], threading.Event()

    def sample() -> None:
        while not sampling.wait(0.1):
            tree_peak[0] = max(tree_peak[0], tree_rss_mb(child.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    sampling.set()
    sampler.join()
    out, err = (_read_back(f) for f in (stdout, stderr))
    child.returncode = os.waitstatus_to_exitcode(status)
    return {"seconds": round(seconds, 3), "exit": child.returncode, "peak_rss_mb": round(max(usage.ru_maxrss / 1024, tree_peak[0]), 1),
            "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2), "stdout_tail": out[-400:],
            "stderr_tail": err[-400:]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shuffle", action="store_true", help="rows in random order (needs a spill pass)")
    parser.add_argument("--text", action="store_true", help="every column written as text")
    parser.add_argument("--files", type=int, default=1, help="the games dealt into this many files")
    parser.add_argument("--unsorted", action="store_true", help="games grouped, their ids in random order")
    parser.add_argument("--repeat", type=int, default=1, help="runs of floor and score; the best is reported")
    parser.add_argument("--check", action="store_true", help="also time `analyzer check`")
    parser.add_argument("--workers", type=int, default=None,
                        help="also time `analyzer score --workers N` (a local Dask cluster of N processes)")
    parser.add_argument("--scheduler", default=None, help="also time `analyzer score --scheduler ADDRESS`")
    parser.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                        help="also time the score run of another checkout (e.g. `git worktree add ../base REV`), "
                             "alternating with this one in the same run")
    parser.add_argument("--cpus", default=None, metavar="LIST",
                        help="run the floor and every timed command on these cores only (`taskset -c LIST`, e.g. 0,1)")
    parser.add_argument("--copies", type=int, default=1,
                        help="score this many copies of the --rows data set, one file each (e.g. 10 x 10M = 100M rows)")
    parser.add_argument("--keep", action="store_true", help="keep the outputs (printed path)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="after --: options for `analyzer score`")
    args = parser.parse_args(argv)
    extra = [a for a in args.extra if a != "--"]

    # made in a child process: this one stays small, so the children it starts report their own peak memory
    # (a forked child starts with its parent's resident pages counted)
    shape = dict(text=args.text, files=args.files, unsorted=args.unsorted)
    data = dataset_path(args.rows, args.seed, args.shuffle, **shape)
    made_in = None
    if args.copies > 1:
        started = time.perf_counter()
        data = replicated(args.rows, args.seed, args.copies)
        made_in = round(time.perf_counter() - started, 1)
    elif not data.exists():
        made = timed([sys.executable, "-c", f"from benchmarks.scale import dataset; "
                      f"dataset({args.rows}, {args.seed}, {args.shuffle}, {args.text}, {args.files}, {args.unsorted})"])
        if made["exit"] != 0:
            raise SystemExit(f"generating the data failed: {made['stderr_tail']}")
        made_in = made["seconds"]
    files = sorted(data.glob("*.parquet")) if data.is_dir() else [data]
    rows = pl.scan_parquet(files).select(pl.len()).collect().item()
    work = Path(tempfile.mkdtemp(prefix="analyzer-scale-"))
    pin = pinned(args.cpus)
    analyzer = [*pin, sys.executable, "-m", "analyzer.cli"]
    fig = {"benchmark": "scale", **run_info(), "rows": rows, "input": str(data), "input_mb": round(sum(f.stat().st_size for f in files) / 2**20, 1), **shape,
           "shuffled": args.shuffle, "generated_seconds": made_in, "score_options": extra,
           "cpus": len(os.sched_getaffinity(0)) if not args.cpus else len(core_set(args.cpus)), "pinned": args.cpus}
    try:
        runs = {"floor": [], "score": [], "baseline": [], "check": [], "cluster": []}
        cluster = (["--workers", str(args.workers)] if args.workers else []) + (
            ["--scheduler", args.scheduler] if args.scheduler else [])
        for _ in range(args.repeat):
            runs["floor"].append(timed([*pin, sys.executable, "-c", FLOOR_STREAMED if args.copies > 1 else FLOOR, str(data), str(work / "copy.parquet")]))
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
        keep_best(fig, runs, rows, args.baseline)
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
    shape = "".join(f", {w}" for w in ("shuffled", "text", "unsorted") if fig.get(w)) + (
        f", {fig['files']} files" if fig.get("files", 1) > 1 else "")
    print(f"{fig['rows']:,} rows ({fig['input_mb']} MB Parquet{shape}), "
          f"{fig['cpus']} CPUs, options: {' '.join(fig['score_options']) or 'defaults'}")
    print_steps(fig, fig["rows"], ("floor", "score", "baseline", "check", "cluster"))
    stages = fig.get("score", {}).get("stages", {})
    if "statistics" in stages:
        share = stages["statistics"] / fig["score"]["seconds"]
        print(f"statistics: {stages['statistics']:.2f} s of {fig['score']['seconds']:.2f} s = {share:.1%} of the score run "
              f"(players' partial sums, merges and table, timed by the run; {stages['run']:.2f} s inside the run)")


if __name__ == "__main__":
    main()
