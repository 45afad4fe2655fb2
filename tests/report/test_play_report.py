"""The report's play parts: the table's shanten by turn and each player's play block, on the shared real logs'
events and a players table with play statistics (tests/report/play_runs.py), against plain readings of the
events one at a time; a score sheet's page stays as it was."""

from __future__ import annotations

import re
from dataclasses import replace
from html import escape
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.io.errors import InputError
from analyzer.report import build_report
from analyzer.report.glossary import PLAY_GROUPS, play_columns
from analyzer.report.markup import anchor, fmt_value
from analyzer.report.play import BANDS, FROM_EVENTS, MIN_SEATS, deal_ins_by_shanten, has_play, shanten_by_turn
from analyzer.report.svg import stacked_shares
from tests.report.play_runs import real_events, shared_run  # noqa: F401  (fixtures)

ROOT = Path(__file__).parents[2]
DATA = ROOT / "tests" / "data" / "stats_game.csv"


def plain_by_turn(events: pl.DataFrame) -> dict[int, list[int]]:
    """Discards with a shanten, counted by turn and band (4 and more together), one row at a time."""
    counts: dict[int, list[int]] = {}
    for row in events.filter(pl.col("event") == "discard").iter_rows(named=True):
        if row["shanten"] is not None:
            counts.setdefault(row["turn"], [0] * len(BANDS))[min(row["shanten"], 4)] += 1
    return counts


def plain_deal_ins(events: pl.DataFrame) -> dict[str, list[int]]:
    """Each hand's events in order: at the first ron row, the shanten after the last discard or added kan."""
    counts: dict[str, list[int]] = {}
    for _, hand in events.group_by(["game_id", "log_row"]):
        last = None
        for row in hand.sort("seq").iter_rows(named=True):
            if row["event"] in ("discard", "kakan"):
                last = row
            elif row["event"] == "ron":
                assert last["seat"] == row["from_seat"]
                counts.setdefault(last["player"], [0] * 4)[min(last["shanten"], 3)] += 1
                break
    return counts


def shares_tips(page: str) -> list[tuple[str, str, int, int]]:
    """(turn, band, count, total) of every piece of the shanten-by-turn chart."""
    chart = page.split('class="chart shares"')[1].split("</svg>")[0]
    return [(t, b, int(n.replace(",", "")), int(m.replace(",", ""))) for t, b, n, m in
            re.findall(r"<title>turn (\d+): (.+?) [\d.]+% \(([\d,]+) of ([\d,]+)\)</title>", chart)]


@pytest.fixture(scope="module")
def page(shared_run):
    result, events = shared_run
    return build_report(result, events=events.lazy())


def test_shanten_by_turn_counts_every_discard_once(real_events):
    by_turn = shanten_by_turn(real_events.lazy())
    plain = plain_by_turn(real_events)
    assert {(t, b): n for t, b, n, _ in by_turn.iter_rows()} == {
        (t, b): n for t, row in plain.items() for b, n in enumerate(row) if n}
    assert by_turn["seats"].sum() == real_events.filter(pl.col("event") == "discard").height
    exact = real_events.filter(pl.col("event") == "discard").group_by("turn").agg(pl.col("shanten").sum())
    assert dict(exact.iter_rows()) == dict(by_turn.group_by("turn").agg(pl.col("shanten_sum").sum()).iter_rows())


def test_deal_ins_by_shanten_as_the_events_read_one_at_a_time(real_events):
    players = real_events["player"].drop_nulls().unique().to_list()
    counts = deal_ins_by_shanten(real_events.lazy(), players)
    assert counts == plain_deal_ins(real_events)
    assert sum(map(sum, counts.values())) > 50  # the shared logs have deal-ins at every shanten band
    assert all(sum(c[band] for c in counts.values()) for band in range(4))


def test_the_play_section_draws_every_turn_with_enough_discards(page, real_events, shared_run):
    result, _ = shared_run
    plain = plain_by_turn(real_events.filter(pl.col("game_id").is_in(result.games["game_id"].implode())))
    busiest = max(map(sum, plain.values()))
    kept = {t for t, row in plain.items() if sum(row) >= max(MIN_SEATS, busiest / 100)}
    tips = shares_tips(page)
    assert {int(t) for t, *_ in tips} == kept and len(tips) == len(kept) * len(BANDS)
    assert all(n == plain[int(t)][BANDS.index(b)] and m == sum(plain[int(t)]) for t, b, n, m in tips)
    left_out = sorted(set(plain) - kept)
    assert left_out, "the shared logs have turns that few seats reach"
    section = page.split('<h2 id="play">')[1].split("<h2")[0]
    assert left_out == list(range(left_out[0], left_out[-1] + 1))  # the last turns
    assert f"Turns {left_out[0]}–{left_out[-1]} (" in section
    assert f"{sum(map(sum, plain.values())):,} discards" in section
    assert section.count('class="chart line"') == 1 and page.count('href="#play"') == 1
    assert page.index('id="play"') < page.index('id="players"')


