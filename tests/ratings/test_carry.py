"""Carrying a season on: a season scored from the players table of the one before equals the two seasons scored
at once."""

from __future__ import annotations

import random

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import analyzer
from analyzer.cli import main as cli
from analyzer.io.columns import InputError


def season(path, first_day: int, games: int, seed: int) -> str:
    """A game-level sheet of ``games`` games among six players, one game a day from ``first_day``."""
    rng = random.Random(seed)
    lines = ["game_id,date,player,final_score"]
    for g in range(games):
        players = rng.sample(["Ai", "Bo", "Cy", "Di", "Ed", "Fu"], 4)
        scores = rng.sample(range(-5000, 60000, 100), 3)
        scores.append(100000 - sum(scores))
        day = f"2024-{1 + (first_day + g) // 28:02d}-{1 + (first_day + g) % 28:02d}"
        lines += [f"s{seed}-{g},{day},{p},{s}" for p, s in zip(players, scores)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("system", ["tenhou", "openskill"])
def test_a_season_carried_on_equals_both_seasons_at_once(tmp_path, system):
    first, second = season(tmp_path / "s1.csv", 0, 30, 1), season(tmp_path / "s2.csv", 60, 25, 2)
    both = analyzer.score([second, first], ratings=system)  # the dates put the first season first
    one = analyzer.score(first, ratings=system)
    players_file = tmp_path / "players.parquet"
    one.players.write_parquet(players_file)
    carried = analyzer.score(second, ratings=system, ratings_from=players_file)
    assert_frame_equal(carried.ratings, both.ratings.filter(pl.col("game_id").str.starts_with("s2-")))
    columns = [c for c in carried.players.columns if c.startswith("rating") and "rank" not in c]
    # each player of the second season ends where the two seasons at once end (ranks: among other players)
    mine = carried.players.select("player", *columns).sort("player")
    theirs = both.players.select("player", *columns).join(
        mine.select("player"), on="player", how="semi").sort("player")
    assert_frame_equal(mine, theirs)


def test_a_players_table_of_another_system_is_refused(tmp_path):
    first = season(tmp_path / "s1.csv", 0, 5, 1)
    players = tmp_path / "players.parquet"
    analyzer.score(first).players.write_parquet(players)
    with pytest.raises(InputError, match="holds tenhou ratings, not openskill"):
        analyzer.score(first, ratings="openskill", ratings_from=players)
    analyzer.score(first, ratings="none").players.write_parquet(players)
    with pytest.raises(InputError, match="holds no ratings: give the players table of a run with --ratings tenhou"):
        analyzer.score(first, ratings_from=players)


def test_the_command_line_carries_a_season_on(tmp_path):
    first, second = season(tmp_path / "s1.csv", 0, 12, 1), season(tmp_path / "s2.csv", 30, 8, 2)
    runner = CliRunner()
    out1, out2, both = tmp_path / "o1", tmp_path / "o2", tmp_path / "both"
    assert runner.invoke(cli, ["score", first, "-o", str(out1), "--format", "csv"]).exit_code == 0
    result = runner.invoke(cli, ["score", second, "-o", str(out2), "--ratings-from", str(out1 / "players.csv")])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, ["score", first, second, "-o", str(both)]).exit_code == 0
    carried, whole = (pl.read_parquet(d / "players.parquet").select("player", "rating_4p", "rating_games_4p")
                      .sort("player") for d in (out2, both))
    assert_frame_equal(carried, whole.join(carried.select("player"), on="player", how="semi"))


def test_a_missing_or_unreadable_table_is_one_line(tmp_path):
    first = season(tmp_path / "s1.csv", 0, 3, 1)
    bad = tmp_path / "players.parquet"
    bad.write_text("not parquet")
    result = CliRunner().invoke(cli, ["score", first, "-o", str(tmp_path / "o"), "--ratings-from", str(bad)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert result.output.strip().count("\n") == 0 and "cannot read the earlier ratings" in result.output
