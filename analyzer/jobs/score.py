"""The score job: each partition's hands, games and rejects, and the players' statistics as partial sums merged
across partitions (see :mod:`analyzer.run.job` for what a job is)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.jobs.outputs import (
    PartTables,
    assemble_part,
    finish_players,
    finish_rejects,
    finish_yaku_stats,
    merge_partials,
    rules_label,
)
from analyzer.io.columns import sheet_file
from analyzer.jobs.events import SEAT_EVENT_COLUMNS, EventSources, seats_table, with_log_sources
from analyzer.io.load import prepare_input
from analyzer.scoring.parts import ScoredPart, score_parts, unique_rulesets
from analyzer.players import DEFAULT_RANK_BY
from analyzer.game.problems import rows_with_problems
from analyzer.scoring.rejects import reasons_summary
from analyzer.ratings import (
    RatingOptions, compute_ratings, game_times, rating_rows, sessions_with_ratings, stacked as stacked_ratings,
    with_ratings,
)
from analyzer.ratings.order import GAME_TIMES_SCHEMA, PLAYED_AT
from analyzer.ratings.platform import finish_platform_ranks, part_rows, recorded_ranks, with_latest
from analyzer.core.rules import Rules, load_rules
from analyzer.run.job import PartOutput, RunInfo
from analyzer.run.sink import Sink
from analyzer.core.schema import SHEET_ROW
from analyzer.tournament.sheets import SheetPart, score_sheet
from analyzer.tournament.standings import finish_standings, merge_standings, standings_partials_of_part
from analyzer.tournament.teams import read_teams
from analyzer.tournament.sums import TournamentSums

# The partitions' partial rows (one per player and partition, ~75 columns: about 0.6 kB each) are merged into one
# row per player once this many pile up, and at least twice the rows of the merge so far: memory stays flat
# however many partitions a run has (at most about three times the player pool), and a pool as big as a
# partition's rows (a game-level sheet: every player in every partition) is merged every other partition.
MERGE_PARTIALS_ROWS = 200_000

# The hands table of a run whose input is only game-level sheets: empty (the sheet's rows are games rows).
NO_HANDS = {"game_id": pl.String, "source_file": pl.String, "source_row": pl.Int64}


def reject_reasons(rejects: pl.DataFrame) -> pl.DataFrame:
    """The rejects per kind of reason, most first: ``column``, ``reason``, ``rows``, ``example``
    (:func:`analyzer.scoring.rejects.reasons_summary`)."""
    return reasons_summary(rejects)


def _merge_due(frames: list[pl.DataFrame]) -> bool:
    """Whether partial rows are to be merged now (:data:`MERGE_PARTIALS_ROWS`); the first frame is the merge so far."""
    rows = sum(f.height for f in frames)
    return len(frames) > 1 and rows > MERGE_PARTIALS_ROWS and rows >= 3 * frames[0].height


@dataclass
class ScoreResult:
    """The four outputs of a run, as DataFrames, and the counts that must add up.

    ``rules`` is the ruleset given to :func:`analyzer.score` (or the default one); when the games were scored
    under their own ``rules`` column, ``rulesets`` lists every ruleset used and the games table says which game
    used which (column ``rules``).
    """

    hands: pl.DataFrame
    games: pl.DataFrame
    players: pl.DataFrame
    rejects: pl.DataFrame
    rules: Rules
    rulesets: list[Rules] = field(default_factory=list)
    yaku_stats: pl.DataFrame | None = None  # player, yaku, count, rate (player null: all players)
    standings: pl.DataFrame | None = None  # one ranking per kind of game (analyzer.tournament.standings)
    sheet_rows: int = 0  # rows of game-level sheets scored: each is a row of the games table, not of hands
    sessions: pl.DataFrame | None = None  # standings after each session (analyzer.tournament.sessions); None without
    teams: pl.DataFrame | None = None  # team standings (analyzer.tournament.teams); None without teams
    team_of: pl.DataFrame | None = None  # player -> team
    ratings: pl.DataFrame | None = None  # one row per player per game, in the order of games; None without
    platform_ranks: pl.DataFrame | None = None  # recorded ranks per player and game; None where none recorded
    hand_seats: pl.DataFrame | None = None  # one row per hand and seat (analyzer.play.seats); None without events
    log_problems: list = field(default_factory=list)  # the logs read for the run: files not read, copies, notes

    @property
    def rows_rejected(self) -> int:
        return self.rejects.select(pl.struct("file", "row").n_unique()).item() if self.rejects.height else 0

    @property
    def rows_read(self) -> int:
        return self.hands.height + self.sheet_rows + self.rows_rejected

    @property
    def reject_reasons(self) -> pl.DataFrame:
        """The rejects per reason, most first (:func:`reject_reasons`)."""
        return reject_reasons(self.rejects)

    @property
    def rows_with_problems(self) -> int:
        return rows_with_problems(self.hands)

    @property
    def rules_label(self) -> str:
        return rules_label(self.rulesets, self.rules)


@dataclass
class RunSummary:
    """What a run gave: counts, the (small) players, standings and yaku tables, where the tables went, and how
    it ran."""

    rows_scored: int
    rows_rejected: int
    rows_with_problems: int
    games: int
    players: pl.DataFrame
    rules: Rules
    rulesets: list[Rules]
    paths: dict[str, Path | str]
    partitions: int
    spilled: bool
    workers: int = 1  # processes of a cluster run; 1 on one machine
    seconds: float = 0.0  # wall time of the run
    statistics_seconds: float = 0.0  # of it, the players' statistics: partial sums, their merges, the table
    play_seconds: float = 0.0  # of it, the events: each partition's read and its hand_seats
    yaku_stats: pl.DataFrame | None = None
    # the rejects per reason, most first: column, reason, rows (the rejects table itself is in paths["rejects"])
    reject_reasons: pl.DataFrame = field(default_factory=lambda: reject_reasons(pl.DataFrame()))
    standings: pl.DataFrame | None = None  # one ranking per kind of game (analyzer.tournament.standings)
    sheet_rows: int = 0  # of the rows scored, those of game-level sheets (rows of the games table)
    sessions: pl.DataFrame | None = None  # standings after each session; None without sessions
    teams: pl.DataFrame | None = None  # team standings; None without teams
    team_of: pl.DataFrame | None = None  # player -> team
    notes: list[str] = field(default_factory=list)  # what the outputs could not hold (a table beyond a workbook)
    ratings: pl.DataFrame | None = None  # one row per player per game (analyzer.ratings); None without
    platform_ranks: pl.DataFrame | None = None  # recorded ranks (analyzer.ratings.platform); None without
    log_problems: list = field(default_factory=list)  # the logs read for the run (analyzer.jobs.inputs)

    @property
    def rows_read(self) -> int:
        return self.rows_scored + self.rows_rejected

    @property
    def rules_label(self) -> str:
        return rules_label(self.rulesets, self.rules)


@dataclass
class ScoreSummary:
    """What the partitions of a score run add up to, short of their row tables."""

    rejects: list[pl.DataFrame]  # each partition's rejects, still with the keys of input order
    partials: list[pl.DataFrame]  # players' partial sums, merged as they pile up
    standings: list[pl.DataFrame]  # the standings' partial sums per kind and player, merged likewise
    rulesets: list[Rules]
    rows_scored: int
    rows_with_problems: int
    games: int
    statistics_seconds: float = 0.0
    play_seconds: float = 0.0  # the events read and the hand_seats of each partition
    sheet_rows: int = 0
    has_hands: bool = True  # some partition had hand records (else the run's hands table is written empty)
    tournament: TournamentSums = field(default_factory=TournamentSums)  # sessions' and teams' partial rows
    ratings: list[pl.DataFrame] = field(default_factory=list)  # the rows the ratings are computed from, per part
    platform_ranks: list[pl.DataFrame] = field(default_factory=list)  # recorded ranks per game and seat, per part


def _stacked_when_many(frames: list[pl.DataFrame], most: int = 64) -> list[pl.DataFrame]:
    """The ratings' rows of the parts so far: one row per player per game, which merging would not shrink;
    stacked into one frame when they come in more than ``most`` frames."""
    return [stacked_ratings(frames)] if len(frames) > most else frames


def _games_in(games: pl.DataFrame) -> int:
    """The games of a games table in game id order: where the id changes (no hashing of the ids)."""
    return games.select((pl.col("game_id") != pl.col("game_id").shift(1)).fill_null(True).sum()).item()


@dataclass
class ScoredPartition:
    """One partition scored: its hand records, one part per ruleset, and its game-level sheet rows (or None)."""

    parts: list[ScoredPart]
    sheet: SheetPart | None = None
    times: pl.DataFrame | None = None  # each game's keys of the order of games (analyzer.ratings.order)
    ranks: pl.DataFrame | None = None  # the platform ranks its records give (analyzer.ratings.platform)
    events: pl.DataFrame | None = None  # the events of its games, where the run knows events (analyzer.jobs.events)
    seats: pl.DataFrame | None = None  # instead, the hand_seats rows made with them (EventSources.read_seats)
    play_seconds: float = 0.0  # what reading them took


class ScoreJob:
    """Score hand records: ``rules`` for every game, or None for each game's own ``rules`` column (see
    :func:`analyzer.scoring.parts.score_parts`); players ranked by ``rank_by``, and so are the standings of each kind
    of game (:mod:`analyzer.tournament.standings`), where players with fewer than ``min_games`` games go unranked.
    ``statistics=False`` leaves out the players' and the standings' partial sums (a sink that takes no
    players table needs none). ``input_kind``: each input file read as its columns say (``auto``), or every
    file as hand records (``hands``) or as game-level sheets (``games``, :mod:`analyzer.tournament.sheets`). ``teams``: a
    teams file (path) or frame (``player``, ``team``) for the team standings (:mod:`analyzer.tournament.teams`).
    ``events``: where the games' events are (:class:`~analyzer.jobs.events.EventSources`); with them each
    partition's events go to its outputs and the ``hand_seats`` table is written beside hands and games.

    The standings are kept as partial sums per kind and player, not as the games: like the players' partials
    they are as small as the player pool (times the kinds of game), however many games a run writes."""

    # the single-machine order of each row table: parts of a local plan come in it, others are sorted into it
    order = {"hands": "game_id", "games": "game_id", "hand_seats": "game_id"}

    def __init__(self, rules: Rules | str | Path | None = None, rank_by=DEFAULT_RANK_BY, statistics: bool = True,
                 min_games: int = 1, input_kind: str = "auto", teams: str | Path | pl.DataFrame | None = None,
                 ratings: RatingOptions | str | None = None, events: EventSources | None = None):
        self.rules = rules
        self.ruleset = load_rules(rules)
        self.rank_by = tuple(rank_by)
        self.statistics = statistics
        self.min_games = min_games
        sheet_file([], input_kind)  # an unknown kind is refused here, before any input is read
        self.input_kind = input_kind
        self.teams = read_teams(teams) if isinstance(teams, (str, Path)) else teams
        self.ratings = RatingOptions.of(ratings)
        self.events = None if events is None else events.with_seats()

    def run_part(self, rows: pl.LazyFrame) -> PartOutput:
        return self.output(self.score_partition(rows))[0]

    def score_partition(self, rows: pl.LazyFrame) -> ScoredPartition:
        """The partition's rows validated and scored: hand records one part per ruleset
        (:func:`analyzer.scoring.parts.score_parts`), game-level sheet rows as a :class:`~analyzer.tournament.sheets.SheetPart`."""
        raw = prepare_input(rows).collect()
        if self.events is not None:
            raw = with_log_sources(raw, self.events.imported)
        is_sheet = pl.col(SHEET_ROW) if self.input_kind == "auto" else pl.lit(self.input_kind == "games")
        sheet_rows = raw.select(is_sheet.sum()).item() if raw.height else 0
        times = game_times(raw)
        ranks = recorded_ranks(raw) if self.statistics else None
        if sheet_rows == 0:
            scored = ScoredPartition(score_parts(raw.lazy(), self.rules), times=times, ranks=ranks)
        elif sheet_rows == raw.height:
            scored = ScoredPartition([], score_sheet(raw, self.rules), times=times)
        else:
            hands = raw.filter(~is_sheet)
            hand_games = hands.select(pl.col("game_id").cast(pl.String).str.strip_chars().unique()).to_series()
            scored = ScoredPartition(score_parts(hands.lazy(), self.rules),
                                     score_sheet(raw.filter(is_sheet), self.rules, hand_games), times, ranks)
        if self.events is not None and self.events.known:  # its games' events (of hand records: sheets have none)
            started = time.perf_counter()
            games = raw.filter(~is_sheet) if sheet_rows else raw
            ids = games.select(pl.col("game_id").cast(pl.String).str.strip_chars()).to_series()
            if self.events.seats:
                scored.seats = self.events.read_seats(ids)
            else:
                scored.events = self.events.read(ids, SEAT_EVENT_COLUMNS)
            scored.play_seconds = time.perf_counter() - started
        return scored

    def output(self, scored: ScoredPartition) -> tuple[PartOutput, PartTables]:
        """A partition's output from its scored parts, and its tables (for a job built on this one)."""
        tables = assemble_part(scored.parts, statistics=self.statistics, sheet=scored.sheet, events=scored.events,
                               seats=scored.seats)
        times = scored.times if scored.times is not None else pl.DataFrame(schema=GAME_TIMES_SCHEMA)
        tables.games = tables.games.join(times.select("game_id", PLAYED_AT), on="game_id", how="left",
                                         maintain_order="left")  # when each game was played, for readers to sort
        hand_rows = 0 if tables.hands is None else tables.hands.height
        summary = ScoreSummary(
            rejects=[tables.rejects], partials=[] if tables.partials is None else [tables.partials],
            standings=[standings_partials_of_part(tables.games, tables.partials)] if self.statistics else [],
            rulesets=tables.rulesets, rows_scored=hand_rows + tables.sheet_rows,
            rows_with_problems=0 if tables.hands is None else rows_with_problems(tables.hands),
            games=_games_in(tables.games), statistics_seconds=tables.statistics_seconds,
            sheet_rows=tables.sheet_rows, has_hands=tables.hands is not None,
            tournament=TournamentSums.of_part(tables.games, scored.sheet.rows if scored.sheet else None)
            if self.statistics else TournamentSums(),
            ratings=[rating_rows(tables.games, times)] if self.statistics and self.ratings.enabled else [],
            platform_ranks=[r for r in [part_rows(scored.ranks, tables.games, times)] if r is not None],
        )
        rows = hand_rows + tables.sheet_rows + tables.rejects.select(pl.col("_pos").n_unique()).item() + (
            scored.sheet.other_seats if scored.sheet is not None else 0)  # a wide sheet: its rows counted by seat
        row_tables = {"games": tables.games} if tables.hands is None else {"hands": tables.hands,
                                                                           "games": tables.games}
        if scored.events is not None or scored.seats is not None:  # every partition gives the table
            started = time.perf_counter()
            row_tables["hand_seats"] = tables.seats if tables.seats is not None else seats_table(
                scored.events, made=scored.seats)
            summary.play_seconds = scored.play_seconds + time.perf_counter() - started
        return PartOutput(row_tables, summary, rows), tables

    def combine(self, first: ScoreSummary, second: ScoreSummary) -> ScoreSummary:
        partials, seconds = first.partials + second.partials, first.statistics_seconds + second.statistics_seconds
        if _merge_due(partials):  # keep them as small as the player pool
            started = time.perf_counter()
            partials = [merge_partials(partials)]
            seconds += time.perf_counter() - started
        standings = first.standings + second.standings
        if _merge_due(standings):
            standings = [merge_standings(standings)]
        return ScoreSummary(
            rejects=first.rejects + second.rejects, partials=partials, standings=standings,
            rulesets=unique_rulesets(first.rulesets + second.rulesets),
            rows_scored=first.rows_scored + second.rows_scored,
            rows_with_problems=first.rows_with_problems + second.rows_with_problems,
            games=first.games + second.games, statistics_seconds=seconds,
            play_seconds=first.play_seconds + second.play_seconds,
            sheet_rows=first.sheet_rows + second.sheet_rows, has_hands=first.has_hands or second.has_hands,
            tournament=first.tournament.combine(second.tournament),
            ratings=_stacked_when_many(first.ratings + second.ratings),
            platform_ranks=first.platform_ranks + second.platform_ranks,
        )

    def finish(self, summary: ScoreSummary, sink: Sink, info: RunInfo) -> RunSummary:
        started = time.perf_counter()
        if not summary.has_hands:
            sink.append("hands", pl.DataFrame(schema=NO_HANDS))
        players = yaku_stats = standings = tournament = ratings = platform_ranks = None
        rating_seconds = 0.0
        if self.statistics:
            merged = merge_partials(summary.partials)
            players, yaku_stats = finish_players(merged, self.rank_by), finish_yaku_stats(merged)
            standings = finish_standings(merge_standings(summary.standings), self.rank_by, self.min_games, players)
            tournament = summary.tournament.finish(players, self.rank_by, self.teams)
            if self.ratings.enabled:  # computed once, over every game in the order of games
                rating_started = time.perf_counter()
                ratings = compute_ratings(summary.ratings, self.ratings)  # empties the list: rows held once
                players = with_ratings(players, ratings, self.ratings.system)
                if tournament.sessions.height:
                    tournament.sessions = sessions_with_ratings(tournament.sessions, ratings)
                sink.append("ratings", ratings.table)
                rating_seconds = time.perf_counter() - rating_started
            platform_ranks = finish_platform_ranks(summary.platform_ranks)
            if platform_ranks is not None:
                players = with_latest(players, platform_ranks)
                sink.append("platform_ranks", platform_ranks)
            sink.append("players", players)
            for name in ("sessions", "teams"):  # tables of their own where the input has them
                if getattr(tournament, name).height:
                    sink.append(name, getattr(tournament, name))
        statistics = summary.statistics_seconds + time.perf_counter() - started - rating_seconds
        rejects = finish_rejects(summary.rejects)
        sink.append("rejects", rejects)
        seconds = info.seconds + time.perf_counter() - started
        paths = sink.commit({"seconds": {"run": round(seconds, 3), "statistics": round(statistics, 3),
                                         "ratings": round(rating_seconds, 3), "play": round(summary.play_seconds, 3)}})
        return RunSummary(
            rows_scored=summary.rows_scored,
            rows_rejected=rejects.select(pl.struct("file", "row").n_unique()).item() if rejects.height else 0,
            rows_with_problems=summary.rows_with_problems, games=summary.games, players=players,
            rules=self.ruleset, rulesets=summary.rulesets, paths=paths, partitions=info.partitions,
            spilled=info.spilled, workers=info.workers, seconds=seconds, statistics_seconds=statistics,
            play_seconds=summary.play_seconds,
            yaku_stats=yaku_stats, reject_reasons=reject_reasons(rejects), standings=standings,
            sheet_rows=summary.sheet_rows, notes=list(getattr(sink, "notes", [])),
            ratings=None if ratings is None else ratings.table, platform_ranks=platform_ranks,
            **({name: getattr(tournament, name) if getattr(tournament, name).height else None
                for name in ("sessions", "teams", "team_of")} if tournament is not None else {}),
        )
