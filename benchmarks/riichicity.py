"""Riichi City import benchmark: the same games as Mahjong Soul raw records and as Riichi City records, imported
side by side.

    .venv/bin/python -m benchmarks.riichicity [--games 2000] [--out benchmarks/results]

The Mahjong Soul test records of ``tests/data/majsoul_raw`` (a Gold Room east-only game, a Jade Room hanchan, a
three-player game, a friendly-room hanchan: 4 to 11 hands) are read into the game model and written again as
Riichi City records (``tests/data/riichicity/compose.py``: every event as the platform's API writes it, the call
offers, riichi broadcasts and turns without a draw included), so both readers read the same plays. Each is
written as many times as it takes to reach ``--games`` (each copy its own game, its players their own user ids,
as in an archive of many games), then, in one process:

* the CPU time of parsing each file into the game model (``parse_file``), per game;
* ``import majsoul`` and ``import riichicity`` of the copies (one process): games/s and CPU seconds.

The issue's target: the Riichi City reader at least as fast per game as the Mahjong Soul raw reader. The figures
are printed and written as JSON to ``benchmarks/results/`` (gitignored).
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from pathlib import Path

from analyzer.formats.files import expand_paths
from analyzer.formats.majsoul.raw import parse_majsoul
from analyzer.formats.parse import parse_file
from analyzer.formats.read import read_majsoul, read_riichicity
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save
from tests.data.riichicity.compose import record_of

ROOT = Path(__file__).resolve().parents[1]
RAW = ROOT / "tests" / "data" / "majsoul_raw"
GAMES = ("ranked_east.json", "ranked_south.json", "ranked_sanma.json", "friendly_south.json")
XID = "0123456789abcdefghijklmnopqrstuv"


def _key(n: int) -> str:
    """A Riichi City record id (20 characters of base-32 hex) for copy ``n``."""
    digits = "".join(XID[(n >> (5 * i)) & 31] for i in range(8))
    return "cq3k9u2ai08a" + digits


def replicate(games: int, into: Path) -> int:
    """Copies of each game as a Mahjong Soul raw record (``into/majsoul``) and a Riichi City one (``into/rc``)."""
    copies = max(1, math.ceil(games / len(GAMES)))
    raw = [json.loads((RAW / name).read_text(encoding="utf-8")) for name in GAMES]
    for c in range(copies):
        for kind in ("majsoul", "rc"):
            (into / kind / f"copy{c // 1000:03d}").mkdir(parents=True, exist_ok=True)
        for i, record in enumerate(raw):
            record["head"]["uuid"] = record["head"]["uuid"][:-8] + f"{c:08x}"
            text = json.dumps(record, ensure_ascii=False)
            (into / "majsoul" / f"copy{c // 1000:03d}" / f"{c:05d}_{i}.json").write_text(text, encoding="utf-8")
            game = parse_majsoul(text, "bench")
            rc = record_of(game, _key(c * len(GAMES) + i), round_type=1 if game.game_length == "tonpuu" else 2,
                           users=[10**8 + 4 * (c * len(GAMES) + i) + s for s in range(4)])  # players of its own
            (into / "rc" / f"copy{c // 1000:03d}" / f"{c:05d}_{i}.json").write_text(
                json.dumps(rc, ensure_ascii=False), encoding="utf-8")
    return copies


def _cpu(fn) -> tuple[object, float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - t0, time.process_time() - c0


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.riichicity", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games to reach by replicating the test records")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    args = ap.parse_args(argv)
    fig: dict = {"games_asked": args.games, **run_info()}
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-riichicity-") as tmp:
        root = Path(tmp)
        fig["copies"] = replicate(args.games, root)
        for kind, log_format, read in (("majsoul", "majsoul", read_majsoul), ("rc", "riichicity", read_riichicity)):
            files, _ = expand_paths([root / kind])
            _, _, parse_cpu = _cpu(lambda: [parse_file(f, log_format) for f in files])
            (hands, problems), wall, cpu = _cpu(lambda: read([root / kind], workers=1))
            assert not [p for p in problems if not p.imported], f"a {kind} benchmark record did not import"
            games = hands["game_id"].n_unique()
            fig[kind] = {"games": games, "rows": hands.height, "parse_ms_per_game": round(1000 * parse_cpu / games, 3),
                         "import_s": round(wall, 2), "import_cpu_ms_per_game": round(1000 * cpu / games, 3),
                         "games_per_s": round(games / max(wall, 1e-9))}
    fig["riichicity_vs_majsoul"] = round(fig["majsoul"]["import_cpu_ms_per_game"]
                                         / max(fig["rc"]["import_cpu_ms_per_game"], 1e-9), 2)
    fig["peak_rss_mb"] = peak_rss_mb()
    for kind, label in (("majsoul", "Mahjong Soul raw"), ("rc", "Riichi City")):
        f = fig[kind]
        print(f"{label:17} {f['games']:,} games ({f['rows']:,} rows): parse {f['parse_ms_per_game']} ms/game, "
              f"import {f['import_cpu_ms_per_game']} CPU ms/game, {f['games_per_s']:,} games/s")
    print(f"Riichi City / Mahjong Soul: {fig['riichicity_vs_majsoul']}x the games per CPU second")
    path = save(fig, args.out, "riichicity", f"g{fig['rc']['games']}")
    print(f"figures           {path}")
    return fig


if __name__ == "__main__":
    main()
