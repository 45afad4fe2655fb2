"""The published tables from merged partial rows: the players table (rates, averages, ``rank``) and the yaku
table, with the output columns and the ranking keys.

Only this step divides: rates and averages come from the merged sums and counts, so they do not depend on how
the games were split into parts. Every published column is defined in docs/statistics.md.
"""

from __future__ import annotations

import polars as pl

from analyzer.players.columns import LIMIT_BUCKETS, OPEN_COUNTS, PLACES, PLAY_THRESHOLDS, POINT_UNITS
from analyzer.players.partials import player_partials, yaku_partials
from analyzer.players.seats import at_seat
from analyzer.game.problems import has_code, problem_lists
from analyzer.core.schema import PLAYER_COLUMNS
from analyzer.core.text import one_of
from analyzer.scoring.validate import seat_of

PLAYER_COLUMNS_OUT = [
    "rank", "player", "games", "incomplete_games", "total_points", "avg_points",
    *[f"place_{p}" for p in PLACES], *[f"place_{p}_rate" for p in PLACES], "avg_place",
    *[f"avg_final_score_{p}" for p in PLACES], "busts", "bust_rate", "penalties",
    "points_received", "points_paid", "tsumo_paid",
    "hands", "dealer_hands", "wins", "win_rate", "tsumo_wins", "tsumo_rate", "avg_win_value",
    "riichi_wins", "avg_riichi_win_value", "open_wins", "avg_open_win_value", "dama_wins", "avg_dama_win_value",
    "deal_ins", "deal_in_rate", "avg_deal_in_cost",
    "deal_ins_in_riichi", "deal_ins_while_open", "deal_ins_to_riichi", "deal_ins_to_open", "deal_ins_to_dama",
    "riichi", "riichi_rate", "riichi_win_rate", "riichi_deal_in_rate", "riichi_draw_rate", "riichi_other_win_rate",
    "avg_riichi_turn", "chasing_riichi_rate",
    "opened_hands", "call_rate", "avg_calls",
    "draws", "draw_rate", "draw_tenpai", "draw_tenpai_rate", "dealer_keeps", "dealer_keep_rate", "max_renchan",
    "avg_win_turn", "avg_deal_in_turn",
    *LIMIT_BUCKETS, "yakuman", "nagashi", "chombo",
    "best_win_points", "best_win_game", "best_win_round", "best_win_honba",
    "worst_deal_in_points", "worst_deal_in_game", "worst_deal_in_round", "worst_deal_in_honba",
    # play statistics: from the events of the games (null without)
    "riichi_first_rate", "riichi_chased_rate", "ippatsu_rate", "ura_rate", "riichi_balance",
    "riichi_declaration_deal_ins", "riichi_declaration_deal_in_rate", "avg_riichi_waits", "riichi_multi_wait_rate",
    "avg_riichi_wait_left", "riichi_good_shape_rate", "riichi_furiten_rate", "avg_deal_in_shanten",
    "deal_in_tenpai_rate", *[f"deal_in_{t}_rate" for t in PLAY_THRESHOLDS], *[f"win_{t}_rate" for t in PLAY_THRESHOLDS],
    "avg_start_shanten", "tsumo_hits", "tsumo_hit_rate", "dealer_tsumo_hit_mangan_rate", "avg_first_call_turn",
    "ippatsu_cancel_rate", "kan_rate", "all_last_games", "all_last_keep_first_rate", "all_last_comeback_rate",
    "all_last_avoid_last_rate", *[f"avg_place_seat_{s}" for s in range(4)], "avg_win_turn_riichi",
    "avg_win_turn_open", "avg_win_turn_dama", "avg_dora_per_win",
]
# --rank-by keys: column -> True when larger is better
RANK_KEYS = {"total_points": True, "avg_points": True, "avg_place": False, "place_1": True, "games": True,
             "win_rate": True, "deal_in_rate": False}
DEFAULT_RANK_BY = ("total_points", "avg_place", "place_1")
# Figures of the hands a player played: empty (null) for a player whose games have no hand records (a game-level
# sheet's); chombo is counted from the sheet there.
HAND_FIGURES = [c for c in PLAYER_COLUMNS_OUT[PLAYER_COLUMNS_OUT.index("points_received"):] if c != "chombo"]
YAKU_STATS_COLUMNS = ["player", "yaku", "count", "rate"]


def _ratio(numerator: str, denominator: str) -> pl.Expr:
    return pl.when(pl.col(denominator) > 0).then(pl.col(numerator) / pl.col(denominator))


