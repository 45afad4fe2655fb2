"""Tile-scoring benchmark: analyzer.tiles.score_tiles against the pure-Python ``mahjong`` package.

    .venv/bin/python -m benchmarks.tiles [--n 1000000] [--sample 5000] [--seed 0] [--rules tenhou] [--repeat 3]
                                         [--engine auto|in-memory|streaming] [--out benchmarks/results]

Generates N hands with ``benchmarks.handgen`` (timed on its own) and scores them with ``score_tiles``, each
step one ``collect(engine=--engine)``, after a 1,000-hand warm-up (table building), best of ``--repeat`` runs:

* end to end from the MPSZ text, every output column (yaku and fu_detail lists included), plus points;
* the text -> tile codes phase alone (``analyzer.tiles.codes.encode_tiles``);
* scoring the table of tile codes (what ``analyzer tiles encode`` stores), every output column;
* the same without the yaku / fu_detail lists (``score_tiles(..., lists=False)``: han, fu, yakuman, dora,
  wait, problem and points).

It then scores the first ``--sample`` hands with ``mahjong`` in the same process (hands/s end to end from our
row dicts, i.e. including building its objects, and the ``estimate_hand_value`` calls alone), prints two
speed ratios (end to end vs end to end; score from codes vs ``estimate_hand_value`` alone), how many sampled
hands agree on points, whether codes and text agree, and the peak RSS, and writes the figures as JSON to
``benchmarks/results/`` (gitignored).

Measured figures: the "Speed" paragraph of :mod:`analyzer.tiles` and the README.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

from analyzer.scoring.points import base_points, hand_points
from analyzer.core.rules import load_rules
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save
from benchmarks.handgen import generate


def _with_points(lf: pl.LazyFrame, rules) -> pl.LazyFrame:
    """The hand's value from the scored han / fu / yakuman, as the pipeline prices it (base points first)."""
    lf = lf.with_columns(base_points(pl.col("han"), pl.col("fu"), pl.col("yakuman"), rules).alias("base_points"))
    return lf.with_columns(hand_points(pl.col("base_points"), pl.col("_winner_is_dealer"), pl.col("_is_tsumo"))
                           .alias("points"))


def _score_analyzer(df: pl.DataFrame, rules, engine: str):
    try:
        from analyzer.tiles import score_tiles
    except ImportError as exc:
        return None, f"analyzer.tiles.score_tiles not available: {exc}"
    return _with_points(score_tiles(df.lazy(), rules), rules).collect(engine=engine), None


def _encode_only(df: pl.DataFrame, engine: str) -> pl.DataFrame:
    """Phase 1 alone: the MPSZ text columns read into tile codes (``analyzer.tiles.codes``), as score_tiles does."""
    from analyzer.tiles.codes import CODE_COLUMNS, encode_tiles

    return encode_tiles(df.lazy()).select(CODE_COLUMNS).collect(engine=engine)


def _values_only(df: pl.DataFrame, rules, engine: str) -> pl.DataFrame:
    """score_tiles without the yaku / fu_detail lists (``lists=False``: not built at all), with points."""
    from analyzer.tiles import score_tiles

    return _with_points(score_tiles(df.lazy(), rules, lists=False), rules).collect(engine=engine)


