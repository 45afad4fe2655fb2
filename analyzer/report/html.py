"""The report page: standings (sortable), a section per player, a section per game, problems and rejects.

Everything a reader sees comes from the scored tables; every name and value is escaped. The page needs no
network: styles, SVG charts and the few lines of sorting script are inline (a Tenhou log id links to the
tenhou.net viewer, which only a click opens). Building it loops over the players and games shown to emit markup
(output, not per-hand work); the numbers and the hand lines come from Polars frames (:mod:`.hands`), the
figures of a player and their definitions from :mod:`.glossary`, why a game is incomplete from :mod:`.games`,
the table's shanten by turn and each player's play block from the events (:mod:`.play`), when given.

The tables may be lazy scans of a run's files (:func:`analyzer.api.written_tables`): only the rows of the games
and players shown are collected (:mod:`.tables`). Past the page's limits (:mod:`.options`) it has the top
players' sections and a chosen set of games' sections, and says how many more there are.
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from pathlib import Path

import polars as pl

from analyzer.game.problems import has_problems, problem_lists
from analyzer.io.write import write_atomic
from analyzer.report.games import game_section, hand_lines, incomplete_reasons
from analyzer.report.glossary import derived_columns
from analyzer.report.hands import described, hand_notes
from analyzer.report.issues import incomplete_list, issues
from analyzer.report.markup import Sections
from analyzer.report.options import LISTED, ReportOptions, limited, more_text
from analyzer.report.play import (
    Events, deal_ins_by_shanten, events_table, has_play, play_block, shanten_by_turn, table_section,
)
from analyzer.report.players import player_section
from analyzer.report.ratings import platform_charts, rating_charts, system_of
from analyzer.report.standings_table import standings_tables
from analyzer.report.tables import (
    chosen_games, columns, count, days_played, game_order, incomplete_ids, lazy, of_games, of_players, rejected_rows,
)
from analyzer.report.tournament import is_tournament, tournament_sections
from analyzer.tournament.standings import standings

STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1.5em;color:#222;background:#fff}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #2b6cb0;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;font-size:.88em;margin:.5em 0 1.2em}
th,td{border:1px solid #d5d5d5;padding:.2em .5em;text-align:right;font-variant-numeric:tabular-nums}
th{background:#edf2f7;cursor:pointer;user-select:none;white-space:nowrap}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.t,th.t{text-align:left}tr:nth-child(even) td{background:#f7fafc}
.lead{color:#555}.warn{color:#c05621;font-weight:600}
.player,.game{border:1px solid #e2e8f0;border-radius:6px;padding:.6em 1em;margin:1em 0}
.charts{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:.6em 1.2em;font-size:.88em}
.stats .group{border-top:2px solid #cbd5e0}.stats h4{margin:.2em 0;font-size:.95em;color:#2b6cb0}
.stat{display:flex;justify-content:space-between;border-bottom:1px dotted #ddd;cursor:help}
a.viewer{font-size:.7em;font-weight:normal;margin-left:.6em}.why{margin:.2em 0}
.legend{font-size:.8em}.key{margin-right:1em}.key i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
.ybar{display:inline-block;height:.7em;background:#2b6cb0}
details>summary{cursor:pointer}ol.hands{font-size:.85em;margin:.3em 0;padding-left:2.2em}
figure{margin:.5em 0;max-width:100%}figcaption{font-size:.8em;color:#555;text-align:center}
.matrix{overflow-x:auto}#who-met-whom td{min-width:1.4em;text-align:center;padding:.1em}
#who-met-whom th.vertical{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:normal;padding:.3em .1em}
#who-met-whom td.self{background:#e2e8f0}#findings td:nth-child(2){white-space:nowrap}
svg.chart{max-width:100%;height:auto}
.play{margin-top:.8em}.play-h{margin:.2em 0;color:#2b6cb0}.play-h small{color:#555;font-weight:normal}
"""

