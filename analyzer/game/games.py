"""Game results: final scores, leftover sticks, places, uma, oka, penalties and game points.

``game_results(hands, rules)`` needs the scored hands (with ``_seq``, ``score_*``, ``_kyotaku_after``) and
returns one row per game and seat with the columns of :data:`analyzer.core.schema.GAMES_SCHEMA`, plus
``leftover_sticks`` (points from sticks left on the table that this player received at the end),
``chombo`` (chombo count) and ``complete``: false for a fragment (the game does not start at E1 with nothing on
the table) or a game that does not end where its rules end it (:mod:`analyzer.game.game_end`); the pipeline also
sets it false for a game with rejected rows.

Places: by final score before leftover sticks; equal scores are ordered by seat (``tie_rule = "seat"``) or
share the better place with uma and oka averaged over the places they span (``"split"``).

:func:`settle` and :func:`games_by_place` are the settlement on its own, from one row per game with each seat's
final score in columns: the hand records' games and the game-level sheets' (:mod:`analyzer.tournament.sheets`) are settled
by the same expressions. A ``session`` or ``table`` column of the input is kept on each game's rows
(:data:`GAME_LABELS`, as text).
"""

from __future__ import annotations

import polars as pl

from analyzer.game.floating_uma import floating_uma_exprs
from analyzer.game.game_end import game_end_ok
from analyzer.game.per_game import GAME_RULES, PER_GAME_COLUMNS, uma_exprs
from analyzer.core.rules import Rules
from analyzer.core.schema import GAMES_SCHEMA, PLAYER_COLUMNS, SCORE_COLUMNS, SEATS

GAME = "game_id"
# Where a game was played, kept from the input when it has the column: a tournament's session and table.
GAME_LABELS = ("session", "table")


