"""Mahjong Soul import benchmark: the project's raw test records replicated to N games, imported beside the same
games as tensoul's tenhou.net/6 JSON read by the Tenhou importer.

    .venv/bin/python -m benchmarks.majsoul [--games 4000] [--workers 0] [--out benchmarks/results]

The games of ``tests/data/majsoul_raw`` (a Gold Room east-only game, a Jade Room hanchan, a three-player game, a
friendly-room hanchan: 4 to 11 hands) and the same games as tensoul writes them (``tests/data/majsoul``) are
written as many
times as it takes to reach ``--games``, each copy its own game (its record id changed). Then, in one process
and one run:

* baseline: reading and parsing every raw record (``json``), nothing else;
* ``import tenhou`` of the tensoul copies (one process): the Tenhou importer on the same games, the figure the
  raw import is compared with;
* ``import majsoul`` of the raw records, one process and ``--workers`` processes (0 = one per core): games/s and
  its ratio to the Tenhou import's;
* the peak RSS.

Target (issue 33): at least 1,000 games/s for the raw records on the project's 2-core machine, as for Tenhou
logs. The figures are printed and written as JSON to ``benchmarks/results/`` (gitignored).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import time
from pathlib import Path

from analyzer.formats.files import expand_paths
from analyzer.formats.read import read_majsoul, read_tenhou
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save

ROOT = Path(__file__).resolve().parents[1]
RAW = ROOT / "tests" / "data" / "majsoul_raw"
RAW_GAMES = ("ranked_east.json", "ranked_south.json", "ranked_sanma.json", "friendly_south.json")
TENSOUL = ROOT / "tests" / "data" / "majsoul"
# the same four games (the friendly room's is the Jade hanchan)
TENSOUL_GAMES = ("majsoul_east.json", "majsoul_south.json", "majsoul_sanma.json", "majsoul_south.json")


def _copy_id(uuid: str, copy: int) -> str:
    """The record id of copy ``copy``: its last 8 hex digits replaced (still a record id, another game)."""
    return uuid[:-8] + f"{copy:08x}"


def replicate(games: int, into: Path) -> int:
    """Write copies of the raw records (``into/raw``) and of the tensoul games (``into/tensoul``); returns the
    copies of each."""
    copies = max(1, math.ceil(games / len(RAW_GAMES)))
    raw = [json.loads((RAW / name).read_text(encoding="utf-8")) for name in RAW_GAMES]
    tensoul = [json.loads((TENSOUL / name).read_text(encoding="utf-8")) for name in TENSOUL_GAMES]
    for c in range(copies):
        folder = into / "raw" / f"copy{c // 1000:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        for i, record in enumerate(raw):
            record["head"]["uuid"] = _copy_id(record["head"]["uuid"], c)
            (folder / f"{c:05d}_{i}.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        folder = into / "tensoul" / f"copy{c // 1000:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        for i, game in enumerate(tensoul):
            game["ref"] = _copy_id(game["ref"], c * len(RAW_GAMES) + i)
            (folder / f"{c:05d}_{i}.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return copies


def _timed(fn, cpu: dict | None = None, key: str = ""):
    """``fn()`` and its wall time; with ``cpu``, its CPU time (this process) into ``cpu[key]``: on a machine
    shared with other work the CPU seconds a game costs drift less than the wall time."""
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    if cpu is not None:
        cpu[key] = round(time.process_time() - c0, 3)
    return value, time.perf_counter() - t0


def parse_only(root: Path) -> int:
    files, _ = expand_paths([root])
    for f in files:
        json.loads(f.read_bytes().decode("utf-8"))
    return len(files)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.majsoul", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4000, help="games to reach by replicating the test records")
    ap.add_argument("--workers", type=int, default=0, help="processes for the parallel import (0 = one per core)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    args = ap.parse_args(argv)
    workers = args.workers or os.cpu_count() or 1
    fig: dict = {"games_asked": args.games, "workers": workers, "cores": os.cpu_count(), **run_info()}
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-majsoul-") as tmp:
        root = Path(tmp)
        fig["copies"] = replicate(args.games, root)
        cpu: dict = {}
        _, fig["parse_only_s"] = _timed(lambda: parse_only(root / "raw"), cpu, "parse_only_cpu_s")
        (tenhou, tenhou_problems), fig["tenhou_1_s"] = _timed(lambda: read_tenhou([root / "tensoul"], workers=1),
                                                              cpu, "tenhou_1_cpu_s")
        (hands, problems), fig["majsoul_1_s"] = _timed(lambda: read_majsoul([root / "raw"], workers=1), cpu,
                                                       "majsoul_1_cpu_s")
        fig |= cpu
        (hands_p, _), fig["majsoul_s"] = _timed(lambda: read_majsoul([root / "raw"], workers=workers))
        assert hands_p.equals(hands), "parallel import differs from the serial one"
    assert not [p for p in problems + tenhou_problems if not p.imported], "a benchmark record did not import"
    games, rows = hands["game_id"].n_unique(), hands.height
    tenhou_games = tenhou["game_id"].n_unique()

    def per_s(n, seconds):
        return round(n / max(seconds, 1e-9))

    fig |= {
        "games": games, "rows": rows, "tenhou_games": tenhou_games, "tenhou_rows": tenhou.height,
        "parse_only_games_per_s": per_s(games, fig["parse_only_s"]),
        "tenhou_1_games_per_s": per_s(tenhou_games, fig["tenhou_1_s"]),
        "majsoul_1_games_per_s": per_s(games, fig["majsoul_1_s"]),
        "majsoul_games_per_s": per_s(games, fig["majsoul_s"]),
        "majsoul_rows_per_s": per_s(rows, fig["majsoul_s"]),
        "peak_rss_mb": peak_rss_mb(),
    }
    fig["majsoul_games_per_cpu_s"] = per_s(games, fig["majsoul_1_cpu_s"])
    fig["tenhou_games_per_cpu_s"] = per_s(tenhou_games, fig["tenhou_1_cpu_s"])
    fig["majsoul_vs_tenhou"] = round(fig["majsoul_1_games_per_s"] / max(fig["tenhou_1_games_per_s"], 1), 2)
    fig["majsoul_vs_parse_only"] = round(fig["majsoul_1_s"] / max(fig["parse_only_s"], 1e-9), 1)
    print(f"input        {games:,} raw records ({rows:,} rows), {tenhou_games:,} tensoul games; {fig['copies']} copies")
    print(f"parse only   {fig['parse_only_s']:8.2f} s  {fig['parse_only_games_per_s']:>9,} games/s  (json.loads)")
    print(f"tenhou x1    {fig['tenhou_1_s']:8.2f} s  {fig['tenhou_1_games_per_s']:>9,} games/s  (tensoul copies)")
    print(f"majsoul x1   {fig['majsoul_1_s']:8.2f} s  {fig['majsoul_1_games_per_s']:>9,} games/s  "
          f"= {fig['majsoul_vs_tenhou']}x the Tenhou import's games/s; {fig['majsoul_vs_parse_only']}x parse only")
    print(f"CPU time     majsoul {fig['majsoul_1_cpu_s']:.2f} s ({fig['majsoul_games_per_cpu_s']:,} games per CPU "
          f"second), tenhou {fig['tenhou_1_cpu_s']:.2f} s ({fig['tenhou_games_per_cpu_s']:,}), parse only "
          f"{fig['parse_only_cpu_s']:.2f} s")
    print(f"majsoul x{workers:<3} {fig['majsoul_s']:8.2f} s  {fig['majsoul_games_per_s']:>9,} games/s  "
          f"{fig['majsoul_rows_per_s']:>9,} rows/s")
    print(f"peak RSS     {fig['peak_rss_mb']:,} MB")
    path = save(fig, args.out, "majsoul", f"g{games}")
    print(f"figures      {path}")
    return fig


if __name__ == "__main__":
    main()
