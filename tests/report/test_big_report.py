"""The report of a big input stays a page people open: past its limits it has sections for the top players and
a chosen set of games, says what it leaves out and which options widen it, links only to sections it has, and
draws long charts through a bounded number of points; it is built from lazy scans of a run's files; it says
where rows were recorded (paths on this machine) only when asked."""

from __future__ import annotations

import math
import re
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.api import score_to, written_tables
from analyzer.report import ReportOptions, build_report
from analyzer.report.issues import issues
from analyzer.report.markup import anchor
from analyzer.report.svg import CHART_POINTS, TOOLTIP_POINTS, kept_positions, line_chart
from benchmarks.gamegen import generate

DATA = Path(__file__).parents[1] / "data" / "stats_game.csv"
EVERYTHING = ReportOptions(max_players=None, max_games=None, max_standings=None)


@pytest.fixture(scope="module")
def rows() -> pl.DataFrame:
    return generate(900, seed=3, players=40)


@pytest.fixture(scope="module")
def result(rows):
    return analyzer.score(rows, "tenhou")


def sections(page: str, kind: str) -> list[str]:
    return re.findall(rf'<section class="{kind}" id="([^"]+)"', page)


def standings_rows(page: str) -> int:
    return page.split('id="standings"')[1].split("</table>")[0].count("<tr>") - 1


def test_past_the_limits_the_top_players_have_sections_and_everyone_is_in_the_standings(result):
    page = build_report(result, options=ReportOptions(max_players=3, max_games=12))
    top = result.players.sort("rank")["player"].head(3)
    assert sections(page, "player") == [anchor("player", p) for p in top]
    assert len(sections(page, "game")) == 12 < result.games["game_id"].n_unique()
    assert standings_rows(page) == result.players.height


def test_the_games_shown_are_those_the_page_refers_to_first_in_input_order(result):
    page = build_report(result, options=ReportOptions(max_players=3, max_games=12))
    top = result.players.sort("rank").head(3)
    referred = set(top["best_win_game"].drop_nulls()) | set(top["worst_deal_in_game"].drop_nulls())
    shown = sections(page, "game")
    assert {anchor("game", g) for g in referred} <= set(shown)
    order = [anchor("game", g) for g in result.games["game_id"].unique(maintain_order=True)]
    assert shown == [g for g in order if g in shown]


def test_every_link_of_a_limited_page_has_its_section_and_other_names_are_text(result):
    page = build_report(result, options=ReportOptions(max_players=3, max_games=5))
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert targets and targets <= set(re.findall(r' id="([^"]+)"', page))
    assert 'class="unlisted"' in page  # a player or game named without a section of its own


def test_the_page_says_what_it_leaves_out_and_the_options_that_widen_it(result):
    games = result.games["game_id"].n_unique()
    page = build_report(result, options=ReportOptions(max_players=3, max_games=5))
    assert (f"this page has sections for 3 of 40 players (--max-players N or all widens it) and 5 of {games} "
            "games (--max-games N or all widens it)") in page
    players = page.split('id="players"')[1].split("</p>")[0]
    assert "Sections for the top 3 of 40 players by rank" in players
    assert "--max-players N (or --max-players all) shows more" in players
    assert f"Sections for 5 of {games} games" in page.split('id="games"')[1].split("</p>")[0]


def test_without_limits_and_within_the_defaults_everything_has_a_section(result):
    games = result.games["game_id"].n_unique()
    for options in (EVERYTHING, ReportOptions()):  # the defaults: 200 players, 2,000 games
        page = build_report(result, options=options)
        assert len(sections(page, "player")) == result.players.height
        assert len(sections(page, "game")) == games
        assert "summarised" not in page and "unlisted" not in page


def test_the_standings_past_max_standings(result):
    page = build_report(result, options=ReportOptions(max_standings=7))
    assert standings_rows(page) == 7
    assert "The top 7 of 40 players. --max-standings N (or --max-standings all) shows more." in page


def test_no_sections_at_all(result):
    page = build_report(result, options=ReportOptions(max_players=0, max_games=0))
    assert sections(page, "player") == sections(page, "game") == []
    assert standings_rows(page) == result.players.height
    assert not re.search(r'href="#(player|game)-', page)


