"""The sample game logs shipped for users (sample_logs/: every format) are current and import and check clean.

Each is imported the way the README shows, then checked: every recorded value agrees (a fragment is a note,
not a mismatch). The generated ones must equal what ``scripts/make_format_samples.py`` writes from the test
suite's composers, so the samples never drift from the fixtures whose values are worked by hand.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import analyzer

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"

# (folder, importer, games, rows, players per game)
FORMATS = [
    ("tenhou", analyzer.read_tenhou, 1, 4, {4}),
    ("mjlog", analyzer.read_tenhou, 1, 1, {4}),
    ("tensoul", analyzer.read_tenhou, 2, 10, {3, 4}),
    ("mjai", analyzer.read_mjai, 1, 5, {4}),
]


def test_generated_samples_are_current():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_format_samples.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(("folder", "read", "games", "rows", "players"), FORMATS, ids=[f[0] for f in FORMATS])
def test_each_format_imports_and_checks_clean(folder, read, games, rows, players):
    hands, problems = read([str(SAMPLES / folder)])
    assert problems == []
    assert hands.height == rows
    assert hands["game_id"].n_unique() == games
    seated = {sum(name not in (None, "") for name in row) for row in
              hands.select("player_0", "player_1", "player_2", "player_3").unique().rows()}
    assert seated == players
    report = analyzer.check(hands)
    assert report.ok, report.findings
