"""A player's section: the figures grouped by topic (each with its definition on hover), the place and
cumulative-points charts, the best hand and the biggest deal-in with their yaku, and the yaku frequency."""

from __future__ import annotations

from functools import partial
from html import escape

from analyzer.report.glossary import STAT_GROUPS
from analyzer.report.markup import EVERY_SECTION, Sections, anchor, fmt_value
from analyzer.report.svg import bar_chart, line_chart
from analyzer.core.yaku_labels import yaku_label


def figure_boxes(row: dict, groups: list[tuple[str, list[tuple[str, str, str | None, str]]]]) -> list[str]:
    """A box per group of ``groups`` (as :data:`STAT_GROUPS`), each figure's definition as its ``title``."""
    boxes = []
    for group, figures in groups:
        items = "".join(
            f'<div class="stat" title="{escape(definition)}"><span>{escape(label)}</span>'
            f"<b>{escape(fmt_value(row.get(column), fmt))}</b></div>"
            for label, column, fmt, definition in figures
        )
        boxes.append(f'<div class="group"><h4>{escape(group)}</h4>{items}</div>')
    return boxes


def stat_groups(row: dict) -> str:
    """The figures of :data:`STAT_GROUPS`, one box per group; only the results for a player without hand
    records (a game-level sheet's: every hand figure is empty)."""
    boxes = figure_boxes(row, STAT_GROUPS if row.get("hands") is not None else STAT_GROUPS[:1])
    return f'<div class="stats">{"".join(boxes)}</div>'


def hand_ref(row: dict, prefix: str, label: str, detail: str | None, sections: Sections = EVERY_SECTION) -> str:
    """``Best hand: 11,600 points in g1 E4-0: ron from Baba, 4 han 40 fu, 11,600 — Riichi (立直)``, the game
    linked where it has a section."""
    points = row.get(f"{prefix}_points")
    if points is None:
        return f"{escape(label)}: none"
    where = (f"{escape(label)}: {points:,} points in {sections.game(row[f'{prefix}_game'])} "
             f"{escape(str(row[f'{prefix}_round']))}-{row[f'{prefix}_honba']}")
    return where + (f": {escape(detail)}" if detail else "")


def _points_tip(game_ids: list[str], points: list[float], cumulative: list[float], i: int) -> str:
    """The tooltip of position ``i`` of the cumulative points: the start, or the game, its points, the total."""
    return "start" if i == 0 else f"{game_ids[i - 1]}: {points[i - 1]:+.1f} (total {cumulative[i]:+.1f})"


def player_section(row: dict, points: list[float], game_ids: list[str], yaku: list[tuple[str, int, float]],
                   notes: tuple[str | None, str | None], rating_figures: str = "",
                   sections: Sections = EVERY_SECTION, play: str = "") -> str:
    name = row["player"]
    places = bar_chart(["1st", "2nd", "3rd", "4th"], [row[f"place_{p}"] for p in range(1, 5)],
                       title=f"Places of {name}", value_format="{:d}", x_title="place", y_title="games")
    cumulative, total = [0.0], 0.0  # from 0 before the first game
    for p in points:
        total += p
        cumulative.append(round(total, 1))
    line = line_chart({name: cumulative}, x_labels=[str(i) for i in range(len(cumulative))],
                      title=f"Cumulative game points of {name}", baseline=0.0,
                      x_title="games played", y_title="game points (total)",
                      point_titles=partial(_points_tip, game_ids, points, cumulative))
    top = max((c for _, c, _ in yaku), default=1)
    yaku_rows = "".join(
        f'<tr><td class="t">{escape(yaku_label(y))}</td><td>{c}</td><td>{100 * (r or 0):.1f}%</td>'
        f'<td class="t"><span class="ybar" style="width:{80 * c / top:.0f}px"></span></td></tr>'
        for y, c, r in yaku
    )
    yaku_html = (f'<table class="sortable yaku"><thead><tr><th class="t">yaku</th><th>wins</th><th>of wins</th>'
                 f"<th></th></tr></thead><tbody>{yaku_rows}</tbody></table>") if yaku else "<p>No yaku recorded.</p>"
    best = hand_ref(row, "best_win", "Best hand", notes[0], sections)
    worst = hand_ref(row, "worst_deal_in", "Biggest deal-in", notes[1], sections)
    hands = (f'<p class="hands-of">{best}<br>{worst}</p>'
             f"<details><summary>yaku frequency</summary>{yaku_html}</details>") if row.get("hands") is not None else ""
    return (
        f'<section class="player" id="{escape(anchor("player", name))}"><h3>{escape(name)} '
        f'<small>(rank {row["rank"]})</small></h3>{stat_groups(row)}{play}'
        f'<div class="charts"><figure>{places}<figcaption>place distribution</figcaption></figure>'
        f"<figure>{line}<figcaption>cumulative game points over {len(points)} game(s)</figcaption></figure>"
        f"{rating_figures}</div>"
        f"{hands}</section>"
    )
