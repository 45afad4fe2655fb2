"""Wide game-level sheets (one row per game, each seat's cells in columns of their own: analyzer.io.wide) read
as the long form: the same games, players, standings and findings; rejects and findings naming the file, the
wide row and the seat's column; a game id made where the sheet has none; three players; hand records (which
have ``player_0..3`` too) never taken for one."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

import analyzer
from analyzer.cli import main
from analyzer.io.columns import InputError, is_sheet
from analyzer.io.wide import WINDS, wide_layout

DATA = Path(__file__).parents[1] / "data"
ROOT = Path(__file__).parents[2]
LONG = ROOT / "sample_logs" / "tournament" / "sheet.csv"
WIDE = DATA / "sheet_wide.csv"  # LONG, one row per table
PER_SEAT = ["player", "final_score", "chombo", "penalty", "team", "recorded_points", "recorded_place"]
OUTPUTS = ["players", "games", "standings", "sessions", "teams"]


def seat_named(wide: pl.DataFrame) -> pl.DataFrame:
    """``player_0``, ``final_score_0``, ``chombo_0`` … renamed ``east``, ``east_score``, ``east_chombo`` …"""
    suffix = {"player": "", "final_score": "_score"}
    return wide.rename({f"{f}_{s}": f"{WINDS[s]}{suffix.get(f, '_' + f)}" for f in PER_SEAT for s in range(4)
                        if f"{f}_{s}" in wide.columns})


def to_wide(long: pl.DataFrame) -> pl.DataFrame:
    """A long sheet (with ``seat`` 0-3 and no leftover sticks) one row per game: ``player_0``,
    ``final_score_0``, …"""
    values = [c for c in PER_SEAT if c in long.columns]
    index = [c for c in ("session", "table", "game_id") if c in long.columns]
    return long.pivot(on="seat", index=index, values=values, aggregate_function="first", maintain_order=True)


def tables(result) -> dict[str, pl.DataFrame]:
    return {name: getattr(result, name) for name in OUTPUTS}


@pytest.fixture(scope="module")
def long_result():
    return analyzer.score(LONG)


def test_the_fixture_is_the_sample_sheet_one_row_per_table():
    wide = pl.read_csv(WIDE, infer_schema=False)
    long = pl.read_csv(LONG, infer_schema=False)
    assert wide.height * 4 == long.height
    assert sorted(wide.select(pl.concat_list(f"player_{s}" for s in range(4))).explode("player_0")
                  .to_series().to_list()) == sorted(long["player"].to_list())


@pytest.mark.parametrize("input_kind", ["auto", "games"])
def test_a_wide_sheet_gives_the_standings_of_its_long_form(long_result, input_kind):
    wide = analyzer.score(WIDE, input_kind=input_kind)
    assert wide.rejects.height == 0 and long_result.rejects.height == 0
    for name, table in tables(long_result).items():
        assert getattr(wide, name).equals(table), name


def test_seat_named_columns_give_the_same_tables(tmp_path, long_result):
    path = tmp_path / "winds.csv"
    seat_named(pl.read_csv(WIDE, infer_schema=False)).write_csv(path)
    assert {"east", "east_score", "north_penalty", "west_team"} <= set(pl.read_csv(path).columns)
    result = analyzer.score(path)
    for name, table in tables(long_result).items():
        assert getattr(result, name).equals(table), name


def test_parquet_in_parts_and_a_frame_give_the_same_tables(tmp_path, long_result):
    """Parquet keeps its integer columns; parts of two tables cut a wide file by its rows (each row a whole
    game); a frame from Python is read as a file is."""
    wide = pl.read_csv(WIDE)
    path = tmp_path / "wide.parquet"
    wide.write_parquet(path, row_group_size=3)
    for data, parts in ((path, None), (path, 8), (wide, None)):
        result = analyzer.score(data, partition_rows=parts)
        for name, table in tables(long_result).items():
            assert getattr(result, name).equals(table), (name, parts)


def _findings(path: Path) -> pl.DataFrame:
    return analyzer.check(path, "ema").findings.select(
        "game_id", "player", "seat", "field", "kind", "recorded", "computed", "explanation", "source_row")


def test_a_wide_sheet_gives_the_findings_of_its_long_form(tmp_path):
    """tests/data/sheet_check.csv (a missing player, a player twice, scores that do not add up, a recorded
    result that differs, a player in two teams) one row per table: the same findings, at the game's wide row."""
    long_path = DATA / "sheet_check.csv"
    long = pl.read_csv(long_path, infer_schema=False)
    path = tmp_path / "check_wide.csv"
    to_wide(long).write_csv(path)
    wide_row = {g: i + 1 for i, g in enumerate(long["game_id"].unique(maintain_order=True))}
    long_games = dict(zip(range(1, long.height + 1), long["game_id"]))
    expected = _findings(long_path).with_columns(
        pl.col("source_row").replace_strict(long_games, default=None).replace_strict(wide_row, default=None)
        .cast(pl.Int64),
        pl.col("explanation").str.replace(r"\(rows 12, 14\)", "(row 4: player_0, player_2)"))
    found = _findings(path)
    assert found.height == 7
    assert sorted(found.iter_rows(), key=str) == sorted(expected.iter_rows(), key=str)


