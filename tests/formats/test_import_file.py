"""An import written as it is read (analyzer.formats.import_file): the same rows, in the same order, and the same
problems as read_logs gives in memory, in row groups of any size; nothing left behind when it stops."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import polars.selectors as cs
import pytest
from polars.testing import assert_frame_equal

from analyzer.formats import import_file
from analyzer.formats.import_file import import_logs
from analyzer.formats.read import Assembly, read_logs
from analyzer.io.load import InputError
from analyzer.io.write import write_table

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_logs"
SHARED_MJLOG = REPO.parent / "shared" / "data" / "logs" / "mjlog"
SAMPLE = SAMPLES / "tenhou" / "sample_tonpuu.json"


def _problems(problems) -> list[tuple]:
    return [(p.file, p.reason, p.game_id, p.imported, p.same_as, p.hand) for p in problems]


def _written(paths, output: Path, log_format: str = "auto", **options):
    written = import_logs(paths, output, log_format, **options)
    written.commit()
    return written


@pytest.mark.parametrize("group_rows", [1, 7, 100_000])
def test_every_sample_log_is_written_as_read_logs_reads_it(tmp_path, monkeypatch, group_rows):
    # the samples hold a Mahjong Soul raw record and its tensoul copy: a later file compared with the earlier
    monkeypatch.setattr(import_file, "GROUP_ROWS", group_rows)
    hands, problems = read_logs([SAMPLES], workers=1, log_format="auto")
    written = _written([SAMPLES], tmp_path / "hands.parquet", workers=1)
    assert_frame_equal(pl.read_parquet(written.path), hands)
    assert _problems(written.problems) == _problems(problems)
    assert (written.rows, written.games) == (hands.height, hands["game_id"].n_unique())
    assert any(p.same_as for p in problems)  # the case of a game met twice is in the samples
    assert [p.name for p in tmp_path.iterdir()] == ["hands.parquet"]  # no staging folder left


def test_a_later_version_of_a_game_is_left_out_across_parts(tmp_path, monkeypatch):
    monkeypatch.setattr(import_file, "GROUP_ROWS", 1)
    game = json.loads(SAMPLE.read_text(encoding="utf-8")) | {"ref": "2019010100gm-00a9-0000-0123abcd"}
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.json").write_text(json.dumps(game | {"log": game["log"][:2]}), encoding="utf-8")
    shutil.copy(SAMPLES / "tensoul" / "majsoul_sanma.json", logs / "b.json")
    (logs / "c.json").write_text(json.dumps(game), encoding="utf-8")
    hands, problems = read_logs([logs], workers=1)
    written = _written([logs], tmp_path / "hands.parquet", "tenhou", workers=1)
    assert_frame_equal(pl.read_parquet(written.path), hands)
    assert set(hands["log_file"]) == {str(logs / "a.json"), str(logs / "b.json")}
    assert _problems(written.problems) == _problems(problems) and not problems[0].imported


def test_a_csv_import_is_the_bytes_write_table_gives(tmp_path, monkeypatch):
    monkeypatch.setattr(import_file, "GROUP_ROWS", 5)
    hands, _ = read_logs([SAMPLES], workers=1, log_format="auto")
    write_table(hands.with_columns(cs.datetime().cast(pl.String)), tmp_path / "whole.csv")
    written = _written([SAMPLES], tmp_path / "hands.csv", workers=1)
    assert written.path.read_bytes() == (tmp_path / "whole.csv").read_bytes()


@pytest.mark.skipif(not SHARED_MJLOG.is_dir(), reason="the shared Tenhou logs (../shared/data/logs/mjlog) are absent")
def test_the_shared_mjlog_files_read_as_columns_are_written_as_read(tmp_path, monkeypatch):
    monkeypatch.setattr(import_file, "GROUP_ROWS", 50)
    hands, problems = read_logs([SHARED_MJLOG], workers=2)
    written = _written([SHARED_MJLOG], tmp_path / "hands.parquet", "tenhou", workers=2)
    assert_frame_equal(pl.read_parquet(written.path), hands)
    assert _problems(written.problems) == _problems(problems)


def test_an_output_of_another_kind_is_refused_before_any_log_is_read(tmp_path, monkeypatch):
    def no_reading(*args, **kwargs):
        raise AssertionError("the logs were read")

    monkeypatch.setattr(import_file, "log_batches", no_reading)
    with pytest.raises(InputError, match=r"hands\.txt: use a \.parquet or \.csv file name"):
        import_logs([SAMPLES], tmp_path / "hands.txt")
    assert list(tmp_path.iterdir()) == []


def test_an_import_that_stops_leaves_nothing_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(import_file, "GROUP_ROWS", 1)
    frames = Assembly.frames

    def stopping(self, *args, **kwargs):
        yield from frames(self, *args, **kwargs)
        raise KeyboardInterrupt  # Ctrl-C as the last batch is done: its rows written

    monkeypatch.setattr(Assembly, "frames", stopping)
    with pytest.raises(KeyboardInterrupt):
        import_logs([SAMPLES], tmp_path / "out" / "hands.parquet", "auto", workers=1)
    assert list(tmp_path.iterdir()) == []  # not even the folder the output would have gone into


def test_an_import_aborted_leaves_an_earlier_output_as_it_was(tmp_path):
    output = tmp_path / "hands.parquet"
    output.write_bytes(b"earlier")
    written = import_logs([SAMPLE], output, "tenhou", workers=1)
    assert written.rows > 0
    written.abort()
    assert output.read_bytes() == b"earlier" and [p.name for p in tmp_path.iterdir()] == ["hands.parquet"]


def test_an_import_is_staged_in_a_folder_named_for_it(tmp_path, monkeypatch):
    frames, seen = Assembly.frames, []

    def looking(self, *args, **kwargs):
        for frame in frames(self, *args, **kwargs):
            seen.extend(p.name for p in tmp_path.iterdir())
            yield frame

    monkeypatch.setattr(Assembly, "frames", looking)
    _written([SAMPLE], tmp_path / "hands.parquet", "tenhou", workers=1)
    assert seen and all(name.startswith(".analyzer-import-") for name in seen)
