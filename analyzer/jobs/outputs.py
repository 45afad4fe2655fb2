"""The outputs of one partition, and the last steps that put the partitions' outputs together.

:func:`assemble_part` turns the scored ruleset parts of one partition (:mod:`analyzer.scoring.parts`) into its hands,
games and rejects rows and the players' partial sums; :func:`finish_rejects`, :func:`finish_players` and
:func:`finish_yaku_stats` make the run's tables from what every partition gave.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import polars as pl

from analyzer.game.games import GAME_LABELS, game_results
from analyzer.jobs.events import seats_table
from analyzer.scoring.parts import ScoredPart
from analyzer.game.per_game import GAME_RULES
from analyzer.players import (
    DEFAULT_RANK_BY, combine_partials, finalize_players, finalize_yaku_stats, game_partials, player_partials,
)
from analyzer.scoring.rejects import rejects_of
from analyzer.core.rules import Rules
from analyzer.core.schema import DELTA_COLUMNS, SCORE_COLUMNS, SOURCE_FILE, SOURCE_ROW
from analyzer.scoring.tiles_stage import TILE_OUTPUTS
from analyzer.tournament.sheets import SheetPart, games_columns
from analyzer.tournament.standings import KIND, game_kind
from analyzer.scoring.validate import COPY_REASON_START

ADDED_COLUMNS = [
    "dealer",
    "replayed_honba",
    "kyotaku",
    "han",
    "fu",
    "yakuman",
    "base_points",
    "limit",
    "points",
    *DELTA_COLUMNS,
    *SCORE_COLUMNS,
    "problems",
]
SOURCE_COLUMNS = {SOURCE_FILE: "source_file", SOURCE_ROW: "source_row"}


def rules_label(rulesets: list[Rules], rules: Rules) -> str:
    """'tenhou' for a single ruleset, 'per game: tenhou, tenhou;aka_dora=false' when games differ."""
    names = sorted({r.name for r in rulesets} or {rules.name})
    return names[0] if len(names) == 1 else "per game: " + ", ".join(names)


@dataclass
class PartTables:
    """The outputs of the games of one partition (whole games): what a run appends per partition.

    ``rejects`` keeps ``_pos`` and ``_bit`` so that the rejects of all partitions sort into input order.
    ``hands`` is None when the partition has no hand records (only game-level sheet rows: ``sheet_rows``).
    """

    hands: pl.DataFrame | None
    games: pl.DataFrame
    rejects: pl.DataFrame
    partials: pl.DataFrame | None  # None when assembled without statistics
    rulesets: list[Rules]
    statistics_seconds: float = 0.0  # wall time of the players' partial sums
    sheet_rows: int = 0  # the game-level sheet rows scored (each a row of the games table)
    seats: pl.DataFrame | None = None  # the hand_seats table of the partition's events; None without events


def _input_columns(lf: pl.LazyFrame) -> list[str]:
    return [c for c in lf.collect_schema().names() if not c.startswith("_")]


def _hands_output(scored: pl.LazyFrame, checked: pl.LazyFrame, multiple: bool) -> pl.LazyFrame:
    inputs = _input_columns(checked)
    names = scored.collect_schema().names()
    tile_columns = [c for c in TILE_OUTPUTS if c in names]
    given = [c for c in ("given_han", "given_fu", "given_yakuman") if c in names]
    # Each ruleset's rows are in replay order already; rows of several rulesets interleave by game.
    ordered = scored.sort("_game", "_seq") if multiple else scored
    return ordered.select(
        *inputs,
        *[c for c in [*ADDED_COLUMNS[:6], *tile_columns, *given, *ADDED_COLUMNS[6:]] if c not in inputs],
        *[pl.col(k).alias(v) for k, v in SOURCE_COLUMNS.items()],
    )


def _game_rows(part: ScoredPart) -> pl.LazyFrame:
    """The games table rows of a part, each tagged with its game's ruleset and kind of game
    (:func:`analyzer.tournament.standings.game_kind`: the players and the game length, which a part's games may mix)."""
    games = game_results(part.scored, part.rules)
    if GAME_RULES in games.collect_schema().names():
        kinds = {r.name: game_kind(r) for r in part.members or [part.rules]}
        return games.rename({GAME_RULES: "rules"}).with_columns(
            pl.col("rules").replace_strict(list(kinds), list(kinds.values()), default=game_kind(part.rules),
                                           return_dtype=pl.String).alias(KIND)
        )
    return games.with_columns(pl.lit(part.rules.name).alias("rules"), pl.lit(game_kind(part.rules)).alias(KIND))


def assemble_part(parts: list[ScoredPart], statistics: bool = True, sheet: SheetPart | None = None,
                  events: pl.DataFrame | None = None, seats: pl.DataFrame | None = None) -> PartTables:
    """The outputs of one partition from its scored ruleset parts and its game-level sheet rows (``sheet``,
    :mod:`analyzer.tournament.sheets`); without ``statistics`` no players' partial sums (``partials`` is None: ``check``
    needs them only when it keeps the scored tables). ``events``: the events of the partition's games (the
    events table's rows of its game ids, :mod:`analyzer.jobs.events`), None where the run knows no events;
    ``seats``: instead, their ``hand_seats`` rows made with them
    (:meth:`~analyzer.jobs.events.EventSources.read_seats`)."""
    hands = _hand_tables(parts, statistics, events, seats) if parts else None
    if sheet is None:
        return hands
    started = time.perf_counter()
    sheet_partials = game_partials(sheet.games.lazy()).collect() if statistics else None
    seconds = time.perf_counter() - started
    if hands is None:
        return PartTables(None, sheet.games, sheet.rejects(), sheet_partials, sheet.rulesets, seconds,
                          sheet.scored_rows)
    games = pl.concat([hands.games.select(sheet.games.columns), sheet.games]).sort("game_id", "place", "seat")
    rejects = pl.concat([hands.rejects, sheet.rejects()]).sort("_pos", "column", "_bit")
    partials = None if hands.partials is None else pl.concat([hands.partials, sheet_partials],
                                                             how="vertical_relaxed")
    return PartTables(hands.hands, games, rejects, partials, hands.rulesets + sheet.rulesets,
                      hands.statistics_seconds + seconds, sheet.scored_rows, hands.seats)


def _hand_tables(parts: list[ScoredPart], statistics: bool, events: pl.DataFrame | None = None,
                 made_seats: pl.DataFrame | None = None) -> PartTables:
    scored = pl.concat([p.scored for p in parts], how="diagonal_relaxed")
    checked = pl.concat([p.checked for p in parts], how="diagonal_relaxed")
    hands_out = _hands_output(scored, checked, multiple=len(parts) > 1)
    # a part's game rows come in game id, place and seat order already; rows of several parts interleave
    # parts of one partition may come from inputs of other columns (logs beside a tournament sheet's session)
    games = pl.concat([_game_rows(p) for p in parts], how="diagonal_relaxed")
    if len(parts) > 1:
        games = games.sort("game_id", "place", "seat")
    hands_df, games_df, rejects_df = pl.collect_all([hands_out, games, rejects_of(checked, keep_order=True)])
    # a game with a rejected row is incomplete — unless the row was only a copy of one that was scored
    lost = rejects_df.filter(~pl.col("reason").str.starts_with(COPY_REASON_START))["game_id"]
    labels = [c for c in GAME_LABELS if c in games_df.columns]
    games_df = games_df.with_columns(pl.col("complete") & ~pl.col("game_id").is_in(lost.implode())).select(
        list(games_columns(labels)))
    rulesets = [r for p in parts for r in p.members or [p.rules]]
    # made once: written as the hand_seats table and read by the play statistics
    seats = None if events is None and made_seats is None else seats_table(events, hands_df, made_seats)
    if not statistics:
        return PartTables(hands_df, games_df, rejects_df, None, rulesets, seats=seats)
    started = time.perf_counter()
    partials = player_partials(scored, games_df.lazy(), events, seats=seats).collect()
    return PartTables(hands_df, games_df, rejects_df, partials, rulesets,
                      statistics_seconds=time.perf_counter() - started, seats=seats)


def finish_rejects(frames: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(frames, how="vertical").sort("_pos", "column", "_bit").drop("_pos", "_bit")


def merge_partials(partials: list[pl.DataFrame]) -> pl.DataFrame:
    """The players' partial sums of several partitions as one row per player (associative: merged rows merge)."""
    return combine_partials([p.lazy() for p in partials]).collect()


def finish_players(merged: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.DataFrame:
    """The players table from the merged partial sums (:func:`merge_partials`), ranked by ``rank_by``."""
    return finalize_players(merged.lazy(), rank_by).collect()


def finish_yaku_stats(merged: pl.DataFrame) -> pl.DataFrame:
    """Yaku counts per player and for all players, from the merged partial sums."""
    return finalize_yaku_stats(merged.lazy()).collect()


