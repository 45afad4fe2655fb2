"""One game written twice in one import: a Mahjong Soul raw record and its tensoul copy (the same record id, the
same plays, written otherwise) are one game, imported once from the first file in path order; another version
of a game (the same id, other plays) is still refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.formats import read_majsoul, read_tenhou

REPO = Path(__file__).resolve().parents[2]
RAW = REPO / "sample_logs" / "majsoul" / "ranked_east_3p.json"
TENSOUL = REPO / "sample_logs" / "tensoul" / "majsoul_sanma.json"
GAME = "240301-0b9d2e41-7c3a-4f58-b1e6-93a2d5c8f071"
SAMPLE = REPO / "sample_logs" / "tenhou" / "sample_tonpuu.json"
TENHOU_ID = "2019010100gm-00a9-0000-0123abcd"


def test_a_raw_record_and_its_tensoul_copy_import_as_one_game():
    hands, problems = read_majsoul([RAW, TENSOUL])
    alone, _ = read_majsoul([RAW])
    assert hands.equals(alone)  # the raw record's rows, nothing of the copy
    assert [(p.file, p.game_id, p.imported, p.same_as) for p in problems] == [(str(TENSOUL), GAME, True, str(RAW))]
    assert problems[0].reason == (f"the same game as {RAW} (the same Mahjong Soul record id and plays, recorded "
                                  "otherwise), skipped: imported once")


def test_the_first_file_in_path_order_is_the_one_imported(tmp_path):
    shutil.copy(TENSOUL, tmp_path / "a.json")
    shutil.copy(RAW, tmp_path / "b.json")
    hands, [problem] = read_majsoul([tmp_path])
    assert hands["log_file"].unique().to_list() == [str(tmp_path / "a.json")]
    assert hands["player_1"][0] == "Taro"  # tensoul's copy has no account ids
    assert (problem.file, problem.imported) == (str(tmp_path / "b.json"), True)
    assert problem.same_as == str(tmp_path / "a.json")


def test_a_partial_and_a_full_log_of_one_game_are_two_versions(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8")) | {"ref": TENHOU_ID}
    (tmp_path / "a.json").write_text(json.dumps(game | {"log": game["log"][:2]}), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(game), encoding="utf-8")
    hands, [problem] = read_tenhou([tmp_path])
    assert hands.height == 2 and set(hands["log_file"]) == {str(tmp_path / "a.json")}
    assert not problem.imported and problem.reason == (
        f"the same Tenhou log id {TENHOU_ID} as {tmp_path / 'a.json'} but other content: not imported "
        "(the game is imported from the earlier file)")


def test_importing_every_sample_log_at_once_imports_each_game_once(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)  # the samples named as the README names them
    out = tmp_path / "all.parquet"
    result = CliRunner().invoke(main, ["import", "sample_logs", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "sample_logs/tensoul/majsoul_sanma.json (game " in result.output
    assert "the same game as sample_logs/majsoul/ranked_east_3p.json" in result.output
    assert "0 file(s) not imported; 1 file(s) skipped as the same game as another" in result.output
    hands = pl.read_parquet(out)
    assert hands.group_by("game_id").agg(pl.col("log_file").n_unique())["log_file"].to_list() == [1] * 6


@pytest.mark.parametrize("kind", ["events", "mjai", "tenhou6"])
def test_exporting_every_sample_log_exports_each_game_once(tmp_path, monkeypatch, kind):
    """As the import: the raw record's tensoul copy is skipped with a note, the exit status is 0."""
    monkeypatch.chdir(REPO)
    out = tmp_path / ("events.parquet" if kind == "events" else kind)
    result = CliRunner().invoke(main, ["export", kind, "sample_logs", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert ("sample_logs/tensoul/majsoul_sanma.json (game " + GAME + "): the same game as "
            "sample_logs/majsoul/ranked_east_3p.json") in result.output
    assert "skipped: exported once" in result.output
    assert "exported 6 game(s)" in result.output


def test_a_partial_and_a_full_log_are_still_refused_by_the_export(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8")) | {"ref": TENHOU_ID}
    (tmp_path / "a.json").write_text(json.dumps(game | {"log": game["log"][:2]}), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(game), encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "events", str(tmp_path), "-o", str(tmp_path / "ev.parquet")])
    assert result.exit_code == 1, result.output
    assert "but other content: not exported" in result.output
