"""The check's HTML page in a real browser (headless Debian chromium): mismatches first, with player names and
where each was recorded (the log file and hand, or the sheet and row), then the notes. Skipped when chromium is
not installed (``make test`` installs it where it can)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer.cli import main

ROOT = Path(__file__).parents[2]
SHEET = ROOT / "sample_logs" / "checks" / "sheet_with_mistakes.csv"
MJLOGS = ROOT / "tests" / "data" / "mjlog"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

# reads the tables under each heading as the browser laid them out, into a <pre> that --dump-dom prints
HARNESS = """<script>(function(){var seen={};
document.querySelectorAll('h2').forEach(function(h){var t=h.nextElementSibling;
 if(!t||t.tagName!=='TABLE'){seen[h.textContent]=null;return}
 var heads=Array.prototype.map.call(t.querySelectorAll('th'),function(c){return c.textContent});
 seen[h.textContent]=Array.prototype.map.call(t.querySelectorAll('tbody tr'),function(r){var o={};
  Array.prototype.forEach.call(r.cells,function(c,i){o[heads[i]]=c.textContent});return o})});
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> tuple[Path, Path]:
    """The check page of the sheet with mistakes plus a fragment game (a note), and of two imported logs, one
    of them with a ron paid 1,600 where the hand is worth 1,300 (as a user checks: paths from the folder)."""
    folder = tmp_path_factory.mktemp("check")
    rows = pl.read_csv(SHEET, infer_schema=False)
    sample = pl.read_csv(ROOT / "sample_logs" / "csv" / "round1.csv", infer_schema=False)
    fragment = sample.filter(pl.col("game_id") == sample["game_id"][0]).tail(2).with_columns(
        pl.lit("FRAGMENT").alias("game_id"))  # starts mid-game: replayed from its first row, a note
    pl.concat([rows, fragment], how="diagonal").write_csv(folder / "sheet.csv")
    for name in ("commented_chankan.mjlog", "private_lobby.mjlog"):
        (folder / "logs").mkdir(exist_ok=True)
        shutil.copy(MJLOGS / name, folder / "logs" / name)
    page = folder / "check.html"
    here = Path.cwd()
    os.chdir(folder)
    try:
        done = CliRunner().invoke(main, ["import", "tenhou", "logs", "-o", "logs.parquet"])
        assert done.exit_code == 0, done.output
        chankan = pl.col("log_file").str.ends_with("commented_chankan.mjlog")
        pl.read_parquet("logs.parquet").with_columns(
            pl.when(chankan).then(-1600).otherwise(pl.col("recorded_delta_1")).alias("recorded_delta_1"),
            pl.when(chankan).then(1600).otherwise(pl.col("recorded_delta_2")).alias("recorded_delta_2"),
        ).write_parquet("logs.parquet")
        done = CliRunner().invoke(main, ["check", "sheet.csv", "logs.parquet", "-o", str(page)])
    finally:
        os.chdir(here)
    assert done.exit_code == 1, done.output
    return folder, page


def _seen(page: Path, folder: Path) -> dict:
    import json

    wrapped = folder / "wrapped.html"
    wrapped.write_text(page.read_text(encoding="utf-8").replace("</body>", HARNESS + "</body>"), encoding="utf-8")
    run = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={folder / 'profile'}", "--dump-dom", wrapped.as_uri()],
                         capture_output=True, text=True, timeout=120)
    match = re.search(r'<pre id="harness">(.*?)</pre>', run.stdout, re.S)
    assert match, f"no harness output; chromium said: {run.stderr[-2000:]}"
    text = match.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return json.loads(text)


def test_mismatches_come_first_with_player_names_then_the_notes(checked):
    folder, page = checked
    seen = _seen(page, folder)
    assert list(seen) == ["Summary", "Mismatches", "Notes"]
    mismatches, notes = seen["Mismatches"], seen["Notes"]
    assert mismatches and notes and all(row["kind"] != "note" for row in mismatches)
    assert all(row["kind"] == "note" for row in notes) and notes[0]["game_id"] == "FRAGMENT"
    with_seat = [row for row in mismatches if row["seat"] != ""]
    assert with_seat and all(row["player"] for row in with_seat)  # a name wherever a seat is given
    # where each was recorded, next to its game: the log file and hand, or the sheet and row
    assert list(mismatches[0])[:2] == ["game_id", "where"] and "log_file" not in mismatches[0]
    assert {row["where"] for row in mismatches if row["game_id"].startswith("2017")} == {
        "logs/commented_chankan.mjlog hand 1"}
    assert all(row["where"].startswith("sheet.csv:") for row in mismatches if row["game_id"] == "T1")
    assert {row["where"] for row in notes} >= {"logs/private_lobby.mjlog hand 2"}  # its settlement note
    order = ["money", "payment", "value", "game_end", "table", "plausibility", "tiles", "reject"]
    kinds = [order.index(row["kind"]) for row in mismatches]
    assert kinds == sorted(kinds)  # the most serious kind first


def test_screenshot_of_the_check_page(checked):
    """The page as a person sees it (kept in docs/check.png when ANALYZER_SCREENSHOTS names a folder)."""
    import os

    folder, page = checked
    target = Path(os.environ.get("ANALYZER_SCREENSHOTS", folder)) / "check.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={folder / 'shot'}", "--window-size=1400,900",
                    f"--screenshot={target}", page.as_uri()], capture_output=True, timeout=120)
    assert target.exists() and target.stat().st_size > 10_000
