"""A game recorded twice at score time (analyzer.scoring.records): found whether each game's rows are together
or spread over the input, in one frame, across partitions."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.formats import read_majsoul

REPO = Path(__file__).resolve().parents[2]
RAW = REPO / "sample_logs" / "majsoul" / "ranked_east_3p.json"
TENSOUL = REPO / "sample_logs" / "tensoul" / "majsoul_sanma.json"
OTHERS = REPO / "sample_logs" / "majsoul" / "ranked_south_4p.json"


@pytest.fixture(scope="module")
def both() -> pl.DataFrame:
    """A tensoul copy's rows, another game's, then the raw record's: one frame of three log files."""
    return pl.concat([read_majsoul([log])[0] for log in (TENSOUL, OTHERS, RAW)])


@pytest.mark.parametrize("order", ["as_imported", "interleaved"])
def test_the_later_record_of_a_game_is_rejected(both, order, tmp_path):
    rows = both if order == "as_imported" else both.sort(pl.int_range(pl.len()) % 3, maintain_order=True)
    alone = analyzer.score(read_majsoul([TENSOUL, OTHERS])[0])
    result = analyzer.score(rows)
    assert result.rows_rejected == 4 and set(result.rejects["log_file"]) == {str(RAW)}
    assert result.rejects["reason"].str.starts_with(f"duplicate_row: the same game as {TENSOUL} (in <frame>)").all()
    assert result.players.equals(alone.players)
    rows.write_parquet(tmp_path / "rows.parquet")
    parted = analyzer.score(tmp_path / "rows.parquet", partition_rows=4)  # the spill: parts of whole games
    assert parted.rows_rejected == 4 and parted.players.equals(alone.players)
