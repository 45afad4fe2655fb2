"""The tournament part of the report: standings with the points of each session, each player's rank over the
sessions (an SVG chart), the team standings, the games of a game-level sheet, who met whom, and the check's
findings.

The tables are made by Polars (a pivot of the session standings, a self-join of the games table for the
pairs that met); this module only writes them out as markup. Shown where the run has sessions, teams or
game-level sheets (:func:`is_tournament`). Past the page's limits (:mod:`analyzer.report.options`) the session
standings list the top players and the sheet games the games chosen for the page; a name links to its
section only where the page has one (:class:`~analyzer.report.markup.Sections`).
"""

from __future__ import annotations

from html import escape

import polars as pl

from analyzer.report.markup import EVERY_SECTION, Sections, anchor, fmt_value
from analyzer.report.options import ReportOptions, limited, more_text
from analyzer.report.svg import rank_chart
from analyzer.report.tables import of_games

MATRIX_MAX_PLAYERS = 64  # who met whom: a square of this many players still reads on a page
FINDINGS_SHOWN = 500


def is_tournament(result) -> bool:
    return (getattr(result, "sessions", None) is not None or getattr(result, "teams", None) is not None
            or getattr(result, "sheet_rows", 0) > 0)


def _table(head: list[tuple[str, bool]], rows: list[list[str]], ident: str = "", cls: str = "sortable") -> str:
    """A table of already escaped cells; ``head``: (header, text column)."""
    header = "".join(f'<th class="{"t" if text else ""}">{escape(h)}</th>' for h, text in head)
    body = "".join("<tr>" + "".join(rows_cells) + "</tr>" for rows_cells in rows)
    return (f'<table class="{cls}"{f" id={chr(34)}{escape(ident)}{chr(34)}" if ident else ""}><thead><tr>{header}'
            f"</tr></thead><tbody>{body}</tbody></table>")


def _num(value, fmt: str) -> str:
    return f'<td data-v="{"" if value is None else value}">{escape(fmt_value(value, fmt))}</td>'


def _text(value) -> str:
    return f'<td class="t">{escape("" if value is None else str(value))}</td>'


def session_standings(result, team_of: dict[str, str], sections: Sections = EVERY_SECTION,
                      limit: int | None = None) -> str:
    """Final standings with each session's points: one row per player, in rank order (the first ``limit``)."""
    sessions = result.sessions
    order = sessions["session"].unique(maintain_order=True).to_list()
    played = sessions.with_columns(pl.when(pl.col("session_games") > 0).then(pl.col("session_points"))
                                   .alias("session_points"))  # a session the player missed: a dash
    wide = played.pivot(on="session", index="player", values="session_points", aggregate_function="first")
    everyone = result.players.height
    table = result.players.head(limited(everyone, limit)).select("rank", "player", "games", "total_points").join(
        wide, on="player", how="left", maintain_order="left")
    head = [("#", False), ("player", True), *([("team", True)] if team_of else []),
            *[(f"S{s}" if s.isdigit() else s, False) for s in order], ("games", False), ("points", False)]
    rows = []
    for row in table.iter_rows(named=True):
        cells = [_num(row["rank"], "{:d}"), f'<td class="t">{sections.player(row["player"])}</td>']
        if team_of:
            cells.append(_text(team_of.get(row["player"])))
        cells += [_num(row[s], "{:+.1f}") for s in order]
        cells += [_num(row["games"], "{:d}"), _num(row["total_points"], "{:+.1f}")]
        rows.append(cells)
    more = more_text(table.height, everyone, "The top {shown} of {total} players", "--max-standings")
    return _table(head, rows, "session-standings") + (f'<p class="lead">{escape(more)}</p>' if more else "")


