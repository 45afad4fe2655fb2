"""The importer's output on every shared log stays what it was when it was made faster.

``tests/data/tenhou_import_digests.json`` holds, per shared log file, a SHA-256 of the rows the importer
wrote before the rewrite for speed (the columns it had then and the per-seat columns checked by hand in
``test_per_seat_columns``, game ids left out and anonymous players
written ``NoName``, as ids may change without changing a game). Regenerate it only for an intended change of
output: ``python -m tests.formats.test_import_unchanged --write``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

from analyzer.formats.files import expand_paths
from analyzer.formats.read import read_tenhou
from tests.conftest import SHARED_HINT, SHARED_LOGS  # as a package: this file also runs as `python -m tests.…`

DIGESTS = Path(__file__).resolve().parents[1] / "data" / "tenhou_import_digests.json"
LOGS = SHARED_LOGS
COLUMNS = [
    "round", "honba", "kyotaku", "player_0", "player_1", "player_2", "player_3", "result", "winner", "loser", "pao",
    "riichi", "tenpai", "hand", "melds", "win_tile", "dora", "ura", "ippatsu", "double_riichi", "haitei", "houtei",
    "rinshan", "chankan", "tenhou", "chiihou", "renhou", "recorded_han", "recorded_fu", "recorded_points",
    "recorded_limit", "recorded_yaku", "recorded_dora", "recorded_ura_dora", "recorded_aka_dora", "recorded_yakuman",
    *[f"recorded_delta_{s}" for s in range(4)], *[f"recorded_final_{s}" for s in range(4)],
    *[f"recorded_game_points_{s}" for s in range(4)], "rules", "game_length", "lobby",
    *[f"riichi_turn_{s}" for s in range(4)], *[f"calls_{s}" for s in range(4)], *[f"open_{s}" for s in range(4)], "turn",
]  # fmt: skip
_ANONYMOUS = re.compile(r"^NoName@.*#\d$")


def digest(path: Path) -> str:
    hands, problems = read_tenhou([path], workers=1)
    rows = hands.select(COLUMNS).to_dicts() if hands.height else []
    for row in rows:
        for s in range(4):
            if row[f"player_{s}"] and _ANONYMOUS.match(row[f"player_{s}"]):
                row[f"player_{s}"] = "NoName"
    text = json.dumps({"rows": rows, "problems": [p.reason for p in problems]}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def current() -> dict[str, str]:
    files, _ = expand_paths([LOGS])
    return {f.relative_to(LOGS).as_posix(): digest(f) for f in files}


@pytest.mark.skipif(not LOGS.is_dir(), reason=f"shared Tenhou logs not found at {LOGS} ({SHARED_HINT})")
def test_every_shared_log_imports_as_before():
    expected = json.loads(DIGESTS.read_text())
    got = current()
    changed = sorted(name for name in expected if got.get(name) != expected[name])
    assert set(got) == set(expected)
    assert not changed, f"the import of these logs changed: {changed}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DIGESTS.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n")
