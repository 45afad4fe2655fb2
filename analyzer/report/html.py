"""The report page: standings (sortable), a section per player, a section per game, problems and rejects.

Everything a reader sees comes from the scored tables; every name and value is escaped. The page needs no
network: styles, SVG charts and the few lines of sorting script are inline (a Tenhou log id links to the
tenhou.net viewer, which only a click opens). Building it loops over players and games to emit markup (output,
not per-hand work); the numbers and the hand lines come from Polars frames (:mod:`.hands`), the figures of a
player and their definitions from :mod:`.glossary`, why a game is incomplete from :mod:`.games`.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import polars as pl

from analyzer.io.write import write_atomic
from analyzer.game.problems import has_problems, problem_lists, problems_text
from analyzer.report.games import game_section, hand_lines, incomplete_reasons, said
from analyzer.report.glossary import derived_columns
from analyzer.report.hands import described, hand_notes
from analyzer.report.markup import anchor, fmt_value, link
from analyzer.report.players import player_section
from analyzer.report.ratings import platform_charts, rating_charts, system_of, with_rating
from analyzer.core.schema import log_columns
from analyzer.report.tournament import is_tournament, tournament_sections
from analyzer.core.selection import game_date
from analyzer.tournament.standings import HAND_RATES, KIND, kind_seats, kinds_of, standings
from analyzer.report.viewer import where_recorded

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
figure{margin:.5em 0}figcaption{font-size:.8em;color:#555;text-align:center}
.matrix{overflow-x:auto}#who-met-whom td{min-width:1.4em;text-align:center;padding:.1em}
#who-met-whom th.vertical{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:normal;padding:.3em .1em}
#who-met-whom td.self{background:#e2e8f0}#findings td:nth-child(2){white-space:nowrap}
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

STANDINGS = [  # (column, header, format)
    ("rank", "#", "{:d}"), ("player", "player", None), ("games", "games", "{:d}"),
    ("total_points", "points", "{:+.1f}"), ("avg_points", "avg", "{:+.1f}"), ("avg_place", "avg place", "{:.2f}"),
    *[(f"place_{p}_rate", f"{p}{'stndrdth'[2 * min(p - 1, 3):][:2]} %", "%") for p in range(1, 5)],
    ("win_rate", "win %", "%"), ("deal_in_rate", "deal-in %", "%"), ("riichi_rate", "riichi %", "%"),
    ("call_rate", "call %", "%"), ("rating", "rating", "{:.2f}"),
]
def _fmt(value, fmt: str | None) -> str:
    return fmt_value(value, fmt)


def _link(kind: str, name: str | None) -> str:
    return link(kind, name)


def _standings(result, players: pl.DataFrame) -> str:
    """One sortable standings table per kind of game (:mod:`analyzer.tournament.standings`), of the players in
    ``players``; the hand statistics (win %, …, over all of a player's games) only when every game is of one
    kind."""
    table = result.standings if getattr(result, "standings", None) is not None else standings(
        result.games, players=result.players)
    table = table.filter(pl.col("player").is_in(players["player"].implode()))
    kinds = kinds_of(table)
    out = []
    for kind in kinds:
        rows = with_rating(table.filter(pl.col(KIND) == kind), result.players, kind_seats(kind))
        columns = [(c, h, f) for c, h, f in STANDINGS if c in rows.columns and (len(kinds) == 1 or c not in HAND_RATES)
                   and not (c.startswith("place_") and int(c[6]) > kind_seats(kind))
                   and not (c in HAND_RATES and rows[c].null_count() == rows.height)]  # a sheet's: no hands
        head = "".join(f'<th class="{"t" if c == "player" else ""}">{escape(h)}</th>' for c, h, _ in columns)
        body = []
        for row in rows.iter_rows(named=True):
            cells = []
            for c, _, fmt in columns:
                value = row[c]
                if c == "player":
                    cells.append(f'<td class="t">{_link("player", value)}</td>')
                elif c == "games" and row.get("incomplete_games"):
                    cells.append(f'<td data-v="{value}" title="{row["incomplete_games"]} incomplete">{value}*</td>')
                else:
                    cells.append(f'<td data-v="{"" if value is None else value}">{escape(_fmt(value, fmt))}</td>')
            body.append("<tr>" + "".join(cells) + "</tr>")
        ident = "standings" if len(kinds) == 1 else anchor("standings", kind)
        unranked = ('<p class="lead">– unranked: fewer games than --min-games.</p>'
                    if rows["rank"].null_count() else "")
        out.append(("" if len(kinds) == 1 else f"<h3>{escape(kind)}</h3>")
                   + f'<table class="sortable" id="{escape(ident)}"><thead><tr>{head}</tr></thead>'
                   f'<tbody>{"".join(body)}</tbody></table>{unranked}')
    return "".join(out)


def _issues(hands: pl.DataFrame, rejects: pl.DataFrame) -> str:
    """The problems of scored rows and the rejected rows, each with where it was recorded (the log file and hand
    of an imported row, else the input file and row)."""
    problems = problem_lists(hands).filter(has_problems()).with_columns(log_columns(hands.columns)).select(
        "game_id", "round", "honba", problems_text(), where_recorded()) if "problems" in hands.columns \
        else pl.DataFrame()
    parts = []
    if problems.height:
        rows = "".join(f'<tr><td class="t">{_link("game", g)}</td><td class="t">{escape(str(r))}</td><td>{h}</td>'
                       f'<td class="t">{escape(p)}</td><td class="t">{escape(str(w))}</td></tr>'
                       for g, r, h, p, w in problems.iter_rows())
        parts.append(f'<h3>Problems ({problems.height})</h3><table class="sortable"><thead><tr><th class="t">game</th>'
                     f'<th class="t">round</th><th>honba</th><th class="t">problems</th><th class="t">source</th>'
                     f"</tr></thead><tbody>{rows}</tbody></table>")
    if rejects.height:
        where = where_recorded("log_file", "log_row", "file", "row")
        rows = "".join(f'<tr><td class="t">{_link("game", g) if g else ""}</td><td class="t">{escape(str(w))}</td>'
                       f'<td class="t">{escape(str(c))}</td><td class="t">{escape(str(v))}</td>'
                       f'<td class="t">{escape(str(r))}</td></tr>'
                       for w, g, c, v, r in rejects.with_columns(log_columns(rejects.columns))
                       .select(where, "game_id", "column", "value", "reason").iter_rows())
        parts.append(f'<h3>Rejected rows ({rejects.height} reasons)</h3><table class="sortable"><thead><tr>'
                     f'<th class="t">game</th><th class="t">source</th><th class="t">column</th>'
                     f'<th class="t">value</th>'
                     f'<th class="t">reason</th></tr></thead><tbody>{rows}</tbody></table>')
    return "".join(parts) or "<p>No problems and no rejected rows.</p>"


def _lead(games: pl.DataFrame, hands: pl.DataFrame, players: pl.DataFrame, rejected: int, result,
          incomplete: int, chosen: list[str] | None) -> str:
    """What the page shows, counted: games, hand rows, players, rejected rows, the days played, the rules."""
    shown = games["game_id"].n_unique()
    all_games = result.games["game_id"].n_unique()
    sheet = getattr(result, "sheet_rows", 0)
    counts = (f"{shown} game(s), {hands.height} hand row(s)"
              + (f", {sheet} game-level sheet row(s)" if sheet else "")
              + f", {players.height} player(s), {rejected} rejected row(s)")
    if chosen:  # the games of these players, their hands and rejected rows; only these players' sections
        counts = (f"Showing {', '.join(chosen)}: {shown} of {all_games} game(s), {hands.height} hand row(s), "
                  f"{players.height} of {result.players.height} player(s), {rejected} rejected row(s)")
    days = hands.select(game_date(hands.columns).alias("d")).drop_nulls()["d"] if hands.height else None
    if days is not None and days.len():
        first, last = days.min(), days.max()
        counts += f"; played {first}" + (f" to {last}" if last != first else "")
    lead = escape(f"{counts}; rules: {result.rules_label}.")
    if incomplete:
        lead += (f' <a class="warn" href="#incomplete">{incomplete} incomplete game(s)</a>'
                 '<span class="warn">: why each is, below.</span>')
    return lead


def _incomplete(reasons: dict[str, str]) -> str:
    rows = "".join(f'<tr><td class="t">{_link("game", g)}</td><td class="t">{said(r)}</td></tr>'
                   for g, r in reasons.items())
    return ('<h2 id="incomplete">Incomplete games</h2><p class="lead">Their hands are scored and counted; a game '
            "is incomplete when it is a fragment (it does not start at E1 with nothing on the table), when rows "
            "of it were rejected, or when it does not end where its rules end a game.</p>"
            f'<table class="sortable"><thead><tr><th class="t">game</th><th class="t">why</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def build_report(result, players: list[str] | None = None, title: str = "analyzer report",
                 findings: pl.DataFrame | None = None) -> str:
    """The report page of a :class:`analyzer.ScoreResult`; ``players`` limits the player sections and standings,
    and the games, hands, problems and rejects to those players' games (the header counts what is shown).
    A tournament (sessions, teams or game-level sheets) also gets the standings by session, the rank chart,
    the team standings, who met whom and ``findings`` (a check's, :mod:`analyzer.report.tournament`)."""
    table = result.players if not players else result.players.filter(pl.col("player").is_in(players))
    table = table.with_columns(derived_columns())
    games = result.games.sort("game_id", "place", "seat")
    hands, rejects = result.hands, result.rejects
    if players:
        wanted = games.filter(pl.col("player").is_in(players))["game_id"].unique().implode()
        games = games.filter(pl.col("game_id").is_in(wanted))
        hands = hands.filter(pl.col("game_id").is_in(wanted))
        rejects = rejects.filter(pl.col("game_id").is_in(wanted))
    has_hands = "result" in hands.columns  # a run of game-level sheets alone has no hand records
    hands = described(hands) if has_hands else hands
    per_player_games = games.group_by("player").agg("game_id", "game_points")
    points_of = {p: (g, v) for p, g, v in per_player_games.iter_rows()}
    yaku_of: dict[str, list] = {}
    if result.yaku_stats is not None:
        for p, y, c, r in result.yaku_stats.drop_nulls("player").iter_rows():
            yaku_of.setdefault(p, []).append((y, c, r))
    seats_of: dict[str, list[dict]] = {}
    for row in games.iter_rows(named=True):
        seats_of.setdefault(row["game_id"], []).append(row)
    reasons = incomplete_reasons(games, hands, rejects, findings) if has_hands else {}
    notes = hand_notes(table, hands) if has_hands else {}
    rejected = rejects.select(pl.struct("file", "row").n_unique()).item() if rejects.height else 0
    lead = _lead(games, hands, table, rejected, result, len(reasons), players)
    tournament_nav, tournament = tournament_sections(result, games, findings) if is_tournament(result) and not players \
        else ([], "")
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f'<h1>{escape(title)}</h1><p class="lead">{lead}</p>',
        '<nav><a href="#standings-h">Standings</a> · '
        + "".join(f'<a href="#{ident}">{escape(name)}</a> · ' for ident, name in tournament_nav)
        + '<a href="#players">Players</a> · ' + ('<a href="#games">Games</a> · ' if has_hands else "")
        + ('<a href="#incomplete">Incomplete games</a> · ' if reasons else "")
        + '<a href="#issues">Problems and rejects</a></nav>',
        '<h2 id="standings-h">Standings</h2><p class="lead">Click a column header to sort. '
        + ('* the player has <a href="#incomplete">incomplete games</a> (a fragment, rejected rows, or an end its '
           "rules do not allow).</p>" if reasons else "</p>"), _standings(result, table), tournament,
        '<h2 id="players">Players</h2><p class="lead">Hover over a figure for its definition '
        "(all of them: docs/statistics.md).</p>",
    ]
    ratings = rating_charts(getattr(result, "ratings", None), system_of(result.players))
    recorded = platform_charts(getattr(result, "platform_ranks", None))
    for row in table.iter_rows(named=True):
        gids, pts = points_of.get(row["player"], ([], []))
        parts.append(player_section(row, pts, gids, yaku_of.get(row["player"], []), notes.get(row["player"],
                                                                                               (None, None)),
                                    ratings.get(row["player"], "") + recorded.get(row["player"], "")))
    if has_hands:
        parts.append('<h2 id="games">Games</h2>')
    for game in (hand_lines(hands).iter_rows(named=True) if has_hands else []):
        parts.append(game_section(game, seats_of.get(game["game_id"], []), reasons.get(game["game_id"]),
                                  result.rules.start_points))
    if reasons:
        parts.append(_incomplete(reasons))
    parts.append(f'<h2 id="issues">Problems and rejects</h2>{_issues(hands, rejects)}')
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)


def write_report(result, path: str | Path, players: list[str] | None = None,
                 findings: pl.DataFrame | None = None) -> Path:
    """Write :func:`build_report` to ``path`` atomically."""
    page = build_report(result, players, findings=findings)
    return write_atomic(path, lambda temp: Path(temp).write_text(page, encoding="utf-8"))
