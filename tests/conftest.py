"""Shared helpers: build small hand-record frames the way a score sheet would write them."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

PLAYERS = ("Aoki", "Baba", "Chiba", "Doi")
COLUMNS = ["game_id", "round", "honba", "player_0", "player_1", "player_2", "player_3", "result", "winner", "loser",
           "riichi", "tenpai", "han", "fu", "yakuman", "pao"]
SHARED = Path(__file__).resolve().parents[2] / "shared"


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
    path = SHARED / "data" / "logs"
    if not path.is_dir():
        pytest.skip(f"shared Tenhou logs not found at {path} (they live beside the repository, not in it)")
    return path