# Clicking a header sorts the table's rows by that column (numbers by data-v, text otherwise); again reverses.
SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('th').forEach(function(th, col){
    th.addEventListener('click', function(){
      var down = th.getAttribute('aria-sort') !== 'descending';
      table.querySelectorAll('th').forEach(function(h){ h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      function key(row){ var c = row.cells[col], v = c.getAttribute('data-v');
        return v === null ? c.textContent : (v === '' ? -Infinity : parseFloat(v)); }
      rows.sort(function(a, b){ var x = key(a), y = key(b);
        var r = (typeof x === 'number' && typeof y === 'number') ? x - y : String(x).localeCompare(String(y));
        return down ? -r : r; });
      rows.forEach(function(r){ body.appendChild(r); });
    });
  });
});
"""


def _lead(result, shown_games: int, hands: pl.LazyFrame, players: pl.DataFrame, rejected: int, incomplete: int,
          chosen: tuple[str, ...]) -> str:
    """What the page is about, counted: games, hand rows, players, rejected rows, the days played, the rules."""
    rows = count(hands)
    sheet = getattr(result, "sheet_rows", 0)
    counts = (f"{shown_games:,} game(s), {rows:,} hand row(s)"
              + (f", {sheet:,} game-level sheet row(s)" if sheet else "")
              + f", {players.height:,} player(s), {rejected:,} rejected row(s)")
    if chosen:  # the games of these players, their hands and rejected rows; only these players' sections
        every = lazy(result.games).select(pl.col("game_id").n_unique()).collect().item()
        counts = (f"Showing {', '.join(chosen)}: {shown_games:,} of {every:,} game(s), {rows:,} hand row(s), "
                  f"{players.height:,} of {result.players.height:,} player(s), {rejected:,} rejected row(s)")
    days = days_played(hands) if rows else None
    if days is not None:
        first, last = days
        counts += f"; played {first}" + (f" to {last}" if last != first else "")
    lead = escape(f"{counts}; rules: {result.rules_label}.")
    if incomplete:
        lead += (f' <a class="warn" href="#incomplete">{incomplete:,} incomplete game(s)</a>'
                 '<span class="warn">: why each is, below.</span>')
    return lead


def _first_games(hands: pl.LazyFrame, shown_players: pl.DataFrame, incomplete: pl.Series) -> list[pl.Series]:
    """The games the page refers to, most wanted first: the best hands and biggest deal-ins of the players
    shown, the incomplete games, the games of the first problems listed."""
    hands_of = [shown_players[c].drop_nulls() for c in ("best_win_game", "worst_deal_in_game")
                if c in shown_players.columns]
    problems = (problem_lists(hands).filter(has_problems()).select("game_id").unique(maintain_order=True)
                .head(LISTED).collect()["game_id"]) if "problems" in columns(hands) else incomplete.head(0)
    return [pl.concat(hands_of) if hands_of else incomplete.head(0), incomplete, problems]


GAMES_CHOSEN = ("those of the best hands and biggest deal-ins of the players shown, the incomplete games and "
                "those of the first problems, then the first in input order (every game counts in the standings "
                "and the figures)")


def _summarised(players: int, all_players: int, games: int, all_games: int) -> str:
    """A line under the header when the page leaves sections out, naming the options that widen it."""
    left_out = [f"{shown:,} of {total:,} {what} ({option} N or all widens it)" for shown, total, what, option in
                ((players, all_players, "players", "--max-players"), (games, all_games, "games", "--max-games"))
                if shown < total]
    if not left_out:
        return ""
    return (f'<p class="lead summarised">A big input: this page has sections for {escape(" and ".join(left_out))}; '
            "every game counts in the standings and the figures.</p>")


def build_report(result, players: list[str] | None = None, title: str | None = None,
                 findings: pl.DataFrame | None = None, options: ReportOptions | None = None,
                 events: Events | None = None) -> str:
    """The report page of a :class:`analyzer.ScoreResult` (its tables in memory or lazy scans of the files a
    run wrote); ``players`` (or ``options.players``) limits the player sections and standings, and the games,
    hands, problems and rejects to those players' games (the header counts what is shown). A tournament
    (sessions, teams or game-level sheets) also gets the standings by session, the rank chart, the team
    standings, who met whom and ``findings`` (a check's, :mod:`analyzer.report.tournament`). ``options``:
    the heading, how much of a big input the page shows, whether it says where rows were recorded. ``events``:
    the run's events table (a frame, or the paths of Parquet files as ``export events`` writes them; else the
    result's ``events`` if it has one), for the table's shanten by turn and each player's deal-ins by shanten
    (:mod:`analyzer.report.play`); the players' play blocks need the play statistics of the players table."""
    options = options or ReportOptions()
    options = replace(options, **({"title": title} if title is not None else {}),
                      **({"players": tuple(players)} if players else {}))
    chosen = options.players
    table = (result.players.filter(pl.col("player").is_in(list(chosen))) if chosen else result.players
             ).with_columns(derived_columns())
    games, hands, rejects = lazy(result.games), lazy(result.hands), lazy(result.rejects)
    if chosen:
        wanted = of_players(games, list(chosen)).select("game_id").unique().collect()["game_id"]
        games, hands, rejects = of_games(games, wanted), of_games(hands, wanted), of_games(rejects, wanted)
    has_hands = "result" in columns(hands)  # a run of game-level sheets alone has no hand records
    played, with_events = events_table(events if events is not None else getattr(result, "events", None),
                                       games) or (None, 0)
    play_section = "" if played is None else table_section(shanten_by_turn(played), with_events)
    shown_players = table.head(limited(table.height, options.max_players))
    order = game_order(games)
    incomplete = incomplete_ids(games) if has_hands else pl.Series("game_id", [], pl.String)
    limit = options.max_games
    first = _first_games(hands, shown_players, incomplete) if limit is not None and order.height > limit else []
    shown = chosen_games(order, first, limit)
    sections = Sections(frozenset(shown_players["player"]), frozenset(shown))
    notes_of = pl.concat([shown, *[shown_players[c].drop_nulls() for c in ("best_win_game", "worst_deal_in_game")
                                   if c in shown_players.columns]]).unique()
    rows = described(of_games(hands, notes_of).collect()) if has_hands else None
    reasons = incomplete_reasons(games, hands, rejects, findings, among=pl.concat(
        [incomplete.head(LISTED), shown.filter(shown.is_in(incomplete.implode()))])) if incomplete.len() else {}
    lead = _lead(result, order.height, hands, table, rejected_rows(rejects), incomplete.len(), chosen)
    sheet = None
    if getattr(result, "sheet_rows", 0):
        with_hands = hands.select("game_id").unique().collect()["game_id"].implode()
        sheet_all = order.filter(~pl.col("game_id").is_in(with_hands))["game_id"]
        sheet = (shown.filter(shown.is_in(sheet_all.implode())), sheet_all.len())
    tournament_nav, tournament = tournament_sections(result, games, findings, sections, options, sheet) \
        if is_tournament(result) and not chosen else ([], "")
    players_note = more_text(shown_players.height, table.height, "Sections for the top {shown} of {total} "
                             "players by rank (every player is in the standings)", "--max-players")
    games_note = more_text(shown.len(), order.height, "Sections for {shown} of {total} games: " + GAMES_CHOSEN,
                           "--max-games")
    summarised = _summarised(shown_players.height, table.height, shown.len(), order.height)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{escape(options.title)}</title><style>{STYLE}</style></head><body>",
        f'<h1>{escape(options.title)}</h1><p class="lead">{lead}</p>{summarised}',
        '<nav><a href="#standings-h">Standings</a> · '
        + "".join(f'<a href="#{ident}">{escape(name)}</a> · ' for ident, name in tournament_nav)
        + ('<a href="#play">Play</a> · ' if play_section else "")
        + '<a href="#players">Players</a> · ' + ('<a href="#games">Games</a> · ' if has_hands else "")
        + ('<a href="#incomplete">Incomplete games</a> · ' if reasons else "")
        + '<a href="#issues">Problems and rejects</a></nav>',
        '<h2 id="standings-h">Standings</h2><p class="lead">Click a column header to sort. '
        + ('* the player has <a href="#incomplete">incomplete games</a> (a fragment, rejected rows, or an end its '
           "rules do not allow).</p>" if reasons else "</p>"),
        standings_tables(result.standings if getattr(result, "standings", None) is not None else
                         standings(result.games, players=result.players), table, sections, options.max_standings),
        tournament,
        play_section,
        '<h2 id="players">Players</h2><p class="lead">Hover over a figure for its definition.'
        + (f" {escape(players_note)}" if players_note else "") + "</p>",
    ]
    parts += _player_sections(result, games, shown_players, rows, sections, played)
    if has_hands:
        parts.append('<h2 id="games">Games</h2>' + (f'<p class="lead">{escape(games_note)}</p>' if games_note else ""))
        seats_of: dict[str, list[dict]] = {}
        for row in of_games(games, shown).sort("game_id", "place", "seat").collect().iter_rows(named=True):
            seats_of.setdefault(row["game_id"], []).append(row)
        for game in hand_lines(of_games(rows.lazy(), shown).collect()).iter_rows(named=True):
            parts.append(game_section(game, seats_of.get(game["game_id"], []), reasons.get(game["game_id"]),
                                      result.rules.start_points, options.sources, sections))
    if reasons:
        parts.append(incomplete_list({g: reasons[g] for g in incomplete.head(LISTED) if g in reasons},
                                     incomplete.len(), sections))
    parts.append(f'<h2 id="issues">Problems and rejects</h2>{issues(hands, rejects, sections, options.sources)}')
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)


