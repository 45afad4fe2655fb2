"""The best win and the worst deal-in of each player, as one sortable integer *hand key* per seat and row.

A hand key is the value, then its place reversed — the game (``_game`` numbers games in game id order), the
round in name order (as the tables sort them), the honba — so that the largest key is the largest value at its
first place, and the maximum that the partial sums (:mod:`.sums`) take finds it without a sort. Here: how a
part lays the keys out (:func:`part_bounds`), how a key is made (:func:`hand_key`) and how the players' largest
keys are read back into value, game id, round and honba (:func:`best_hands`).
"""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from analyzer.core import segments as seg
from analyzer.players.columns import BEST
from analyzer.core.schema import ROUND_NAMES
from analyzer.scoring.validate import MAX_HONBA

# Scored rows have honba 0..MAX_HONBA (validation rejects others); the bits of the game number and of the
# largest value are read from the part, and must fit 63 bits with the place.
HONBA_BITS = MAX_HONBA.bit_length()
PLACE_BITS = 4 + HONBA_BITS
ROUNDS_BY_NAME = sorted(ROUND_NAMES)  # E1..E4, N1..N4, S1..S4, W1..W4
_NAME_RANK = [ROUNDS_BY_NAME.index(name) for name in ROUND_NAMES]  # by _round_idx


def hand_key(value: pl.Expr, game_bits: int) -> pl.Expr:
    """The hand key of ``value`` at the row's game, round and honba (``game_bits``: of :class:`PartBounds`)."""
    place = (pl.lit(pl.Series(_NAME_RANK, dtype=pl.Int64)).gather(pl.col("_round_idx")) * (1 << HONBA_BITS)
             + pl.col("honba"))
    return ((value * (1 << game_bits) + ((1 << game_bits) - 1 - pl.col("_game"))) * (1 << PLACE_BITS)
            + ((1 << PLACE_BITS) - 1 - place))


class PartBounds(NamedTuple):
    """What a part's sums are laid out by, read from its hands: ``rows``, the rows of its longest hand
    (``longest``) and the bits of the game number in a hand key (``game_bits``)."""

    rows: int
    longest: int
    game_bits: int


def part_bounds(hands: pl.LazyFrame) -> PartBounds:
    """The part's :class:`PartBounds`; the largest game number and value decide the hand keys' layout."""
    rows, longest, game, points = hands.select(
        pl.len(), pl.col("_rows_in_hand").max(), pl.col("_game").max(), pl.col("points").max()
    ).collect().row(0)
    longest = longest or 1
    bits = max(1, int(game or 0).bit_length())
    # a deal-in into a multiple ron pays every winner of its hand (`_deal_in_cost`): summed over the few rows
    # of hands with several rows
    deal_in = 0 if longest == 1 else hands.filter(
        (pl.col("_rows_in_hand") > 1) & pl.col("_paid") & (pl.col("result") == "ron")
    ).group_by("_hand").agg(pl.col("points").sum()).select(pl.col("points").max()).collect().item()
    value_bits = max(int(points or 0), int(deal_in or 0)).bit_length()
    if value_bits + bits + PLACE_BITS > 63:  # not with validated hands: values are limited by MAX_YAKUMAN
        raise ValueError(f"hand values up to 2^{value_bits} in games numbered up to 2^{bits} do not fit a hand key")
    return PartBounds(rows, longest, bits)


def game_ids_by_number(hands: pl.LazyFrame) -> pl.DataFrame:
    """``game_id`` by ``_game`` (one row per game), sorted by ``_game`` for :func:`best_hands` to look game
    numbers up."""
    return hands.filter(seg.starts("_game")).select("_game", "game_id").collect().sort("_game")


def best_hands(sums: pl.DataFrame, game_ids: pl.DataFrame, game_bits: int) -> pl.DataFrame:
    """The best win and the worst deal-in of each player (value, game, round, honba) from the largest hand keys
    ``_best_win_key``, ``_worst_deal_in_key`` of ``sums`` (:func:`analyzer.players.sums.per_seat_sums`);
    ``game_ids`` (:func:`game_ids_by_number`) gives the game id of a game number, found by a binary search of
    its sorted numbers (a join costs twice as much)."""
    decoded = {}
    for prefix, value in BEST.items():
        key, low = pl.col(f"_{prefix}_key"), 1 << PLACE_BITS
        place = low - 1 - key.mod(low)
        decoded |= {
            value: key // (1 << (game_bits + PLACE_BITS)),
            f"_{prefix}_number": (1 << game_bits) - 1 - (key // low).mod(1 << game_bits),
            f"{prefix}_round": pl.lit(pl.Series(ROUNDS_BY_NAME)).gather(place // (1 << HONBA_BITS)),
            f"{prefix}_honba": place % (1 << HONBA_BITS),
        }
    out = sums.with_columns(e.alias(n) for n, e in decoded.items())
    numbers, ids = game_ids["_game"], game_ids["game_id"]
    return out.with_columns(
        pl.when(pl.col(f"_{prefix}_number").is_not_null())
        .then(ids.gather(numbers.search_sorted(out[f"_{prefix}_number"].fill_null(0))))
        .alias(f"{prefix}_game")
        for prefix in BEST
    ).drop(*[f"_{prefix}_{c}" for prefix in BEST for c in ("key", "number")])
