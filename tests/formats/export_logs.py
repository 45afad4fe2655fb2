"""The logs the export tests run on: every shared log (Tenhou mjlog and tenhou.net/6 JSON) and every test log
(mjlog, Mahjong Soul 4p and 3p tensoul JSON, mjai), each with the import format it is read with."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SHARED

TESTS = Path(__file__).resolve().parents[1]
SHARED_LOGS = SHARED / "data" / "logs"
PAIRS = SHARED / "data" / "pairs" / "mjx-mjlog"
MJX_JSON = SHARED_LOGS / "tenhou-json" / "mjx"


def shared_logs() -> list[tuple[Path, str]]:
    mjlogs = [p for p in sorted(SHARED_LOGS.glob("mjlog/*/*")) if p.suffix in (".xml", ".mjlog")]
    return [(p, "tenhou") for p in mjlogs + sorted(SHARED_LOGS.glob("tenhou-json/*/*.json"))]


def test_logs() -> list[tuple[Path, str]]:
    data = TESTS / "data"
    tenhou = sorted(data.glob("mjlog/*.mjlog")) + sorted(data.glob("majsoul/*.json"))
    return [(p, "tenhou") for p in tenhou] + [(p, "mjai") for p in sorted(data.glob("mjai/*.*json"))]


def all_logs() -> list[tuple[Path, str]]:
    return shared_logs() + test_logs()


def log_id(item: tuple[Path, str]) -> str:
    path = item[0]
    return f"{path.parent.name}/{path.name}"


def tenhou6_objects(path: Path) -> list[dict]:
    """A tenhou.net/6 file's objects: one, or one a line (mjx writes a hand a line)."""
    text = path.read_text(encoding="utf-8")
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def write_jsonl(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")
    return path