def test_the_lists_show_their_first_rows_and_count_the_rest():
    hands = pl.LazyFrame({"game_id": [f"g{i}" for i in range(5)], "round": ["E1"] * 5, "honba": [0] * 5,
                          "problems": [["honba_mismatch"]] * 4 + [[]], "source_file": ["a.csv"] * 5,
                          "source_row": list(range(5))})
    rejects = pl.LazyFrame({"file": ["a.csv"] * 3, "row": [7, 8, 9], "game_id": ["g9"] * 3, "column": ["han"] * 3,
                            "value": ["x"] * 3, "reason": ["not a number"] * 3})
    html = issues(hands, rejects, listed=2)
    assert "Problems (4)" in html and "… and 2 more (the hands table's problems column lists them all)" in html
    assert "Rejected rows (3 reasons)" in html and "… and 1 more (the rejects table lists them all)" in html
    assert html.count("<tr>") == 2 + 2 + 2  # a header and two rows each
    assert "a.csv" not in html and "a.csv" in issues(hands, rejects, listed=2, sources=True)


def test_a_line_over_many_games_goes_through_a_bounded_number_of_points():
    values = [100 * math.sin(i / 40) for i in range(5000)]
    values[1234], values[4321] = 1000.0, -1000.0
    kept = kept_positions([values])
    assert len(kept) <= CHART_POINTS + 2 and {0, 1234, 4321, 4999} <= set(kept)
    svg = line_chart({"p": values}, point_titles=lambda i: f"game {i}")
    points = re.search(r'points="([^"]*)"', svg).group(1).split()
    assert len(points) <= CHART_POINTS + TOOLTIP_POINTS + 2
    tips = re.findall(r"<circle [^>]*><title>([^<]*)</title>", svg)
    assert 2 <= len(tips) <= TOOLTIP_POINTS + 2 and tips[0] == "game 0" and tips[-1] == "game 4999"
    assert len(svg) < 20_000
    short = line_chart({"p": [1, 2, 3]}, point_titles=["a", "b", "c"])
    assert re.findall(r"<title>([^<]*)</title></circle>", short) == ["a", "b", "c"]


def test_where_rows_were_recorded_is_left_out_unless_asked(tmp_path):
    source = tmp_path / "club" / "hands.csv"
    source.parent.mkdir()
    pl.read_csv(DATA, infer_schema=False).with_columns(
        pl.when(pl.col("round") == "E3").then(pl.lit("X9")).otherwise(pl.col("round")).alias("round")
    ).write_csv(source)
    result = analyzer.score(str(source), "tenhou")
    assert result.rejects.height and result.games.height  # a rejected row, and games to show
    published = build_report(result)
    assert str(tmp_path) not in published and "hands.csv" not in published and "Recorded in" not in published
    local = build_report(result, options=ReportOptions(sources=True))
    assert f"Recorded in {source}" in local and f"{source}:" in local


def test_the_title_is_the_heading_escaped():
    result = analyzer.score(str(DATA), "tenhou")
    page = build_report(result, options=ReportOptions(title="Spring <league> & co"))
    assert "<title>Spring &lt;league&gt; &amp; co</title>" in page and "<h1>Spring &lt;league&gt; &amp; co</h1>" in page
    assert "analyzer report" not in page


def test_the_page_of_a_written_run_is_built_from_lazy_scans_and_reads_as_in_memory(rows, tmp_path):
    source = tmp_path / "hands.parquet"
    rows.write_parquet(source)
    options = ReportOptions(max_players=4, max_games=6, title="League")
    summary = score_to(str(source), tmp_path / "out", rules="tenhou", report=tmp_path / "report.html",
                       report_options=options)
    tables = written_tables(summary)
    assert all(isinstance(frame, pl.LazyFrame) for frame in (tables.hands, tables.games, tables.rejects))
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert len(sections(page, "player")) == 4 and len(sections(page, "game")) == 6 and "<h1>League</h1>" in page
    checked = analyzer.check(str(source), "tenhou")  # a report's run checks too: its findings on the page
    assert page == build_report(checked.scored, findings=checked.findings, options=options)
