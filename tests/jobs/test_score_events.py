"""The score job with events: each partition's events are its own games' (read once each, from the first table
that has them), handed to the partition's outputs; the hand_seats table of every partition; the inputs sorted
into hand records, events tables and logs."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import analyzer
import analyzer.jobs.score as score_job
from analyzer.cli import main
from analyzer.formats.events import seats_beside, seats_of
from analyzer.formats.export import export_events
from analyzer.formats.read import read_logs
from analyzer.io.errors import InputError
from analyzer.jobs.events import (
    EventSources, empty_events, events_beside, events_table, is_events_table, seats_table, with_log_sources,
)
from analyzer.jobs.inputs import ScoreInputs, score_inputs

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_logs"
LOGS = [SAMPLES / name for name in ("tenhou", "mjlog", "tensoul", "mjai")]


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[Path, Path]:
    """The sample logs' hand records and their events, as `import` and `export events` write them."""
    folder = tmp_path_factory.mktemp("imported")
    hands, _ = read_logs(LOGS, 1, "auto")
    hands.write_parquet(folder / "hands.parquet")
    export_events(LOGS, folder / "events.parquet", workers=1)
    return folder / "hands.parquet", folder / "events.parquet"


def test_the_events_of_a_partition_are_its_games_each_from_the_first_table(imported, tmp_path):
    _, events_path = imported
    events = pl.read_parquet(events_path)
    games = sorted(events["game_id"].unique())
    changed = events.with_columns(pl.col("turn") + 50)  # a second table holding the same games otherwise
    changed.write_parquet(tmp_path / "other.parquet")
    sources = EventSources((str(events_path), str(tmp_path / "other.parquet")))
    wanted = pl.Series([games[0], games[2], " not a game "])
    read = sources.read(wanted)
    assert_frame_equal(read, events.filter(pl.col("game_id").is_in([games[0], games[2]])))
    later_first = EventSources((str(tmp_path / "other.parquet"), str(events_path))).read(wanted)
    assert (later_first["turn"] >= 50).all()
    framed = EventSources((str(events_path),), frame=changed.filter(pl.col("game_id") == games[0])).read(wanted)
    assert framed.filter(pl.col("game_id") == games[0])["turn"].min() >= 50  # a frame given comes first
    assert framed.filter(pl.col("game_id") == games[2]).equals(events.filter(pl.col("game_id") == games[2]))
    assert sources.read(pl.Series([], dtype=pl.String)).schema == empty_events().schema


def test_each_partition_hands_its_own_games_events_to_its_outputs(imported, monkeypatch):
    hands_path, events_path = imported
    seen = []
    real = score_job.assemble_part

    def spy(parts, statistics=True, sheet=None, events=None, seats=None):
        tables = real(parts, statistics=statistics, sheet=sheet, events=events, seats=seats)
        seen.append((set(tables.hands["game_id"]), set(events["game_id"])))
        return tables

    monkeypatch.setattr(score_job, "assemble_part", spy)
    whole = analyzer.score(hands_path, events=events_path, partition_rows=4, in_flight=1)
    assert len(seen) > 2
    assert all(hands == events for hands, events in seen)
    # the written table has each seat's score at the hand's start, from the scored hands
    expected = analyzer.hand_seats(pl.read_parquet(events_path), whole.hands)
    assert expected["start_score"].null_count() == 0
    scored = whole.hands["game_id"].unique().implode()
    assert_frame_equal(whole.hand_seats, expected.filter(pl.col("game_id").is_in(scored)))


def test_events_given_as_a_frame_and_none(imported):
    hands_path, events_path = imported
    hands = pl.read_parquet(hands_path)
    events = pl.read_parquet(events_path)
    first = hands["game_id"][0]
    result = analyzer.score(hands.filter(pl.col("game_id") == first), events=events)
    assert_frame_equal(result.hand_seats, analyzer.hand_seats(events.filter(pl.col("game_id") == first), result.hands))
    assert analyzer.score(hands_path, events=None).hand_seats is None
    assert analyzer.score(hands_path).hand_seats is None  # nothing beside hands.parquet: events.parquet is not


