"""The events file of batches replayed together (:class:`analyzer.formats.events.EventsOutput`): small batches
wait and are replayed in one run, and the file and its hand_seats are those of a replay per game."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analyzer.formats import events
from analyzer.formats.events import EventsOutput, events_batch

DATA = Path(__file__).parents[1] / "data"
# games of distinct ids (the runner, not the output, drops a game met before)
FILES = [DATA / "majsoul_raw" / f"{name}.json" for name in ("friendly_south", "ranked_east", "ranked_sanma",
                                                             "ranked_south")] + sorted((DATA / "mjlog").glob("*.mjlog"))


def _written(tmp_path: Path, name: str, batches: list[list[Path]]) -> tuple[pl.DataFrame, pl.DataFrame]:
    output = EventsOutput(tmp_path / f"{name}.events.parquet", seats=tmp_path / f"{name}.hand_seats.parquet")
    output.open()
    for files in batches:
        output.write(events_batch(files)[1])
    output.commit()
    seats = pl.read_parquet(tmp_path / f"{name}.hand_seats.parquet")  # in a batch's order: any order of games
    return pl.read_parquet(tmp_path / f"{name}.events.parquet"), seats.sort("game_id", "log_row", "seat")


@pytest.mark.parametrize("rows_per_replay", [1, 3_000, 1 << 18])
def test_batches_replayed_together_write_what_one_replay_a_game_writes(tmp_path, monkeypatch, rows_per_replay):
    monkeypatch.setattr(events, "ROWS_PER_REPLAY", 1)
    alone = _written(tmp_path, "alone", [[f] for f in FILES])  # every game replayed by itself
    replays: list[int] = []
    replay = events.seat_states
    monkeypatch.setattr(events, "seat_states", lambda frame: replays.append(frame.height) or replay(frame))
    monkeypatch.setattr(events, "ROWS_PER_REPLAY", rows_per_replay)
    together = _written(tmp_path, "together", [FILES[i:i + 2] for i in range(0, len(FILES), 2)])
    assert all(a.equals(b) for a, b in zip(alone, together))
    assert alone[0]["shanten"].null_count() < alone[0].height and alone[1].height
    batches = -(-len(FILES) // 2)
    assert sum(replays) == alone[0].height
    if rows_per_replay == 1:  # every batch is enough
        assert len(replays) == batches
    elif rows_per_replay > alone[0].height:  # none is: all wait for the end
        assert len(replays) == 1
    else:
        assert 1 < len(replays) < batches and all(rows >= rows_per_replay for rows in replays[:-1])


def test_an_aborted_output_replays_nothing_it_was_waiting_with(tmp_path, monkeypatch) -> None:
    replays: list[int] = []
    monkeypatch.setattr(events, "seat_states", lambda frame: replays.append(frame.height))
    output = EventsOutput(tmp_path / "x.events.parquet")
    output.open()
    output.write(events_batch(FILES[:1])[1])
    output.abort()
    assert replays == [] and not list(tmp_path.iterdir())