def _play_statistics() -> list[pl.Expr]:
    """The play statistics from their sums (:data:`~analyzer.players.columns.PLAY_SUMS`): every rate over the
    hands, riichi, wins, deal-ins or games that have events (the ``_play_*`` counts)."""
    riichi = "_play_riichi"
    declared = pl.col("riichi_declaration_deal_ins")
    return [
        _ratio("_riichi_first", riichi).alias("riichi_first_rate"),
        _ratio("_riichi_chased", riichi).alias("riichi_chased_rate"),
        _ratio("_ippatsu_wins", "_play_riichi_wins").alias("ippatsu_rate"),
        _ratio("_ura_wins", "_play_riichi_wins").alias("ura_rate"),
        _ratio("_riichi_balance_sum", "_riichi_balance_hands").alias("riichi_balance"),
        pl.when(pl.col("_play_hands") > 0).then(declared).alias("riichi_declaration_deal_ins"),
        pl.when(declared + pl.col(riichi) > 0).then(declared / (declared + pl.col(riichi)))
        .alias("riichi_declaration_deal_in_rate"),
        _ratio("_riichi_waits_sum", riichi).alias("avg_riichi_waits"),
        _ratio("_riichi_multi_wait", riichi).alias("riichi_multi_wait_rate"),
        _ratio("_riichi_wait_left_sum", riichi).alias("avg_riichi_wait_left"),
        _ratio("_riichi_good_shape", riichi).alias("riichi_good_shape_rate"),
        _ratio("_riichi_furiten", riichi).alias("riichi_furiten_rate"),
        _ratio("_deal_in_shanten_sum", "_play_deal_ins").alias("avg_deal_in_shanten"),
        _ratio("_deal_in_tenpai", "_play_deal_ins").alias("deal_in_tenpai_rate"),
        *[_ratio(f"_deal_in_{t}", "_play_deal_ins").alias(f"deal_in_{t}_rate") for t in PLAY_THRESHOLDS],
        *[_ratio(f"_win_{t}", "_play_wins").alias(f"win_{t}_rate") for t in PLAY_THRESHOLDS],
        _ratio("_start_shanten_sum", "_play_hands").alias("avg_start_shanten"),
        pl.when(pl.col("_play_hands") > 0).then(pl.col("tsumo_hits")).alias("tsumo_hits"),
        _ratio("tsumo_hits", "_play_hands").alias("tsumo_hit_rate"),
        _ratio("_dealer_tsumo_hit_mangan", "_dealer_tsumo_hits").alias("dealer_tsumo_hit_mangan_rate"),
        _ratio("_first_call_turn_sum", "_first_call_hands").alias("avg_first_call_turn"),
        _ratio("_ippatsu_cancels", "_play_calls").alias("ippatsu_cancel_rate"),
        _ratio("_kan_hands", "_play_hands").alias("kan_rate"),
        pl.when(pl.col("_play_games") > 0).then(pl.col("all_last_games")).alias("all_last_games"),
        _ratio("_all_last_kept_first", "_all_last_entered_first").alias("all_last_keep_first_rate"),
        _ratio("_all_last_comebacks", "_all_last_entered_lower").alias("all_last_comeback_rate"),
        _ratio("_all_last_avoided_last", "_all_last_entered_last").alias("all_last_avoid_last_rate"),
        *[_ratio(f"_place_sum_seat_{s}", f"_games_seat_{s}").alias(f"avg_place_seat_{s}") for s in range(4)],
        *[_ratio(f"_{kind}_win_turn_sum", f"_{kind}_win_turn_known").alias(f"avg_win_turn_{kind}")
          for kind in ("riichi", "open", "dama")],
        _ratio("_dora_sum", "_play_wins").alias("avg_dora_per_win"),
    ]


