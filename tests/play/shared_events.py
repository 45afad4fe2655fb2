"""The events the play tests read: the shared real logs' (a fixture the test files import)."""

from __future__ import annotations

import polars as pl
import pytest

import analyzer
from tests.conftest import SHARED_HINT, SHARED_LOGS


@pytest.fixture(scope="session")
def real_events(tmp_path_factory) -> pl.DataFrame:
    """The shared real logs' events (the test logs are composed: their riichi need not be tenpai)."""
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"no shared logs at {SHARED_LOGS}: {SHARED_HINT}")
    out = tmp_path_factory.mktemp("real") / "events.parquet"
    analyzer.export_events([str(SHARED_LOGS)], out)
    return pl.read_parquet(out)
