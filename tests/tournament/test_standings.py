"""Standings per kind of game (analyzer.tournament.standings): four-player hanchan, East-only and three-player games each
ranked on their own, --min-games, and the console and report tables that show them."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import analyzer
from analyzer.cli import main
from analyzer.jobs import score as score_job
from analyzer.report import build_report
from analyzer.tournament.standings import KINDS, game_kind, kind_seats, standings

SAMPLE = "sample_logs/csv"
SANMA = "tests/data/sanma_hand_worked.csv"
TONPUU = "sample_logs/tenhou/sample_tonpuu.json"
HANCHAN, EAST, THREE = "4-player hanchan", "4-player east-only", "3-player hanchan"
SAMPLE_RULES = "tenhou;west_extension=false"  # the bundled sample carries its rules


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> list[str]:
    """Six four-player hanchan (sample_logs/csv), two three-player hanchan (the sanma sheet), one East-only
    game (the Tenhou sample), and one hanchan of four newcomers (a copy of R1-T1 under new names)."""
    folder = tmp_path_factory.mktemp("mixed")
    east, problems = analyzer.read_tenhou([TONPUU])
    assert not problems
    east.write_parquet(folder / "east.parquet")
    copy = pl.read_csv(f"{SAMPLE}/round1.csv", infer_schema=False).filter(pl.col("game_id") == "R1-T1")
    seating = copy.row(0, named=True)
    new = {seating[f"player_{s}"]: f"N{s}" for s in range(4)}
    text = [c for c in ("player_0", "player_1", "player_2", "player_3", "winner", "loser", "riichi", "tenpai", "pao")
            if c in copy.columns]
    copy = copy.with_columns(pl.col(c).str.replace_many(list(new), list(new.values())) for c in text)
    copy.with_columns(pl.lit("NEW").alias("game_id")).write_csv(folder / "newcomers.csv")
    return [SAMPLE, SANMA, str(folder / "east.parquet"), str(folder / "newcomers.csv")]


@pytest.fixture(scope="module")
def result(mixed):
    return analyzer.score(mixed)


@pytest.mark.parametrize("spec, kind", [
    ("tenhou", HANCHAN), ("tenhou;game_length=east", EAST), ("tenhou_sanma", THREE),
    ("tenhou_sanma;game_length=east", "3-player east-only"), ("ema", HANCHAN), ("majsoul_sanma", THREE),
])
def test_the_kind_of_a_ruleset(spec, kind):
    rules = analyzer.load_rules(spec)
    assert game_kind(rules) == kind and kind_seats(kind) == rules.players


def test_the_games_table_says_each_games_kind(result):
    kinds = dict(result.games.group_by("rules").agg(pl.col("kind").unique()).iter_rows())
    assert kinds == {SAMPLE_RULES: [HANCHAN], "tenhou;game_length=east": [EAST], "tenhou_sanma": [THREE]}


def test_each_kind_is_ranked_on_its_own(result):
    table = result.standings
    assert table["kind"].unique(maintain_order=True).to_list() == [HANCHAN, EAST, THREE]  # KINDS order
    for kind, rows in table.group_by("kind", maintain_order=True):
        assert rows["rank"].to_list() == list(range(1, rows.height + 1)), kind
        seats = kind_seats(kind[0])
        # every game of the kind is counted once per seat; its points and places add up per game
        games = result.games.filter(pl.col("kind") == kind[0])
        assert rows["games"].sum() == games.height
        assert sum(rows[f"place_{p}"].sum() for p in range(1, 5)) == games.height
        assert rows["place_4"].sum() == (games.height // 4 if seats == 4 else 0)
    three = table.filter(kind=THREE)
    assert set(three["player"]) == {"A", "B", "C", "X", "Y", "Z"}
    # the one-game winners of the other kinds do not top the four-player hanchan
    assert table.filter(kind=HANCHAN)["player"][0] == "Brennan"


def test_a_kind_played_alone_ranks_as_the_players_table(result):
    alone = analyzer.score(SAMPLE)
    assert alone.standings["kind"].unique().to_list() == [HANCHAN]
    assert alone.standings.select("rank", "player", "games", "total_points").rows() == alone.players.select(
        "rank", "player", "games", "total_points").rows()
    mixed = result.standings.filter(pl.col("kind") == HANCHAN, pl.col("player").is_in(alone.players["player"].implode()))
    assert mixed.select("player", "total_points", "place_1").sort("player").rows() == alone.players.select(
        "player", "total_points", "place_1").sort("player").rows()


def test_the_library_function_reads_the_kind_from_the_rules_names(result):
    from_games = standings(result.games.drop("kind"), players=result.players)
    assert_frame_equal(from_games, result.standings)
    bare = standings(result.games)  # no players table: no hand statistics
    assert "win_rate" not in bare.columns
    with pytest.raises(ValueError, match="win_rate"):
        standings(result.games, rank_by=("win_rate",))


MIN_GAMES = [  # min_games, kind, ranked players (in order), unranked players (in order)
    (1, EAST, ["Aoi", "Chie", "Ben", "Dan"], []),
    (2, EAST, [], ["Aoi", "Chie", "Ben", "Dan"]),
    (2, HANCHAN, ["Brennan", "Ishikawa", "Lindqvist", "Kowalski", "Nakamura", "Tanaka", "Moreau", "Müller"],
     ["N2", "N0", "N3", "N1"]),
    # nobody ranked: all listed in the order of the ranking keys, as they would be ranked
    (4, HANCHAN, [], "as ranked"),
]


@pytest.mark.parametrize("min_games, kind, ranked, unranked", MIN_GAMES)
def test_min_games_lists_the_others_after_the_ranked_players_unranked(result, min_games, kind, ranked, unranked):
    table = standings(result.games, min_games=min_games).filter(kind=kind)
    if unranked == "as ranked":
        unranked = standings(result.games).filter(kind=kind)["player"].to_list()
    assert table["player"].to_list() == ranked + unranked
    assert table["rank"].to_list() == list(range(1, len(ranked) + 1)) + [None] * len(unranked)


def test_the_newcomers_game_stands_beside_the_regulars_without_min_games(result):
    hanchan = result.standings.filter(kind=HANCHAN)
    assert set(hanchan.filter(pl.col("games") == 1)["player"]) == {"N0", "N1", "N2", "N3"}
    assert hanchan.filter(player="N2")["rank"].item() < hanchan.filter(player="Müller")["rank"].item()


def test_partitions_and_merges_give_the_same_standings(mixed, result, monkeypatch):
    monkeypatch.setattr(score_job, "MERGE_PARTIALS_ROWS", 1)  # merge the partials at every combine
    assert_frame_equal(analyzer.score(mixed, partition_rows=15).standings, result.standings)


def test_score_to_keeps_the_standings(mixed, result, tmp_path):
    summary = analyzer.score_to(mixed, tmp_path / "out", min_games=2)
    assert_frame_equal(summary.standings, analyzer.score(mixed, min_games=2).standings)
    assert pl.read_parquet(tmp_path / "out" / "games.parquet")["kind"].n_unique() == 3


def test_the_console_shows_one_table_per_kind(mixed, tmp_path):
    out = CliRunner().invoke(main, ["score", *mixed, "-o", str(tmp_path / "o")]).output
    titles = [line for line in out.splitlines() if line.startswith("Standings")]
    assert titles == [f"Standings: {HANCHAN} (rules: {SAMPLE_RULES})",
                      f"Standings: {EAST} (rules: tenhou;game_length=east)",
                      f"Standings: {THREE} (rules: tenhou_sanma)"]
    three = out.split(titles[2])[1]
    assert "4th" not in three.splitlines()[1] and "win %" not in out  # hand statistics are over all kinds


TOP = [  # inputs, --top, the lines about the players left out
    ([SAMPLE], 20, []),
    ([SAMPLE], 8, []),
    ([SAMPLE], 3, ["… and 5 more (--top N to show more)"]),
    ("mixed", 4, ["… and 8 more (--top N to show more)", "… and 2 more (--top N to show more)"]),
]


@pytest.mark.parametrize("inputs, top, more", TOP)
def test_the_standings_say_how_many_players_are_not_shown(mixed, tmp_path, inputs, top, more):
    inputs = mixed if inputs == "mixed" else inputs
    out = CliRunner().invoke(main, ["score", *inputs, "-o", str(tmp_path / "o"), "--top", str(top)]).output
    assert [line for line in out.splitlines() if line.startswith("…")] == more


def test_min_games_on_the_command_line(mixed, tmp_path):
    out = CliRunner().invoke(main, ["score", *mixed, "-o", str(tmp_path / "o"), "--min-games", "2"]).output
    assert "– unranked: fewer games than --min-games" in out
    hanchan = out.split("Standings: 4-player east-only")[0]
    assert hanchan.index("Müller") < hanchan.index("N0")
    bad = CliRunner().invoke(main, ["score", SAMPLE, "-o", str(tmp_path / "p"), "--min-games", "0"])
    assert bad.exit_code == 2


def test_one_kind_keeps_the_console_table_of_before(tmp_path):
    out = CliRunner().invoke(main, ["score", SAMPLE, "-o", str(tmp_path / "o")]).output
    assert f"Standings (rules: {SAMPLE_RULES})" in out and "win %" in out and "deal-in %" in out and "…" not in out


def test_the_report_has_a_standings_table_per_kind(result, mixed, tmp_path):
    page = build_report(result)
    section = page.split('id="standings-h"')[1].split('id="players"')[0]
    assert section.count("<table") == 3 and 'id="standings"' not in section
    for kind in (HANCHAN, EAST, THREE):
        assert f"<h3>{kind}</h3>" in section
    three = section.split(f"<h3>{THREE}</h3>")[1]
    assert "4th %" not in three and "win %" not in section
    out = CliRunner().invoke(main, ["report", *mixed, "-o", str(tmp_path / "r.html"), "--min-games", "2"])
    assert out.exit_code == 0, out.output
    assert "– unranked" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_kinds_cover_both_player_counts_and_lengths():
    assert set(KINDS) == {(p, length) for p in (3, 4) for length in ("hanchan", "east")}
