"""A part's sums over its hand rows, per player: the costly step of the statistics.

Every count is a seat mask per row (:mod:`.seats`), two to a word, and every amount a column per seat. The
words, the amounts, each seat's longest renchan and its hand keys (:mod:`.best`) are summed over *runs* of
rows — consecutive rows with one seating (games in a row at one table share a run; a game's seat left empty in
three-player records is one seating), cut at :data:`~analyzer.players.seats.RUN_ROWS` rows — by one aggregation
on an integer run key; only then is each run split into its four seats (:func:`seat_rows`) and summed by
player name (:func:`per_seat_sums`): the group-by on names sees one row per run and seat, not four per hand row.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import polars as pl

from analyzer.core import segments as seg
from analyzer.players.best import PartBounds, hand_key
from analyzer.players.columns import BEST, COUNTS, LIMIT_BUCKETS, OPEN_COUNTS, SUMS
from analyzer.players.facts import NEEDS, WITH_EVENTS
from analyzer.players.seats import (
    ALL_SEATS, FIELD_BITS, MASKS_PER_WORD, RUN_ROWS, SEAT_FIELDS, SEAT_WORD_FIELDS, bit, has, seat_mask, seats_where,
)
from analyzer.core.schema import DELTA_COLUMNS, PLAYER_COLUMNS, SEATS
from analyzer.core.text import one_of


def chasing_riichi(s: int) -> tuple[pl.Expr, pl.Expr]:
    """(declared after another player's riichi, known) for seat ``s``: order by turn, then by seat order from
    the dealer (on :func:`analyzer.players.facts.hand_facts` with ``riichi_turn_*``)."""
    own = pl.col(f"_riichi_turn_{s}")
    order = (pl.lit(s) - pl.col("dealer")) % 4
    earlier = [
        bit("_hand_riichi", o)
        & ((pl.col(f"_riichi_turn_{o}") < own)
           | ((pl.col(f"_riichi_turn_{o}") == own) & ((pl.lit(o) - pl.col("dealer")) % 4 < order)))
        for o in SEATS if o != s
    ]
    others_known = pl.all_horizontal(
        ~bit("_hand_riichi", o) | pl.col(f"_riichi_turn_{o}").is_not_null() for o in SEATS if o != s
    )
    return pl.any_horizontal(earlier), own.is_not_null() & others_known


def _is_limit(names: list[str] | None) -> pl.Expr:
    """The hand's ``limit`` is one of ``names`` (None: no limit)."""
    if names is None:
        return pl.col("limit").is_null()
    return one_of(pl.col("limit"), names)


@cache  # building the expressions costs more than a small part's sums: once per set of inputs
def _seat_masks(inputs: frozenset[str]) -> dict[str, pl.Expr]:
    """Per count, the seat mask of the seats a row counts for (on :func:`analyzer.players.facts.hand_facts` with
    ``_win``, ``_deal_in``, ``_riichi_hand`` and ``_dealer`` added); counts whose inputs are missing are left out."""
    hand, exhaustive, result = pl.col("_counted_hand"), pl.col("_exhaustive"), pl.col("result")
    win, deal_in, riichi, dealer = pl.col("_win"), pl.col("_deal_in"), pl.col("_riichi_hand"), pl.col("_dealer")
    in_riichi, won, tenpai = pl.col("_riichi"), pl.col("_won"), pl.col("_tenpai")
    opened, closed = pl.col("_open"), pl.col("_closed")

    def on(condition: pl.Expr, mask: pl.Expr | int) -> pl.Expr:
        """``mask`` on the rows where ``condition`` is true, else no seat (a null condition is false)."""
        return pl.when(condition).then(mask).otherwise(pl.lit(0, pl.Int64))

    def without(mask: pl.Expr, seats: pl.Expr) -> pl.Expr:
        return mask - mask.and_(seats)

    everyone = pl.lit(ALL_SEATS, pl.Int64)
    masks = {
        "hands": on(hand, everyone),
        "dealer_hands": on(hand, dealer),
        "dealer_keeps": on(hand, dealer.and_(on(pl.col("_dealer_won") | (result == "abort"), everyone)
                                             .or_(on(exhaustive, tenpai)))),
        "wins": win,
        "tsumo_wins": on(pl.col("_paid_tsumo"), win),
        "riichi_wins": win.and_(in_riichi),
        "open_wins": win.and_(opened),
        "dama_wins": without(win.and_(closed), in_riichi),
        "deal_ins": deal_in,
        "riichi": riichi,
        "riichi_win": riichi.and_(won),
        "riichi_deal_in": riichi.and_(deal_in),
        "riichi_draw": on(exhaustive, riichi),
        "riichi_other_win": on(pl.col("_is_win"), without(without(riichi, won), deal_in)),
        "draws": on(hand & exhaustive, everyone),
        "draw_tenpai": on(hand & exhaustive, tenpai),
        "opened_hands": on(hand, opened),
        "_open_known_hands": on(hand, opened.or_(closed)),
        "deal_ins_in_riichi": deal_in.and_(in_riichi),
        "deal_ins_while_open": deal_in.and_(opened),
        "deal_ins_to_riichi": on(pl.col("_into_riichi"), deal_in),
        "deal_ins_to_open": on(pl.col("_into_open"), deal_in),
        "deal_ins_to_dama": on(pl.col("_into_dama") & ~pl.col("_into_unknown"), deal_in),
        **{bucket: on(_is_limit(names), win) for bucket, names in LIMIT_BUCKETS.items()},
        "yakuman": on(pl.col("limit").str.contains("yakuman"), win),
        "nagashi": on(result == "nagashi", seat_mask(pl.col("_winner"))),
        "chombo": on(result == "chombo", seat_mask(pl.col("_loser"))),
    }
    if "riichi_turn" in inputs:
        chasing = [chasing_riichi(s) for s in SEATS]
        # a hand of a game with events counts its chasing riichi by the events' order (:mod:`.play`), not here
        by_turns = ~pl.col(WITH_EVENTS) if "events" in inputs else pl.lit(True)
        masks |= {
            "_riichi_turn_known": riichi.and_(seats_where([pl.col(f"_riichi_turn_{s}").is_not_null() for s in SEATS])),
            "_chasing_riichi": on(by_turns, riichi.and_(seats_where([known & earlier for earlier, known in chasing]))),
            "_chasing_known": on(by_turns, riichi.and_(seats_where([known for _, known in chasing]))),
        }
    if "turn" in inputs:
        known_turn = pl.col("_turn").is_not_null()
        masks |= {"_win_turn_known": on(known_turn, win), "_deal_in_turn_known": on(known_turn, deal_in)}
    missing = {c for need, columns in NEEDS.items() if need not in inputs for c in columns}
    return {k: v for k, v in masks.items() if k not in missing}


@cache
def _seat_amounts(s: int, inputs: frozenset[str]) -> dict[str, pl.Expr]:
    """What one row adds to the sums of points and turns of the player in seat ``s`` (missing inputs left out)."""
    delta = pl.col(DELTA_COLUMNS[s])
    win, deal_in, riichi = has("_win", s), has("_deal_in", s), has("_riichi_hand", s)
    in_riichi = has("_riichi", s)
    others_tsumo = (pl.col("_paid_tsumo") & (pl.col("_winner") != s)).fill_null(False)

    def value(condition: pl.Expr, amount: pl.Expr) -> pl.Expr:
        return pl.when(condition.fill_null(False)).then(amount).otherwise(0).fill_null(0)

    amounts = {
        "points_received": delta.clip(lower_bound=0),
        "points_paid": -delta.clip(upper_bound=0),
        "tsumo_paid": value(others_tsumo, -delta.clip(upper_bound=0)),
        "_win_value_sum": value(win, pl.col("points")),
        "_riichi_win_value_sum": value(win & in_riichi, pl.col("points")),
        "_deal_in_cost_sum": value(deal_in, pl.col("_deal_in_cost")),
    }
    if "open" in inputs:
        opened, closed = has("_open", s), has("_closed", s)
        amounts |= {
            "_calls_sum": value(pl.col("_counted_hand") & opened, pl.col(f"_calls_{s}")),
            "_open_win_value_sum": value(win & opened, pl.col("points")),
            "_dama_win_value_sum": value(win & ~in_riichi & closed, pl.col("points")),
        }
    if "riichi_turn" in inputs:
        amounts["_riichi_turn_sum"] = value(riichi, pl.col(f"_riichi_turn_{s}"))
    if "turn" in inputs:
        amounts |= {"_win_turn_sum": value(win, pl.col("_turn")), "_deal_in_turn_sum": value(deal_in, pl.col("_turn"))}
    return amounts


AMOUNT_SUMS = ["points_received", "points_paid", "tsumo_paid", "_calls_sum", "_riichi_turn_sum", "_win_turn_sum",
               "_deal_in_turn_sum", "_win_value_sum", "_riichi_win_value_sum", "_open_win_value_sum",
               "_dama_win_value_sum", "_deal_in_cost_sum"]
COUNT_SUMS = [c for c in [*COUNTS, *OPEN_COUNTS, *SUMS] if c in _seat_masks(frozenset(NEEDS))]
ROW_SUMS = [*COUNT_SUMS, *AMOUNT_SUMS]


class SeatSums(NamedTuple):
    """What :func:`seat_rows` sums per seat: the counts as words (``_word{i}`` holds ``words[i]``, 32 bits each)
    and the amounts as columns of their own."""

    words: list[list[str]]
    amounts: list[str]


def seat_rows(facts: pl.LazyFrame, inputs: set[str], bounds: PartBounds) -> tuple[pl.LazyFrame, SeatSums]:
    """One row per run and seat (``player``): the counts of the run's rows for the player in the seat,
    the amounts (``AMOUNT_SUMS``), ``max_renchan``, and the keys ``_best_win_key`` / ``_worst_deal_in_key`` of
    the run's best win and worst deal-in; and what is summed (:class:`SeatSums`: the counts whose inputs exist,
    two to a word, and the amounts).

    Every count is a seat mask, two masks to a word; the words, the per-seat amounts, each seat's longest
    renchan and its hand keys go through one aggregation over the run of rows (see the module docstring), then
    each run is split into its four seats."""
    hand = pl.col("_counted_hand")
    masks = _seat_masks(frozenset(inputs))
    words = [list(masks)[i:i + MASKS_PER_WORD] for i in range(0, len(masks), MASKS_PER_WORD)]
    amounts = {s: _seat_amounts(s, frozenset(inputs)) for s in SEATS}
    # a dealership is one round of one game (a run of rows in replay order); its renchan is the number of
    # hands it kept the deal for, credited to the dealer on the dealership's first row
    dealership = pl.col("_dealership")
    game_bits = bounds.game_bits
    rows = facts.with_columns(
        pl.when(pl.col("_paid")).then(seat_mask(pl.col("_winner"))).otherwise(pl.lit(0, pl.Int64)).alias("_win"),
        pl.when(hand & pl.col("_dealt_in")).then(seat_mask(pl.col("_loser"))).otherwise(pl.lit(0, pl.Int64))
        .alias("_deal_in"),
        pl.when(hand).then(pl.col("_riichi")).otherwise(pl.lit(0, pl.Int64)).alias("_riichi_hand"),
        seat_mask(pl.col("dealer")).alias("_dealer"),
        hand.cast(pl.Int64).alias("_counted"),
        (pl.col("_game_start") | (pl.col("_round_idx") != pl.col("_round_idx").shift(1))).fill_null(True)
        .alias("_dealership"),
        (seg.starts(*PLAYER_COLUMNS) | (pl.int_range(pl.len(), dtype=pl.Int64) % RUN_ROWS == 0))
        .cast(pl.Int64).cum_sum().alias("_run"),
        hand_key(pl.col("points"), game_bits).alias("_win_key"),
        hand_key(pl.col("_deal_in_cost"), game_bits).alias("_deal_in_key"),
    ).with_columns(
        pl.col("_counted").cum_sum().alias("_counted_running"), seg.ends_from_starts(dealership).alias("_dealership_end"),
    ).with_columns(
        seg.total_of_running(pl.col("_counted_running"), pl.col("_counted"), dealership, pl.col("_dealership_end"))
        .alias("_dealer_hands")
    ).with_columns(
        pl.when(dealership & (pl.col("_dealer_hands") >= 1)).then(pl.col("_dealer_hands") - 1).alias("_renchan"),
    )
    # only sums in the aggregation (it runs per group); group_by_dynamic on run numbers: 2.5x faster than hashing
    word_names = [f"_word{i}" for i in range(len(words))]
    summed = [f"{k}_{s}" for s in SEATS for k in amounts[s]]
    largest = [f"{c}_{s}" for s in SEATS for c in ("_renchan", "_best_win_key", "_worst_deal_in_key")]
    per_run = rows.select(
        pl.col("_run").set_sorted(), *PLAYER_COLUMNS,
        *[pl.sum_horizontal(masks[k] * (1 << (SEAT_FIELDS * j)) for j, k in enumerate(word)).alias(name)
          for name, word in zip(word_names, words)],
        *[e.alias(f"{k}_{s}") for s in SEATS for k, e in amounts[s].items()],
        *[pl.when(pl.col("dealer") == s).then(pl.col("_renchan")).alias(f"_renchan_{s}") for s in SEATS],
        *[pl.when(has("_win", s)).then(pl.col("_win_key")).alias(f"_best_win_key_{s}") for s in SEATS],
        *[pl.when(has("_deal_in", s)).then(pl.col("_deal_in_key")).alias(f"_worst_deal_in_key_{s}") for s in SEATS],
    ).group_by_dynamic("_run", every="1i").agg(
        pl.col(*word_names, *summed).sum(), pl.col(*largest).max(), pl.col(*PLAYER_COLUMNS).first(),
    ).collect().lazy()  # read once per seat below: materialised (a cached plan is slower here)

    # A seat's fields of a word, moved to the bottom of their halves: the seat's two counts, 32 bits each. A
    # player's count in a part is at most 4 per row (one name in every seat), so up to 2^29 rows the halves
    # cannot overflow and the counts stay two to a word through the players' group-by.
    if 4 * bounds.rows >= 1 << (SEAT_FIELDS - 1):
        raise ValueError("a part of more than 2^29 rows does not fit the players' count fields: use partitions")

    def seat_word(word: int, s: int) -> pl.Expr:
        return (pl.col(f"_word{word}") // (1 << (FIELD_BITS * s))).and_(SEAT_WORD_FIELDS)

    per_seat = pl.concat([
        per_run.select(
            pl.col(PLAYER_COLUMNS[s]).alias("player"),
            *[seat_word(i, s).alias(f"_word{i}") for i in range(len(words))],
            *[pl.col(f"{k}_{s}").alias(k) for k in amounts[s]],
            pl.col(f"_renchan_{s}").alias("max_renchan"),
            *[pl.col(f"_{p}_key_{s}").alias(f"_{p}_key") for p in BEST],
        ).filter(pl.col("player").is_not_null())  # seat 3 of a three-player game
        for s in SEATS
    ])
    return per_seat, SeatSums(words, list(amounts[0]))


def per_seat_sums(rows: pl.LazyFrame, summed: SeatSums) -> pl.LazyFrame:
    """Per player, the counts of :data:`COUNT_SUMS`, the sums of :data:`AMOUNT_SUMS` (0 where their inputs are
    missing), ``max_renchan`` and the largest hand keys ``_best_win_key``, ``_worst_deal_in_key``."""
    keys = [f"_{p}_key" for p in BEST]
    word_names = [f"_word{i}" for i in range(len(summed.words))]
    counts = {k: (pl.col(f"_word{i}") // (1 << (SEAT_FIELDS * j))).and_((1 << SEAT_FIELDS) - 1)
              for i, word in enumerate(summed.words) for j, k in enumerate(word)}
    return rows.group_by("player").agg(
        pl.col(*word_names, *summed.amounts).sum(), pl.col("max_renchan", *keys).max()
    ).select(
        "player",
        *[counts[c].alias(c) if c in counts else pl.col(c) if c in summed.amounts else pl.lit(0, pl.Int64).alias(c)
          for c in ROW_SUMS],
        "max_renchan", *keys,
    )
