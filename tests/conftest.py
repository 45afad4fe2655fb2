"""Shared helpers: build small hand-record frames the way a score sheet would write them."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import polars as pl
import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (a seed from each test, no example database): CI never fails
# by chance, and a failure found once is found again. HYPOTHESIS_PROFILE=explore draws new ones, for a local hunt.
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A test run started with SIGINT ignored (a background job of a shell without job control, as some CI runners
# start their steps) gets no KeyboardInterrupt from Ctrl-C, and its children inherit that: the Ctrl-C tests need
# Python's own handler, which a terminal's run has.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

PLAYERS = ("Aoki", "Baba", "Chiba", "Doi")
COLUMNS = ["game_id", "round", "honba", "player_0", "player_1", "player_2", "player_3", "result", "winner", "loser",
           "riichi", "tenpai", "han", "fu", "yakuman", "pao"]


def shared_dir() -> Path:
    """The shared folder of logs and references: ``$ANALYZER_SHARED`` when set, else ``shared`` beside the
    repository (``../shared``). Tests that need it skip, saying where they looked, when it is absent."""
    given = os.environ.get("ANALYZER_SHARED")
    return Path(given).expanduser().resolve() if given else Path(__file__).resolve().parents[2] / "shared"


SHARED = shared_dir()
SHARED_LOGS = SHARED / "data" / "logs"  # the Tenhou (and other) logs
SHARED_HINT = "set ANALYZER_SHARED to the shared folder, or put it beside the repository as ../shared"


def game(rows: list[dict], game_id: str = "g1", players=PLAYERS) -> pl.DataFrame:
    """Rows as text columns, as the loader gives them; list columns are comma-separated text split here."""
    records = []
    for row in rows:
        record = {c: None for c in COLUMNS}
        record.update({"game_id": game_id, **{f"player_{s}": players[s] for s in range(4)}})
        record.update({k: None if v is None else str(v) for k, v in row.items()})
        records.append(record)
    df = pl.DataFrame(records, schema={c: pl.String for c in {**dict.fromkeys(COLUMNS), **records[0]}})
    return df.with_columns(
        pl.col(c).str.split(",").list.eval(pl.element().str.strip_chars()).list.eval(pl.element().filter(pl.element() != ""))
        for c in ("riichi", "tenpai")
    )


def deltas(result) -> list[list[int]]:
    return [list(r) for r in result.hands.select(f"delta_{s}" for s in range(4)).rows()]


@pytest.fixture
def shared_logs() -> Path:
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"shared Tenhou logs not found at {SHARED_LOGS} ({SHARED_HINT})")
    return SHARED_LOGS
