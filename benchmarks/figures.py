"""What every benchmark records beside its own figures: the run's environment, peak memory, the JSON file."""

from __future__ import annotations

import json
import platform
import resource
import shutil
import sys
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

RESULTS = Path(__file__).resolve().parent / "results"


def run_info() -> dict:
    """Versions, machine and time of the run."""
    return {
        "polars": pl.__version__, "python": platform.python_version(), "machine": platform.machine(),
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (``ru_maxrss`` is KiB on Linux)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def save(fig: dict, out: Path, name: str, tag: str) -> Path:
    """Write ``fig`` as ``out/NAME-STAMP-TAG.json`` and ``out/NAME-latest.json``; returns the first path."""
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = out / f"{name}-{stamp}-{tag}.json"
    text = json.dumps(fig, indent=2) + "\n"
    path.write_text(text)
    (out / f"{name}-latest.json").write_text(text)
    return path


def keep_best(fig: dict, runs: dict[str, list[dict]], rows: int, baseline: Path | None = None) -> None:
    """Each step's fastest run into ``fig`` (``runs``: step -> timed runs), with its rows/s and ratio to the
    floor (step ``floor``); a failed run is said on stderr."""
    for name, results in runs.items():
        if results:
            fig[name] = min(results, key=lambda r: r["seconds"])
    if baseline is not None:
        fig["baseline_checkout"] = str(baseline)
    for name, best in fig.items():
        if name in runs and name != "floor":
            if best["exit"] not in (0, 1):
                print(f"{name} failed: {best['stderr_tail']}", file=sys.stderr)
            best["rows_per_s"] = round(rows / best["seconds"])
            best["ratio_to_floor"] = round(best["seconds"] / fig["floor"]["seconds"], 2)


def print_steps(fig: dict, rows: int, steps: tuple[str, ...]) -> None:
    """The table of steps: seconds, rows/s, ratio to the floor, peak RSS and CPU seconds of each one run."""
    print(f"{'step':<8}{'seconds':>10}{'rows/s':>14}{'ratio':>8}{'peak RSS':>12}{'CPU s':>9}")
    for name in steps:
        if name in fig:
            r = fig[name]
            rate = f"{rows / r['seconds']:,.0f}"
            ratio = f"{r['seconds'] / fig['floor']['seconds']:.2f}x"
            print(f"{name:<8}{r['seconds']:>10.2f}{rate:>14}{ratio:>8}{r['peak_rss_mb'] / 1024:>10.2f}GB"
                  f"{r['cpu_seconds']:>9.1f}")


def core_set(listing: str) -> set[int]:
    """``taskset -c`` syntax: '0,1' or '0-7,12'."""
    cores = set()
    for piece in listing.split(","):
        low, _, high = piece.partition("-")
        cores.update(range(int(low), int(high or low) + 1))
    return cores


def pinned(listing: str | None) -> list[str]:
    """A command prefix running what follows on the cores of ``listing`` (``taskset -c`` syntax; ``taskset``,
    or Python where it is missing); nothing for None."""
    if not listing:
        return []
    if shutil.which("taskset"):
        return ["taskset", "-c", listing]
    return [sys.executable, "-c", f"import os, sys; os.sched_setaffinity(0, {sorted(core_set(listing))}); "
            "os.execvp(sys.argv[1], sys.argv[1:])"]
