"""The rows of one game from two logs (or two imports) are never merged at ``score``/``check``: the same game
recorded twice is scored once, from the first input in path order, the copy's rows rejected as
``duplicate_row``; another version of the game (other plays) is refused as ``other_version``, naming both."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main

REPO = Path(__file__).resolve().parents[2]
RAW = REPO / "sample_logs" / "majsoul" / "ranked_east_3p.json"
TENSOUL = REPO / "sample_logs" / "tensoul" / "majsoul_sanma.json"
SAMPLE = REPO / "sample_logs" / "tenhou" / "sample_tonpuu.json"
TENHOU_ID = "2019010100gm-00a9-0000-0123abcd"


def _import(runner: CliRunner, fmt: str, log: Path, out: Path) -> Path:
    result = runner.invoke(main, ["import", fmt, str(log), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _points(outdir: Path) -> dict[str, float]:
    return dict(pl.read_parquet(outdir / "players.parquet").select("player", "total_points").iter_rows())


def test_a_tensoul_import_and_a_raw_import_of_one_game_are_scored_once(tmp_path):
    runner = CliRunner()
    t = _import(runner, "tenhou", TENSOUL, tmp_path / "t.parquet")
    r = _import(runner, "majsoul", RAW, tmp_path / "r.parquet")
    scored = runner.invoke(main, ["score", str(t), str(r), "-o", str(tmp_path / "o")])
    assert scored.exit_code == 1, scored.output  # rows rejected, as for any copy
    assert "rows read: 8 = scored 4 + rejected 4 (scored with problems: 0); games: 1" in scored.output
    hands = pl.read_parquet(tmp_path / "o" / "hands.parquet")
    assert hands.height == 4 and set(hands["log_file"]) == {str(TENSOUL)}
    assert hands.select("player_0", "player_1", "player_2").unique().height == 1  # one seating
    alone = runner.invoke(main, ["score", str(t), "-o", str(tmp_path / "alone")])
    assert alone.exit_code == 0, alone.output
    assert _points(tmp_path / "o") == _points(tmp_path / "alone") and _points(tmp_path / "o")["Taro"] == 20.4
    rejects = pl.read_parquet(tmp_path / "o" / "rejects.parquet")
    assert rejects.height == 4 and set(rejects["file"]) == {str(r)} and set(rejects["log_file"]) == {str(RAW)}
    assert set(rejects["reason"]) == {
        f"duplicate_row: the same game as {TENSOUL} (in {t}), its plays recorded otherwise: counted once"}

    checked = runner.invoke(main, ["check", str(t), str(r), "-o", str(tmp_path / "report.csv")])
    assert checked.exit_code == 1, checked.output
    report = pl.read_csv(tmp_path / "report.csv")
    assert report.height == 4 and set(report["field"]) == {"duplicate_row"}


@pytest.fixture
def versions(tmp_path) -> tuple[Path, Path]:
    """Two imports of one Tenhou game (one ``ref``): a partial log of its first two hands, and the whole log."""
    game = json.loads(SAMPLE.read_text(encoding="utf-8")) | {"ref": TENHOU_ID}
    (tmp_path / "p").mkdir()
    (tmp_path / "f").mkdir()
    (tmp_path / "p" / "partial.json").write_text(json.dumps(game | {"log": game["log"][:2]}), encoding="utf-8")
    (tmp_path / "f" / "full.json").write_text(json.dumps(game), encoding="utf-8")
    runner = CliRunner()
    return (_import(runner, "tenhou", tmp_path / "p", tmp_path / "partial.parquet"),
            _import(runner, "tenhou", tmp_path / "f", tmp_path / "full.parquet"))


def test_another_version_of_a_game_is_refused_naming_both_files(tmp_path, versions):
    partial, full = versions
    runner = CliRunner()
    scored = runner.invoke(main, ["score", str(partial), str(full), "-o", str(tmp_path / "o")])
    assert scored.exit_code == 1, scored.output
    assert "rows read: 6 = scored 2 + rejected 4" in scored.output  # no row paid twice
    rejects = pl.read_parquet(tmp_path / "o" / "rejects.parquet")
    assert rejects.height == 4 and set(rejects["file"]) == {str(full)}
    first, second = tmp_path / "p" / "partial.json", tmp_path / "f" / "full.json"
    assert set(rejects["reason"]) == {
        f"other_version: game {TENHOU_ID} of {second} (in {full}) is another version of the game in {first} "
        f"(in {partial}): not scored, the game is scored from {first}"}
    assert "4× other_version: another version of a game recorded earlier" in " ".join(scored.output.split())
    hands = pl.read_parquet(tmp_path / "o" / "hands.parquet")
    assert set(hands["log_file"]) == {str(first)}

    checked = runner.invoke(main, ["check", str(full), str(partial), "-o", str(tmp_path / "report.csv")])
    assert checked.exit_code == 1, checked.output
    report = pl.read_csv(tmp_path / "report.csv")
    assert set(report.filter(pl.col("kind") == "reject")["field"]) == {"other_version"}
    assert set(report.filter(pl.col("kind") == "reject")["source_file"]) == {str(partial)}  # the first given is kept


def test_a_game_given_in_two_files_without_log_files_is_still_one_game(tmp_path):
    """A score sheet's game may be split over two files (no log_file: not two records of it)."""
    rows = pl.read_csv(REPO / "sample_logs" / "csv" / "round1.csv", infer_schema=False)
    first = rows.filter(pl.col("game_id") == rows["game_id"][0])
    first.head(2).write_csv(tmp_path / "a.csv")
    first.slice(2).write_csv(tmp_path / "b.csv")
    split = analyzer.score([tmp_path / "a.csv", tmp_path / "b.csv"], "tenhou")
    whole = analyzer.score(first, "tenhou")
    assert split.rows_rejected == 0 and split.players.equals(whole.players)