def rank_over_sessions(result) -> str:
    """Each player's rank after each session, the final top six in colour."""
    sessions = result.sessions
    order = sessions["session"].unique(maintain_order=True).to_list()
    final = result.players.sort("rank", "player")["player"].to_list()
    shown = final if len(final) <= MATRIX_MAX_PLAYERS else final[:8]
    ranks = sessions.filter(pl.col("player").is_in(shown)).pivot(
        on="session", index="player", values="rank", aggregate_function="first")
    by_player = {row["player"]: [row.get(s) for s in order] for row in ranks.iter_rows(named=True)}
    series = {p: by_player[p] for p in shown if p in by_player}
    note = "" if len(shown) == len(final) else f" (the top {len(shown)} of {len(final)} players)"
    return (f'<figure>{rank_chart(series, order, len(final), highlight=6)}<figcaption>rank after each session'
            f"{escape(note)}; hover over a line for the player</figcaption></figure>")


def team_standings(result, sections: Sections = EVERY_SECTION) -> str:
    head = [("#", False), ("team", True), ("members", False), ("players", True), ("games", False),
            ("points", False), ("avg", False), ("avg place", False)]
    rows = [[_num(r["rank"], "{:d}"), _text(r["team"]), _num(r["members"], "{:d}"),
             '<td class="t">' + ", ".join(sections.player(p) for p in r["players"]) + "</td>",
             _num(r["games"], "{:d}"), _num(r["total_points"], "{:+.1f}"), _num(r["avg_points"], "{:+.2f}"),
             _num(r["avg_place"], "{:.2f}")] for r in result.teams.iter_rows(named=True)]
    return _table(head, rows, "team-standings")


def sheet_games(games: pl.DataFrame | pl.LazyFrame, listed: pl.Series | None = None, total: int | None = None) -> str:
    """The games of a game-level sheet, one line each: the players by place with final score and points (the
    games ``listed`` of ``total``, when given)."""
    labels = [c for c in ("session", "table") if c in games.collect_schema().names()]
    games = games.lazy() if listed is None else of_games(games.lazy(), listed)
    lines = games.sort("game_id", "place", "seat").group_by("game_id", *labels, maintain_order=True).agg(
        pl.format("{} {} ({})", "player", pl.col("final_score").cast(pl.String),
                  pl.col("game_points").round(1).cast(pl.String)).str.join(" · ").alias("line")).collect()
    head = [("game", True), *[(c, True) for c in labels], ("players by place: final score (game points)", True)]
    rows = [[f'<td class="t" id="{escape(anchor("game", r["game_id"]))}">{escape(r["game_id"])}</td>',
             *[_text(r[c]) for c in labels], _text(r["line"])] for r in lines.iter_rows(named=True)]
    more = more_text(lines.height, total if total is not None else lines.height,
                     "{shown} of {total} sheet games listed", "--max-games")
    return _table(head, rows, "sheet-games") + (f'<p class="lead">{escape(more)}</p>' if more else "")