def test_the_events_beside_an_import_and_among_the_inputs_are_found(imported, tmp_path):
    hands_path, events_path = imported
    shutil.copy(hands_path, tmp_path / "games.csv.parquet")
    shutil.copy(events_path, tmp_path / "games.csv.events.parquet")
    assert events_beside(tmp_path / "games.csv.parquet") == tmp_path / "games.csv.events.parquet"
    assert events_beside("out/hands.csv") == Path("out/hands.events.parquet")
    with ScoreInputs([tmp_path]) as inputs:  # the folder: one hand-record file, one events table
        assert inputs.data == [tmp_path / "games.csv.parquet"]
        assert inputs.events.tables == (str(tmp_path / "games.csv.events.parquet"),)
    with ScoreInputs([tmp_path], events=None) as inputs:
        assert inputs.data == [tmp_path / "games.csv.parquet"] and inputs.events is None
    assert is_events_table(events_path) and not is_events_table(hands_path)
    with pytest.raises(InputError, match="is not an events table"):
        events_table(hands_path, "--events")


def test_the_logs_take_the_first_logs_place_and_are_named_by_their_log(tmp_path):
    shutil.copy(SAMPLES / "csv" / "round1.csv", tmp_path / "a.csv")
    shutil.copy(SAMPLES / "tenhou" / "sample_tonpuu.json", tmp_path / "b.json")
    shutil.copy(SAMPLES / "csv" / "round2.csv", tmp_path / "c.csv")
    with score_inputs([tmp_path]) as inputs:
        first, imported, last = inputs.data
        assert (first, last) == (tmp_path / "a.csv", tmp_path / "c.csv")
        assert inputs.events.imported == (str(imported),) and inputs.logs_read.games == 1
        raw = pl.scan_parquet(imported).with_columns(_file=pl.lit(str(imported)), _row=pl.int_range(1, 5)).collect()
        named = with_log_sources(raw, inputs.events.imported)
        assert named["_file"].to_list() == [str(tmp_path / "b.json")] * 4 and named["_row"].to_list() == [1, 2, 3, 4]
        folder = imported.parent
    assert not folder.exists()  # the logs' import goes with the run


def test_a_partition_without_events_has_an_empty_hand_seats_table(imported):
    _, events_path = imported
    empty = seats_table(empty_events())
    assert empty.height == 0
    assert empty.schema == analyzer.hand_seats(pl.read_parquet(events_path)).schema


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(min_value=1, max_value=40), in_flight=st.integers(min_value=1, max_value=3))
def test_any_partition_size_gives_the_same_tables_with_events(imported, rows, in_flight):
    hands_path, events_path = imported
    whole = _whole(hands_path, events_path)
    parts = analyzer.score(hands_path, events=events_path, partition_rows=rows, in_flight=in_flight)
    for name in ("hands", "games", "players", "hand_seats"):
        assert_frame_equal(getattr(parts, name), getattr(whole, name), check_exact=True)


_WHOLE: dict = {}


def _whole(hands_path: Path, events_path: Path):
    """The run of one partition, once per module (hypothesis draws many partition sizes against it)."""
    if hands_path not in _WHOLE:
        _WHOLE[hands_path] = analyzer.score(hands_path, events=events_path)
    return _WHOLE[hands_path]


