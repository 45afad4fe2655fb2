"""Report benchmark: building the HTML report of N generated games, beside scoring them in the same run.

    python -m benchmarks.report [--games 10000] [--players 400] [--repeat 3]

The games come from :mod:`benchmarks.gamegen` (han/fu level, replayed by the generator). The run scores them
in memory (the baseline), then times ``build_report`` on the result (best of ``--repeat``) and writing the file;
figures go to ``benchmarks/results/report-*.json`` with the page size and peak RSS.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import polars as pl

import analyzer
from analyzer.report import build_report, write_report
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save
from benchmarks.gamegen import generate


def games_frame(games: int, players: int, seed: int) -> pl.DataFrame:
    """The rows of the first ``games`` games generated (about 11 rows each), as text columns."""
    rows = generate(games * 13, seed=seed, players=players)
    first = rows["game_id"].unique(maintain_order=True).head(games)
    return rows.filter(pl.col("game_id").is_in(first.implode()))


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    frame = games_frame(args.games, args.players, args.seed)
    start = time.perf_counter()
    result = analyzer.score(frame, "tenhou")
    score_s = time.perf_counter() - start
    builds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        page = build_report(result)
        builds.append(time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        path = write_report(result, Path(tmp) / "report.html")
        write_s = time.perf_counter() - start
        size_mb = path.stat().st_size / 2**20
    build_s = min(builds)
    fig = {
        "benchmark": "report", **run_info(), "games": result.games["game_id"].n_unique(), "rows": result.hands.height,
        "players": result.players.height, "score_seconds": round(score_s, 3), "build_seconds": round(build_s, 3),
        "build_runs": [round(b, 3) for b in builds], "write_seconds": round(write_s, 3),
        "build_to_score": round(build_s / score_s, 3), "page_mb": round(size_mb, 1), "page_chars": len(page),
        "peak_rss_mb": peak_rss_mb(),
    }
    saved = save(fig, args.out, "report", f"{args.games}")
    print(f"{fig['games']} games, {fig['rows']} rows, {fig['players']} players: score {score_s:.2f} s; "
          f"report build {build_s:.2f} s (best of {args.repeat}; {fig['build_to_score']:.2f}x the score run), "
          f"build + write {write_s:.2f} s, page {size_mb:.1f} MB; peak RSS {fig['peak_rss_mb']} MB")
    print(f"figures: {saved}")
    return fig


if __name__ == "__main__":
    main()