def who_met_whom(games: pl.DataFrame | pl.LazyFrame, players: list[str], sections: Sections = EVERY_SECTION) -> str:
    """A square of the games each pair of players shared a table (the seating's fairness at a glance)."""
    if len(players) > MATRIX_MAX_PLAYERS:
        return f"<p>{len(players)} players: too many for the square (at most {MATRIX_MAX_PLAYERS}).</p>"
    seats = games.lazy().select("game_id", "player").collect()
    pairs = seats.join(seats, on="game_id", suffix="_other").filter(pl.col("player") != pl.col("player_other")).group_by(
        "player", "player_other").len()
    met = {(a, b): n for a, b, n in pairs.iter_rows()}
    counts = list(met.values())
    most = max(counts, default=0)
    possible = len(players) * (len(players) - 1) // 2
    never = possible - len(counts) // 2
    head = "".join(f'<th class="vertical" title="{escape(p)}">{escape(p)}</th>' for p in players)
    rows = []
    for a in players:
        cells = []
        for b in players:
            if a == b:
                cells.append('<td class="self">·</td>')
                continue
            n = met.get((a, b), 0)
            shade = 0 if most == 0 else round(0.15 + 0.75 * n / most, 2) if n else 0
            cells.append(f'<td class="met" data-v="{n}" title="{escape(a)} and {escape(b)}: {n} game(s)" '
                         f'style="background:rgba(43,108,176,{shade})">{n or ""}</td>')
        rows.append(f'<tr><th class="t">{sections.player(a)}</th>{"".join(cells)}</tr>')
    summary = (f"<p class=\"lead\">Games each pair of players shared a table. Most: {most}; pairs that never met: "
               f"{never} of {possible}.</p>")
    return (f'{summary}<div class="matrix"><table id="who-met-whom"><thead><tr><th></th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def findings_table(findings: pl.DataFrame, sections: Sections = EVERY_SECTION, sources: bool = False) -> str:
    """The check's findings (the first :data:`FINDINGS_SHOWN`); with ``sources``, the input file and row of
    each (a path on the machine that ran the report)."""
    if findings is None or findings.height == 0:
        return "<p>The check finds nothing: every table adds up and every recorded value agrees.</p>"
    shown = findings.head(FINDINGS_SHOWN)
    head = [("kind", True), ("game", True), ("player", True), ("field", True), ("recorded", True),
            ("computed", True), ("explanation", True), *([("source", True)] if sources else [])]
    rows = [[_text(r["kind"]), f'<td class="t">{sections.game(r["game_id"]) if r["game_id"] else ""}</td>',
             f'<td class="t">{sections.player(r["player"]) if r["player"] else ""}</td>', _text(r["field"]),
             _text(r["recorded"]), _text(r["computed"]), _text(r["explanation"]),
             *([_text(f'{r["source_file"]}:{r["source_row"]}' if r["source_file"] else "")] if sources else [])]
            for r in shown.iter_rows(named=True)]
    more = (f"<p>… and {findings.height - FINDINGS_SHOWN} more (analyzer check -o findings.csv lists them all)."
            "</p>" if findings.height > FINDINGS_SHOWN else "")
    return _table(head, rows, "findings") + more


def tournament_sections(result, games: pl.DataFrame | pl.LazyFrame, findings: pl.DataFrame | None,
                        sections: Sections = EVERY_SECTION, options: ReportOptions = ReportOptions(),
                        sheet: tuple[pl.Series, int] | None = None) -> tuple[list[tuple[str, str]], str]:
    """(navigation: (anchor, title), markup) of the tournament sections; ``sheet``: the sheet games listed
    and how many there are (default: every game without hand records)."""
    team_of = dict(result.team_of.iter_rows()) if getattr(result, "team_of", None) is not None else {}
    players = result.players.sort("rank", "player")["player"].to_list()
    nav, parts = [], []

    def section(ident: str, title: str, body: str, lead: str = "") -> None:
        nav.append((ident, title))
        parts.append(f'<h2 id="{ident}">{escape(title)}</h2>' + (f'<p class="lead">{lead}</p>' if lead else "") + body)

    if result.sessions is not None:
        section("sessions", "Standings by session",
                session_standings(result, team_of, sections, options.max_standings) + rank_over_sessions(result),
                "The points each player scored in each session, and the total. Click a header to sort.")
    if result.teams is not None:
        section("teams", "Team standings", team_standings(result, sections), "The members' results added up.")
    if findings is not None:
        mismatches = findings.filter(pl.col("kind") != "note").height
        section("findings", "Findings", findings_table(findings, sections, options.sources),
                f"What <code>analyzer check</code> finds in the records: {mismatches} mismatch(es), "
                f"{findings.height - mismatches} note(s), most serious first.")
    section("met", "Who met whom", who_met_whom(games, players, sections))
    if getattr(result, "sheet_rows", 0):
        if sheet is None:
            hand_games = result.hands.lazy().select("game_id").unique().collect()["game_id"].implode()
            listed = games.lazy().filter(~pl.col("game_id").is_in(hand_games)).select("game_id").unique(
                maintain_order=True).collect()["game_id"]
            sheet = (listed, listed.len())
        section("sheet-games", "Sheet games", sheet_games(games, *sheet),
                "The games of the game-level sheets, by game.")
    return nav, "".join(parts)
