"""Statistics cost: the players' partial aggregates of N generated rows, beside scoring the same rows.

    python -m benchmarks.stats [--rows 1000000] [--repeat 3]

Times ``score_parts`` (validate and score the hands, the baseline) and, on its result, ``game_results`` and
``player_partials`` (best of ``--repeat`` each, in one process); figures go to
``benchmarks/results/stats-*.json``. The lead's scale benchmark measures the whole ``score`` run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from analyzer.game.games import game_results
from analyzer.scoring.parts import raw_input, score_parts
from analyzer.players import player_partials
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save
from benchmarks.gamegen import generate


def _best(repeat: int, work) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = work()
        times.append(time.perf_counter() - start)
    return min(times), out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    rows = generate(args.rows, seed=args.seed)
    score_s, parts = _best(args.repeat, lambda: score_parts(raw_input(rows), "tenhou"))
    part = parts[0]
    games_s, games = _best(args.repeat, lambda: game_results(part.scored, part.rules).collect())
    stats_s, _ = _best(args.repeat, lambda: player_partials(part.scored, games.lazy()).collect())
    fig = {"benchmark": "stats", **run_info(), "rows": rows.height, "score_parts_seconds": round(score_s, 3),
           "game_results_seconds": round(games_s, 3), "player_partials_seconds": round(stats_s, 3),
           "partials_to_score": round(stats_s / score_s, 3), "peak_rss_mb": peak_rss_mb()}
    saved = save(fig, args.out, "stats", f"{rows.height}")
    print(f"{rows.height} rows: score_parts {score_s:.2f} s, game_results {games_s:.2f} s, player_partials "
          f"{stats_s:.2f} s ({fig['partials_to_score']:.2f}x score_parts); peak RSS {fig['peak_rss_mb']} MB")
    print(f"figures: {saved}")
    return fig


if __name__ == "__main__":
    main()
