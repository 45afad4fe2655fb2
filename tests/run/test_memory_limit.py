"""``--memory-limit`` is a cap (issue 43): what a run costs whatever its partition size (the program, and the
run's state that grows with its games) is taken off the limit before partitions are cut from the rest, and a
limit that leaves no room for a partition is refused with the figure it needs. The figures are measured by
``benchmarks/memory_limit.py``; these tests hold the arithmetic and the refusal."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main
from analyzer.io.load import InputError
from analyzer.run import partition_rows_for
from analyzer.run.memory import (BYTES_PER_GAME, BYTES_PER_ROW, MIN_MEMORY_PARTITION_ROWS, ONE_PART_PROGRAM_BYTES,
                                 PROGRAM_BYTES, MemoryBudget)

SAMPLE_CSV = "sample_logs/csv"
MB = 1 << 20


def test_partitions_are_cut_from_what_the_limit_leaves_beside_the_fixed_cost():
    budget = partition_rows_for(None, "1GB", in_flight=2)
    games = 167_165  # 2M rows of benchmarks.gamegen
    fixed = PROGRAM_BYTES + BYTES_PER_GAME * games
    assert budget.rows(games, 2_000_000) == (1024 * MB - fixed) // (2 * BYTES_PER_ROW)
    # the fixed cost is paid once, the rest is shared by the partitions in flight
    assert partition_rows_for(None, "2GB", in_flight=4).rows(games, 10**8) == (2048 * MB - fixed) // (4 * BYTES_PER_ROW)
    assert partition_rows_for(1_000, "1GB", in_flight=2).rows(games, 10**8) == 1_000  # the smaller wins


def test_an_input_that_fits_in_one_partition_pays_the_smaller_cost_of_one():
    budget = MemoryBudget(ONE_PART_PROGRAM_BYTES + 100 * BYTES_PER_GAME + 1_000 * BYTES_PER_ROW, in_flight=4)
    assert budget.rows(100, 1_000) == 1_000
    with pytest.raises(InputError):
        budget.rows(100, 1_001)  # two partitions: the program costs more, the limit is below it


def test_a_limit_below_the_fixed_cost_is_refused_with_the_figure_it_needs():
    games = 167_165
    needed = PROGRAM_BYTES + BYTES_PER_GAME * games + 2 * MIN_MEMORY_PARTITION_ROWS * BYTES_PER_ROW
    for limit in ("256MB", "512MB"):
        with pytest.raises(InputError) as refused:
            partition_rows_for(None, limit, in_flight=2).rows(games, 2_000_000)
        message = str(refused.value)
        assert f"memory limit {limit[:-2]} MB is below what this run needs" in message
        assert f"{games:,} games" in message and f"give at least {-(-needed // MB):,} MB" in message
    assert partition_rows_for(None, needed, in_flight=2).rows(games, 2_000_000) == MIN_MEMORY_PARTITION_ROWS


def test_the_command_line_refuses_such_a_limit_in_one_line_before_writing(tmp_path):
    result = CliRunner().invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "out"), "--memory-limit", "100MB"])
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith("error: memory limit 100 MB is below what this run needs")
    assert "give at least" in line and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
    with pytest.raises(InputError, match="give at least"):
        analyzer.score(SAMPLE_CSV, memory_limit="1KB")


def test_a_limit_with_room_scores_as_without(tmp_path):
    limited = analyzer.score(SAMPLE_CSV, memory_limit="1GB")
    assert limited.hands.equals(analyzer.score(SAMPLE_CSV).hands)
