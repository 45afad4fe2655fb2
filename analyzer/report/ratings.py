"""The report's ratings (:mod:`analyzer.ratings`): each player's rating over their games as a line chart, and the
rating of each standings row (the rating of the standings' player count)."""

from __future__ import annotations

from functools import partial

import polars as pl

from analyzer.report.svg import line_chart

SYSTEM_NAMES = {"tenhou": "Tenhou R", "openskill": "openskill (mu - 3 sigma)"}


def system_of(players: pl.DataFrame) -> str | None:
    """The rating system of a players table, or None without ratings."""
    if "rating_system" not in players.columns or players.height == 0:
        return None
    return players["rating_system"].drop_nulls().first()


def with_rating(rows: pl.DataFrame, players: pl.DataFrame, seats: int) -> pl.DataFrame:
    """Standings rows (``player``) with ``rating``: each player's final rating of ``seats``-player games."""
    column = f"rating_{seats}p"
    if column not in players.columns:
        return rows
    return rows.join(players.select("player", pl.col(column).alias("rating")), on="player", how="left",
                     maintain_order="left")


def rating_charts(ratings: pl.DataFrame | None, system: str | None) -> dict[str, str]:
    """Per player, a figure per player count: the rating before the first game and after each game (tooltips:
    the game, the place, the change)."""
    if ratings is None or ratings.height == 0 or system is None:
        return {}
    label = SYSTEM_NAMES.get(system, system)
    charts: dict[str, str] = {}
    grouped = ratings.group_by("player", "players", maintain_order=True).agg(
        "game_id", "place", "game", "rating_before", "rating_after", "change")
    for row in grouped.sort("player", pl.col("players"), descending=[False, True]).iter_rows(named=True):
        values = [row["rating_before"][0], *row["rating_after"]]
        first = row["game"][0] - 1  # the games counted before this run (a season carried on)
        chart = line_chart({f"{label}, {row['players']} players": values},
                           x_labels=[str(first + i) for i in range(len(values))],
                           title=f"{label} of {row['player']} over {row['players']}-player games",
                           point_titles=partial(_rating_tip, row, first, values[0]), x_title="games played",
                           y_title=label)
        chart = chart.replace('class="chart line"', 'class="chart line rating"', 1)
        charts[row["player"]] = charts.get(row["player"], "") + (
            f"<figure>{chart}<figcaption>{label} after each {row['players']}-player game "
            f"(now {values[-1]:.2f})</figcaption></figure>")
    return charts


def _rating_tip(row: dict, first: int, start: float, i: int) -> str:
    """The tooltip of position ``i`` of a rating chart: the start, or the game, place and change."""
    if i == 0:
        return f"before game {first + 1}: {start:.2f}"
    return (f"game {row['game'][i - 1]}, {row['game_id'][i - 1]}: place {row['place'][i - 1]}, "
            f"{row['change'][i - 1]:+.2f} → {row['rating_after'][i - 1]:.2f}")


def platform_charts(table: pl.DataFrame | None) -> dict[str, str]:
    """Per player, the ranks their records give over their games (like nodocchi's): Tenhou's dan and R, Mahjong
    Soul's level (0 初心★1 … 15 魂天), each a line over the games with a recorded value."""
    if table is None or table.height == 0:
        return {}
    charts: dict[str, str] = {}
    grouped = table.group_by("player", maintain_order=True).agg("game_id", "dan", "dan_name", "rate",
                                                                "platform_rank", "level")
    for row in grouped.sort("player").iter_rows(named=True):
        figures = []
        for column, label, text in (("dan", "Tenhou dan (0 新人, 10 初段, 20 天鳳)", "dan_name"),
                                    ("rate", "Tenhou R (recorded)", "rate"),
                                    ("level", "Mahjong Soul level (0 初心★1, 15 魂天)", "platform_rank")):
            points = [(g, v, t) for g, v, t in zip(row["game_id"], row[column], row[text]) if v is not None]
            if not points:
                continue
            chart = line_chart({label: [v for _, v, _ in points]},
                               x_labels=[str(i + 1) for i in range(len(points))],
                               title=f"{label} of {row['player']} at the start of each game",
                               point_titles=[f"game {i + 1}, {g}: {t}" for i, (g, _, t) in enumerate(points)],
                               x_title="games with a recorded rank", y_title=label.split(" (")[0])
            chart = chart.replace('class="chart line"', 'class="chart line platform"', 1)
            figures.append(f"<figure>{chart}<figcaption>{label} as recorded at each game's start "
                           f"(latest {points[-1][2]})</figcaption></figure>")
        if figures:
            charts[row["player"]] = "".join(figures)
    return charts
