"""What a report page shows of a big input, and what it says about the rest.

A report stays a page a browser opens: past :data:`MAX_PLAYERS` players it has a section for the top players
only, past :data:`MAX_GAMES` games a section for that many games (the ones the page refers to first), and past
:data:`MAX_STANDINGS` players the standings list the top ones; the rest is counted, with the option that
widens it named (``--max-players``, ``--max-games``, ``--max-standings``; ``all`` for no limit). Long lists
(problems, rejected rows, incomplete games) show their first :data:`LISTED` rows, and a chart over many games
draws at most :data:`analyzer.report.svg.CHART_POINTS` points of its line.

Where a row was recorded (a log file, an input file and row) names files on the machine that ran the report,
which a reader of a published page does not have: left out unless ``sources`` (``--sources``) asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_TITLE = "analyzer report"
MAX_PLAYERS = 200  # player sections
MAX_GAMES = 2000  # game sections (about 7 KB each)
MAX_STANDINGS = 5000  # rows of each standings table
LISTED = 1000  # rows of the problems, the rejected rows and the incomplete games listed


@dataclass(frozen=True)
class ReportOptions:
    """The page's heading and how much of a big input it shows; a limit of None shows everything."""

    title: str = DEFAULT_TITLE
    max_players: int | None = MAX_PLAYERS
    max_games: int | None = MAX_GAMES
    max_standings: int | None = MAX_STANDINGS
    sources: bool = False  # where each game and row was recorded (paths on this machine)
    players: tuple[str, ...] = ()  # only these players' sections, standings rows and games (all when empty)

    def __post_init__(self) -> None:
        for name in ("max_players", "max_games", "max_standings"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name}: a number of at least 0, or None for no limit, not {value}")


def limited(count: int, limit: int | None) -> int:
    """How many of ``count`` a ``limit`` (None: no limit) shows."""
    return count if limit is None else min(count, limit)


def more_text(shown: int, total: int, said: str, option: str) -> str:
    """``said`` (formatted with ``shown`` and ``total``) and the option that shows more, as a sentence; empty
    when all ``total`` are shown: ``'The top 200 of 1,234 players. --max-standings N (or all) shows more.'``"""
    if shown >= total:
        return ""
    return f"{said.format(shown=f'{shown:,}', total=f'{total:,}')}. {option} N (or {option} all) shows more."
