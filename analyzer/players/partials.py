"""One part's partial rows: per player, every column of :data:`~analyzer.players.columns.MERGE`.

A part always holds whole games, so facts of a whole game (renchan streaks) are computed inside it. The
columns come from three places joined by player: the games table (places, game points), the hand rows' sums
(:mod:`.sums`, with the best hands decoded by :mod:`.best`) and the yaku counts of the player's wins, kept as a
``count_map`` (a list of ``{yaku, count}``) that merges by adding counts of equal yaku.
"""

from __future__ import annotations

import polars as pl

from analyzer.players.best import best_hands, game_ids_by_number, part_bounds
from analyzer.players.columns import BEST, INT_PARTIALS, MERGE, PLACES, POINT_UNITS
from analyzer.players.facts import WITH_EVENTS, hand_facts, seat_inputs
from analyzer.players.play import CHASING, play_partials, play_sums
from analyzer.players.seats import at_seat
from analyzer.players.sums import per_seat_sums, seat_rows
from analyzer.core.schema import PLAYER_COLUMNS


def _yaku_names(schema: pl.Schema) -> pl.Expr | None:
    """The yaku of each win: computed from tiles, else as recorded (a list, or comma-separated text)."""
    if "yaku" in schema:
        return pl.col("yaku").list.eval(pl.element().struct.field("name").cast(pl.String))
    if "recorded_yaku" in schema:
        if schema["recorded_yaku"] == pl.String:
            return pl.col("recorded_yaku").str.split(",").list.eval(pl.element().str.strip_chars())
        return pl.col("recorded_yaku").cast(pl.List(pl.String))
    return None


def yaku_partials(hands: pl.LazyFrame) -> pl.LazyFrame | None:
    """player -> list of {yaku, count} over the player's paid wins; None without yaku columns."""
    yaku = _yaku_names(hands.collect_schema())
    if yaku is None:
        return None
    wins = hands.filter(pl.col("_paid")).select(
        at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player"), yaku.alias("yaku"),
    ).explode("yaku").drop_nulls("yaku")
    return count_map(wins.group_by("player", "yaku").agg(pl.len().cast(pl.Int64).alias("count")))


def count_map(counts: pl.LazyFrame) -> pl.LazyFrame:
    """Rows of (player, yaku, count) as one ``_yaku`` list of {yaku, count} per player, sorted by yaku."""
    return counts.group_by("player").agg(pl.struct("yaku", "count").sort_by("yaku").alias("_yaku"))


def _game_sums(games: pl.LazyFrame, chombo: bool = False) -> pl.LazyFrame:
    """Per player, the sums of the games table: games, places, points, busts, penalties (and the ``chombo``
    counts the games table holds, where no hand rows count them)."""
    place, final_score = pl.col("place"), pl.col("final_score")
    names = games.collect_schema().names()
    # each game's contribution as columns first, then plain sums (a filter inside an aggregation runs per group)
    return games.select(
        "player",
        pl.lit(1, pl.Int64).alias("games"),
        (~pl.col("complete")).cast(pl.Int64).alias("incomplete_games") if "complete" in names
        else pl.lit(0, pl.Int64).alias("incomplete_games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).alias("_points_units"),
        (pl.col("penalty").fill_null(0) * POINT_UNITS).round().cast(pl.Int64).alias("_penalty_units")
        if "penalty" in names else pl.lit(0, pl.Int64).alias("_penalty_units"),
        *[(place == p).cast(pl.Int64).alias(f"place_{p}") for p in PLACES],
        *[pl.when(place == p).then(final_score).otherwise(0).alias(f"_final_score_sum_{p}") for p in PLACES],
        (final_score < 0).cast(pl.Int64).alias("busts"),
        place.alias("_place_sum"),
        *([pl.col("chombo").fill_null(0).cast(pl.Int64)] if chombo else []),
    ).group_by("player").agg(pl.all().sum())


def game_partials(games: pl.LazyFrame) -> pl.LazyFrame:
    """Partial rows of games that have no hand records (a game-level sheet's, :mod:`analyzer.tournament.sheets`): the
    sums of the games table and their chombo; every hand count 0, no best hand, no yaku. The published table
    leaves a player's hand statistics empty while they have no hand counted."""
    per_game = _game_sums(games, chombo=True)
    have = per_game.collect_schema().names()
    return per_game.select(
        "player",
        *[(pl.col(c) if c in have else pl.lit(0 if MERGE[c] == "sum" else None)).cast(pl.Int64).alias(c)
          for c in INT_PARTIALS],
        *[pl.lit(None, pl.String).alias(f"{p}_{c}") for p in BEST for c in ("game", "round")],
        pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64}))).alias("_yaku"),
    )


def player_partials(hands: pl.LazyFrame, games: pl.LazyFrame, events: pl.LazyFrame | pl.DataFrame | None = None,
                    seats: pl.DataFrame | None = None) -> pl.LazyFrame:
    """Mergeable aggregates per player of one part (whole games): the columns of :data:`MERGE`. ``events``: the
    events table's rows of the part's games (whole games), which give the play statistics
    (:mod:`.play`); without them those sums are 0 (published as null). ``seats``: the events' ``hand_seats``
    table (:func:`analyzer.play.seats.hand_seats`) where the caller has it already (not made again; it alone
    is enough: its games are those with events)."""
    play = None
    if events is not None or seats is not None:
        play = (play_partials(hands, games, events) if seats is None else play_sums(hands, games, seats)).collect()
        with_events = (events if events is not None else seats).lazy().select(
            pl.col("game_id").cast(pl.String).unique()).collect().to_series()
        # hands of games with events count chasing riichi by the events' order, not by turns (:mod:`.sums`)
        hands = hands.with_columns(pl.col("game_id").cast(pl.String).is_in(with_events.implode()).alias(WITH_EVENTS))
    bounds = part_bounds(hands)
    rows, summed = seat_rows(hand_facts(hands, bounds.longest), seat_inputs(hands.collect_schema().names()), bounds)
    per_hand = best_hands(per_seat_sums(rows, summed).collect(), game_ids_by_number(hands), bounds.game_bits).lazy()
    per_game = _game_sums(games)
    yaku = yaku_partials(hands)
    joined = per_game
    for other in (per_hand, *([] if yaku is None else [yaku]), *([] if play is None else [play.lazy()])):
        joined = joined.join(other, on="player", how="left")
    no_yaku = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    have = set(joined.collect_schema().names())

    def partial(c: str) -> pl.Expr:
        if MERGE[c] != "sum":
            return pl.col(c).cast(pl.Int64)
        if c not in have:  # the play sums without events
            return pl.lit(0, pl.Int64).alias(c)
        total = pl.col(c).fill_null(0).cast(pl.Int64)
        return total + pl.col(CHASING[c]).fill_null(0) if play is not None and c in CHASING else total

    return joined.select(
        "player",
        *[partial(c) for c in INT_PARTIALS],
        *[pl.col(f"{p}_{c}").cast(pl.String) for p in BEST for c in ("game", "round")],
        no_yaku.alias("_yaku") if yaku is None else pl.col("_yaku").fill_null(no_yaku),
    )
