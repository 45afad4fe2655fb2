"""Findings on a tournament's seating, across partitions: a player at two tables in one session, a player missing
from a session the others played (a note), a player the sheet puts in two teams.

A session's games may lie in different partitions, so each partition gives partial rows per session and
player (:meth:`SeatingSums.of_part`: its games there, the first and the last with their table and row), merged
in any grouping (:meth:`SeatingSums.combine`); :meth:`SeatingSums.findings` reads the findings off the merged
rows once. The rows are as many as the players times the sessions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyzer.findings.base import FINDING_SCHEMA, NO_LOG
from analyzer.tournament.sessions import session_order
from analyzer.tournament.teams import merge_teams, team_partials, two_teams
from analyzer.core.text import format_text

SEATING_SCHEMA = {"session": pl.String, "player": pl.String, "games": pl.Int64, "first_game": pl.String,
                  "first_table": pl.String, "last_game": pl.String, "last_table": pl.String, "last_file": pl.String,
                  "last_row": pl.Int64}
# the code of each note that records a value (the session missed), by its field: a hand's notes record their
# code (partial_game, settlement), and the notes are counted by code (CheckResult.notes_text)
NOTE_CODES = {"session": "missed_session"}


def _merge(frames: list[pl.DataFrame]) -> pl.DataFrame:
    if not frames:
        return pl.DataFrame(schema=SEATING_SCHEMA)
    return pl.concat(frames).group_by("session", "player").agg(
        pl.col("games").sum(),
        pl.col("first_game").min(), pl.col("first_table").sort_by("first_game").first(),
        pl.col("last_game").max(), *[pl.col(c).sort_by("last_game").last() for c in ("last_table", "last_file",
                                                                                    "last_row")],
    ).select(list(SEATING_SCHEMA))


def _finding(lf: pl.DataFrame, field: str, kind: str, recorded: pl.Expr, explanation: pl.Expr,
             game: pl.Expr, where: tuple[pl.Expr, pl.Expr]) -> pl.DataFrame:
    return lf.select(
        game.alias("game_id"), pl.lit(None, pl.String).alias("round"), pl.lit(None, pl.Int64).alias("honba"),
        pl.lit(None, pl.Int64).alias("hand_no"), pl.lit(None, pl.Int64).alias("seat"), pl.col("player"),
        pl.lit(field).alias("field"), pl.lit(kind).alias("kind"), recorded.alias("recorded"),
        pl.lit(None, pl.String).alias("computed"), explanation.alias("explanation"),
        where[0].alias("source_file"), where[1].alias("source_row"), *NO_LOG,
    ).cast(FINDING_SCHEMA)


@dataclass
class SeatingSums:
    sessions: list[pl.DataFrame] = field(default_factory=list)
    teams: list[pl.DataFrame] = field(default_factory=list)

    @classmethod
    def of_part(cls, rows: pl.DataFrame | None) -> SeatingSums:
        """The partial rows of a partition's sheet rows (typed, with ``_copy``: copies are not counted)."""
        if rows is None or rows.height == 0:
            return cls()
        counted = rows.filter(~pl.col("_copy") & pl.col("session").is_not_null()
                              & (pl.col("player").fill_null("") != "") & (pl.col("game_id") != ""))
        table = pl.col("table").cast(pl.String)
        seated = counted.sort("game_id", "_pos").group_by("session", "player").agg(
            pl.col("game_id").n_unique().cast(pl.Int64).alias("games"),
            pl.col("game_id").first().alias("first_game"), table.first().alias("first_table"),
            pl.col("game_id").last().alias("last_game"), table.last().alias("last_table"),
            pl.col("_file").last().alias("last_file"), pl.col("_row").last().alias("last_row"),
        ).select(list(SEATING_SCHEMA)).cast(SEATING_SCHEMA)
        return cls([seated] if seated.height else [], [team_partials(rows)])

    def combine(self, other: SeatingSums) -> SeatingSums:
        sessions, teams = self.sessions + other.sessions, self.teams + other.teams
        return SeatingSums([_merge(sessions)] if len(sessions) > 1 else sessions,
                           [merge_teams(teams)] if len(teams) > 1 else teams)

    def findings(self) -> pl.DataFrame:
        seated = _merge(self.sessions)
        twice = seated.filter(pl.col("games") > 1)
        at = pl.concat_str(pl.col("first_game"), pl.when(pl.col("first_table").is_not_null()).then(
            pl.concat_str(pl.lit(" (table "), pl.col("first_table"), pl.lit(")"))).otherwise(pl.lit("")),
            pl.lit(" and "), pl.col("last_game"), pl.when(pl.col("last_table").is_not_null()).then(
            pl.concat_str(pl.lit(" (table "), pl.col("last_table"), pl.lit(")"))).otherwise(pl.lit("")))
        frames = [_finding(
            twice, "session", "table", pl.col("session"),
            format_text("{} plays {} games in session {}: ", "player", "games", "session") + at,
            pl.col("last_game"), (pl.col("last_file"), pl.col("last_row")))]
        if seated.height:
            order = session_order(seated["session"])
            grid = pl.DataFrame({"session": order}).join(seated.select(pl.col("player").unique()), how="cross")
            missing = grid.join(seated, on=["session", "player"], how="anti").join(
                seated.group_by("session").agg(pl.len().alias("_others")), on="session")
            frames.append(_finding(
                missing, "session", "note", pl.col("session"),
                format_text("{} plays no game in session {}, which {} other players played", "player", "session",
                            "_others"), pl.lit(None, pl.String), (pl.lit(None, pl.String), pl.lit(None, pl.Int64))))
        teams = two_teams(merge_teams(self.teams))
        if teams.height:
            frames.append(_finding(
                teams, "team", "table", pl.col("teams").list.join(", "),
                format_text("{} is in {} teams on the sheet: {}; the first is used", "player",
                            pl.col("teams").list.len(), pl.col("teams").list.join(", ")),
                pl.col("_game"), (pl.col("_file"), pl.col("_row"))))
        return pl.concat(frames)