def test_rejects_of_a_game_name_the_wide_row_and_each_seat(tmp_path):
    long = pl.read_csv(DATA / "sheet_check.csv", infer_schema=False)
    path = tmp_path / "check_wide.csv"
    to_wide(long).write_csv(path)
    result = analyzer.score(path, "ema")
    rejects = result.rejects
    # rows are the sheet's rows (a game each), not its seats: two tables settled, two rejected
    assert (result.rows_read, result.sheet_rows, result.rows_rejected) == (4, 2, 2)
    twice = rejects.filter(pl.col("game_id") == "S2-T2")
    assert twice.select("row", "column", "value").rows() == [
        (4, "player_0", "Dai"), (4, "player_1", "Eve"), (4, "player_2", "Dai"), (4, "player_3", "Gus")]
    assert set(twice["reason"]) == {"Dai is at this table twice"}
    # the three-player table of a four-seat sheet: the empty seat is no player
    assert rejects.filter(pl.col("game_id") == "S2-T1")["column"].to_list() == ["player_0", "player_1", "player_2"]


BAD_CELLS = {  # column written in the wide sheet -> (value, the reason's start)
    "final_score_2": ("abc", "final_score must be a whole number"),
    "chombo_0": ("-1", "chombo must be a whole number from 0"),
    "penalty_3": ("lots", "penalty must be a number of points"),
    "player_1": ("", "missing player name"),
}


@pytest.mark.parametrize("column", list(BAD_CELLS))
@pytest.mark.parametrize("winds", [False, True])
def test_a_bad_cell_is_rejected_with_file_row_column_and_value(tmp_path, column, winds):
    value, why = BAD_CELLS[column]
    wide = pl.read_csv(WIDE, infer_schema=False).with_columns(
        pl.when(pl.int_range(pl.len()) == 2).then(pl.lit(value)).otherwise(pl.col(column)).alias(column))
    named = column
    if winds:
        wide, named = seat_named(wide), seat_named(pl.DataFrame(schema=[column])).columns[0]
    path = tmp_path / "bad.csv"
    wide.write_csv(path)
    rejects = analyzer.score(path).rejects
    own = rejects.filter(pl.col("column") == named)
    assert own.select("file", "row", "value").rows() == [(str(path), 3, value)]
    assert own["reason"].item().startswith(why)
    # the game's other seats are rejected with it (a game is settled from all its players), at the same row,
    # each named by its player column
    assert set(rejects["row"]) == {3} and rejects.height == 4
    seat = int(column.rsplit("_", 1)[1])
    others = [f"player_{s}" for s in range(4) if s != seat]
    if winds:
        others = [WINDS[s] for s in range(4) if s != seat]
    assert sorted(rejects.filter(pl.col("column") != named)["column"]) == sorted(others)
    assert set(rejects.filter(pl.col("column") != named)["reason"]) == {
        f"the game cannot be settled without its rejected row(s) 3 ({named})"}


def test_a_game_id_is_made_from_session_table_and_row(tmp_path):
    wide = pl.read_csv(WIDE).drop("game_id")
    with_labels, bare = tmp_path / "labels.csv", tmp_path / "bare.csv"
    wide.write_csv(with_labels)
    wide.drop("session", "table").write_csv(bare)
    games = analyzer.score(with_labels).games.unique("game_id", maintain_order=True)
    assert games.select("game_id", "session", "table").rows()[:3] == [
        ("1-1-row1", "1", "1"), ("1-2-row2", "1", "2"), ("1-3-row3", "1", "3")]
    assert set(analyzer.score(bare).games["game_id"]) == {f"bare-row{n}" for n in range(1, 17)}


