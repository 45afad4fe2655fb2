"""Game-level sheet benchmark: `analyzer score` on a tournament sheet of P players x G games each (one row per
player per game: P x G rows), beside the I/O floor measured in the same run.

    .venv/bin/python -m benchmarks.sheets [--players 100000] [--games 50] [--seed 0] [--repeat 1] [--check]
                                          [--minimal] [--wide] [--baseline CHECKOUT] [--keep]
                                          [-- EXTRA SCORE OPTIONS such as --partition-rows N]

1. Data: G sessions; in each, the players are shuffled into tables of four, each table's final scores drawn
   (multiples of 100, adding up to 4 x 30,000), an occasional chombo and penalty; columns ``session, table,
   game_id, seat, player, final_score, chombo, penalty, team`` (teams of 4), written session by session,
   table by table (``game_id`` order) to ``benchmarks/data/sheet-P-G-SEED.parquet`` (kept for later runs).
   ``--minimal`` keeps only ``game_id, seat, player, final_score``: the settlement alone, without the
   sessions table (P x G rows of its own) or the teams.
2. Floor: a fresh Python process reads that Parquet with Polars and writes a same-size copy.
3. Score: ``analyzer score DATA -o OUTDIR --rules ema`` as a fresh process, Parquet in and out, default settings
   plus the extra options: the games, players, sessions (P x G rows: every player's standing after every
   session) and teams tables.

``--wide`` also times the same sheet one row per table (``player_0..3``, ``final_score_0..3``, ``chombo_0..3``,
``penalty_0..3``, ``team_0..3``: ``…-wide.parquet``, made from the long one), right after the long one: the cost
of turning a wide sheet into the long form (step ``wide``, its rows/s counted in the long form's rows).

``--baseline CHECKOUT`` also times another checkout's score run (e.g. ``git worktree add ../base REV``) right
after this one's, repeat by repeat: on a shared machine only figures of the same run compare.

Each child is timed on its own (wall clock) and its peak RSS read from ``wait4``. Printed: rows/s, the ratio
score / floor and peak RSS. The figures go to ``benchmarks/results/sheets-*.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from benchmarks.figures import RESULTS, keep_best, print_steps, run_info, save
from benchmarks.scale import DATA, FLOOR, timed


def sheet_path(players: int, games: int, seed: int, minimal: bool = False) -> Path:
    return DATA / f"sheet-{players}-{games}-{seed}{'-minimal' if minimal else ''}.parquet"


def generate(players: int, games: int, seed: int = 0) -> pl.DataFrame:
    """The sheet (see the module doc); ``players`` a multiple of 4."""
    if players % 4:
        raise ValueError("players must be a multiple of 4")
    rng = np.random.default_rng(seed)
    tables = players // 4
    names = np.array([f"P{i:06d}" for i in range(players)])
    sessions = []
    for session in range(1, games + 1):
        seating = rng.permutation(players)
        drawn = rng.integers(50, 500, size=(tables, 3)) * 100
        scores = np.column_stack([drawn, 120_000 - drawn.sum(axis=1)]).ravel()
        table = np.repeat(np.arange(1, tables + 1), 4)
        sessions.append(pl.DataFrame({
            "session": np.full(players, session, dtype=np.int64),
            "table": table,
            "seat": np.tile(np.arange(4), tables),
            "player": names[seating],
            "final_score": scores,
            "chombo": (rng.random(players) < 0.01).astype(np.int64),
            "penalty": np.where(rng.random(players) < 0.01, 2.0, 0.0),
            "team": pl.Series(names[seating]).str.slice(0, 6),  # P00012 -> team P00012…: ten players a team
        }))
    frame = pl.concat(sessions)
    return frame.select(
        "session", "table",
        pl.format("S{}-T{}", pl.col("session").cast(pl.String).str.zfill(3),
                  pl.col("table").cast(pl.String).str.zfill(6)).alias("game_id"),
        "seat", "player", "final_score", "chombo", "penalty", "team",
    )


def dataset(players: int, games: int, seed: int, minimal: bool = False) -> Path:
    path = sheet_path(players, games, seed, minimal)
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(".tmp")
        frame = generate(players, games, seed)
        (frame.select("game_id", "seat", "player", "final_score") if minimal else frame).write_parquet(temp)
        temp.replace(path)
    return path


def wide_dataset(players: int, games: int, seed: int) -> Path:
    """The sheet of :func:`dataset`, one row per table (its seats' cells in columns of their own)."""
    long = dataset(players, games, seed)
    path = long.with_name(long.stem + "-wide.parquet")
    if not path.exists():
        temp = path.with_suffix(".tmp")
        pl.read_parquet(long).pivot(on="seat", index=["session", "table", "game_id"],
                                    values=["player", "final_score", "chombo", "penalty", "team"],
                                    maintain_order=True).write_parquet(temp)
        temp.replace(path)
    return path


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="runs of floor and score; the best is reported")
    parser.add_argument("--check", action="store_true", help="also time `analyzer check`")
    parser.add_argument("--minimal", action="store_true", help="only game_id, seat, player, final_score")
    parser.add_argument("--wide", action="store_true", help="also the same sheet one row per table")
    parser.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                        help="also time the score run of another checkout, alternating with this one")
    parser.add_argument("--keep", action="store_true", help="keep the outputs (printed path)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="after --: options for `analyzer score`")
    args = parser.parse_args(argv)
    extra = [a for a in args.extra if a != "--"]

    data = sheet_path(args.players, args.games, args.seed, args.minimal)
    made_in = None
    if not data.exists():  # made in a child: this process stays small for the children it measures
        made = timed([sys.executable, "-c", f"from benchmarks.sheets import dataset; "
                      f"dataset({args.players}, {args.games}, {args.seed}, {args.minimal})"])
        if made["exit"] != 0:
            raise SystemExit(f"generating the data failed: {made['stderr_tail']}")
        made_in = made["seconds"]
    wide = None
    if args.wide:
        wide = data.with_name(data.stem + "-wide.parquet")
        if not wide.exists() and timed([sys.executable, "-c", f"from benchmarks.sheets import wide_dataset; "
                                        f"wide_dataset({args.players}, {args.games}, {args.seed})"])["exit"]:
            raise SystemExit("making the wide sheet failed")
    rows = pl.scan_parquet(data).select(pl.len()).collect().item()
    work = Path(tempfile.mkdtemp(prefix="analyzer-sheets-"))
    analyzer = [sys.executable, "-m", "analyzer.cli"]
    fig = {"benchmark": "sheets", **run_info(), "rows": rows, "players": args.players, "games": args.games,
           "minimal": args.minimal,
           "input": str(data), "input_mb": round(data.stat().st_size / 2**20, 1), "generated_seconds": made_in,
           "score_options": extra, "cpus": os.cpu_count()}
    try:
        runs = {"floor": [], "score": [], "wide": [], "baseline": [], "check": []}
        for _ in range(args.repeat):
            runs["floor"].append(timed([sys.executable, "-c", FLOOR, str(data), str(work / "copy.parquet")]))
            shutil.rmtree(work / "out", ignore_errors=True)
            runs["score"].append(timed([*analyzer, "score", str(data), "-o", str(work / "out"), "--rules", "ema",
                                        "--top", "0", *extra]))
            if wide is not None:
                shutil.rmtree(work / "wide", ignore_errors=True)
                runs["wide"].append(timed([*analyzer, "score", str(wide), "-o", str(work / "wide"), "--rules", "ema",
                                           "--top", "0", *extra]))
            if args.baseline is not None:  # `-m` puts the checkout first on the path: its analyzer is the one run
                shutil.rmtree(work / "base", ignore_errors=True)
                runs["baseline"].append(timed([*analyzer, "score", str(data.resolve()), "-o", str(work / "base"),
                                               "--rules", "ema", "--top", "0", *extra], cwd=args.baseline.resolve()))
            if args.check:
                runs["check"].append(timed([*analyzer, "check", str(data), "--rules", "ema", "--show", "0", *extra]))
        keep_best(fig, runs, rows, args.baseline)
        if args.keep:
            fig["outputs"] = str(work / "out")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    path = save(fig, args.out, "sheets", f"{rows}{'-minimal' if args.minimal else ''}{'-wide' if args.wide else ''}")
    print(f"{rows:,} rows ({args.players:,} players x {args.games} games, {fig['input_mb']} MB Parquet), "
          f"{fig['cpus']} CPUs, options: {' '.join(extra) or 'defaults'}")
    print_steps(fig, rows, ("floor", "score", "wide", "baseline", "check"))
    print(f"figures: {path}")
    return fig


if __name__ == "__main__":
    main()
