"""A run's tournament tables: the standings after each session (:mod:`analyzer.tournament.sessions`) and the team standings
(:mod:`analyzer.tournament.teams`), kept as partial rows per partition and merged like the players' statistics.

:class:`TournamentSums` is what a partition adds (:meth:`TournamentSums.of_part`), merged in any grouping
(:meth:`TournamentSums.combine`), and finished once (:meth:`TournamentSums.finish`). The sessions' partial rows
are one per game and player (as many as the players times the sessions: what the table has), added up once at
the end; the teams' rows are merged when they pile up, each merge at least doubling what was merged before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyzer.players import DEFAULT_RANK_BY
from analyzer.tournament.sessions import finish_sessions, session_partials, stacked
from analyzer.tournament.teams import merge_teams, team_of, team_partials, team_standings

MERGE_ROWS = 200_000
MAX_FRAMES = 64  # the sessions' partial frames are stacked into one when there are more


def _merged(frames: list[pl.DataFrame], merge) -> list[pl.DataFrame]:
    """``frames`` merged into one when they hold more than :data:`MERGE_ROWS` rows and twice the first (the
    merge so far): a partial row is merged a logarithmic number of times."""
    rows = sum(f.height for f in frames)
    if len(frames) > 1 and rows > MERGE_ROWS and rows > 2 * frames[0].height:
        return [merge(frames)]
    return frames


@dataclass
class TournamentTables:
    """The finished tables: ``sessions`` (standings after each session), ``teams`` (team standings) and
    ``team_of`` (player -> team); each empty when the input has no sessions, or no teams."""

    sessions: pl.DataFrame
    teams: pl.DataFrame
    team_of: pl.DataFrame


@dataclass
class TournamentSums:
    sessions: list[pl.DataFrame] = field(default_factory=list)
    teams: list[pl.DataFrame] = field(default_factory=list)

    @classmethod
    def of_part(cls, games: pl.DataFrame, sheet_rows: pl.DataFrame | None) -> TournamentSums:
        """A partition's partial rows: its games table's sessions, its sheet rows' teams."""
        sessions = session_partials(games).collect()
        teams = team_partials(sheet_rows) if sheet_rows is not None else None
        return cls([sessions] if sessions.height else [], [teams] if teams is not None and teams.height else [])

    def combine(self, other: TournamentSums) -> TournamentSums:
        sessions = self.sessions + other.sessions  # one row per game and player: merging would not shrink them
        return TournamentSums([stacked(sessions)] if len(sessions) > MAX_FRAMES else sessions,
                              _merged(self.teams + other.teams, merge_teams))

    def finish(self, players: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY,
               teams_file: pl.DataFrame | None = None) -> TournamentTables:
        sessions = finish_sessions(stacked(self.sessions), rank_by)
        membership = team_of(merge_teams(self.teams), teams_file)
        membership = membership.join(players.select("player"), on="player", how="semi")
        return TournamentTables(sessions, team_standings(players, membership, rank_by), membership)
