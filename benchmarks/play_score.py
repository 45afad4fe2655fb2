"""Score with events benchmark: `analyzer score` of N replicated Tenhou games with their events beside, against
the same hand records without them (the play statistics issue: at most 1.3x).

    .venv/bin/python -m benchmarks.play_score [--games 10000] [--logs ../shared/data/logs] [--repeat 1]
                                              [--direct] [--out benchmarks/results] [-- EXTRA SCORE OPTIONS]

1. Data: the shared logs replicated to ``--games`` distinct games (:func:`benchmarks.tenhou.replicate`) and
   imported once with their events, ``analyzer import LOGS -o hands.parquet --events`` (kept beside as
   ``hands.events.parquet``: what a user's two-step path writes).
2. Without events: ``analyzer score hands.parquet -o OUT --no-events`` as a fresh process — the baseline.
3. With events: ``analyzer score hands.parquet -o OUT``, which finds the events beside: each partition's events
   read, its ``hand_seats`` table and the play statistics.
4. ``--direct``: also ``analyzer score LOGS -o OUT``, the one-command path (the logs read twice: hand records,
   then events).

Each run is timed on its own (wall clock) with its peak RSS (``wait4`` and the process tree, as
:func:`benchmarks.scale.timed`); runs alternate, ``--repeat`` times, and the fastest of each is kept. Printed:
seconds, peak RSS, the ratio with / without events, and from the with-events run's manifest the seconds of its
events (``play``: reading each partition's events and its hand_seats) and of the players' statistics (where the
play statistics are computed). Written as JSON to ``benchmarks/results/play_score-*.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import polars as pl

from benchmarks.figures import RESULTS, run_info, save
from benchmarks.scale import timed
from benchmarks.tenhou import SHARED_LOGS, replicate

TARGET = 1.3  # the issue's: score with events at most this many times the score without


def _manifest_seconds(outdir: Path) -> dict:
    import json

    manifest = outdir / ".analyzer-run.json"
    return json.loads(manifest.read_text()).get("seconds", {}) if manifest.exists() else {}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.play_score", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to reach by replicating the logs")
    parser.add_argument("--logs", type=Path, default=SHARED_LOGS, help="directory of Tenhou logs to replicate")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; the fastest is reported")
    parser.add_argument("--direct", action="store_true", help="also time `analyzer score LOGS` (one command)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="after --: options for `analyzer score`")
    args = parser.parse_args(argv)
    extra = [a for a in args.extra if a != "--"]
    if not args.logs.is_dir():
        raise SystemExit(f"no logs at {args.logs}: pass --logs DIR (the shared logs live beside the repository)")
    analyzer = [sys.executable, "-m", "analyzer.cli"]
    work = Path(tempfile.mkdtemp(prefix="analyzer-play-score-"))
    try:
        logs, hands = work / "logs", work / "hands.parquet"
        logs.mkdir()
        files, copies = replicate(args.logs, args.games, logs)
        imported = timed([*analyzer, "import", str(logs), "-o", str(hands), "--events"])
        if imported["exit"] not in (0, 1):
            raise SystemExit(f"the import failed: {imported['stderr_tail']}")
        games = pl.scan_parquet(hands).select(pl.col("game_id").n_unique()).collect().item()
        rows = pl.scan_parquet(hands).select(pl.len()).collect().item()
        events = pl.scan_parquet(work / "hands.events.parquet").select(pl.len()).collect().item()
        runs: dict[str, list[dict]] = {"without_events": [], "with_events": [], "direct": []}
        commands = {
            "without_events": [*analyzer, "score", str(hands), "-o", str(work / "out"), "--top", "0", "--no-events"],
            "with_events": [*analyzer, "score", str(hands), "-o", str(work / "out"), "--top", "0"],
            "direct": [*analyzer, "score", str(logs), "-o", str(work / "out"), "--top", "0"],
        }
        for _ in range(args.repeat):
            for name, command in commands.items():
                if name == "direct" and not args.direct:
                    continue
                shutil.rmtree(work / "out", ignore_errors=True)
                runs[name].append(timed([*command, *extra]) | {"stages": {}})
                runs[name][-1]["stages"] = _manifest_seconds(work / "out")
                if runs[name][-1]["exit"] not in (0, 1):
                    raise SystemExit(f"{name} failed: {runs[name][-1]['stderr_tail']}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    fig = {"benchmark": "play_score", **run_info(), "games": games, "rows": rows, "events": events, "files": files,
           "copies": copies, "score_options": extra, "import_with_events": imported,
           **{name: min(found, key=lambda r: r["seconds"]) for name, found in runs.items() if found}}
    fig["ratio"] = round(fig["with_events"]["seconds"] / fig["without_events"]["seconds"], 2)
    fig["target"] = TARGET
    _print(fig)
    print("figures:", save(fig, args.out, "play_score", str(games)))
    return fig


def _print(fig: dict) -> None:
    print(f"{fig['games']:,} games, {fig['rows']:,} hand records, {fig['events']:,} events "
          f"(import --events: {fig['import_with_events']['seconds']:.2f} s)")
    print(f"{'run':<16}{'seconds':>9}{'peak RSS':>11}{'play s':>9}{'stats s':>9}")
    for name in ("without_events", "with_events", "direct"):
        if name in fig:
            run, stages = fig[name], fig[name]["stages"]
            print(f"{name:<16}{run['seconds']:9.2f}{run['peak_rss_mb']:9,.0f} MB{stages.get('play', 0):9.2f}"
                  f"{stages.get('statistics', 0):9.2f}")
    met = "met" if fig["ratio"] <= fig["target"] else "NOT met"
    print(f"with / without events: {fig['ratio']:.2f}x (target <= {fig['target']}x: {met})")


if __name__ == "__main__":
    main()