def _last_rows(hands: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """The last row of each game (scores after it, sticks left) with the game's chombo count per seat.

    The hands are in replay order (:mod:`analyzer.game.replay`): a game's totals are segment sums, read on its
    last row."""
    start, end = pl.col("_game_start"), pl.col("_game_end")
    chombo = pl.col("result") == "chombo"
    # The k-th first row and the k-th last row belong to the same game: two filters side by side. A game's
    # chombo count is the running count on its last row minus the running count on the game before's last row.
    seating = hands.filter(start).select(
        *PLAYER_COLUMNS, *[pl.col(c).cast(pl.String).str.strip_chars() for c in GAME_LABELS if c in names])
    running = [f"_chombo_running_{s}" for s in SEATS]
    last = hands.with_columns(
        *[(chombo & (pl.col("_loser") == s)).fill_null(False).cast(pl.Int64).cum_sum().alias(r)
          for s, r in zip(SEATS, running)],
    ).filter(end).select(
        GAME, "_game", *SCORE_COLUMNS, pl.col("_kyotaku_after").alias("_leftover"),
        *[(pl.col(r) - pl.col(r).shift(1).fill_null(0)).alias(f"_chombo_{s}") for s, r in zip(SEATS, running)],
        *[c for c in PER_GAME_COLUMNS if c in names],
    )
    return pl.concat([last, seating], how="horizontal")


def _sum(terms) -> pl.Expr:
    terms = list(terms)
    return pl.sum_horizontal(terms) if terms else pl.lit(0, pl.Int64)


def tenhou_place_points(final_score: pl.Expr, uma: pl.Expr, penalty: pl.Expr, rules: Rules) -> pl.Expr:
    """Game points of places 2-4 as Tenhou pays them: the score to the nearest thousand, 500 away from zero
    (5500 -> 6, -7500 -> -8, as recomputed from 50 real logs), minus the return points, plus uma."""
    thousands = final_score.sign() * ((final_score.abs() + 500) // 1000)
    return thousands - rules.return_points / 1000 + uma - penalty


def _ordinals(rules: Rules) -> list[pl.Expr]:
    """``_ordinal_s``: the seat's rank by score, then seat (1-4, or 1-3 with three players)."""
    seats = rules.seats
    raw = [pl.col(SCORE_COLUMNS[s]) for s in seats]
    return [
        (1 + _sum((raw[t] > raw[s]).cast(pl.Int64) for t in seats)
         + _sum((raw[t] == raw[s]).cast(pl.Int64) for t in seats if t < s)).alias(f"_ordinal_{s}")
        for s in seats
    ]


def _places(rules: Rules, names: list[str]) -> list[pl.Expr]:
    """Per seat, on the game's row: ``_ordinal_s`` (score, then seat), ``place_s``, ``uma_s``, ``oka_s``,
    ``leftover_s``, ``final_s``, ``penalty_s``, ``points_s``. Four seats are four columns: no window over a
    game key, no sort."""
    seats = rules.seats
    raw = [pl.col(SCORE_COLUMNS[s]) for s in seats]
    ordinal = [pl.col(f"_ordinal_{s}") for s in seats]
    uma_of = uma_exprs(rules, names)  # the game's own uma when its part mixes them (analyzer.game.per_game)
    if rules.floating_uma:  # the row the game's count of players below the return points picks
        uma_of = floating_uma_exprs(rules)

    def uma_at(k: pl.Expr) -> pl.Expr:
        expr = pl.when(k == 1).then(uma_of[0])
        for place in range(2, len(uma_of)):
            expr = expr.when(k == place).then(uma_of[place - 1])
        return expr.otherwise(uma_of[-1])

    exprs = []
    for s in seats:
        if rules.tie_rule == "split":
            tied = [raw[t] == raw[s] for t in seats]
            n_tied = _sum(c.cast(pl.Int64) for c in tied)
            place = 1 + _sum((raw[t] > raw[s]).cast(pl.Int64) for t in seats)
            uma = _sum(pl.when(tied[t]).then(uma_at(ordinal[t])).otherwise(0.0) for t in seats) / n_tied
            oka = pl.when(place == 1).then(pl.lit(rules.oka) / n_tied).otherwise(0.0)
        else:
            place, uma = ordinal[s], uma_at(ordinal[s])
            oka = pl.when(ordinal[s] == 1).then(pl.lit(rules.oka, pl.Float64)).otherwise(0.0)
        exprs += [place.alias(f"_place_{s}"), uma.cast(pl.Float64).alias(f"_uma_{s}"),
                  oka.cast(pl.Float64).alias(f"_oka_{s}")]
    return exprs


def _results(rules: Rules, names: list[str]) -> list[pl.Expr]:
    place = {s: pl.col(f"_place_{s}") for s in rules.seats}
    n_first = _sum((p == 1).cast(pl.Int64) for p in place.values())
    exprs = []
    for s in rules.seats:
        if rules.leftover_sticks == "first":
            share = (pl.col("_leftover") * rules.riichi_deposit // n_first) // 100 * 100
            leftover = pl.when(place[s] == 1).then(share).otherwise(0)
        else:
            leftover = pl.lit(0)
        penalty = pl.col(f"_chombo_{s}") * rules.chombo_penalty
        if extra_penalty(s) in names:  # a sheet's own penalties, beside the chombo
            penalty = penalty + pl.col(extra_penalty(s))
        exprs += [leftover.cast(pl.Int64).alias(f"_leftover_{s}"), penalty.cast(pl.Float64).alias(f"_penalty_{s}")]
    return exprs


def extra_penalty(seat: int) -> str:
    """The column of the points a game's wide row takes off the player in ``seat`` besides chombo (a sheet's
    ``penalty``)."""
    return f"_extra_penalty_{seat}"


def _game_points(rules: Rules) -> list[pl.Expr]:
    seats = rules.seats
    final = [pl.col(SCORE_COLUMNS[s]).cast(pl.Int64) + pl.col(f"_leftover_{s}") for s in seats]
    uma, oka, penalty = ([pl.col(f"_{k}_{s}") for s in seats] for k in ("uma", "oka", "penalty"))
    exact = [(final[s] - rules.return_points) / 1000 + uma[s] + oka[s] - penalty[s] for s in seats]
    if rules.game_points_rounding == "exact":
        # to the millionth the totals count in: Polars divides by a literal as a product with its reciprocal on
        # some paths (11200 / 1000 -> 11.200000000000001), so the last bit would depend on the partition size
        points = [e.round(6) for e in exact]
    elif rules.game_points_rounding == "tenth":
        points = [e.round(1) for e in exact]
    else:  # first place takes minus the sum of the others, so the table sums to zero
        others = [tenhou_place_points(final[s], uma[s], penalty[s], rules) for s in seats]
        top = [pl.col(f"_ordinal_{s}") == 1 for s in seats]
        rest = _sum(pl.when(top[s]).then(0.0).otherwise(others[s]) for s in seats)
        points = [pl.when(top[s]).then(-rest - penalty[s]).otherwise(others[s]) for s in seats]
    return [*[f.alias(f"_final_{s}") for s, f in enumerate(final)],
            *[p.cast(pl.Float64).alias(f"_points_{s}") for s, p in enumerate(points)]]


def games_by_place(wide: pl.DataFrame, rules: Rules, names: list[str]) -> pl.DataFrame:
    """One row per game and seat (seats 0-2 with three players), in order of game, place and seat (the seat's
    ordinal: by score, then seat, which is the order of place and seat under either tie rule). Games come in
    ``_game`` order, the order of their ids (:func:`analyzer.game.replay.game_keys`).

    Each seat's rows are stacked, then moved to their positions (game, then ordinal) by one gather: the
    positions are a permutation known in advance, so its inverse is one scatter of row numbers, not a sort
    (half the time of sorting on the position)."""
    seats = len(rules.seats)
    game = pl.int_range(pl.len(), dtype=pl.Int64)
    per_seat = [
        wide.lazy().select(
            GAME,
            pl.col(PLAYER_COLUMNS[s]).alias("player"),
            pl.lit(s, pl.Int64).alias("seat"),
            pl.col(f"_final_{s}").alias("final_score"),
            pl.col(f"_place_{s}").cast(pl.Int64).alias("place"),
            pl.col(f"_uma_{s}").alias("uma"),
            pl.col(f"_oka_{s}").alias("oka"),
            pl.col(f"_penalty_{s}").alias("penalty"),
            pl.col(f"_points_{s}").alias("game_points"),
            pl.col(f"_leftover_{s}").alias("leftover_sticks"),
            pl.col(f"_chombo_{s}").cast(pl.Int64).alias("chombo"),
            pl.col("_complete").alias("complete"),
            (game * seats + pl.col(f"_ordinal_{s}") - 1).alias("_position"),
            *([GAME_RULES] if GAME_RULES in names else []),
            *[c for c in GAME_LABELS if c in wide.columns],
        )
        for s in rules.seats
    ]
    stacked = pl.concat(per_seat).collect()
    rows = pl.int_range(stacked.height, dtype=pl.Int64, eager=True)
    order = pl.zeros(stacked.height, dtype=pl.Int64, eager=True).scatter(stacked["_position"], rows)
    return stacked.drop("_position")[order]


def settle(wide: pl.LazyFrame, rules: Rules, names: list[str]) -> pl.LazyFrame:
    """One row per game with ``score_s`` (final scores before leftover sticks), ``_leftover`` (sticks left on
    the table), ``_chombo_s`` and optionally :func:`extra_penalty` columns: adds per seat ``_ordinal_s``,
    ``_place_s``, ``_uma_s``, ``_oka_s``, ``_leftover_s``, ``_penalty_s``, ``_final_s`` and ``_points_s``."""
    return (
        wide.with_columns(_ordinals(rules))
        .with_columns(_places(rules, names))
        .with_columns(_results(rules, names))
        .with_columns(_game_points(rules))
    )


def game_results(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    names = hands.collect_schema().names()
    wide = settle(_last_rows(hands, names), rules, names)
    # joined on the integer game key: a third of the cost of joining on the game id text
    wide = wide.join(game_end_ok(hands, rules), on="_game", how="left", maintain_order="left").with_columns(
        (~pl.col("_fragment").fill_null(False) & pl.col("_ends_right").fill_null(False)).alias("_complete")
    )
    # materialised here: the rows are put in place order by a gather of a permutation (_by_place);
    # the game's own ruleset is kept when its part mixes per-game options (analyzer.game.per_game)
    by_place = games_by_place(wide.collect(), rules, names)
    return by_place.lazy().select(*GAMES_SCHEMA, "leftover_sticks", "chombo", "complete",
                                  *[c for c in [GAME_RULES, *GAME_LABELS] if c in by_place.columns])
