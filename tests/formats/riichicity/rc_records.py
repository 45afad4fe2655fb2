"""The Riichi City test records (composed for this project: ``tests/data/riichicity/games.py``) and small helpers
to change one and read it back."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from analyzer.formats import read_riichicity

DATA = Path(__file__).resolve().parents[2] / "data" / "riichicity"
EAST, SANMA = DATA / "east_4p.json", DATA / "sanma_east.json"


def record(path: Path = EAST) -> dict:
    """A test record as the API returns it: ``{"code", "data", "message"}``."""
    return json.loads(path.read_text(encoding="utf-8"))


def events(rec: dict, hand: int) -> list[dict]:
    """Hand ``hand``'s events (from 1), each with its data decoded (``"_data"``); :func:`write` encodes them back."""
    out = rec["data"]["handRecord"][hand - 1]["handEventRecord"]
    for e in out:
        e.setdefault("_data", json.loads(e["data"]))
    return out


def end_of(rec: dict, hand: int, event_type: int = 5) -> dict:
    """The decoded data of hand ``hand``'s end (or of its game end: ``event_type`` 6)."""
    return next(e for e in events(rec, hand) if e["eventType"] == event_type)["_data"]


def write(rec: dict, path: Path) -> Path:
    for hand in rec["data"]["handRecord"]:
        for e in hand["handEventRecord"]:
            if "_data" in e:
                e["data"] = json.dumps(e.pop("_data"), separators=(",", ":"))
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    return path


def read(path: Path) -> tuple[pl.DataFrame, list]:
    return read_riichicity([path], workers=1)
