"""Report benchmark: building the HTML report of N generated games beside scoring them, and the page of a big
input made by the command.

    python -m benchmarks.report [--games 10000] [--players 400] [--repeat 3]
    python -m benchmarks.report --rows 1000000 [--players 400]     # `analyzer report` on 1M hand rows

The games come from :mod:`benchmarks.gamegen` (han/fu level, replayed by the generator). With ``--games`` the
run scores them in memory (the baseline), then times ``build_report`` on the result (best of ``--repeat``) and
writing the file, every section shown (no page limits). With ``--rows`` it runs ``analyzer report`` on that many
rows (one Parquet file, kept in ``benchmarks/data/``) as a fresh process, with its default page limits, and
records its time, its peak RSS and the page's size against the targets: a page of at most
:data:`PAGE_TARGET_MB` MB and a peak of at most :data:`RSS_TARGET_MB` MB for 1M rows. Figures go to
``benchmarks/results/report-*.json``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

import analyzer
from analyzer.report import ReportOptions, build_report, write_report
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save
from benchmarks.gamegen import generate
from benchmarks.scale import DATA, timed

PAGE_TARGET_MB = 20
RSS_TARGET_MB = 2048
EVERYTHING = ReportOptions(max_players=None, max_games=None, max_standings=None)


def games_frame(games: int, players: int, seed: int) -> pl.DataFrame:
    """The rows of the first ``games`` games generated (about 11 rows each), as text columns."""
    rows = generate(games * 13, seed=seed, players=players)
    first = rows["game_id"].unique(maintain_order=True).head(games)
    return rows.filter(pl.col("game_id").is_in(first.implode()))


def rows_file(rows: int, players: int, seed: int) -> Path:
    """``rows`` generated rows of ``players`` players in one Parquet file, made if missing."""
    path = DATA / f"report-{rows}-{players}-{seed}.parquet"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(".tmp")
        generate(rows, seed=seed, players=players).write_parquet(temp)
        temp.replace(path)
    return path


def command_figures(rows: int, players: int, seed: int) -> dict:
    """``analyzer report`` on ``rows`` rows as a fresh process: seconds, peak RSS, the page's size."""
    data = rows_file(rows, players, seed)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        run = timed([sys.executable, "-m", "analyzer.cli", "report", str(data), "-o", str(page), "--rules",
                     "tenhou"])
        if run["exit"] not in (0, 1):
            raise SystemExit(f"analyzer report failed: {run['stderr_tail']}")
        page_mb = page.stat().st_size / 2**20
        text = page.read_text(encoding="utf-8")
    return {
        "benchmark": "report-command", **run_info(), "rows": pl.scan_parquet(data).select(pl.len()).collect().item(),
        "players": players,
        "games": pl.scan_parquet(data).select(pl.col("game_id").n_unique()).collect().item(),
        "seconds": run["seconds"], "cpu_seconds": run["cpu_seconds"], "peak_rss_mb": run["peak_rss_mb"],
        "page_mb": round(page_mb, 2), "player_sections": text.count('<section class="player"'),
        "game_sections": text.count('<section class="game"'),
        "page_target_met": page_mb <= PAGE_TARGET_MB, "rss_target_met": run["peak_rss_mb"] <= RSS_TARGET_MB,
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=None, help="run `analyzer report` on this many rows instead")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    if args.rows is not None:
        fig = command_figures(args.rows, args.players, args.seed)
        saved = save(fig, args.out, "report", f"command-{args.rows}")
        met = {True: "met", False: "NOT met"}
        print(f"analyzer report on {fig['rows']:,} rows ({fig['games']:,} games, {fig['players']:,} players): "
              f"{fig['seconds']:.1f} s, peak RSS {fig['peak_rss_mb']:,.0f} MB "
              f"(target {RSS_TARGET_MB} MB: {met[fig['rss_target_met']]}), page {fig['page_mb']:.1f} MB "
              f"(target {PAGE_TARGET_MB} MB: {met[fig['page_target_met']]}); "
              f"{fig['player_sections']} player and {fig['game_sections']} game sections")
        print(f"figures: {saved}")
        return fig

    frame = games_frame(args.games, args.players, args.seed)
    start = time.perf_counter()
    result = analyzer.score(frame, "tenhou")
    score_s = time.perf_counter() - start
    builds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        page = build_report(result, options=EVERYTHING)
        builds.append(time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        path = write_report(result, Path(tmp) / "report.html", options=EVERYTHING)
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
