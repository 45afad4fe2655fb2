"""The hand records' rows of each hand, from its outcomes and the replayed play: the rows in the old path's order
(a multiple ron in turn order from the discarder, one row per winner of a nagashi mangan), every kind of result's
columns, the recorded deltas with the riichi deposits, the tenpai at a draw, and the errors the old path raises
about a hand (what :func:`.rows.game_rows` does for one hand at a time)."""

from __future__ import annotations

import polars as pl

from analyzer.formats.records_play import SEATS, at_seat, hand_key
from analyzer.formats.records_tenpai import tenpai_from_hands
from analyzer.formats.records_tiles import indicators_text
from analyzer.formats.records_wins import (ROW_ERROR, WINNER_ERROR, WINS, wall, win_columns, win_flags,
                                          with_recorded_meld_set)
from analyzer.formats.replay import FLAG_NAMES

ROUND_WINDS = "ESWN"
SEAT_NAMES = ("discards", "calls", "kita", "opened", "ippatsu", "double_riichi", "nagashi", "riichi_turn")

_result = pl.col("result")
_players = pl.col("players")


def ordered_outcomes(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """The outcomes in the hand records' order: a hand whose first recorded outcome is a ron has its outcomes
    in turn order from that ron's discarder (stable), others in the log's order. Adds ``place`` (from 0)."""
    first = outcomes.filter(pl.col("outcome") == 0).select("hand_id", first_result="result", first_loser="loser")
    order = pl.when(pl.col("first_result") == "ron").then((pl.col("winner") - pl.col("first_loser")) % 4).otherwise(0)
    return (outcomes.join(first, on="hand_id", how="left").with_columns(_order=order)
            .sort("hand_id", "_order", "outcome", nulls_last=True)
            .with_columns(place=pl.int_range(pl.len()).over("hand_id")).drop("_order", "first_result", "first_loser"))


def _seats_where(condition) -> pl.Expr:
    """The seats 0-3 for which ``condition(seat)`` holds, in order (List Int8)."""
    return pl.concat_list([pl.when(condition(s)).then(pl.lit(s, pl.Int8)) for s in SEATS]).list.drop_nulls()


def _texts(seats: pl.Expr) -> pl.Expr:
    return seats.cast(pl.List(pl.String))


def nagashi_winners(rows: pl.LazyFrame) -> pl.LazyFrame:
    """A nagashi mangan is one row per winner (the eligible seats paid, else every eligible seat), in seat order:
    ``winner`` replaced, ``winner_index`` from 0 (null on other rows), ``nagashi_error`` when no seat is eligible."""
    eligible = _seats_where(lambda s: pl.col(f"nagashi_{s}").fill_null(False))
    paid = _seats_where(lambda s: pl.col(f"nagashi_{s}").fill_null(False) & (pl.col("deltas").list.get(s) > 0))
    winners = pl.when(paid.list.len() > 0).then(paid).otherwise(eligible)
    nagashi = _result == "nagashi"
    return (rows.with_columns(
        winner=pl.when(nagashi).then(winners).otherwise(pl.concat_list("winner")),
        nagashi_error=pl.when(nagashi & (eligible.list.len() == 0)).then(
            pl.lit("nagashi mangan recorded but no seat discarded only terminals and honours")),
    ).with_columns(winner_index=pl.int_ranges(0, pl.col("winner").list.len(), dtype=pl.Int8))
        .explode("winner", "winner_index", empty_as_null=True, keep_nulls=True)
        .with_columns(winner_index=pl.when(nagashi).then("winner_index")))


def _base(rows: pl.LazyFrame) -> pl.LazyFrame:
    """The columns every row of a hand has: ``round``, ``riichi``, ``turn``, ``riichi_turn_0..3``, ``calls_0..3``,
    ``open_0..3`` (null for the empty seat of three players)."""
    kyoku = pl.col("kyoku").cast(pl.Int64)
    wind = (kyoku // 4 % 4).replace_strict(dict(enumerate(ROUND_WINDS)), return_dtype=pl.String)
    discards = {name: at_seat("discards", pl.col(name)).fill_null(0).cast(pl.Int64)
                for name in ("robbed_seat", "last_seat")}
    turn = (pl.when(pl.col("robbed_event").is_not_null()).then(discards["robbed_seat"] + 1)
            .when(pl.col("last_event") == "draw").then(discards["last_seat"] + 1)
            .when(pl.col("last_event") == "discard").then(discards["last_seat"])
            .otherwise(0))
    seated = {s: _players > s for s in SEATS}
    return rows.with_columns(
        round=pl.concat_str(wind, (kyoku % 4 + 1).cast(pl.String)),
        turn=turn,
        **{f"riichi_turn_{s}": pl.when(seated[s]).then(pl.col(f"riichi_turn_{s}")).cast(pl.Int64) for s in SEATS},
        **{f"calls_{s}": pl.when(seated[s]).then(pl.col(f"calls_{s}").fill_null(0)).cast(pl.Int64) for s in SEATS},
        **{f"open_{s}": pl.when(seated[s]).then(pl.col(f"opened_{s}").fill_null(False)) for s in SEATS},
    )


def _deltas(rows: pl.LazyFrame) -> pl.LazyFrame:
    """``recorded_delta_0..3``: the recorded deltas, the riichi deposits booked on the hand's first row, a
    nagashi mangan's second winner's row zero."""
    first = pl.col("position") == 0
    later_winner = pl.col("winner_index").fill_null(0) > 0
    return rows.with_columns(
        (pl.when(_players > s).then(
            pl.when(later_winner).then(0)
            .otherwise(pl.col("deltas").list.get(s, null_on_oob=True)
                       - pl.when(first).then(1000 * pl.col("riichi").list.count_matches(str(s))).otherwise(0)))
         .cast(pl.Int64).alias(f"recorded_delta_{s}"))
        for s in SEATS)


def _tenpai(rows: pl.LazyFrame, held: pl.LazyFrame, melds: pl.LazyFrame) -> pl.LazyFrame:
    """``tenpai`` of draw and nagashi rows: as recorded, else all or none as the log says, else the seats paid
    for tenpai, else from the hands (:mod:`.records_tenpai`)."""
    recorded = pl.col("tenpai").is_not_null()
    paid_any = pl.col("deltas").list.eval(pl.element() != 0).list.any()
    nagashi, draw = _result == "nagashi", _result == "draw"
    need = (nagashi & ~recorded) | (draw & ~recorded & pl.col("all_tenpai").is_null() & ~paid_any)
    from_hands = tenpai_from_hands(rows.filter(need), held, melds)
    everyone = _seats_where(lambda s: _players > s)
    paid = _seats_where(lambda s: (_players > s) & (pl.col("deltas").list.get(s, null_on_oob=True) > 0))
    return rows.join(from_hands, on="hand_id", how="left").with_columns(
        tenpai=pl.when(~(nagashi | draw)).then(pl.lit(None, pl.List(pl.String)))
        .when(recorded).then(_texts(pl.col("tenpai")))
        .when(nagashi).then("hands_tenpai")
        .when(pl.col("all_tenpai")).then(_texts(everyone))
        .when(pl.col("all_tenpai").not_()).then(pl.lit([], pl.List(pl.String)))
        .when(paid_any).then(_texts(paid))
        .otherwise("hands_tenpai"))


def outcome_rows(outcomes: pl.LazyFrame, facts: pl.LazyFrame) -> pl.LazyFrame:
    """One row per hand record of every hand with outcomes, in order (``facts``: the hand's facts with its
    seats' as ``NAME_0..3``): the outcome's columns (the recorded hand, winning tile, melds and norths as
    ``recorded_hand``, ``recorded_win_tile``, ``melds_recorded``, ``recorded_kita``; its dora, ura and red fives
    as ``dora_han``, ``ura_han``, ``aka_han``), the hand's, ``place`` (the outcome's place in the records'
    order), ``position`` (the row's place in its hand) and ``winner_index`` (:func:`nagashi_winners`)."""
    recorded = outcomes.rename({"hand": "recorded_hand", "win_tile": "recorded_win_tile", "melds": "melds_recorded",
                                "kita": "recorded_kita", "dora": "dora_han", "ura": "ura_han", "aka": "aka_han"})
    recorded = recorded.with_columns(hand_key()).drop("game", "log_row")
    rows = ordered_outcomes(recorded).join(facts, on="hand_id", how="left").sort("hand_id", "place")
    return nagashi_winners(rows).with_columns(position=pl.int_range(pl.len()).over("hand_id"))


def hand_rows(rows: pl.LazyFrame, held: pl.LazyFrame, melds: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`outcome_rows` with the hand records' per-row columns (the winners' from their concealed tiles in
    ``held``, :func:`.records_hands.concealed`, and their ``melds``), and ``error_rank``, ``error`` (the first error the old path raises about the
    row's hand, else null)."""
    is_win = _result.is_in(WINS)
    wins = (rows.filter(is_win)
            .join(held.select("hand_id", "low", "high", winner="seat"), on=["hand_id", "winner"], how="left")
            .join(melds.select("hand_id", "melds", "meld_set", winner="seat"), on=["hand_id", "winner"], how="left")
            .with_columns(kita_held=at_seat("kita", pl.col("winner")).cast(pl.Int64)))
    wins = win_columns(win_flags(with_recorded_meld_set(wins)))
    others = rows.filter(~is_win).with_columns(
        winner=pl.col("winner").cast(pl.String),
        loser=pl.lit(None, pl.String), pao=pl.lit(None, pl.String),
        dora=indicators_text(pl.col("dora_shown")),
        recorded_points=pl.when(_result == "nagashi").then(pl.col("deltas").list.get(pl.col("winner").cast(pl.Int64),
                                                                                      null_on_oob=True)),
        draw_error=pl.when((_result == "draw") & (pl.col("draws") != wall(_players))).then(pl.concat_str(
            pl.lit("exhaustive draw after "), pl.col("draws").cast(pl.String), pl.lit(" draws (expected "),
            wall(_players).cast(pl.String), pl.lit(")"))),
        **{name: pl.lit(None, pl.Boolean) for name in FLAG_NAMES},
    )
    others = _tenpai(others, held, melds)
    rows = pl.concat([wins, others], how="diagonal_relaxed").sort("hand_id", "position")
    rows = _deltas(_base(rows))
    row_error = pl.coalesce("row_error", "nagashi_error", "draw_error")
    ranked = pl.when(pl.col("winner_error").is_not_null()).then(WINNER_ERROR + pl.col("outcome").cast(pl.Int64))
    ranked = ranked.when(row_error.is_not_null()).then(ROW_ERROR + 8 * pl.col("place").cast(pl.Int64))
    return rows.with_columns(error_rank=ranked, error=pl.coalesce("winner_error", row_error))