def _best(step, repeat: int):
    """(result of the last run, best wall time over ``repeat`` runs): the machine is shared, so take the best."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        t0 = time.perf_counter()
        result = step()
        best = min(best, time.perf_counter() - t0)
    return result, best


def _phase(fig: dict, name: str, seconds: float, n: int, label: str) -> None:
    fig[f"{name}_s"] = round(seconds, 3)
    fig[f"{name}_hands_per_s"] = round(n / max(seconds, 1e-9))
    print(f"  phase    {label:<36} {seconds:8.2f} s  {fig[f'{name}_hands_per_s']:>12,} hands/s  (separate collect)")


def _score_mahjong(rows: list[dict], rules):
    """(results, seconds end to end, seconds inside estimate_hand_value) for the sampled rows."""
    from mahjong.hand_calculating.hand import HandCalculator

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.tiles.oracle import Unsupported, build_args, score_row

    t0 = time.perf_counter()
    results = []
    for row in rows:
        try:
            results.append(score_row(row, rules))
        except Unsupported:
            results.append(None)
    total = time.perf_counter() - t0

    args = []
    for row in rows:
        try:
            args.append(build_args(row, rules))
        except Unsupported:
            pass
    t0 = time.perf_counter()
    for tiles, win, melds, dora, ura, config in args:
        HandCalculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora,
                                           ura_dora_indicators=ura, config=config)
    calc = time.perf_counter() - t0
    return results, total, calc, len(args)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.tiles", description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="hands to generate and score with analyzer")
    ap.add_argument("--sample", type=int, default=5000, help="hands (the first ones) to score with mahjong too")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each analyzer step (with --e2e: rounds of analyzer score and riichienv); the best is reported")
    ap.add_argument("--rules", default="tenhou", help="preset name or spec, as analyzer takes them")
    ap.add_argument("--engine", default="auto", choices=["auto", "in-memory", "streaming"],
                    help="polars engine for the one collect() (auto is streaming for lazy queries in polars 2)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    ap.add_argument("--e2e", action="store_true",
                    help="end to end instead: `analyzer score` as a fresh process on N tile hands from Parquet, "
                         "beside mahjong and riichienv (benchmarks/tiles_e2e.py)")
    args = ap.parse_args(argv)
    if args.e2e:
        from benchmarks import tiles_e2e

        return tiles_e2e.main(args.n, args.sample, args.seed, args.out, repeat=args.repeat)
    rules = load_rules(args.rules)
    fig: dict = {
        "n": args.n, "sample": min(args.sample, args.n), "seed": args.seed, "rules": args.rules, "repeat": args.repeat,
        "engine": args.engine,
        **run_info(),
    }

    t0 = time.perf_counter()
    df = generate(args.n, seed=args.seed)
    fig["generate_s"] = round(time.perf_counter() - t0, 3)
    fig["generate_hands_per_s"] = round(args.n / max(fig["generate_s"], 1e-9))
    print(f"generate   {args.n:>9,} hands  {fig['generate_s']:8.2f} s  {fig['generate_hands_per_s']:>12,} hands/s")

    # one small warm-up run first (table building, first-use costs), then every step is the best of --repeat
    _score_analyzer(df.head(1000), rules, args.engine)
    (scored, why), seconds = _best(lambda: _score_analyzer(df, rules, args.engine), args.repeat)
    if scored is None:
        print(f"analyzer   skipped ({why})")
        fig["analyzer_skipped"] = why
    else:
        fig["analyzer_s"] = round(seconds, 3)
        fig["analyzer_hands_per_s"] = round(args.n / max(fig["analyzer_s"], 1e-9))
        fig["analyzer_no_yaku"] = int((scored["tile_problem"] == "no_yaku").sum())
        print(f"analyzer   {args.n:>9,} hands  {fig['analyzer_s']:8.2f} s  {fig['analyzer_hands_per_s']:>12,} hands/s"
              "  (end to end from the MPSZ text, every output column)")
        # the two phases as separate collects: text -> tile codes, then scoring a table of codes (what
        # `analyzer tiles encode` stores); the latter with every output column, and without the yaku/fu_detail
        # lists (han, fu, yakuman, dora, wait, problem: score_tiles(..., lists=False) does not build them)
        codes, seconds = _best(lambda: _encode_only(df, args.engine), args.repeat)
        _phase(fig, "encode", seconds, args.n, "encode text -> tile codes")
        codes = pl.concat([df.drop("hand", "melds", "win_tile", "dora", "ura"), codes], how="horizontal")
        (from_codes, _), seconds = _best(lambda: _score_analyzer(codes, rules, args.engine), args.repeat)
        _phase(fig, "score_from_codes", seconds, args.n, "score from tile codes, all columns")
        _, seconds = _best(lambda: _values_only(codes, rules, args.engine), args.repeat)
        _phase(fig, "values_from_codes", seconds, args.n, "score from tile codes, no lists")
        fig["codes_agree"] = bool(from_codes.select("han", "fu", "points").equals(scored.select("han", "fu", "points")))

    rows = df.head(fig["sample"]).to_dicts()
    results, total, calc, n_calc = _score_mahjong(rows, rules)
    fig["mahjong_s"] = round(total, 3)
    fig["mahjong_hands_per_s"] = round(len(rows) / max(total, 1e-9))
    fig["mahjong_calc_only_hands_per_s"] = round(n_calc / max(calc, 1e-9))
    print(f"mahjong    {len(rows):>9,} hands  {total:8.2f} s  {fig['mahjong_hands_per_s']:>12,} hands/s "
          f"(estimate_hand_value alone: {fig['mahjong_calc_only_hands_per_s']:,} hands/s)")

    if scored is not None:
        fig["ratio"] = round(fig["analyzer_hands_per_s"] / max(fig["mahjong_hands_per_s"], 1), 1)
        ours = scored.head(len(rows)).select("points", "tile_problem").to_dicts()
        compared = agree = 0
        for mine, o in zip(ours, results):
            if o is None or o.error not in (None, "no_yaku"):
                continue
            compared += 1
            if o.error == "no_yaku":
                agree += mine["tile_problem"] == "no_yaku"
            else:
                agree += mine["tile_problem"] is None and mine["points"] == o.points
        fig["sample_compared"], fig["sample_agree_points"] = compared, agree
        # like for like: both from our rows (mahjong incl. building its objects from the row dicts), and both
        # without the input conversion (mahjong's estimate_hand_value alone vs analyzer's score-from-codes phase)
        fig["ratio_calc_only"] = round(
            fig["score_from_codes_hands_per_s"] / max(fig["mahjong_calc_only_hands_per_s"], 1), 1)
        print(f"ratio      analyzer/mahjong = {fig['ratio']:,}x end to end from our rows; "
              f"{fig['ratio_calc_only']:,}x without input conversion (score from codes vs estimate_hand_value)")
        print(f"agreement  sample agreement on points/no-yaku: {agree:,}/{compared:,}; "
              f"codes and text give the same han/fu/points: {fig['codes_agree']}")
    fig["peak_rss_mb"] = peak_rss_mb()
    print(f"peak RSS   {fig['peak_rss_mb']:,} MB")

    path = save(fig, args.out, "tiles", f"n{args.n}")
    print(f"figures    {path}")
    fig["json"] = str(path)
    return fig


if __name__ == "__main__":
    main()