def test_a_play_block_for_every_player_with_play_statistics(page, shared_run):
    result, events = shared_run
    assert has_play(result.players)
    sections = page.split('<section class="player"')[1:]
    assert len(sections) == result.players.height
    assert all('<div class="play">' in s for s in sections)
    deal_ins = plain_deal_ins(events)
    for row in result.players.iter_rows(named=True):
        section = next(s for s in sections if f'id="{anchor("player", row["player"])}"' in s)
        dealt = deal_ins.get(row["player"])
        assert ('class="deal-in-shanten"><svg' in section) == bool(dealt), row["player"]
        if dealt:  # the bars' values, tenpai first
            bars = re.findall(r"<rect [^>]*><title>(tenpai|1|2|3\+): (\d+)</title>",
                              section.split('class="deal-in-shanten"')[1])
            assert [int(n) for _, n in bars] == dealt
        block = section.split('<div class="play">')[1]
        for label, column, fmt, _ in (figure for _, group in PLAY_GROUPS for figure in group):
            # every figure, from its column; one the table does not have (yet) a dash
            assert f"<span>{escape(label)}</span><b>{escape(fmt_value(row.get(column), fmt))}</b>" in block
        if row["riichi_first_rate"] is not None:
            assert f'<span>first riichi</span><b>{100 * row["riichi_first_rate"]:.1f}%</b>' in block


def test_a_player_without_events_has_no_play_block(shared_run):
    result, events = shared_run
    first = result.players["player"][0]
    nulled = result.players.with_columns(
        pl.when(pl.col("player") == first).then(None).otherwise(pl.col(c)).alias(c)
        for c in FROM_EVENTS if c in result.players.columns)
    page = build_report(replace(result, players=nulled), events=events.lazy())
    sections = page.split('<section class="player"')[1:]
    assert sum('<div class="play">' in s for s in sections) == len(sections) - 1
    assert '<div class="play">' not in next(s for s in sections if f'id="{anchor("player", first)}"' in s)


def test_a_score_sheet_page_stays_as_it_was():
    result = analyzer.score(pl.read_csv(DATA, infer_schema=False), "tenhou")
    page = build_report(result)
    assert 'id="play"' not in page and 'class="play"' not in page and "chart shares" not in page
    nulls = result.players.with_columns(pl.lit(None, pl.Float64).alias(c) for c in play_columns()
                                        if c not in result.players.columns)
    assert not has_play(nulls)
    assert build_report(replace(result, players=nulls)) == page


def test_events_by_path_by_the_result_or_as_a_frame_give_the_same_page(page, shared_run, tmp_path):
    result, events = shared_run
    path = tmp_path / "events.parquet"
    events.write_parquet(path)
    assert build_report(result, events=path) == page == build_report(result, events=str(path))
    halves = [tmp_path / "a.parquet", tmp_path / "b.parquet"]  # the events of a run in two files
    cut = events["game_id"].unique().sort()[events["game_id"].n_unique() // 2]
    events.filter(pl.col("game_id") < cut).write_parquet(halves[0])
    events.filter(pl.col("game_id") >= cut).write_parquet(halves[1])
    assert build_report(result, events=halves) == page
    assert build_report(result, events=[*halves, path]) == page  # a game in two files counted once
    carried = replace(result)
    carried.events = events  # a result that carries its run's events
    assert build_report(carried) == page


def test_events_that_cannot_be_read_are_one_clear_error(shared_run, tmp_path):
    result, events = shared_run
    with pytest.raises(InputError, match="no such file"):
        build_report(result, events=tmp_path / "missing.parquet")
    broken = tmp_path / "broken.parquet"
    broken.write_text("not parquet")
    with pytest.raises(InputError, match="broken.parquet: not an events table that can be read"):
        build_report(result, events=broken)
    with pytest.raises(InputError, match="no shanten column"):
        build_report(result, events=events.drop("shanten"))


def test_a_player_page_has_the_shanten_of_their_games_only(shared_run):
    result, events = shared_run
    player = result.players.sort("games", descending=True)["player"][0]
    page = build_report(result, players=[player], events=events.lazy())
    theirs = result.games.filter(pl.col("player") == player)["game_id"].unique()
    discards = events.filter(pl.col("game_id").is_in(theirs.implode()), pl.col("event") == "discard").height
    assert f"from the events of {theirs.len():,} game(s): {discards:,} discards" in page
    assert page.count('<div class="play">') == 1


def test_the_play_figures_are_defined_once_each():
    columns = play_columns()
    assert len(columns) == len(set(columns))
    for group, figures in PLAY_GROUPS:
        for label, column, fmt, definition in figures:
            assert definition.endswith(".") and len(definition) > 10, label
            assert fmt in ("%", None) or "{:" in fmt


def test_the_play_figures_are_in_the_glossary_once_it_has_them():
    text = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_0-9.]+)`", text))
    named |= {n.replace("0..3", str(s)) for n in named if "0..3" in n for s in range(4)}
    if "riichi_first_rate" not in named:
        pytest.skip("docs/statistics.md does not list the play statistics yet")
    assert [c for c in play_columns() if c not in named] == []


def test_stacked_shares_fill_each_column_and_escape_labels():
    svg = stacked_shares(["<1>", "2"], {"a&b": [1, 0], "c": [3, 0]}, title="t<", x_title="turn")
    assert "&lt;1&gt;" in svg and "a&amp;b" in svg and "t&lt;" in svg
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', svg)]
    assert sum(heights[:2]) == pytest.approx(230 - 10 - 36, abs=0.2) and heights[2:] == [0, 0]
    assert "(1 of 4)" in svg and "(3 of 4)" in svg and "(0 of 0)" in svg