@pytest.mark.parametrize("rules", ["tenhou_sanma", None])  # three seats: the default's three-player preset
def test_three_players(tmp_path, rules):
    """Tenhou sanma (35000 start, 40000 return, uma 20/0/-20, the thousands rounded 5 down / 6 up): 27400 -> 27:
    27 - 40 + 0 = -13; -5500 -> -6: -6 - 40 - 20 = -66; first takes the rest: 79."""
    path = tmp_path / "sanma.csv"
    pl.DataFrame({"game_id": ["G1"], "player_0": ["A"], "final_score_0": [27400], "player_1": ["B"],
                  "final_score_1": [83100], "player_2": ["C"], "final_score_2": [-5500]}).write_csv(path)
    games = analyzer.score(path, rules).games.sort("seat")
    assert set(games["rules"]) == {"tenhou_sanma"}
    assert games.select("player", "seat", "place", "game_points").rows() == [
        ("A", 0, 2, -13.0), ("B", 1, 1, 79.0), ("C", 2, 3, -66.0)]


@pytest.mark.parametrize(("names", "wide"), [
    (["game_id", "player_0", "final_score_0", "player_1", "final_score_1"], True),
    (["session", "east", "east_score", "south", "south_score"], True),
    # hand records have player_0..3 and a result: never a wide sheet
    (["game_id", "round", "honba", "result", "player_0", "player_1", "player_2", "player_3", "winner"], False),
    (["game_id", "result", "player_0", "final_score_0"], False),
    (["game_id", "player", "final_score"], False),  # the long form
])
def test_recognised_by_their_columns(names, wide):
    assert (wide_layout(names) is not None) == wide
    if wide:
        assert is_sheet(names)


def test_hand_records_are_not_read_as_a_wide_sheet():
    result = analyzer.score(DATA / "stats_game.csv")
    assert result.sheet_rows == 0 and result.hands.height > 0


def test_a_seat_without_its_score_column_is_one_clear_error(tmp_path):
    path = tmp_path / "short.csv"
    pl.read_csv(WIDE).drop("final_score_3").write_csv(path)
    with pytest.raises(InputError, match=r"no column 'final_score_3' in .*short.csv \(read as a wide game-level"):
        analyzer.score(path)
    run = CliRunner().invoke(main, ["score", str(path), "-o", str(tmp_path / "out")])
    assert run.exit_code == 2
    assert run.output.startswith("error: no column 'final_score_3'") and run.output.count("\n") == 1


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(-20_000, 80_000), min_size=4, max_size=4), min_size=1, max_size=5))
def test_any_wide_sheet_settles_as_its_long_form(scores):
    """Whatever the scores, the wide sheet and the long one give the same games table."""
    names = ["Ana", "Ben", "Cho", "Dai", "Eli", "Fay"]
    long = pl.DataFrame([
        {"game_id": f"G{g}", "seat": s, "player": names[(g + s) % len(names)], "final_score": score}
        for g, row in enumerate(scores) for s, score in enumerate(row)])
    wide = long.pivot(on="seat", index="game_id", values=["player", "final_score"], maintain_order=True)
    assert analyzer.score(wide, "ema").games.equals(analyzer.score(long, "ema").games)


@pytest.mark.parametrize(("extra", "named"), [("player", "column 'player' beside 'player_0'"),
                                               ("seat", "column 'seat' beside the seats' columns"),
                                               ("recorded_place", "column 'recorded_place' beside the seats'")])
def test_a_long_column_beside_the_seats_columns_is_refused(extra, named):
    wide = pl.read_csv(WIDE).with_columns(pl.lit(1).alias(extra))
    with pytest.raises(InputError, match=named + ".*not both"):
        analyzer.score(wide)


def test_the_progress_counts_every_seat_as_the_plan_does(tmp_path):
    """The plan counts a wide sheet's rows in the long form (a row per seat); the partitions report as many."""
    long = pl.read_csv(DATA / "sheet_check.csv", infer_schema=False)
    path = tmp_path / "check_wide.parquet"
    to_wide(long).write_parquet(path)
    seen = []
    analyzer.score_to(path, tmp_path / "out", rules="ema", partition_rows=8,
                      progress=lambda done, total, parts: seen.append((done, total)))
    assert seen[-1] == (15, 15) and len(seen) > 1
