"""Partition-wise scoring gives the same tables, row for row, whatever the partition size."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.run.plan import parse_size, plan
from analyzer.io.load import expand_inputs
from analyzer.api import score_to
from conftest import game

SAMPLE_CSV = "sample_logs/csv"
SAMPLE_PARQUET = "sample_logs/parquet"
TABLES = ("hands", "games", "players", "rejects", "ratings")


def _assert_same(a, b, drop_source: bool = False) -> None:
    for name in TABLES:
        left, right = getattr(a, name), getattr(b, name)
        if drop_source:
            left = left.drop("source_file", "source_row", "file", "row", strict=False)
            right = right.drop("source_file", "source_row", "file", "row", strict=False)
        assert_frame_equal(left, right, check_exact=True)


@pytest.mark.parametrize("inputs", [SAMPLE_CSV, SAMPLE_PARQUET])
@pytest.mark.parametrize("rows", [1, 5, 23])
def test_many_partitions_equal_one(inputs, rows):
    whole = analyzer.score(inputs, "tenhou")
    assert whole.hands.height > 60
    _assert_same(analyzer.score(inputs, "tenhou", partition_rows=rows), whole)


def test_game_ordered_parquet_is_sliced_and_other_input_spilled():
    files = expand_inputs([SAMPLE_PARQUET])
    sliced = plan(files, partition_rows=10)
    assert not sliced.spilled and len(sliced.parts) > 3
    assert sum(p.rows for p in sliced.parts) == sliced.rows == 70
    spilled = plan(expand_inputs([SAMPLE_CSV]), partition_rows=10)
    try:
        assert spilled.spilled and len(spilled.parts) == len(sliced.parts)
    finally:
        spilled.close()


def test_the_last_part_is_a_quarter_of_the_others(tmp_path):
    # 20 games of 10 rows in 60-row parts: the games starting in the last 15 rows (one, at row 190) make the last
    # part; the others are cut as before
    path = tmp_path / "games.parquet"
    pl.DataFrame({"game_id": [f"g{g:02d}" for g in range(20) for _ in range(10)], "round": "E1"}).write_parquet(path)
    parts = plan([path], partition_rows=60).parts
    assert [p.rows for p in parts] == [60, 60, 60, 10, 10]
    assert [p.index for p in parts] == list(range(5))
    assert plan([path], partition_rows=200).parts[0].rows == 200  # one part: no tail of its own


def test_a_partition_size_below_one_game_still_scores_everything():
    tiny = analyzer.score(SAMPLE_CSV, "tenhou", partition_rows=1)
    _assert_same(tiny, analyzer.score(SAMPLE_CSV, "tenhou"))


def test_a_game_split_across_files_is_scored_as_one(tmp_path):
    rows = pl.read_csv(f"{SAMPLE_CSV}/round1.csv", infer_schema=False)
    first_game = rows["game_id"][0]
    one = rows.filter(pl.col("game_id") == first_game)
    # the game's odd rows in one file, its even rows (and the other games) in another, in reverse order
    one.gather_every(2).write_csv(tmp_path / "a.csv")
    pl.concat([rows.filter(pl.col("game_id") != first_game), one.gather_every(2, offset=1)]).reverse().write_parquet(
        tmp_path / "b.parquet"
    )
    for partition_rows in (None, 3):
        split = analyzer.score([tmp_path / "b.parquet", tmp_path / "a.csv"], "tenhou", partition_rows=partition_rows)
        _assert_same(split, analyzer.score(f"{SAMPLE_CSV}/round1.csv", "tenhou"), drop_source=True)


def test_rejects_of_all_partitions_come_in_input_order(tmp_path):
    rows = pl.read_csv(f"{SAMPLE_CSV}/round2.csv", infer_schema=False)
    bad = rows.with_columns(
        pl.when(pl.int_range(pl.len()) % 7 == 3).then(pl.lit("x")).otherwise(pl.col("honba")).alias("honba"),
        pl.when(pl.int_range(pl.len()) % 11 == 5).then(pl.lit("Q9")).otherwise(pl.col("round")).alias("round"),
    )
    bad.write_csv(tmp_path / "bad.csv")
    whole = analyzer.score(tmp_path / "bad.csv", "tenhou")
    assert whole.rows_rejected > 2
    assert whole.rejects["row"].is_sorted()
    _assert_same(analyzer.score(tmp_path / "bad.csv", "tenhou", partition_rows=2), whole)


DOUBLE_RON = [
    {"round": "E1", "honba": 0, "result": "draw", "riichi": "Doi", "tenpai": "Doi"},
    {"round": "E1", "honba": 1, "result": "ron", "winner": "Chiba", "loser": "Doi", "riichi": "Aoki,Chiba",
     "han": 2, "fu": 40},
    {"round": "E1", "honba": 1, "result": "ron", "winner": "Aoki", "loser": "Doi", "riichi": "Aoki,Chiba",
     "han": 1, "fu": 30},
    {"round": "E1", "honba": 2, "result": "tsumo", "winner": "Aoki", "han": 1, "fu": 30},
    {"round": "E1", "honba": 2, "result": "chombo", "loser": "Baba"},
]


def test_replay_order_does_not_depend_on_input_order():
    forward = analyzer.score(game(DOUBLE_RON), "tenhou")
    backward = analyzer.score(game(DOUBLE_RON[::-1]), "tenhou")
    _assert_same(forward, backward, drop_source=True)
    # the nearest winner first, the chombo before the hand it interrupted
    assert forward.hands["winner"].to_list() == [None, "Aoki", "Chiba", None, "Aoki"]
    assert forward.hands["result"].to_list()[-2:] == ["chombo", "tsumo"]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_score_to_writes_what_score_returns(tmp_path, fmt):
    summary = score_to(SAMPLE_CSV, tmp_path / "out", fmt, "tenhou", partition_rows=9)
    assert summary.partitions > 5 and summary.rows_read == 70
    whole = analyzer.score(SAMPLE_CSV, "tenhou")
    read = pl.read_parquet if fmt == "parquet" else lambda p: pl.read_csv(p, infer_schema_length=None)
    for name in TABLES:
        written = read(tmp_path / "out" / f"{name}.{fmt}")
        assert written.height == getattr(whole, name).height
        assert written.columns == getattr(whole, name).columns
    if fmt == "parquet":
        assert_frame_equal(pl.read_parquet(tmp_path / "out" / "hands.parquet"), whole.hands)
    written = sorted(p.name for p in (tmp_path / "out").iterdir() if not p.name.startswith("."))
    assert written == sorted(f"{n}.{fmt}" for n in TABLES)


def test_a_failed_run_leaves_the_previous_outputs(tmp_path):
    out = tmp_path / "out"
    score_to(SAMPLE_CSV, out, "parquet", "tenhou")
    before = {p.name: p.read_bytes() for p in out.glob("*.parquet")}

    def fail(done, total, parts):
        if parts == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        score_to(SAMPLE_PARQUET, out, "parquet", "ema", partition_rows=10, progress=fail)
    assert {p.name: p.read_bytes() for p in out.glob("*.parquet")} == before
    assert not list(out.glob(".analyzer-run-*"))


@pytest.mark.parametrize("text, size", [("2GB", 2 << 30), ("512mb", 512 << 20), ("1.5G", 3 << 29), ("1000", 1000)])
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "0", "-1GB", "lots", "2XB"])
def test_bad_sizes(text):
    with pytest.raises(ValueError):
        parse_size(text)


def test_check_in_partitions_finds_the_same():
    sheet = "sample_logs/checks/sheet_with_mistakes.csv"
    whole = analyzer.check([sheet, SAMPLE_CSV], "tenhou")
    parts = analyzer.check([sheet, SAMPLE_CSV], "tenhou", partition_rows=4, keep_scored=False)
    assert parts.scored is None and not whole.ok
    assert_frame_equal(parts.findings, whole.findings)
    assert parts.headline() == whole.headline()
    assert parts.fields_compared == whole.fields_compared


def test_cli_partition_options(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    runner = CliRunner()
    done = runner.invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "a"), "--partition-rows", "7", "--top", "0"])
    assert done.exit_code == 0, done.output
    assert_frame_equal(pl.read_parquet(tmp_path / "a" / "hands.parquet"), analyzer.score(SAMPLE_CSV).hands)
    bad = runner.invoke(main, ["score", SAMPLE_CSV, "-o", str(tmp_path / "b"), "--memory-limit", "lots"])
    assert bad.exit_code == 2 and "--memory-limit" in bad.output and "Traceback" not in bad.output
    # the sample club tournament plays hanchan without Tenhou's West extension (analyzer.game.game_end)
    checked = runner.invoke(main, ["check", SAMPLE_CSV, "--rules", "tenhou;west_extension=false", "--memory-limit", "1GB",
                                   "--show", "0"])
    assert checked.exit_code == 0, checked.output
    assert "70 rows" in checked.output


def _tile_hands(n: int) -> pl.DataFrame:
    from benchmarks.handgen import generate

    names = ["Aoki", "Baba", "Chiba", "Doi"]
    hands = generate(n, seed=3)
    return hands.select(
        pl.format("h{}", pl.int_range(pl.len()).cast(pl.String).str.zfill(5)).alias("game_id"),
        pl.lit("E1").alias("round"), pl.lit("0").alias("honba"),
        *[pl.lit(name).alias(f"player_{s}") for s, name in enumerate(names)],
        pl.when(pl.col("_is_tsumo")).then(pl.lit("tsumo")).otherwise(pl.lit("ron")).alias("result"),
        pl.col("_seat_wind").cast(pl.String).alias("winner"),
        pl.when(pl.col("_is_tsumo")).then(None).otherwise(((pl.col("_seat_wind") + 1) % 4).cast(pl.String)).alias("loser"),
        pl.lit("2").alias("han"), pl.lit("30").alias("fu"),
        "hand", "melds", "win_tile", "dora", "ura",
    )


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_tile_hands_in_parts_write_the_same_files(tmp_path, fmt):
    source = tmp_path / "tiles.parquet"
    _tile_hands(300).write_parquet(source)
    score_to(source, tmp_path / "one", fmt, "tenhou")
    score_to(source, tmp_path / "many", fmt, "tenhou", partition_rows=70)
    read = pl.read_parquet if fmt == "parquet" else lambda p: pl.read_csv(p, infer_schema=False)
    for name in TABLES:
        one, many = read(tmp_path / "one" / f"{name}.{fmt}"), read(tmp_path / "many" / f"{name}.{fmt}")
        assert_frame_equal(one, many)
    assert read(tmp_path / "one" / f"hands.{fmt}").height == 300


def test_tiles_encode_in_chunks_writes_every_row_in_input_order(tmp_path):
    from analyzer.tiles.encode_files import encode_to

    source = tmp_path / "tiles.parquet"
    _tile_hands(250).write_parquet(source)
    one = encode_to(source, tmp_path / "one.parquet")
    many = encode_to(source, tmp_path / "many.parquet", chunk_rows=40)
    assert one.rows == many.rows == 250 and one.hands == many.hands
    assert_frame_equal(pl.read_parquet(tmp_path / "one.parquet"), pl.read_parquet(tmp_path / "many.parquet"))
    assert pl.read_parquet(tmp_path / "many.parquet")["game_id"].is_sorted()


def test_a_recorded_kyotaku_in_a_file_is_kept_and_checked(tmp_path):
    sheet = pl.read_csv("sample_logs/checks/sheet_with_mistakes.csv", infer_schema=False)
    sheet.with_columns(pl.lit("3").alias("kyotaku")).write_csv(tmp_path / "sheet.csv")
    for partition_rows in (None, 2):
        hands = analyzer.score(tmp_path / "sheet.csv", "tenhou", partition_rows=partition_rows).hands
        assert hands.schema["recorded_kyotaku"] == pl.Int64  # a pass-through column: the type read from the CSV
        assert (hands["recorded_kyotaku"] == 3).all()
        assert hands["problems"].list.contains("kyotaku_mismatch").any()


@pytest.mark.parametrize("partition_rows", [None, 10])
def test_outputs_take_the_umask(tmp_path, partition_rows):
    import os

    old = os.umask(0o027)
    try:
        score_to(SAMPLE_CSV, tmp_path / "out", "parquet", "tenhou", partition_rows=partition_rows)
    finally:
        os.umask(old)
    assert {oct(p.stat().st_mode & 0o777) for p in (tmp_path / "out").glob("*.parquet")} == {oct(0o640)}


def test_two_runs_into_one_outdir_do_not_mix(tmp_path):
    from analyzer.io.load import InputError
    from analyzer.io.write import lock_outdir

    out = tmp_path / "out"
    out.mkdir()
    held = lock_outdir(out)  # another run is writing
    try:
        with pytest.raises(InputError, match="another analyzer run"):
            score_to(SAMPLE_CSV, out, "parquet", "tenhou")
    finally:
        held.close()
    assert score_to(SAMPLE_CSV, out, "parquet", "tenhou").rows_read == 70


def test_partials_merged_during_a_run_give_the_same_players(tmp_path, monkeypatch):
    # a long run merges its partial sums as they pile up (every MERGE_PARTIALS_ROWS rows of them); the merged
    # rows and the next parts' rows must stack
    import analyzer.jobs.score as score_job

    whole = score_to(SAMPLE_CSV, tmp_path / "once", "parquet", "tenhou", partition_rows=20).players
    monkeypatch.setattr(score_job, "MERGE_PARTIALS_ROWS", 1)
    merged = score_to(SAMPLE_CSV, tmp_path / "merged", "parquet", "tenhou", partition_rows=20)
    assert merged.partitions > 2
    assert_frame_equal(merged.players, whole)


def test_a_manifest_names_the_complete_set_of_tables(tmp_path):
    import json

    out = tmp_path / "out"
    score_to(SAMPLE_CSV, out, "parquet", "tenhou", partition_rows=20)
    first = json.loads((out / ".analyzer-run.json").read_text())
    assert first["tables"] == {name: f"{name}.parquet" for name in TABLES}
    assert 0 <= first["seconds"]["statistics"] <= first["seconds"]["run"]  # the run's time, and the statistics' share
    score_to(SAMPLE_CSV, out, "csv", "tenhou")
    second = json.loads((out / ".analyzer-run.json").read_text())
    assert second["run"] != first["run"] and second["tables"]["hands"] == "hands.csv"


def test_games_come_in_key_order_whatever_order_the_input_has():
    from analyzer.run.plan import _in_key_order

    games = pl.DataFrame({"_game_key": ["b", "a", "c"], "_n": [1, 2, 3], "_first": [5, 1, 9], "_last": [5, 2, 11]})
    assert _in_key_order(games)["_game_key"].to_list() == ["a", "b", "c"]  # written in key order: by first row
    shuffled = games.with_columns(pl.Series("_first", [1, 5, 9]), pl.Series("_last", [1, 6, 11]))
    assert _in_key_order(shuffled)["_game_key"].to_list() == ["a", "b", "c"]  # not: sorted by key text