def rank_expr(rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.Expr:
    """Rank 1 = best by the ``rank_by`` keys in order; players equal on every key share the rank."""
    unknown = [k for k in rank_by if k not in RANK_KEYS]
    if unknown or not rank_by:
        raise ValueError(f"rank keys must be among {', '.join(RANK_KEYS)}; got {', '.join(unknown) or 'none'}")
    # each key as a rank (1 = best), combined lexicographically into one dense integer order
    parts = [pl.col(k).rank("dense", descending=RANK_KEYS[k]).fill_null(pl.len() + 1).cast(pl.Int64) for k in rank_by]
    key = pl.struct(parts)
    return key.rank("min").cast(pl.Int64)


def finalize_players(partials: pl.LazyFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.LazyFrame:
    """The published players table from merged partials, ranked (ties of rank by name)."""
    no_open = pl.col("_open_known_hands") == 0
    return (
        partials.with_columns((pl.col("_points_units") / POINT_UNITS).alias("total_points"),
                              (pl.col("_penalty_units") / POINT_UNITS).alias("penalties"))
        .with_columns(
            _ratio("total_points", "games").alias("avg_points"),
            _ratio("_place_sum", "games").alias("avg_place"),
            *[_ratio(f"place_{p}", "games").alias(f"place_{p}_rate") for p in PLACES],
            *[_ratio(f"_final_score_sum_{p}", f"place_{p}").alias(f"avg_final_score_{p}") for p in PLACES],
            _ratio("busts", "games").alias("bust_rate"),
            _ratio("wins", "hands").alias("win_rate"),
            _ratio("tsumo_wins", "wins").alias("tsumo_rate"),
            _ratio("deal_ins", "hands").alias("deal_in_rate"),
            _ratio("riichi", "hands").alias("riichi_rate"),
            *[_ratio(f"riichi_{o}", "riichi").alias(f"riichi_{o}_rate")
              for o in ("win", "deal_in", "draw", "other_win")],
            _ratio("_riichi_turn_sum", "_riichi_turn_known").alias("avg_riichi_turn"),
            _ratio("_chasing_riichi", "_chasing_known").alias("chasing_riichi_rate"),
            _ratio("opened_hands", "_open_known_hands").alias("call_rate"),
            pl.when(pl.col("_calls_sum") > 0).then(_ratio("_calls_sum", "opened_hands")).alias("avg_calls"),
            _ratio("draws", "hands").alias("draw_rate"),
            _ratio("draw_tenpai", "draws").alias("draw_tenpai_rate"),
            _ratio("dealer_keeps", "dealer_hands").alias("dealer_keep_rate"),
            _ratio("_win_turn_sum", "_win_turn_known").alias("avg_win_turn"),
            _ratio("_deal_in_turn_sum", "_deal_in_turn_known").alias("avg_deal_in_turn"),
            _ratio("_win_value_sum", "wins").alias("avg_win_value"),
            _ratio("_riichi_win_value_sum", "riichi_wins").alias("avg_riichi_win_value"),
            _ratio("_open_win_value_sum", "open_wins").alias("avg_open_win_value"),
            _ratio("_dama_win_value_sum", "dama_wins").alias("avg_dama_win_value"),
            _ratio("_deal_in_cost_sum", "deal_ins").alias("avg_deal_in_cost"),
            *_play_statistics(),
        )
        .with_columns(pl.when(~no_open).then(pl.col(c)).alias(c) for c in OPEN_COUNTS)
        .with_columns(pl.when(pl.col("hands") > 0).then(pl.col(c)).alias(c) for c in HAND_FIGURES)
        .with_columns(rank_expr(rank_by).alias("rank"))
        .select(PLAYER_COLUMNS_OUT)
        .sort(["rank", "player"])
    )


def finalize_yaku_stats(partials: pl.LazyFrame) -> pl.LazyFrame:
    """Long table (player, yaku, count, rate = count / the player's wins); ``player`` null for all players."""
    counts = partials.select("player", "wins", "_yaku").explode("_yaku").drop_nulls("_yaku").unnest("_yaku")
    per_player = counts.with_columns(_ratio("count", "wins").alias("rate"))
    all_wins = partials.select(pl.col("wins").sum().alias("wins"))
    overall = counts.group_by("yaku").agg(pl.col("count").sum()).join(all_wins, how="cross").select(
        pl.lit(None, pl.String).alias("player"), "yaku", "count", _ratio("count", "wins").alias("rate"),
    )
    return pl.concat([per_player.select(YAKU_STATS_COLUMNS), overall.select(YAKU_STATS_COLUMNS)]).sort(
        ["player", "count", "yaku"], descending=[False, True, False], nulls_last=True
    )


def player_stats(hands: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    """The players table of one part: partials, finalized."""
    return finalize_players(player_partials(hands, games))


def rank_players(players: pl.DataFrame, rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY) -> pl.DataFrame:
    """A finalized players table ranked again by other keys (see :data:`RANK_KEYS`)."""
    return players.with_columns(rank_expr(rank_by).alias("rank")).sort(["rank", "player"])


def yaku_stats_from_hands(hands: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """The yaku table from a written ``hands`` output (winner as name or seat; unpaid winners flagged)."""
    lf = problem_lists(hands.lazy())
    unpaid = has_code("head_bump", "triple_ron_abort")
    lf = lf.with_columns(
        seat_of(pl.col("winner").cast(pl.String)).alias("_winner"),
        (one_of(pl.col("result"), ["ron", "tsumo"]) & ~unpaid).alias("_paid"),
    )
    wins = lf.filter(pl.col("_paid")).group_by(
        at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player")
    ).agg(pl.len().cast(pl.Int64).alias("wins"))
    yaku = yaku_partials(lf)
    no_yaku = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    partials = wins.with_columns(no_yaku.alias("_yaku")) if yaku is None else wins.join(yaku, on="player", how="left")
    return finalize_yaku_stats(partials).collect()
