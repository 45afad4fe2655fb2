"""The standings and the findings fit an 80-column terminal, no name or number cut short (rich would end it with
``…``) and no word split across lines; a wider terminal gets the wider layout.

``COLUMNS`` sets the width (as a terminal of that width does): the commands run as ``make run`` runs them, in
a process of their own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from rich.console import Console

from analyzer.cli import display

ROOT = Path(__file__).resolve().parents[2]
MISTAKES = "sample_logs/checks/sheet_with_mistakes.csv"


def run(args: list[str], columns: int) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    done = subprocess.run([sys.executable, "-m", "analyzer.cli", *args], cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def table_lines(text: str) -> list[str]:
    """The lines of the tables (and of a listing of findings): all but the run's summary lines."""
    return [line for line in text.splitlines() if not line.startswith(("rows read:", "written:"))]


@pytest.fixture(scope="module")
def make_run(tmp_path_factory) -> tuple[str, pl.DataFrame]:
    out = tmp_path_factory.mktemp("make_run") / "out"
    printed = run(["score", "sample_logs/csv", "-o", str(out), "--report", str(out / "report.html")], 80)
    return printed, pl.read_parquet(out / "players.parquet")


def test_make_run_fits_80_columns(make_run):
    printed, players = make_run
    lines = table_lines(printed)
    assert lines and max(map(len, lines)) <= 80, "\n".join(lines)
    assert "…" not in printed
    for row in players.iter_rows(named=True):
        shown = next(line for line in lines if f" {row['player']} " in line)  # the whole name, on one line
        assert f"{row['total_points']:+.1f}" in shown and f"{row['avg_points']:+.1f}" in shown


def test_a_wide_terminal_gets_every_column(make_run, tmp_path):
    printed = run(["score", "sample_logs/csv", "-o", str(tmp_path / "out")], 160)
    header = next(line for line in printed.splitlines() if "player" in line)
    assert all(name in header for name in ("1st", "2nd", "3rd", "4th", "avg place", "win %", "deal-in %"))
    narrow = next(line for line in make_run[0].splitlines() if "player" in line)
    assert "2nd" not in narrow


def test_check_fits_80_columns_without_splitting_a_word():
    printed = run(["check", MISTAKES, "--show", "20"], 80)
    lines = table_lines(printed)
    assert lines and max(map(len, lines)) <= 80, "\n".join(lines)
    assert "…" not in printed
    words = {word.strip(",:") for word in printed.split()}
    # every word of every explanation, and where it was recorded, shown whole
    assert "sample_logs/checks/sheet_with_mistakes.csv:3" in words
    assert {"tsumo", "seat", "hand", "1100", "points", "honba", "sticks", "Aoki", "Chiba", "payment",
            "delta_0", "final_score", "-300", "-400"} <= words


def test_a_wide_terminal_lists_findings_as_a_table():
    printed = run(["check", MISTAKES, "--show", "3"], 200)
    assert "explanation" in printed and "│ sample_logs/checks/sheet_with_mistakes.csv:3 │" in printed
    assert "sample_logs/checks/sheet_with_mista\n" not in printed  # never folded mid-word


def test_a_long_name_wraps_and_is_never_cut(monkeypatch):
    monkeypatch.setattr(display, "out", Console(width=80, force_terminal=True, color_system=None,
                                                soft_wrap=True, record=True))
    name = "Wilhelmina Featherstonehaugh-Smythe the Third of Lower Wallop"
    standings = pl.DataFrame({
        "kind": ["4-player hanchan"] * 2, "rank": [1, 2], "player": [name, "Aoki"], "games": [1, 1],
        "incomplete_games": [2, 2], "total_points": [12345.6, -12345.6], "avg_points": [12345.6, -12345.6],
        **{f"place_{p}": [int(p == 1), int(p == 4)] for p in range(1, 5)}, "avg_place": [1.0, 4.0],
    })
    result = type("Result", (), {"standings": standings, "rules_label": "tenhou", "rulesets": []})()
    display.print_standings(result, top=10)
    text = display.out.export_text()
    assert max(map(len, text.splitlines())) <= 80, text
    assert "…" not in text and "+12345.6" in text and "-12345.6" in text
    assert set(name.split()) <= set(text.replace("│", " ").split())  # wrapped at its spaces, each word whole
    assert "counts incomplete games" in text  # the caption wraps too
