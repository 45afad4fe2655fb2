"""The HTML report: what the page holds, escaping, and that it needs nothing from the network."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.report import build_report
from analyzer.report.viewer import tenhou_url
from analyzer.report.glossary import DERIVED, figures
from analyzer.report.markup import anchor
from analyzer.report.svg import bar_chart, line_chart

DATA = Path(__file__).parents[1] / "data" / "stats_game.csv"
EVIL = '<script>alert("x")</script>&Co'


@pytest.fixture(scope="module")
def result():
    rows = pl.read_csv(DATA, infer_schema=False).with_columns(
        pl.col(c).str.replace("Baba", EVIL, literal=True) for c in ("player_1", "winner", "loser", "riichi", "tenpai")
    )
    return analyzer.score(rows, "tenhou")


@pytest.fixture(scope="module")
def page(result):
    return build_report(result)


def test_standings_have_a_row_per_player(page, result):
    standings = page.split('id="standings"')[1].split("</table>")[0]
    assert standings.count("<tr>") == result.players.height + 1  # header row


def test_a_section_with_two_charts_per_player_and_one_chart_per_game(page, result):
    assert page.count('<section class="player"') == result.players.height
    assert page.count('<section class="game"') == result.games["game_id"].n_unique()
    assert page.count('class="chart bar"') == result.players.height
    assert page.count('class="chart line"') == result.players.height + result.games["game_id"].n_unique()


def test_names_are_escaped_everywhere(page):
    assert EVIL not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;Co" in page
    assert page.count("<script>") == 1  # the page's own sorting script only


def test_nothing_is_loaded_from_elsewhere(page):
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert re.findall(r"https?://[^\"' ]+", page) == ["http://www.w3.org/2000/svg"] * page.count("<svg")


def test_best_hands_link_to_their_games(page):
    assert f'Best hand: 11,600 points in <a href="#{anchor("game", "g1")}">g1</a> E4-0' in page


def test_player_filter_keeps_only_their_rows_and_games(result):
    page = build_report(result, players=["Doi"])
    assert page.count('<section class="player"') == 1 and 'id="player-Doi"' in page
    assert page.count('<section class="game"') == 2  # Doi played both games


def test_problems_and_rejects_link_to_their_games():
    rows = pl.read_csv(DATA, infer_schema=False).with_columns(
        pl.when(pl.col("round") == "E3").then(pl.lit("X9")).otherwise(pl.col("round")).alias("round")
    )
    page = build_report(analyzer.score(rows, "tenhou"))
    issues = page.split('id="issues"')[1]
    assert "Rejected rows" in issues and f'href="#{anchor("game", "g1")}"' in issues and "X9" in issues


def test_anchor_ids_are_safe_and_distinct():
    assert anchor("game", "a b") != anchor("game", "a_b")
    assert re.fullmatch(r"[A-Za-z0-9_-]+", anchor("player", EVIL))


def test_charts_escape_labels_and_scale_to_the_data():
    svg = bar_chart(["<1>", "2"], [3, 0], title="a&b")
    assert "&lt;1&gt;" in svg and "a&amp;b" in svg and 'height="0"' in svg
    line = line_chart({"p": [0, 10, -10]}, title="t", baseline=0)
    assert 'stroke-dasharray' in line and ">10<" in line and ">-10<" in line


def test_incomplete_games_are_marked(result):
    short = analyzer.score(pl.read_csv(DATA, infer_schema=False).filter(pl.col("game_id") == "g2"), "tenhou")
    page = build_report(short)
    assert "incomplete" in page.split('id="games"')[1]


def test_every_figure_has_a_definition_consistent_with_the_glossary(result):
    glossary = (Path(__file__).parents[2] / "docs" / "statistics.md").read_text(encoding="utf-8")
    table = glossary.split("## Glossary")[1].split("## Ranking keys")[0]
    named = set(re.findall(r"`([a-z_0-9.]+)`", table))
    named |= {n.replace("1..4", str(p)) for n in named if "1..4" in n for p in range(1, 5)}
    seen = set()
    for label, column, _, definition in figures():
        assert definition.endswith(".") and len(definition) > 10, label
        for source in DERIVED.get(column, (column,)):
            assert source in named, f"{column} is not in docs/statistics.md"
            assert source in result.players.columns
        assert column not in seen
        seen.add(column)


def test_a_tenhou_log_id_links_to_the_viewer_and_nothing_is_loaded(result):
    rows = pl.read_csv(DATA, infer_schema=False).with_columns(
        pl.col("game_id").replace({"g1": "2019010100gm-00a9-0000-4f2a8622"}))
    page = build_report(analyzer.score(rows, "tenhou"))
    assert page.count('href="https://tenhou.net/0/?log=2019010100gm-00a9-0000-4f2a8622"') == 1
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert tenhou_url("g2") is None and tenhou_url("2019010100gm-00a9-0000-4f2a8622&tw=2") is None
