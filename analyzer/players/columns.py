"""The columns of a partial row and how each merges across parts (:data:`MERGE`).

This is the contract between the modules that compute partial rows (:mod:`.partials`), merge them
(:mod:`.merge`) and publish them (:mod:`.publish`), so it lives apart from all three. Every column is a
count, a sum or another aggregate that merges across any split of the games: ``sum``, ``max``,
``arg_max:KEY`` (a value carried along with the largest ``KEY``), ``count_map`` (the yaku counts).
"""

from __future__ import annotations

# Game points are summed as integers in these units: exact and independent of the order of the parts.
POINT_UNITS = 1_000_000
PLACES = range(1, 5)
# wins per limit: the published column and the `limit` names it counts (null limit = below mangan)
LIMIT_BUCKETS = {
    "wins_below_mangan": None,
    "wins_mangan": ["mangan"],
    "wins_haneman": ["haneman"],
    "wins_baiman": ["baiman"],
    "wins_sanbaiman": ["sanbaiman"],
}
COUNTS = [
    "games", "incomplete_games", *[f"place_{p}" for p in PLACES], "busts", "hands", "dealer_hands", "dealer_keeps",
    "wins", "tsumo_wins", "riichi_wins", "deal_ins", "riichi", "riichi_win", "riichi_deal_in", "riichi_draw",
    "riichi_other_win", "draws", "draw_tenpai", "yakuman", "nagashi", "chombo", *LIMIT_BUCKETS,
    "deal_ins_in_riichi", "deal_ins_to_riichi",
]
# counts that need the per-seat `open_*` columns: null in the output when no hand of the player had them
OPEN_COUNTS = ["opened_hands", "open_wins", "dama_wins", "deal_ins_while_open", "deal_ins_to_open",
               "deal_ins_to_dama"]
SUMS = [
    "_points_units", "_penalty_units", "_place_sum", *[f"_final_score_sum_{p}" for p in PLACES], "points_received", "points_paid",
    "tsumo_paid", "_win_value_sum", "_riichi_win_value_sum", "_open_win_value_sum", "_dama_win_value_sum",
    "_deal_in_cost_sum", "_calls_sum", "_open_known_hands", "_riichi_turn_sum", "_riichi_turn_known",
    "_chasing_riichi", "_chasing_known", "_win_turn_sum", "_win_turn_known", "_deal_in_turn_sum",
    "_deal_in_turn_known",
]
# the play statistics' sums (:mod:`.play`), over the hands and games that have events (0 for the others): the
# `_play_*` counts are their denominators, so a player without such hands has them null
PLAY_THRESHOLDS = (3900, 7700, 11600)
PLAY_SUMS = [
    "_play_hands", "_play_games", "_play_riichi", "_riichi_first", "_riichi_chased", "_play_riichi_wins",
    "_ippatsu_wins", "_ura_wins", "_riichi_balance_sum", "_riichi_balance_hands", "riichi_declaration_deal_ins",
    "_riichi_waits_sum", "_riichi_multi_wait", "_riichi_wait_left_sum", "_riichi_good_shape", "_riichi_furiten",
    "_play_deal_ins", "_deal_in_shanten_sum", "_deal_in_tenpai", *[f"_deal_in_{t}" for t in PLAY_THRESHOLDS],
    "_play_wins", *[f"_win_{t}" for t in PLAY_THRESHOLDS], "_dora_sum", "_start_shanten_sum", "tsumo_hits",
    "_dealer_tsumo_hits", "_dealer_tsumo_hit_mangan", "_first_call_hands", "_first_call_turn_sum", "_play_calls",
    "_ippatsu_cancels", "_kan_hands",
    *[f"_{kind}_win_turn_{c}" for kind in ("riichi", "open", "dama") for c in ("sum", "known")],
    "all_last_games", "_all_last_entered_first", "_all_last_kept_first", "_all_last_entered_lower",
    "_all_last_comebacks", "_all_last_entered_last", "_all_last_avoided_last",
    *[f"_{c}_seat_{s}" for s in range(4) for c in ("games", "place_sum")],
]
BEST = {  # arg-max groups: key column -> the columns carried with it (game and round of the hand)
    "best_win": "best_win_points",
    "worst_deal_in": "worst_deal_in_points",
}
# How each partial column merges across parts.
MERGE: dict[str, str] = {
    **{c: "sum" for c in [*COUNTS, *OPEN_COUNTS, *SUMS, *PLAY_SUMS]},
    "max_renchan": "max",
    **{
        c: ("max" if c == key else f"arg_max:{key}")
        for prefix, key in BEST.items()
        for c in (key, f"{prefix}_game", f"{prefix}_round", f"{prefix}_honba")
    },
    "_yaku": "count_map",
}
INT_PARTIALS = [c for c, how in MERGE.items() if how in ("sum", "max")] + [f"{p}_honba" for p in BEST]
# the columns of a partial row, in this order, as parts give them and as merged partials are (so both stack)
PARTIAL_COLUMNS = ["player", *INT_PARTIALS, *[f"{p}_{c}" for p in BEST for c in ("game", "round")], "_yaku"]
