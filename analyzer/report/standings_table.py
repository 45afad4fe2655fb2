"""The report's standings: one sortable table per kind of game (:mod:`analyzer.tournament.standings`), the
top ``max_standings`` rows of each, a player's name linked to their section where the page has one."""

from __future__ import annotations

from html import escape

import polars as pl

from analyzer.report.markup import EVERY_SECTION, Sections, anchor, fmt_value
from analyzer.report.options import limited, more_text
from analyzer.report.ratings import with_rating
from analyzer.tournament.standings import HAND_RATES, KIND, kind_seats, kinds_of

STANDINGS = [  # (column, header, format)
    ("rank", "#", "{:d}"), ("player", "player", None), ("games", "games", "{:d}"),
    ("total_points", "points", "{:+.1f}"), ("avg_points", "avg", "{:+.1f}"), ("avg_place", "avg place", "{:.2f}"),
    *[(f"place_{p}_rate", f"{p}{'stndrdth'[2 * min(p - 1, 3):][:2]} %", "%") for p in range(1, 5)],
    ("win_rate", "win %", "%"), ("deal_in_rate", "deal-in %", "%"), ("riichi_rate", "riichi %", "%"),
    ("call_rate", "call %", "%"), ("rating", "rating", "{:.2f}"),
]


def _cell(row: dict, column: str, fmt: str | None, sections: Sections) -> str:
    value = row[column]
    if column == "player":
        return f'<td class="t">{sections.player(value)}</td>'
    if column == "games" and row.get("incomplete_games"):
        return f'<td data-v="{value}" title="{row["incomplete_games"]} incomplete">{value}*</td>'
    return f'<td data-v="{"" if value is None else value}">{escape(fmt_value(value, fmt))}</td>'


def standings_tables(table: pl.DataFrame, players: pl.DataFrame, sections: Sections = EVERY_SECTION,
                     limit: int | None = None) -> str:
    """The standings ``table`` (every kind of game) of the players in ``players`` (with their ratings): one
    table per kind, the hand statistics (win %, …, over all of a player's games) only when every game is of
    one kind; past ``limit`` rows of a kind, its top ones and a line saying how many more there are."""
    table = table.filter(pl.col("player").is_in(players["player"].implode()))
    kinds = kinds_of(table)
    out = []
    for kind in kinds:
        every = table.filter(pl.col(KIND) == kind)
        rows = with_rating(every.head(limited(every.height, limit)), players, kind_seats(kind))
        columns = [(c, h, f) for c, h, f in STANDINGS if c in rows.columns and (len(kinds) == 1 or c not in HAND_RATES)
                   and not (c.startswith("place_") and int(c[6]) > kind_seats(kind))
                   and not (c in HAND_RATES and rows[c].null_count() == rows.height)]  # a sheet's: no hands
        head = "".join(f'<th class="{"t" if c == "player" else ""}">{escape(h)}</th>' for c, h, _ in columns)
        body = "".join("<tr>" + "".join(_cell(row, c, fmt, sections) for c, _, fmt in columns) + "</tr>"
                       for row in rows.iter_rows(named=True))
        ident = "standings" if len(kinds) == 1 else anchor("standings", kind)
        unranked = ('<p class="lead">– unranked: fewer games than --min-games.</p>'
                    if rows["rank"].null_count() else "")
        more = more_text(rows.height, every.height, "The top {shown} of {total} players", "--max-standings")
        out.append(("" if len(kinds) == 1 else f"<h3>{escape(kind)}</h3>")
                   + f'<table class="sortable" id="{escape(ident)}"><thead><tr>{head}</tr></thead>'
                   f'<tbody>{body}</tbody></table>{unranked}' + (f'<p class="lead">{escape(more)}</p>' if more else ""))
    return "".join(out)
