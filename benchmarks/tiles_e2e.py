"""Tile hands end to end: `analyzer score` as a fresh process on a Parquet file of N tile hands, beside
`mahjong` and `riichienv` scoring the same hands (with their input conversion) in the same run.

    .venv/bin/python -m benchmarks.tiles --e2e [--n 1000000] [--sample 5000] [--seed 0] [--repeat 3]

Each hand is its own game (a bulk hand export): one row with the seating, ron or tsumo, winner and loser,
the MPSZ tiles, dora and ura indicators and the situation flags from :mod:`benchmarks.handgen`. `analyzer
score` writes all four outputs; its rate is hands/s of the whole process (start-up included) and its peak
RSS is its own. `mahjong` (``estimate_hand_value``) and `riichienv` (closed hands only: it takes melds as
objects) score the first ``--sample`` hands one by one. riichienv's paths, every one timed and reported, start
from what a user holds, prepared outside the timed loop (see :func:`_riichienv_rates`): ``calc_from_text``;
``parse_hand`` on the stored hand and indicators then ``HandEvaluator(tiles, melds).calc``; and the same
through its compiled classes. Their fastest is the one compared. Their rates are hands/s of the fastest of
repeated passes over the sample (at least a second in all: one pass takes tens of milliseconds, too short to
time once). analyzer and the riichienv passes alternate for ``--repeat`` rounds, each figure the best of its
rounds, so a shared machine's load weighs on both alike. Both are also given in hands per CPU second
(analyzer's over all its threads, riichienv's fastest path on its one), which a shared machine's load hardly
moves. A check counts the closed hands riichienv and
``score_tiles`` score alike. riichienv is optional (`pip install 'riichi-analyzer[bench]'`); without it the run
says so.

The run also measures, in the same run, what `analyzer score` cannot do without, each step alone in a fresh
process: starting Python and importing analyzer, reading the input, scoring the tiles (``score_tiles`` and
the hands' points, from the text), and writing the run's own four outputs again with its writer. Their CPU
seconds over the machine's cores bound the end-to-end rate from above (every step perfectly overlapped, and
nothing else: no validation, replay, games table or statistics): the ``ceiling`` it prints.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

from analyzer.core.rules import load_rules
from benchmarks.figures import RESULTS, run_info, save
from benchmarks.handgen import generate
from benchmarks.scale import timed

DATA = Path(__file__).resolve().parent / "data"
NAMES = ["Aoki", "Baba", "Chiba", "Doi"]


def hand_rows(n: int, seed: int) -> pl.DataFrame:
    """``n`` generated hands as pipeline rows, each its own game (winner's seat wind from the generator)."""
    hands = generate(n, seed=seed)
    seat = pl.col("_seat_wind")
    return hands.select(
        pl.format("h{}", pl.int_range(pl.len()).cast(pl.String).str.zfill(9)).alias("game_id"),
        pl.when(pl.col("_round_wind") == 0).then(pl.lit("E1")).otherwise(pl.lit("S1")).alias("round"),
        pl.lit("0").alias("honba"),
        *[pl.lit(name).alias(f"player_{s}") for s, name in enumerate(NAMES)],
        pl.when(pl.col("_is_tsumo")).then(pl.lit("tsumo")).otherwise(pl.lit("ron")).alias("result"),
        seat.cast(pl.String).alias("winner"),
        pl.when(pl.col("_is_tsumo")).then(None).otherwise(((seat + 1) % 4).cast(pl.String)).alias("loser"),
        pl.when(pl.col("_is_riichi") | pl.col("double_riichi")).then(seat.cast(pl.String)).alias("riichi"),
        "hand", "melds", "win_tile", "dora", "ura",
        "ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou",
    )


def dataset(n: int, seed: int, data_dir: Path = DATA) -> Path:
    path = data_dir / f"tiles-{n}-{seed}.parquet"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(".tmp")
        hand_rows(n, seed).write_parquet(temp)
        temp.replace(path)
    return path


def _best_pass(one_pass, at_least: float = 1.0, most: int = 20, cpu: list | None = None) -> float:
    """The fastest of repeated passes over a sample (seconds), repeated until ``at_least`` seconds in all: one
    pass over a few thousand hands takes tens of milliseconds, too short to time once on a shared machine.
    With ``cpu`` (a list), the least CPU seconds of a pass is appended to it: steadier than wall time when
    other work shares the cores."""
    best, least_cpu, spent, passes = float("inf"), float("inf"), 0.0, 0
    while passes < most and (spent < at_least or passes < 3):
        started, cpu_started = time.perf_counter(), time.process_time()
        one_pass()
        took = time.perf_counter() - started
        least_cpu = min(least_cpu, time.process_time() - cpu_started)
        best, spent, passes = min(best, took), spent + took, passes + 1
    if cpu is not None:
        cpu.append(least_cpu)
    return best


def _riichienv_rates(rows: list[dict]) -> tuple[dict[str, float | None], list, str]:
    """hands/s of riichienv's per-hand paths on the closed hands among ``rows``. Each starts from what a user
    holds, prepared outside the timed loop: our stored texts (the hand with its winning tile, the winning tile,
    the indicators) and, for ``calc_from_text`` alone, the text it asks for (the 13 other tiles then the winning
    one). Every path builds its ``Conditions`` from the row's flags inside the loop.

    * ``calc_from_text``: ``HandEvaluator.calc_from_text(text, dora, conditions, ura)``, its one-call path;
    * ``parse_hand_calc``: ``parse_hand`` on the stored hand, ``parse_tile`` on the winning tile, ``parse_hand``
      on the indicators, then ``HandEvaluator(tiles, melds).calc`` (its public classes);
    * ``core_calc``: the same with the compiled ``_riichienv.HandEvaluator`` and ``Conditions`` the public
      wrapper hands its work to, without the wrapper's Python (its fastest path).
    """
    try:
        import riichienv
        from riichienv import _riichienv as core
    except ImportError:
        return {}, [], "riichienv is not installed (pip install 'riichi-analyzer[bench]')"
    closed = [r for r in rows if not r["melds"]]
    parse_hand, parse_tile, evaluator, conditions_of = riichienv.parse_hand, riichienv.parse_tile, \
        riichienv.HandEvaluator, riichienv.Conditions
    winds = [core.Wind.East, core.Wind.South, core.Wind.West, core.Wind.North]

    def calc_from_text_input(row: dict) -> str:
        # its text: the 13 other tiles (red fives are 0 in both notations), then the winning tile
        digits = {suit: list(group) for group, suit in re.findall(r"(\d+)([mpsz])", row["hand"])}
        win = row["win_tile"]
        digits[win[-1]].remove(win[:-1])
        return "".join("".join(d) + s for s, d in digits.items() if d) + win

    texts = [calc_from_text_input(row) for row in closed]

    def flags(row: dict) -> dict:
        return {"tsumo": row["result"] == "tsumo", "riichi": row["riichi"] is not None,
                "ippatsu": row["ippatsu"], "double_riichi": row["double_riichi"], "haitei": row["haitei"],
                "houtei": row["houtei"], "rinshan": row["rinshan"], "chankan": row["chankan"]}

    def winds_of(row: dict) -> tuple[int, int]:
        return int(row["winner"]) % 4, 0 if row["round"].startswith("E") else 1  # seat 0 deals in every hand

    def from_text() -> None:
        for row, text in zip(closed, texts):
            seat, round_wind = winds_of(row)
            evaluator.calc_from_text(text, row["dora"], conditions_of(**flags(row), player_wind=seat,
                                                                       round_wind=round_wind),
                                     row["ura"] if row["riichi"] is not None else None)

    def parsed(row: dict):
        tiles, melds = parse_hand(row["hand"])
        seat, round_wind = winds_of(row)
        ura = parse_hand(row["ura"])[0] if row["riichi"] is not None and row["ura"] else []
        return evaluator(tiles, melds).calc(parse_tile(row["win_tile"]), parse_hand(row["dora"])[0],
                                            conditions_of(**flags(row), player_wind=seat, round_wind=round_wind), ura)

    def from_parsed() -> None:
        for row in closed:
            parsed(row)

    def from_core() -> None:
        for row in closed:
            tiles, melds = parse_hand(row["hand"])
            seat, round_wind = winds_of(row)
            ura = parse_hand(row["ura"])[0] if row["riichi"] is not None and row["ura"] else []
            core.HandEvaluator(tiles, melds).calc(
                parse_tile(row["win_tile"]), parse_hand(row["dora"])[0], ura,
                core.Conditions(**flags(row), player_wind=winds[seat], round_wind=winds[round_wind]))

    rates, cpu = {}, []
    for name, one_pass in (("calc_from_text", from_text), ("parse_hand_calc", from_parsed), ("core_calc", from_core)):
        seconds = _best_pass(one_pass, cpu=cpu)
        rates[name] = len(closed) / seconds if seconds > 0 else None
        rates[f"{name}_per_cpu_second"] = len(closed) / cpu[-1] if cpu[-1] > 0 else None
    return rates, [(row, parsed(row)) for row in closed], "closed hands only"


def _riichienv_agreement(scored: list, rules) -> tuple[int, int]:
    """How many closed sample hands riichienv and ``score_tiles`` score alike (han and fu, or yakuman): a check
    that every timed path scores what analyzer scores, not something easier."""
    from analyzer.tiles import score_tiles

    if not scored:
        return 0, 0
    ours = score_tiles(_tile_inputs(pl.DataFrame([row for row, _ in scored]).lazy()), rules).select(
        "han", "fu", "yakuman").collect().to_dicts()
    agree = 0
    for mine, (_, theirs) in zip(ours, scored):
        if not theirs.is_win:
            agree += not mine["han"] and not mine["yakuman"]
        elif theirs.yakuman:
            agree += bool(mine["yakuman"])
        else:
            agree += (mine["han"], mine["fu"]) == (theirs.han, theirs.fu) and not mine["yakuman"]
    return agree, len(scored)


def _mahjong_rate(rows: list[dict]) -> float:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.tiles.oracle import Unsupported, score_row

    rules = load_rules("tenhou")

    def one_pass() -> None:
        for row in rows:
            try:
                score_row(_oracle_row(row), rules)
            except Unsupported:
                pass

    return len(rows) / _best_pass(one_pass)


def _oracle_row(row: dict) -> dict:
    """Our pipeline row in the shape the test oracle reads (the generator's scoring inputs)."""
    seat = int(row["winner"])
    return {**row, "_is_tsumo": row["result"] == "tsumo", "_is_riichi": row["riichi"] is not None,
            "_seat_wind": seat, "_round_wind": 0 if row["round"].startswith("E") else 1,
            "_winner_is_dealer": seat == 0}


def _tile_inputs(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Our rows with the situation columns ``score_tiles`` reads, as the tile stage derives them (every
    generated hand is the first hand of its round wind: the dealer sits in seat 0)."""
    seat = pl.col("winner").cast(pl.Int64)
    return rows.with_columns(
        (pl.col("result") == "tsumo").alias("_is_tsumo"), pl.col("riichi").is_not_null().alias("_is_riichi"),
        seat.alias("_seat_wind"), pl.col("round").str.starts_with("S").cast(pl.Int64).alias("_round_wind"),
        (seat == 0).alias("_winner_is_dealer"),
    )


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure_steps(data: Path, outputs: Path) -> dict:
    """Wall and CPU seconds of reading ``data``, scoring its tiles and writing the tables in ``outputs`` again
    (with the run's writer, a part at a time as the run appends them), each alone: run in a fresh process."""
    from analyzer.io.write import ResultWriter
    from analyzer.run.plan import DEFAULT_PARTITION_ROWS
    from analyzer.core.rules import load_rules
    from analyzer.tiles import score_tiles
    from benchmarks.tiles import _with_points

    def step(work):
        cpu, wall = _cpu_seconds(), time.perf_counter()
        out = work()
        return out, {"seconds": round(time.perf_counter() - wall, 3), "cpu_seconds": round(_cpu_seconds() - cpu, 3)}

    figures = {}
    rows, figures["read"] = step(lambda: pl.read_parquet(data))
    rules = load_rules("tenhou")
    _, figures["tile_scoring"] = step(lambda: _with_points(score_tiles(_tile_inputs(rows.lazy()), rules), rules).collect())
    tables = {name: pl.read_parquet(path) for name in ("hands", "games", "players", "rejects")
              if (path := outputs / f"{name}.parquet").exists()}
    parts = max(1, -(-rows.height // DEFAULT_PARTITION_ROWS))  # about as many appends as the run makes

    def write() -> None:
        writer = ResultWriter(outputs / "copy", streamed=parts > 1)
        try:
            for name, table in tables.items():
                chunk = -(-table.height // parts) if name in ("hands", "games") else table.height
                for start in range(0, max(table.height, 1), max(chunk, 1)):
                    writer.append(name, table.slice(start, chunk))
            writer.commit()
        except BaseException:
            writer.abort()
            raise

    _, figures["write_outputs"] = step(write)
    return figures


def components(data: Path, outputs: Path, hands: int) -> dict:
    """The steps of :func:`measure_steps`, and Python's start-up with analyzer imported, each in a fresh
    process; ``ceiling``: hands/s if they were all the run did, perfectly overlapped on this machine's cores."""
    startup = timed([sys.executable, "-c", "import analyzer.cli"])
    child = subprocess.run(
        [sys.executable, "-c", "import json, sys; from pathlib import Path; from benchmarks.tiles_e2e import "
         "measure_steps; print(json.dumps(measure_steps(Path(sys.argv[1]), Path(sys.argv[2]))))",
         str(data), str(outputs)],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[1],
    )
    steps = {"startup": {"seconds": startup["seconds"], "cpu_seconds": startup["cpu_seconds"]},
             **json.loads(child.stdout.strip().splitlines()[-1])}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    cpu = sum(s["cpu_seconds"] for s in steps.values())
    best = round(max(cpu / cores, *(s["seconds"] for s in steps.values())), 3)
    return {"steps": steps, "cores": cores, "cpu_seconds": round(cpu, 2), "best_seconds": best,
            "ceiling_hands_per_s": round(hands / best)}


def main(n: int, sample: int, seed: int, out: Path = RESULTS, data_dir: Path = DATA, repeat: int = 3) -> dict:
    data = dataset(n, seed, data_dir)
    rows = pl.read_parquet(data, n_rows=sample).to_dicts()
    work = Path(tempfile.mkdtemp(prefix="analyzer-tiles-e2e-"))
    fig = {"benchmark": "tiles_e2e", **run_info(), "hands": n, "input": str(data), "rounds": repeat}
    runs, rounds = [], []
    try:
        # analyzer and its peers alternate, ``repeat`` rounds, each figure the best of its rounds: a shared
        # machine's load then weighs on both sides alike
        for _ in range(max(1, repeat)):
            shutil.rmtree(work / "out", ignore_errors=True)
            runs.append(timed([sys.executable, "-m", "analyzer.cli", "score", str(data), "-o", str(work / "out"),
                               "--top", "0"]))
            rates, scored, note = _riichienv_rates(rows)
            rounds.append(rates)
        fig["components"] = components(data, work / "out", n)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    run = min(runs, key=lambda r: r["seconds"])
    fig["analyzer"] = {**run, "hands_per_s": round(n / run["seconds"]),
                       "hands_per_cpu_second": round(n / min(r["cpu_seconds"] for r in runs)),
                       "rounds_hands_per_s": [round(n / r["seconds"]) for r in runs]}
    fig["mahjong_hands_per_s"] = round(_mahjong_rate(rows))
    best = {name: max((r[name] for r in rounds if r.get(name)), default=None) for name in rounds[0]}
    rates = {name: r for name, r in best.items() if not name.endswith("_per_cpu_second")}
    per_cpu = {name.removesuffix("_per_cpu_second"): r for name, r in best.items() if name.endswith("_per_cpu_second")}
    rate = max((r for r in rates.values() if r), default=None)  # its fastest path is the one compared
    cpu_rate = max((r for r in per_cpu.values() if r), default=None)
    closed = len(scored)
    agree, checked = _riichienv_agreement(scored, load_rules("tenhou"))
    fig["riichienv"] = {"hands_per_s": round(rate) if rate else None, "hands": closed, "note": note,
                        "agree_with_analyzer": agree,
                        **{f"{name}_hands_per_s": round(r) if r else None for name, r in rates.items()},
                        "hands_per_cpu_second": round(cpu_rate) if cpu_rate else None,
                        **{f"{name}_hands_per_cpu_second": round(r) if r else None for name, r in per_cpu.items()},
                        **{f"{name}_rounds_hands_per_s": [round(r[name]) for r in rounds if r.get(name)]
                           for name in rates}}
    if cpu_rate:
        fig["ratio_to_riichienv_per_cpu_second"] = round(fig["analyzer"]["hands_per_cpu_second"] / cpu_rate, 2)
    print(f"analyzer score  {n:>9,} hands {run['seconds']:8.2f} s {fig['analyzer']['hands_per_s']:>10,} hands/s"
          f"  peak RSS {run['peak_rss_mb'] / 1024:.2f} GB  (exit {run['exit']}; fresh process, all four outputs;"
          f" best of {len(runs)}: {', '.join(f'{r:,}' for r in fig['analyzer']['rounds_hands_per_s'])})")
    print(f"mahjong         {len(rows):>9,} hands {'':>10} {fig['mahjong_hands_per_s']:>10,} hands/s")
    if rate:
        fig["ratio_to_riichienv"] = round(fig["analyzer"]["hands_per_s"] / rate, 2)
        for name, each in rates.items():
            print(f"riichienv       {closed:>9,} hands {'':>10} {round(each):>10,} hands/s  ({note}; {name};"
                  f" best of {len(runs)})")
        print(f"agreement       riichienv and analyzer score {agree:,} of the {checked:,} closed hands alike"
              " (han and fu, or yakuman)")
        print(f"ratio           analyzer / riichienv's fastest path = {fig['ratio_to_riichienv']}x,"
              f" analyzer / mahjong = {fig['analyzer']['hands_per_s'] / fig['mahjong_hands_per_s']:.1f}x")
        print(f"per CPU second  analyzer {fig['analyzer']['hands_per_cpu_second']:,} hands (all its threads),"
              f" riichienv's fastest path {round(cpu_rate):,}: {fig['ratio_to_riichienv_per_cpu_second']}x"
              " (steadier than wall time on a shared machine)")
    else:
        print(f"riichienv       skipped: {note}")
    parts = fig["components"]
    steps = ", ".join(f"{label} {parts['steps'][key]['cpu_seconds']:.2f} s" for key, label in (
        ("startup", "start-up"), ("read", "read"), ("tile_scoring", "tile scoring"), ("write_outputs", "writes")))
    print(f"ceiling         {parts['ceiling_hands_per_s']:>10,} hands/s: these steps alone, perfectly overlapped on "
          f"{parts['cores']} cores ({steps} of CPU: {parts['cpu_seconds']:.2f} s, at best {parts['best_seconds']:.2f} s)")
    path = save(fig, out, "tiles_e2e", f"n{n}")
    print(f"figures         {path}")
    return fig
