"""The report as a person reads it, in headless chromium: hands with names, han/fu and yaku; best hands with
theirs; Tenhou ids linked to the viewer; the figures grouped with definitions on hover; labelled chart axes;
a header that counts what is shown; incomplete games with the reason. Asserts on the page's text, link
targets and ``title`` attributes as the browser has them (``--dump-dom`` of a page that writes what it saw).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.report import build_report

ROOT = Path(__file__).parents[2]
DATA = ROOT / "tests" / "data" / "stats_game.csv"
SAMPLE = ROOT / "sample_logs" / "csv"
TENHOU_ID = "2019010100gm-00a9-0000-4f2a8622"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium)")

LAST = """<script>(function(){
function all(q, f){return Array.prototype.map.call(document.querySelectorAll(q), f)}
function text(e){return e.textContent.replace(/\\s+/g,' ').trim()}
var seen={};
seen.lead=text(document.querySelector('p.lead'));
seen.lead_links=all('p.lead a', function(a){return a.getAttribute('href')});
seen.hands=all('section.game ol.hands li', text);
seen.games=all('section.game h3', text);
seen.viewer=all('section.game a.viewer', function(a){return [a.closest('section').id, a.href]});
seen.why=all('section.game p.why', function(p){return [p.closest('section').id, text(p)]});
seen.incomplete=all('#incomplete + p + table tbody tr', function(r){
  return [r.cells[0].querySelector('a').getAttribute('href'), text(r.cells[1])]});
seen.players=all('section.player', function(s){return {
  name: s.querySelector('h3').firstChild.textContent.trim(),
  groups: Array.prototype.map.call(s.querySelectorAll('.stats .group'), function(g){return {
    name: text(g.querySelector('h4')),
    figures: Array.prototype.map.call(g.querySelectorAll('.stat'), function(d){
      return [text(d.querySelector('span')), d.getAttribute('title')]})}}),
  notes: text(s.querySelector('p.hands-of')),
  note_links: Array.prototype.map.call(s.querySelectorAll('p.hands-of a'), function(a){return a.getAttribute('href')}),
  visible: s.querySelector('.stats').getBoundingClientRect().height > 50}});
seen.charts=all('svg.chart', function(svg){return {
  axis: Array.prototype.map.call(svg.querySelectorAll('text.axis-title'), text),
  ticks: svg.querySelectorAll('text.tick').length}});
var pre=document.createElement('pre');pre.id='harness';pre.textContent=JSON.stringify(seen);
document.body.appendChild(pre);})();</script>"""


def seen_in_browser(page: str, tmp_path: Path) -> dict:
    path = tmp_path / "report.html"
    path.write_text(page.replace("</body>", LAST + "</body>", 1), encoding="utf-8")
    run = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000", "--dump-dom",
         path.as_uri()], capture_output=True, text=True, timeout=120,
    )
    match = re.search(r'<pre id="harness">(.*?)</pre>', run.stdout, re.S)
    assert match, f"no harness output; chromium said: {run.stderr[-2000:]}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                      .replace("&amp;", "&"))


@pytest.fixture(scope="module")
def tenhou():
    """The Tenhou sample as imported, its game given a Tenhou log id."""
    hands, problems = analyzer.read_tenhou([str(ROOT / "sample_logs" / "tenhou" / "sample_tonpuu.json")])
    assert problems == []
    return analyzer.score(hands.with_columns(pl.lit(TENHOU_ID).alias("game_id")))


@pytest.fixture(scope="module")
def tenhou_seen(tenhou, tmp_path_factory):
    return seen_in_browser(build_report(tenhou), tmp_path_factory.mktemp("tenhou"))


def test_hands_read_with_names_value_and_yaku(tenhou_seen):
    assert tenhou_seen["hands"] == [
        "E1-0 ron: Ben from Aoi, 1 han 40 fu, 1,300 — Tanyao (断幺九)",
        "E2-0 tsumo: Chie, 2 han 30 fu, 2,000 — Riichi (立直), Menzen tsumo (門前清自摸和)",
        "E3-0 draw: tenpai Aoi",
        "E4-1 ron: Aoi from Dan, 5 han, mangan, 8,000 — Pinfu (平和), Tanyao (断幺九), Aka dora (赤ドラ) 3",
    ]


def test_a_han_fu_sheet_shows_han_and_fu_only(tmp_path):
    seen = seen_in_browser(build_report(analyzer.score(str(SAMPLE))), tmp_path)
    assert "E1-0 ron: Ishikawa from Moreau, 2 han 40 fu, 2,600" in seen["hands"]
    assert "S1-1 ron: Moreau from Lindqvist, 5 han, mangan, 8,000" in seen["hands"]
    assert "E3-1 chombo: Moreau" in seen["hands"] and "S1-0 draw: tenpai Tanaka, Moreau" in seen["hands"]
    assert not any("—" in h for h in seen["hands"])  # no yaku recorded
    assert not seen["viewer"]  # R1-T1 … are no Tenhou log ids
    brennan = next(p for p in seen["players"] if p["name"] == "Brennan")
    assert "Best hand: 32,000 points in R1-T2 S2-0: tsumo, yakuman" in brennan["notes"]


def test_best_hand_and_biggest_deal_in_with_their_yaku_and_game(tenhou_seen):
    aoi = next(p for p in tenhou_seen["players"] if p["name"] == "Aoi")
    assert (f"Best hand: 8,000 points in {TENHOU_ID} E4-1: ron from Dan, 5 han, mangan — Pinfu (平和), "
            "Tanyao (断幺九), Aka dora (赤ドラ) 3") in aoi["notes"]
    worst = f"Biggest deal-in: 1,300 points in {TENHOU_ID} E1-0: to Ben, 1 han 40 fu — Tanyao (断幺九)"
    assert worst in aoi["notes"]
    assert aoi["note_links"] == [f"#game-{TENHOU_ID}"] * 2


def test_tenhou_log_ids_link_to_the_viewer(tenhou_seen):
    assert tenhou_seen["viewer"] == [[f"game-{TENHOU_ID}", f"https://tenhou.net/0/?log={TENHOU_ID}"]]


def test_figures_are_grouped_and_each_has_its_definition(tenhou_seen):
    for player in tenhou_seen["players"]:
        assert [g["name"] for g in player["groups"]] == ["results", "wins", "deal-ins", "riichi", "calls", "draws",
                                                         "dealer"]
        figures = [f for g in player["groups"] for f in g["figures"]]
        assert all(title and len(title) > 10 for _, title in figures), figures
        results = [label for label, _ in player["groups"][0]["figures"]]
        places = [results.index(f"avg final score, {p}") for p in ("1st", "2nd", "3rd", "4th")]
        assert places == list(range(places[0], places[0] + 4))  # side by side, not scattered
        assert player["visible"]
    titles = dict(f for g in tenhou_seen["players"][0]["groups"] for f in g["figures"])
    assert titles["win rate"] == "Wins (paid ron or tsumo) / hands."


def test_charts_label_both_axes(tenhou_seen):
    axes = [c["axis"] for c in tenhou_seen["charts"]]
    assert axes.count(["place", "games"]) == 4
    assert axes.count(["games played", "game points (total)"]) == 4
    assert axes.count(["hand (round-honba)", "score (points)"]) == 1
    assert all(c["ticks"] >= 5 for c in tenhou_seen["charts"])  # x labels and y ticks


def test_the_header_counts_what_a_player_filter_shows(tmp_path):
    result = analyzer.score(str(SAMPLE))
    seen = seen_in_browser(build_report(result, players=["Brennan"]), tmp_path)
    theirs = result.games.filter(pl.col("player") == "Brennan")["game_id"].unique()
    rows = result.hands.filter(pl.col("game_id").is_in(theirs.implode())).height
    assert seen["lead"].startswith(f"Showing Brennan: {theirs.len()} of 6 game(s), {rows} hand row(s), "
                                   "1 of 8 player(s), 0 rejected row(s)")
    assert len(seen["games"]) == theirs.len() and len(seen["players"]) == 1


def test_incomplete_games_say_why_and_the_header_links_to_them(tmp_path):
    rows = pl.read_csv(DATA, infer_schema=False)
    fragment = rows.filter((pl.col("game_id") == "g2") & (pl.col("round") != "E1")).with_columns(
        pl.lit("frag").alias("game_id"))
    rejected = rows.filter(pl.col("game_id") == "g1").with_columns(
        pl.lit("rej").alias("game_id"),
        pl.when(pl.col("round") == "E3").then(pl.lit("X9")).otherwise(pl.col("round")).alias("round"))
    cut = rows.filter(pl.col("game_id") == "g1").head(3).with_columns(pl.lit("cut").alias("game_id"))
    result = analyzer.score(pl.concat([rows, fragment, rejected, cut]), "tenhou")
    seen = seen_in_browser(build_report(result), tmp_path)
    assert "#incomplete" in seen["lead_links"] and re.search(r"\d+ incomplete game\(s\)", seen["lead"])
    why = dict(seen["incomplete"])
    assert why["#game-frag"].startswith("a fragment: it starts at E")
    assert "rows rejected" in why["#game-rej"]
    assert why["#game-cut"].startswith("it does not end where its rules (tenhou) end a game")
    assert "its last recorded hand: E2-1" in why["#game-cut"]
    assert dict(seen["why"])["game-frag"].startswith("Incomplete: a fragment")
    complete = result.games.filter(pl.col("complete"))["game_id"].unique().to_list()
    assert not set(f"#game-{g}" for g in complete) & set(why)


def test_the_header_counts_the_days_a_date_bound_keeps(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    rows = pl.read_csv(DATA, infer_schema=False).with_columns(
        pl.col("game_id").replace({"g1": "2019010100gm-00a9-0000-4f2a8622", "g2": "2019010312gm-00a9-0000-5e3b9733"}))
    source = tmp_path / "hands.csv"
    rows.write_csv(source)
    page = tmp_path / "report.html"
    run = CliRunner().invoke(main, ["report", str(source), "-o", str(page), "--rules", "tenhou",
                                    "--since", "2019-01-02"])
    assert run.exit_code == 0, run.output
    seen = seen_in_browser(page.read_text(encoding="utf-8"), tmp_path)
    g2 = rows.filter(pl.col("game_id").str.starts_with("20190103"))
    assert seen["lead"].startswith(f"1 game(s), {g2.height} hand row(s), 4 player(s), 0 rejected row(s); "
                                   "played 2019-01-03")
    assert seen["viewer"] == [["game-2019010312gm-00a9-0000-5e3b9733",
                               "https://tenhou.net/0/?log=2019010312gm-00a9-0000-5e3b9733"]]
