"""The report page: standings (sortable), a section per player, a section per game, problems and rejects.

Everything a reader sees comes from the scored tables; every name and value is escaped. The page needs no
network: styles, SVG charts and the few lines of sorting script are inline. Building it loops over players
and games to emit markup (output, not per-hand work); the numbers themselves come from Polars frames.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import polars as pl

from analyzer.io.write import write_atomic
from analyzer.problems import has_problems, problem_lists, problems_text
from analyzer.report.svg import bar_chart, legend, line_chart
from analyzer.standings import HAND_RATES, KIND, kind_seats, kinds_of, standings

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
.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:.1em 1.5em;font-size:.88em}
.stats div{display:flex;justify-content:space-between;border-bottom:1px dotted #ddd}
.legend{font-size:.8em}.key{margin-right:1em}.key i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
.ybar{display:inline-block;height:.7em;background:#2b6cb0}
details>summary{cursor:pointer}ol.hands{font-size:.85em;columns:2;margin:.3em 0}
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
    ("call_rate", "call %", "%"),
]
PLAYER_STATS = [  # (label, column, format) shown in each player's section
    ("games", "games", "{:d}"), ("total points", "total_points", "{:+.1f}"),
    ("average points", "avg_points", "{:+.2f}"),
    ("average place", "avg_place", "{:.2f}"), ("busts", "busts", "{:d}"), ("bust rate", "bust_rate", "%"),
    *[(f"avg final score, place {p}", f"avg_final_score_{p}", "{:,.0f}") for p in range(1, 5)],
    ("hands", "hands", "{:d}"), ("hands as dealer", "dealer_hands", "{:d}"),
    ("win rate", "win_rate", "%"), ("tsumo rate", "tsumo_rate", "%"), ("average win", "avg_win_value", "{:,.0f}"),
    ("riichi wins", "riichi_wins", "{:d}"), ("avg riichi win", "avg_riichi_win_value", "{:,.0f}"),
    ("open wins", "open_wins", "{:d}"), ("avg open win", "avg_open_win_value", "{:,.0f}"),
    ("dama wins", "dama_wins", "{:d}"), ("avg dama win", "avg_dama_win_value", "{:,.0f}"),
    ("deal-in rate", "deal_in_rate", "%"), ("average deal-in", "avg_deal_in_cost", "{:,.0f}"),
    ("paid to others' tsumo", "tsumo_paid", "{:,d}"),
    ("deal-ins in riichi", "deal_ins_in_riichi", "{:d}"), ("deal-ins while open", "deal_ins_while_open", "{:d}"),
    ("deal-ins to riichi", "deal_ins_to_riichi", "{:d}"), ("deal-ins to open", "deal_ins_to_open", "{:d}"),
    ("deal-ins to dama", "deal_ins_to_dama", "{:d}"),
    ("riichi rate", "riichi_rate", "%"), ("riichi: win", "riichi_win_rate", "%"),
    ("riichi: deal-in", "riichi_deal_in_rate", "%"), ("riichi: draw", "riichi_draw_rate", "%"),
    ("riichi: other's win", "riichi_other_win_rate", "%"), ("avg riichi turn", "avg_riichi_turn", "{:.1f}"),
    ("chasing riichi", "chasing_riichi_rate", "%"), ("call rate", "call_rate", "%"),
    ("avg calls (opened)", "avg_calls", "{:.2f}"), ("draw rate", "draw_rate", "%"),
    ("draw tenpai", "draw_tenpai_rate", "%"), ("dealer keep", "dealer_keep_rate", "%"),
    ("max renchan", "max_renchan", "{:d}"), ("avg win turn", "avg_win_turn", "{:.1f}"),
    ("avg deal-in turn", "avg_deal_in_turn", "{:.1f}"), ("mangan+ wins", "_limit_wins", "{:d}"),
    ("yakuman", "yakuman", "{:d}"), ("nagashi", "nagashi", "{:d}"), ("chombo", "chombo", "{:d}"),
]


def _fmt(value, fmt: str | None) -> str:
    if value is None:
        return "–"
    if fmt is None:
        return str(value)
    if fmt == "%":
        return f"{100 * value:.1f}%"
    return fmt.format(value)


def anchor(kind: str, name: str) -> str:
    """A stable, safe id for a player's or a game's section."""
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9_-]", lambda m: f"_{ord(m.group()):x}", name)


def _link(kind: str, name: str | None) -> str:
    if name is None:
        return ""
    return f'<a href="#{escape(anchor(kind, name))}">{escape(name)}</a>'


def _standings(result, players: pl.DataFrame) -> str:
    """One sortable standings table per kind of game (:mod:`analyzer.standings`), of the players in
    ``players``; the hand statistics (win %, …, over all of a player's games) only when every game is of one
    kind."""
    table = result.standings if getattr(result, "standings", None) is not None else standings(
        result.games, players=result.players)
    table = table.filter(pl.col("player").is_in(players["player"].implode()))
    kinds = kinds_of(table)
    out = []
    for kind in kinds:
        rows = table.filter(pl.col(KIND) == kind)
        columns = [(c, h, f) for c, h, f in STANDINGS if c in rows.columns and (len(kinds) == 1 or c not in HAND_RATES)
                   and not (c.startswith("place_") and int(c[6]) > kind_seats(kind))]
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


def _player_section(row: dict, points: list[float], game_ids: list[str], yaku: list[tuple[str, int, float]]) -> str:
    name = row["player"]
    stats = "".join(f"<div><span>{escape(label)}</span><b>{escape(_fmt(row.get(col), fmt))}</b></div>"
                    for label, col, fmt in PLAYER_STATS)
    places = bar_chart(["1st", "2nd", "3rd", "4th"], [row[f"place_{p}"] for p in range(1, 5)],
                       title=f"Places of {name}", value_format="{:d}")
    cumulative, total = [0.0], 0.0  # from 0 before the first game
    for p in points:
        total += p
        cumulative.append(round(total, 1))
    line = line_chart({name: cumulative}, x_labels=[str(i) for i in range(len(cumulative))],
                      title=f"Cumulative game points of {name}", baseline=0.0,
                      point_titles=["start"] + [f"{g}: {p:+.1f} (total {c:+.1f})"
                                                for g, p, c in zip(game_ids, points, cumulative[1:])])
    top = max((c for _, c, _ in yaku), default=1)
    yaku_rows = "".join(
        f'<tr><td class="t">{escape(y)}</td><td>{c}</td><td>{100 * (r or 0):.1f}%</td>'
        f'<td class="t"><span class="ybar" style="width:{80 * c / top:.0f}px"></span></td></tr>'
        for y, c, r in yaku
    )
    yaku_html = (f'<table class="sortable yaku"><thead><tr><th class="t">yaku</th><th>wins</th><th>of wins</th>'
                 f"<th></th></tr></thead><tbody>{yaku_rows}</tbody></table>") if yaku else "<p>No yaku recorded.</p>"
    best = _hand_ref(row, "best_win", "Best hand")
    worst = _hand_ref(row, "worst_deal_in", "Biggest deal-in")
    return (
        f'<section class="player" id="{escape(anchor("player", name))}"><h3>{escape(name)} '
        f'<small>(rank {row["rank"]})</small></h3><div class="stats">{stats}</div>'
        f'<div class="charts"><figure>{places}<figcaption>place distribution</figcaption></figure>'
        f"<figure>{line}<figcaption>cumulative game points over {len(points)} game(s)</figcaption></figure></div>"
        f"<p>{best}<br>{worst}</p><details><summary>yaku frequency</summary>{yaku_html}</details></section>"
    )


def _hand_ref(row: dict, prefix: str, label: str) -> str:
    points = row.get(f"{prefix}_points")
    if points is None:
        return f"{escape(label)}: none"
    return (f"{escape(label)}: {points:,} points in {_link('game', row[f'{prefix}_game'])} "
            f"{escape(str(row[f'{prefix}_round']))}-{row[f'{prefix}_honba']}")


def _hand_outcomes(hands: pl.DataFrame) -> pl.DataFrame:
    """Per game: the four score lines and a one-line outcome of every row, as lists (one row per game)."""
    text = pl.col
    outcome = pl.concat_str(
        text("round"), pl.lit("-"), text("honba").cast(pl.String), pl.lit(" "), text("result"),
        pl.when(text("winner").is_not_null()).then(pl.lit(": ") + text("winner").cast(pl.String)).otherwise(pl.lit("")),
        pl.when(text("result") == "ron").then(pl.lit(" from ") + text("loser").cast(pl.String)).otherwise(pl.lit("")),
        pl.when(text("points").is_not_null()).then(pl.lit(" ") + text("points").cast(pl.String)).otherwise(pl.lit("")),
        pl.when(has_problems()).then(pl.lit(" [") + problems_text() + pl.lit("]")).otherwise(pl.lit("")),
    )
    return problem_lists(hands).group_by("game_id", maintain_order=True).agg(
        outcome.alias("outcome"),
        *[pl.col(f"score_{s}") for s in range(4)],
        *[pl.col(f"player_{s}").first() for s in range(4)],
    )


def _game_section(game: dict, seats: list[dict], complete: bool | None) -> str:
    gid = game["game_id"]
    # seat 3 of a three-player game has no player and no scores
    names = [game[f"player_{s}"] for s in range(4) if game[f"player_{s}"] is not None]
    series = {n: [game.get("start")] + game[f"score_{s}"] for s, n in enumerate(names)}
    chart = line_chart(series, x_labels=["start"] + [o.split(" ")[0] for o in game["outcome"]],
                       title=f"Scores in {gid}", point_titles=["start"] + game["outcome"], baseline=game["start"])
    result = "".join(
        f'<tr><td>{s["place"]}</td><td class="t">{_link("player", s["player"])}</td><td>{s["final_score"]:,}</td>'
        f'<td>{s["game_points"]:+.1f}</td></tr>' for s in seats
    )
    flag = "" if complete in (None, True) else ' <span class="warn">incomplete</span>'
    hands = "".join(f"<li>{escape(o)}</li>" for o in game["outcome"])
    return (
        f'<section class="game" id="{escape(anchor("game", gid))}"><h3>{escape(gid)}{flag}</h3>'
        f'<div class="charts"><div>{chart}{legend(names)}</div><table><thead><tr><th>place</th>'
        f'<th class="t">player</th><th>final</th><th>points</th></tr></thead><tbody>{result}</tbody></table></div>'
        f'<details><summary>{len(game["outcome"])} hand(s)</summary><ol class="hands">{hands}</ol></details></section>'
    )


def _issues(hands: pl.DataFrame, rejects: pl.DataFrame) -> str:
    problems = problem_lists(hands).filter(has_problems()).select(
        "game_id", "round", "honba", problems_text(), "source_file", "source_row")
    parts = []
    if problems.height:
        rows = "".join(f'<tr><td class="t">{_link("game", g)}</td><td class="t">{escape(str(r))}</td><td>{h}</td>'
                       f'<td class="t">{escape(p)}</td><td class="t">{escape(str(f))}:{w}</td></tr>'
                       for g, r, h, p, f, w in problems.iter_rows())
        parts.append(f'<h3>Problems ({problems.height})</h3><table class="sortable"><thead><tr><th class="t">game</th>'
                     f'<th class="t">round</th><th>honba</th><th class="t">problems</th><th class="t">source</th>'
                     f"</tr></thead><tbody>{rows}</tbody></table>")
    if rejects.height:
        rows = "".join(f'<tr><td class="t">{_link("game", g) if g else ""}</td><td class="t">{escape(str(f))}:{w}</td>'
                       f'<td class="t">{escape(str(c))}</td><td class="t">{escape(str(v))}</td>'
                       f'<td class="t">{escape(str(r))}</td></tr>'
                       for f, w, g, c, v, r in rejects.select("file", "row", "game_id", "column", "value", "reason")
                       .iter_rows())
        parts.append(f'<h3>Rejected rows ({rejects.height} reasons)</h3><table class="sortable"><thead><tr>'
                     f'<th class="t">game</th><th class="t">source</th><th class="t">column</th>'
                     f'<th class="t">value</th>'
                     f'<th class="t">reason</th></tr></thead><tbody>{rows}</tbody></table>')
    return "".join(parts) or "<p>No problems and no rejected rows.</p>"


def build_report(result, players: list[str] | None = None, title: str = "analyzer report") -> str:
    """The report page of a :class:`analyzer.ScoreResult`; ``players`` limits the player sections and standings."""
    table = result.players if not players else result.players.filter(pl.col("player").is_in(players))
    table = table.with_columns(
        pl.sum_horizontal("wins_mangan", "wins_haneman", "wins_baiman", "wins_sanbaiman", "yakuman")
        .alias("_limit_wins")
    )
    games = result.games.sort("game_id", "place", "seat")
    per_player_games = games.group_by("player").agg("game_id", "game_points")
    points_of = {p: (g, v) for p, g, v in per_player_games.iter_rows()}
    yaku_of: dict[str, list] = {}
    if result.yaku_stats is not None:
        for p, y, c, r in result.yaku_stats.drop_nulls("player").iter_rows():
            yaku_of.setdefault(p, []).append((y, c, r))
    seats_of: dict[str, list[dict]] = {}
    for row in games.iter_rows(named=True):
        seats_of.setdefault(row["game_id"], []).append(row)
    complete = dict(games.select("game_id", "complete").unique().iter_rows()) if "complete" in games.columns else {}
    outcomes = _hand_outcomes(result.hands)
    start = result.rules.start_points
    if players:
        wanted = games.filter(pl.col("player").is_in(players))["game_id"].unique()
        outcomes = outcomes.filter(pl.col("game_id").is_in(wanted.implode()))
    incomplete = sum(1 for v in complete.values() if v is False)
    lead = escape(f"{games['game_id'].n_unique()} game(s), {result.hands.height} hand row(s), "
                  f"{result.rows_rejected} rejected row(s); rules: {result.rules_label}.")
    if incomplete:
        lead += f' <span class="warn">{incomplete} incomplete game(s).</span>'
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f'<h1>{escape(title)}</h1><p class="lead">{lead}</p>',
        '<nav><a href="#standings-h">Standings</a> · <a href="#players">Players</a> · <a href="#games">Games</a> · '
        '<a href="#issues">Problems and rejects</a></nav>',
        '<h2 id="standings-h">Standings</h2><p class="lead">Click a column header to sort. '
        + ("* the player has incomplete games (a fragment, rejected rows, or an end its rules do not allow).</p>"
           if incomplete else "</p>"), _standings(result, table),
        '<h2 id="players">Players</h2>',
    ]
    for row in table.iter_rows(named=True):
        gids, pts = points_of.get(row["player"], ([], []))
        parts.append(_player_section(row, pts, gids, yaku_of.get(row["player"], [])))
    parts.append('<h2 id="games">Games</h2>')
    for game in outcomes.iter_rows(named=True):
        game["start"] = start
        parts.append(_game_section(game, seats_of.get(game["game_id"], []), complete.get(game["game_id"])))
    parts.append(f'<h2 id="issues">Problems and rejects</h2>{_issues(result.hands, result.rejects)}')
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)


def write_report(result, path: str | Path, players: list[str] | None = None) -> Path:
    """Write :func:`build_report` to ``path`` atomically."""
    page = build_report(result, players)
    return write_atomic(path, lambda temp: Path(temp).write_text(page, encoding="utf-8"))