def _player_sections(result, games: pl.LazyFrame, shown: pl.DataFrame, hands: pl.DataFrame | None,
                     sections: Sections, events: pl.LazyFrame | None = None) -> list[str]:
    """A section per player of ``shown``, from the rows of their games alone; a play block each where the
    players table has play statistics (with their deal-ins by shanten where ``events`` are given)."""
    names = shown["player"]
    points_of = {p: (g, v) for p, g, v in of_players(games, names).sort("game_id", "place", "seat")
                 .group_by("player").agg("game_id", "game_points").collect().iter_rows()}
    yaku_of: dict[str, list] = {}
    if result.yaku_stats is not None:
        for p, y, c, r in of_players(result.yaku_stats.lazy(), names).collect().iter_rows():
            yaku_of.setdefault(p, []).append((y, c, r))
    notes = hand_notes(shown, hands) if hands is not None else {}
    ratings = lazy(getattr(result, "ratings", None))
    ratings = rating_charts(None if ratings is None else of_players(ratings, names).collect(),
                            system_of(result.players))
    platform = lazy(getattr(result, "platform_ranks", None))
    recorded = platform_charts(None if platform is None else of_players(platform, names).collect())
    play = has_play(shown)
    deal_ins = deal_ins_by_shanten(events, names.to_list()) if play and events is not None else None
    out = []
    for row in shown.iter_rows(named=True):
        gids, pts = points_of.get(row["player"], ([], []))
        out.append(player_section(row, pts, gids, yaku_of.get(row["player"], []), notes.get(row["player"],
                                                                                            (None, None)),
                                  ratings.get(row["player"], "") + recorded.get(row["player"], ""), sections,
                                  play_block(row, None if deal_ins is None else deal_ins.get(row["player"], [0] * 4))
                                  if play else ""))
    return out


def write_report(result, path: str | Path, players: list[str] | None = None,
                 findings: pl.DataFrame | None = None, options: ReportOptions | None = None,
                 events: Events | None = None) -> Path:
    """Write :func:`build_report` to ``path`` atomically."""
    page = build_report(result, players, findings=findings, options=options, events=events)
    return write_atomic(path, lambda temp: Path(temp).write_text(page, encoding="utf-8"))
