"""Import and check benchmark: the shared Tenhou logs replicated to N games, imported and checked.

    .venv/bin/python -m benchmarks.tenhou [--games 10000] [--logs ../shared/data/logs] [--workers 0]
                                          [--out benchmarks/results]

Copies of every log file under ``--logs`` go into a temporary directory, as many rounds of copies as it takes
to reach ``--games`` importable games; each copy is a distinct game to the importer (its log id suffixed, its
content marked, as the importer keeps one of identical games). Then, in one process and one run:

* baseline: reading every file and parsing it (``ElementTree`` / ``json``), nothing else: the floor any
  importer pays;
* import: ``read_tenhou`` with one process, then with ``--workers`` processes (0 = one per core): games/s,
  rows/s and the ratio to the baseline;
* score: ``analyzer.score`` of the imported rows (each game under its ``rules`` column), the baseline for
* check: ``analyzer.check`` of the same rows (scoring included): games/s, hands/s, ratio to score;
* end to end: import (parallel) + check, games/s; and the peak RSS.

The figures are printed and written as JSON to ``benchmarks/results/`` (gitignored).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path


from analyzer.api import check, score
from analyzer.formats.files import expand_paths
from analyzer.formats.read import read_tenhou
from benchmarks.figures import RESULTS, peak_rss_mb, run_info, save

ROOT = Path(__file__).resolve().parents[1]
SHARED_LOGS = ROOT.parent / "shared" / "data" / "logs"



def replicate(logs: Path, games: int, into: Path) -> tuple[int, int]:
    """Write ``copies`` copies of every log file into ``into``, each copy a different game to the importer (its
    log id, or its content where it has none, made distinct: the importer keeps one of identical games);
    returns (files, copies)."""
    files, _ = expand_paths([logs])
    sample, problems = read_tenhou([logs], workers=1)
    per_copy = sample["game_id"].n_unique()
    copies = max(1, math.ceil(games / max(per_copy, 1)))
    texts = [_text(f) for f in files]
    for c in range(copies):
        for i, (f, text) in enumerate(zip(files, texts)):
            name = f.name[:-3] if f.name.endswith(".gz") else f.name
            target = into / f"copy{c:04d}" / f"{i:03d}_{name}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_distinct(text, c), encoding="utf-8")
    return len(files) * copies, copies


def _text(f: Path) -> str:
    data = f.read_bytes()
    if f.name.endswith(".gz") or data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8-sig", errors="replace")


def _distinct(text: str, copy: int) -> str:
    """The same log as copy number ``copy``: its log id suffixed, and its content marked (an attribute of the
    XML root element, as comments are no content to the importer; a key in each JSON object)."""
    tag = f"bench{copy:04d}"
    if text.lstrip().startswith("<"):
        text = re.sub(r'(\bref=")([^"]*)"', lambda m: f'{m.group(1)}{m.group(2)}-{tag}"', text)
        root_end = text.index(">", text.index("<mjloggm"))
        return text[:root_end] + f' bench="{tag}"' + text[root_end:]

    def mark(obj):
        if isinstance(obj, dict):
            if isinstance(obj.get("ref"), str):
                obj["ref"] += f"-{tag}"
            obj["bench_copy"] = copy
        return obj

    try:
        return json.dumps(mark(json.loads(text)), ensure_ascii=False)
    except json.JSONDecodeError:  # JSON lines: each line its own object
        return "\n".join(json.dumps(mark(json.loads(line)), ensure_ascii=False) for line in text.splitlines()
                         if line.strip())


def parse_only(root: Path) -> int:
    """Read and parse every log file (XML or JSON, one game or one kyoku per line); returns the file count."""
    files, _ = expand_paths([root])
    for f in files:
        data = f.read_bytes()
        if f.name.endswith(".gz") or data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        text = data.decode("utf-8-sig").lstrip()
        if text.startswith("<"):
            ET.fromstring(text)
        else:
            try:
                json.loads(text)
            except json.JSONDecodeError:
                [json.loads(line) for line in text.splitlines() if line.strip()]
    return len(files)


def _timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.tenhou", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="games to reach by replicating the logs")
    ap.add_argument("--logs", type=Path, default=SHARED_LOGS, help="directory of Tenhou logs to replicate")
    ap.add_argument("--workers", type=int, default=0, help="processes for the parallel import (0 = one per core)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for the JSON figures")
    args = ap.parse_args(argv)
    if not args.logs.is_dir():
        raise SystemExit(f"no logs at {args.logs}: pass --logs DIR (the shared logs live beside the repository)")
    workers = args.workers or os.cpu_count() or 1
    fig: dict = {
        "games_asked": args.games, "logs": str(args.logs), "workers": workers, "cores": os.cpu_count(),
        **run_info(),
    }

    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        root = Path(tmp)
        (files, copies), _ = _timed(lambda: replicate(args.logs, args.games, root))
        fig |= {"files": files, "copies": copies}

        _, fig["parse_only_s"] = _timed(lambda: parse_only(root))
        (hands, problems), fig["import_1_s"] = _timed(lambda: read_tenhou([root], workers=1))
        (hands_p, _), fig["import_s"] = _timed(lambda: read_tenhou([root], workers=workers))
        assert hands_p.equals(hands), "parallel import differs from the serial one"
    games, rows = hands["game_id"].n_unique(), hands.height
    fig |= {"games": games, "rows": rows, "files_not_imported": sum(not p.imported for p in problems)}

    scored, fig["score_s"] = _timed(lambda: score(hands))
    result, fig["check_s"] = _timed(lambda: check(hands))
    fig["check_findings"] = result.findings.height
    fig["check_mismatches"] = result.mismatches.height
    fig["rows_scored"] = scored.hands.height

    def per_s(n, seconds):
        return round(n / max(seconds, 1e-9))

    fig |= {
        "parse_only_games_per_s": per_s(games, fig["parse_only_s"]),
        "import_1_games_per_s": per_s(games, fig["import_1_s"]),
        "import_games_per_s": per_s(games, fig["import_s"]),
        "import_rows_per_s": per_s(rows, fig["import_s"]),
        "score_rows_per_s": per_s(rows, fig["score_s"]),
        "check_games_per_s": per_s(games, fig["check_s"]),
        "check_rows_per_s": per_s(rows, fig["check_s"]),
        "end_to_end_s": round(fig["import_s"] + fig["check_s"], 3),
    }
    fig["end_to_end_games_per_s"] = per_s(games, fig["end_to_end_s"])
    fig["import_vs_parse_only"] = round(fig["import_1_s"] / max(fig["parse_only_s"], 1e-9), 1)
    fig["parallel_speedup"] = round(fig["import_1_s"] / max(fig["import_s"], 1e-9), 2)
    fig["check_vs_score"] = round(fig["check_s"] / max(fig["score_s"], 1e-9), 2)
    fig["peak_rss_mb"] = peak_rss_mb()

    print(f"input       {games:,} games, {rows:,} rows from {files:,} files ({copies} copies of {args.logs})")
    print(f"parse only  {fig['parse_only_s']:8.2f} s  {fig['parse_only_games_per_s']:>9,} games/s  (baseline)")
    print(f"import x1   {fig['import_1_s']:8.2f} s  {fig['import_1_games_per_s']:>9,} games/s  "
          f"= {fig['import_vs_parse_only']}x the parse-only time")
    print(f"import x{workers:<3}{fig['import_s']:8.2f} s  {fig['import_games_per_s']:>9,} games/s  "
          f"{fig['import_rows_per_s']:>9,} rows/s  ({fig['parallel_speedup']}x the one-process import)")
    print(f"score       {fig['score_s']:8.2f} s  {fig['score_rows_per_s']:>9,} rows/s  (baseline for check)")
    print(f"check       {fig['check_s']:8.2f} s  {fig['check_games_per_s']:>9,} games/s  "
          f"{fig['check_rows_per_s']:>9,} rows/s  = {fig['check_vs_score']}x the score time; "
          f"{fig['check_mismatches']:,} mismatches")
    print(f"end to end  {fig['end_to_end_s']:8.2f} s  {fig['end_to_end_games_per_s']:>9,} games/s  (import + check)")
    print(f"peak RSS    {fig['peak_rss_mb']:,} MB")

    path = save(fig, args.out, "tenhou", f"g{games}")
    print(f"figures     {path}")
    return fig


if __name__ == "__main__":
    main()