def test_hand_seats_made_with_the_events_are_read_instead_of_replaying_them(imported, tmp_path, monkeypatch):
    """Events written with their hand_seats (as `import --events` and a score of logs write them) are not
    replayed: the run reads the hand_seats, and its tables are those of the replay; events written anew (the
    mark no longer their digest) are replayed."""
    hands_path, _ = imported
    events_path = tmp_path / "hands.events.parquet"
    export_events(LOGS, events_path, workers=1, seats=seats_beside(events_path))
    assert seats_of(events_path) == str(tmp_path / "hands.hand_seats.parquet")
    made = pl.read_parquet(seats_beside(events_path))
    assert made["start_score"].null_count() == made.height  # of the scored hand records: joined by the run
    replayed = analyzer.score(hands_path, events=pl.read_parquet(events_path), partition_rows=40)
    replays = []
    monkeypatch.setattr(score_job.EventSources, "read", lambda self, *a, **k: replays.append(1) or empty_events())
    read = analyzer.score(hands_path, events=events_path, partition_rows=40)
    assert not replays
    assert_frame_equal(read.hand_seats, replayed.hand_seats)
    assert_frame_equal(read.players, replayed.players)
    monkeypatch.undo()

    pl.read_parquet(events_path).with_columns(pl.col("turn") + 1).write_parquet(events_path)  # rewritten
    assert seats_of(events_path) is None
    assert EventSources((str(events_path),)).with_seats().seats == ()
    stale = analyzer.score(hands_path, events=events_path)
    assert not stale.hand_seats.equals(read.hand_seats)  # the turns moved: replayed, not read
    assert_frame_equal(stale.hand_seats, analyzer.hand_seats(pl.read_parquet(events_path), stale.hands))


def test_import_events_writes_the_hand_seats_beside_and_removes_them_without(tmp_path):
    out = tmp_path / "hands.parquet"
    runner = CliRunner()
    result = runner.invoke(main, ["import", str(SAMPLES / "mjlog"), "-o", str(out), "--events"])
    assert result.exit_code == 0, result.output
    seats = tmp_path / "hands.hand_seats.parquet"
    assert seats_of(tmp_path / "hands.events.parquet") == str(seats)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.events.parquet", "hands.hand_seats.parquet",
                                                          "hands.parquet"]
    result = runner.invoke(main, ["import", str(SAMPLES / "mjlog"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.parquet"]


def test_import_events_reads_each_log_once_and_writes_export_events_rows(tmp_path, monkeypatch):
    """The events of `import --events` come from the same reading of each file as its hand records (each file
    parsed once), and are the rows `export events` writes for the same logs; a copy of a game gives none."""
    import analyzer.formats.parse as parse_module
    import analyzer.formats.read_columns as columns_module

    logs = tmp_path / "logs"
    shutil.copytree(SAMPLES, logs)
    first = next(p for p in sorted((logs / "mjlog").iterdir()) if p.is_file())
    shutil.copy(first, logs / "mjlog" / ("zz_copy_of_" + first.name))  # skipped by the import as a copy
    files = [p for p in logs.rglob("*") if p.is_file()]
    parsed = []  # by the per-game reader, and by the columns (mjlog files)
    real, real_tables = parse_module.parse_file, columns_module.read_mjlog_tables

    def tables(files, *args):
        tables, reads = real_tables(files, *args)
        parsed.extend(f for f, r in zip(files, reads) if r.columns)
        return tables, reads

    monkeypatch.setattr(parse_module, "parse_file", lambda *a, **k: parsed.append(a[0]) or real(*a, **k))
    monkeypatch.setattr(columns_module, "read_mjlog_tables", tables)
    out = tmp_path / "hands.parquet"
    result = CliRunner().invoke(main, ["import", str(logs), "-o", str(out), "--events", "--workers", "1"])
    assert result.exit_code in (0, 1), result.output
    assert "skipped as the same game as another" in result.output
    assert parsed and len(parsed) == len(set(map(str, parsed))) <= len(files)  # no file parsed twice
    monkeypatch.undo()
    export_events([logs], tmp_path / "exported.parquet", workers=1)
    written = pl.read_parquet(tmp_path / "hands.events.parquet")
    assert_frame_equal(written, pl.read_parquet(tmp_path / "exported.parquet"))
    assert seats_of(tmp_path / "hands.events.parquet") is not None
