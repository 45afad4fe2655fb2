"""Writes a composed custom-lobby game (not a real log) twice (run: python tests/data/lobby/compose_floating_uma.py):
``floating_uma.mjlog`` (the lobby's rules in ``GO csrule``) and ``floating_uma.json`` (the same game as tenhou.net/6
JSON, its ``rule`` the list of the same fields, as a private lobby's JSON log gives it). The mjlog is written with
the helpers of ``tests/data/mjlog/compose.py``, the JSON from it by ``tests/formats/tenhou/mjlog_to_tenhou_json.py``.

The lobby (``analyzer/formats/tenhou/csrule.py`` reads it): 25,000 points returned at 30,000 (oka 20), and an uma
table whose row depends on how many players finish below 30,000 (places 2/3/4; first takes minus their sum):

====== ================ ==================
below  places 2, 3, 4    uma of places 1-4
====== ================ ==================
0      5, -5, -15        15/5/-5/-15
1      5, 0, -15         10/5/0/-15
2      5, -5, -15        15/5/-5/-15
3, 4   -5, -10, -20      35/-5/-10/-20
====== ================ ==================

One hand, E1: seat 1 (``DAISANGEN`` of ``tests/data/mjlog/compose.py``) rons seat 3's 7z for daisangen, 32,000; seat 3 ends at
-7,000 and the game ends (bust). Final 25,000 / 57,000 / 25,000 / -7,000: three players below 30,000, the row
35/-5/-10/-20. Seats 0 and 2 tie at 25,000 and share places 2 and 3 (the lobby's tied places share their uma):
(-5 - 10) / 2 = -7.5 each. Game points: seat 1 (57,000 - 30,000) / 1,000 + 20 + 35 = +82.0; seats 0 and 2
-5.0 - 7.5 = -12.5; seat 3 -37.0 - 20 = -57.0 (they add up to 0). Under the first row alone (15/5/-5/-15) they
would be +62.0 / -5.0 / -5.0 / -52.0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(HERE.parent / "mjlog"), str(ROOT)]

from compose import DAISANGEN, Hand, game  # noqa: E402
from tests.formats.tenhou.mjlog_to_tenhou_json import mjlog_to_tenhou_json  # noqa: E402

ROWS = ["5,-5,-15", "5,0,-15", "5,-5,-15", "-5,-10,-20", "-5,-10,-20"]
FLOATING = "0FE0BF0B,0000001F,,,25000,30000,30000," + "," * 14 + ",".join(ROWS) + ",,,,"


def floating_uma() -> str:
    e1 = Hand((0, 0, 0), [25000] * 4, DAISANGEN, "9s")
    e1.turn(0, "9p")
    e1.turn(1, "1s")
    e1.turn(2, "9m")
    e1.draw(3, "4z")
    e1.discard(3, "7z")  # seat 1's daisangen: 32,000 from seat 3, who ends at -7,000
    e1.agari(1, 3, "50,32000,5", "yakuman:39", [0, 32000, 0, -32000],
             owari="250,-12.5,570,82.0,250,-12.5,-70,-57.0")
    return game([e1], go=f'type="257" lobby="1234" title="" rule=",,0101,0,0,0,0" ranking="" csrule="{FLOATING}"')


def as_json(mjlog: Path) -> dict:
    """The game as tenhou.net/6 JSON with its rule the list of the csrule's fields (numbers as numbers)."""
    out = mjlog_to_tenhou_json(mjlog)
    out["rule"] = [int(f) if f.lstrip("-").isdigit() else f for f in FLOATING.split(",")]
    out["lobby"] = 1234
    return out


if __name__ == "__main__":
    path = HERE / "floating_uma.mjlog"
    path.write_text(floating_uma(), encoding="utf-8")
    (HERE / "floating_uma.json").write_text(json.dumps(as_json(path), ensure_ascii=False) + "\n", encoding="utf-8")
