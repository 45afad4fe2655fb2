"""Regenerate every screenshot of the docs (docs/*.png) from the current code, run on sample_logs/.

    .venv/bin/python scripts/screenshots.py              # all of them
    .venv/bin/python scripts/screenshots.py check.png    # only those named

Each page is made by the `analyzer` command line, as a user would make it, in a temporary directory beside a
link to sample_logs/, then shot by headless Debian chromium at the size the docs state; the PNG replaces the old
one only once written whole. Needs `chromium` (Debian: apt-get install chromium; the Japanese yaku names need a
CJK font, fonts-ipafont-gothic). What each shows, and the command behind it, is in SHOTS and in the docs pages
that show them (docs/report.md, docs/cli.md).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# the flags the browser tests use (tests/report/): no sandbox, no GPU, nothing fetched from the network
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


@dataclass(frozen=True)
class Shot:
    png: str
    commands: tuple[tuple[str, ...], ...]  # analyzer commands, run in order; the last one writes ``page``
    page: str
    size: tuple[int, int]


SHOTS = [
    # make run's report: the sample tournament scored hand by hand under its own rules column
    Shot("report.png", (("score", "sample_logs/csv", "-o", "out", "--top", "0", "--report", "report.html"),),
         "report.html", (1100, 1400)),
    # the imported Tenhou sample, one player: hands with their yaku
    Shot("report-tenhou.png", (("import", "tenhou", "sample_logs/tenhou/sample_tonpuu.json", "-o", "hands.parquet"),
                               ("report", "hands.parquet", "--player", "Aoi", "-o", "report-tenhou.html")),
         "report-tenhou.html", (1100, 1750)),
    # the sample logs of every format: the table's shanten by turn and the first player's play block (the events
    # of the logs scored)
    Shot("report-play.png", (("report", "sample_logs/tenhou", "sample_logs/mjlog", "sample_logs/tensoul",
                              "sample_logs/majsoul", "sample_logs/mjai", "-o", "report-play.html"),),
         "report-play.html", (1100, 2400)),
    # the game-level tournament sheet under EMA rules: standings by session, rank chart, teams
    Shot("report-tournament.png", (("report", "sample_logs/tournament/sheet.csv", "--rules", "ema", "-o",
                                    "tournament.html"),), "tournament.html", (1100, 1700)),
    # the check page: a score sheet with mistakes checked with the sample logs of every format
    Shot("check.png", (("import", "tenhou", "sample_logs/tenhou", "sample_logs/mjlog", "sample_logs/tensoul", "-o",
                        "logs.parquet"),
                       ("import", "mjai", "sample_logs/mjai", "-o", "mjai.parquet"),
                       ("check", "sample_logs/checks/sheet_with_mistakes.csv", "logs.parquet", "mjai.parquet", "-o",
                        "check.html")), "check.html", (1400, 900)),
]
OK_EXITS = {"check": {0, 1}}  # check exits 1 when it finds mismatches, which is what its page is for


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        sys.exit("error: chromium not found (Debian: apt-get install chromium)")
    return found


def shoot(shot: Shot, work: Path, browser: str) -> Path:
    for command in shot.commands:
        run = subprocess.run([sys.executable, "-m", "analyzer.cli", *command], cwd=work, capture_output=True,
                             text=True)
        if run.returncode not in OK_EXITS.get(command[0], {0}):
            sys.exit(f"error: analyzer {' '.join(command)} exited {run.returncode}: {run.stderr.strip()[-500:]}")
    target = DOCS / shot.png
    temp = target.with_suffix(".tmp.png")
    width, height = shot.size
    run = subprocess.run([browser, *FLAGS, f"--user-data-dir={work / 'profile'}", "--virtual-time-budget=5000",
                          f"--window-size={width},{height}", f"--screenshot={temp}", (work / shot.page).as_uri()],
                         capture_output=True, text=True, timeout=180)
    if run.returncode != 0 or not temp.exists() or temp.stat().st_size == 0:
        temp.unlink(missing_ok=True)
        sys.exit(f"error: chromium could not shoot {shot.page}: {run.stderr.strip()[-500:]}")
    temp.replace(target)
    return target


def main(argv: list[str] | None = None) -> int:
    wanted = set(sys.argv[1:] if argv is None else argv)
    unknown = wanted - {s.png for s in SHOTS}
    if unknown:
        sys.exit(f"error: no such screenshot: {', '.join(sorted(unknown))} (known: "
                 f"{', '.join(s.png for s in SHOTS)})")
    browser = chromium()
    if shutil.which("fc-list") and not subprocess.run(["fc-list", ":lang=ja"], capture_output=True,
                                                      text=True).stdout.strip():
        print("warning: no Japanese font: the yaku names will show as boxes (Debian: apt-get install "
              "fonts-ipafont-gothic)", file=sys.stderr)
    for shot in SHOTS:
        if wanted and shot.png not in wanted:
            continue
        with tempfile.TemporaryDirectory(prefix="analyzer-screenshots-") as temp:
            work = Path(temp)
            (work / "sample_logs").symlink_to(ROOT / "sample_logs")
            print(f"wrote {shoot(shot, work, browser).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
