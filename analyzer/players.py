"""Per-player totals and statistics across all games, from mergeable partial aggregates.

Games are independent, so the players table is built in two steps that work on any split of the games into
parts (partitions of whole games, or workers of a cluster):

* ``player_partials(hands, games)``: one row per player of the part, every column a count, a sum or another
  aggregate that merges across parts by the rule in :data:`MERGE` (``sum``, ``max``, ``arg_max:KEY`` for a
  value carried along with the largest ``KEY``, ``count_map`` for the yaku counts);
* ``combine_partials(partials)``: the partial rows of many parts merged into one row per player;
* ``finalize_players(partials)``: the published columns (rates and averages from the merged sums, ``rank``)
  and ``finalize_yaku_stats(partials)`` the long yaku table.

``player_stats(hands, games)`` is the three in one, for a single part. Sums of game points are kept in
millionths of a point as integers, so a total does not depend on the order the parts are added in. Facts of
a whole game (renchan streaks) are computed inside a part: a part always holds whole games.

Every published column is defined in the README glossary ("Statistics"). A statistic whose input columns are
missing (``riichi_turn_0..3``, ``calls_0..3``, ``open_0..3``, ``turn``) is null, never 0.
"""

from __future__ import annotations

import polars as pl

from analyzer import segments as seg
from analyzer.schema import DELTA_COLUMNS, PLAYER_COLUMNS, SEATS

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
    "_points_units", "_place_sum", *[f"_final_score_sum_{p}" for p in PLACES], "points_received", "points_paid",
    "tsumo_paid", "_win_value_sum", "_riichi_win_value_sum", "_open_win_value_sum", "_dama_win_value_sum",
    "_deal_in_cost_sum", "_calls_sum", "_open_known_hands", "_riichi_turn_sum", "_riichi_turn_known",
    "_chasing_riichi", "_chasing_known", "_win_turn_sum", "_win_turn_known", "_deal_in_turn_sum",
    "_deal_in_turn_known",
]
BEST = {  # arg-max groups: key column -> the columns carried with it (game and round of the hand)
    "best_win": "best_win_points",
    "worst_deal_in": "worst_deal_in_points",
}
# How each partial column merges across parts.
MERGE: dict[str, str] = {
    **{c: "sum" for c in [*COUNTS, *OPEN_COUNTS, *SUMS]},
    "max_renchan": "max",
    **{
        c: ("max" if c == key else f"arg_max:{key}")
        for prefix, key in BEST.items()
        for c in (key, f"{prefix}_game", f"{prefix}_round", f"{prefix}_honba")
    },
    "_yaku": "count_map",
}
INT_PARTIALS = [c for c, how in MERGE.items() if how in ("sum", "max")] + [f"{p}_honba" for p in BEST]

PLAYER_COLUMNS_OUT = [
    "rank", "player", "games", "incomplete_games", "total_points", "avg_points",
    *[f"place_{p}" for p in PLACES], *[f"place_{p}_rate" for p in PLACES], "avg_place",
    *[f"avg_final_score_{p}" for p in PLACES], "busts", "bust_rate",
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
]
# --rank-by keys: column -> True when larger is better
RANK_KEYS = {"total_points": True, "avg_points": True, "avg_place": False, "place_1": True, "games": True,
             "win_rate": True, "deal_in_rate": False}
DEFAULT_RANK_BY = ("total_points", "avg_place", "place_1")
YAKU_STATS_COLUMNS = ["player", "yaku", "count", "rate"]


def _int(name: str, names: list[str]) -> pl.Expr:
    """A per-seat numeric input column (text in the raw input), null when absent or empty."""
    if name not in names:
        return pl.lit(None, pl.Int64)
    return pl.col(name).cast(pl.String).str.strip_chars().cast(pl.Float64, strict=False).cast(pl.Int64)


def _flag(name: str, names: list[str]) -> pl.Expr:
    """A per-seat yes/no input column (true/false, 1/0, yes/no), null when absent, empty or unreadable."""
    if name not in names:
        return pl.lit(None, pl.Boolean)
    text = pl.col(name).cast(pl.String).str.strip_chars().str.to_lowercase()
    return (pl.when(text.is_in(["true", "1", "yes", "t"])).then(True)
            .when(text.is_in(["false", "0", "no", "f"])).then(False))


def _at_seat(values: list[pl.Expr], seat: pl.Expr) -> pl.Expr:
    expr = pl.when(seat == 0).then(values[0])
    for s in SEATS[1:]:
        expr = expr.when(seat == s).then(values[s])
    return expr


def _bit(mask: str, seat: int | pl.Expr) -> pl.Expr:
    """Bit ``seat`` of a 4-bit seat mask column."""
    return pl.col(mask).and_(1 << seat if isinstance(seat, int) else seg.seat_bit(seat)) != 0


def _hand_facts(hands: pl.LazyFrame) -> pl.LazyFrame:
    """Facts of each hand spread over its rows (a multiple ron has several rows), per seat input parsed.

    The rows are in replay order (:mod:`analyzer.replay`): a hand is a run of rows from ``_first`` to ``_last``,
    so its totals are segment passes, not hashed windows."""
    names = hands.collect_schema().names()
    opened = [_flag(f"open_{s}", names) for s in SEATS]
    start, end = pl.col("_first"), pl.col("_last")
    paid_ron = pl.col("_paid") & (pl.col("result") == "ron")
    winner_open = _at_seat(opened, pl.col("_winner"))
    winner_riichi = _bit("_hand_riichi", pl.col("_winner"))

    def any_row(condition: pl.Expr) -> pl.Expr:
        return seg.any_(condition.fill_null(False), start, end)

    paid_winner = pl.when(pl.col("_paid")).then(seg.seat_bit(pl.col("_winner"))).otherwise(0)
    won = seg.seat_counts(paid_winner.fill_null(0), start, end)
    kept = ["game_id", "round", "honba", "result", "points", "limit", "dealer", "_round_idx", "_first", "_last",
            "_paid", "_is_win", "_winner", "_loser", "_hand_riichi", "_tenpai_mask", *PLAYER_COLUMNS, *DELTA_COLUMNS]
    return hands.select(
        *kept,
        *[o.alias(f"_open_{s}") for s, o in enumerate(opened)],
        *[_int(f"riichi_turn_{s}", names).alias(f"_riichi_turn_{s}") for s in SEATS],
        *[_int(f"calls_{s}", names).alias(f"_calls_{s}") for s in SEATS],
        *[(_flag(f"tenpai_{s}", names).fill_null(_bit("_tenpai_mask", s)) if f"tenpai_{s}" in names
           else _bit("_tenpai_mask", s)).alias(f"_tenpai_{s}") for s in SEATS],
        _int("turn", names).alias("_turn"),
        any_row(paid_ron).alias("_dealt_in"),
        seg.total(pl.when(paid_ron).then(pl.col("points")).otherwise(0).fill_null(0), start, end)
        .alias("_deal_in_cost"),
        any_row(paid_ron & winner_riichi).alias("_into_riichi"),
        any_row(paid_ron & winner_open).alias("_into_open"),
        any_row(paid_ron & ~winner_riichi & ~winner_open).alias("_into_dama"),
        any_row(paid_ron & winner_open.is_null()).alias("_into_unknown"),
        any_row(pl.col("_paid") & (pl.col("_winner") == pl.col("dealer"))).alias("_dealer_won"),
        *[(count > 0).alias(f"_won_{s}") for s, count in enumerate(won)],
    )


def _chasing(s: int) -> tuple[pl.Expr, pl.Expr]:
    """(declared after another player's riichi, known): order by turn, then by seat order from the dealer."""
    own = pl.col(f"_riichi_turn_{s}")
    order = (pl.lit(s) - pl.col("dealer")) % 4
    earlier = [
        _bit("_hand_riichi", o)
        & ((pl.col(f"_riichi_turn_{o}") < own)
           | ((pl.col(f"_riichi_turn_{o}") == own) & ((pl.lit(o) - pl.col("dealer")) % 4 < order)))
        for o in SEATS if o != s
    ]
    others_known = pl.all_horizontal(
        ~_bit("_hand_riichi", o) | pl.col(f"_riichi_turn_{o}").is_not_null() for o in SEATS if o != s
    )
    return pl.any_horizontal(earlier), own.is_not_null() & others_known


# sums that need per-seat input columns (``_hand_facts`` names them): constant 0 when the input has none
NEEDS = {
    "open": ["opened_hands", "_open_known_hands", "open_wins", "dama_wins", "deal_ins_while_open", "deal_ins_to_open",
             "deal_ins_to_dama", "_calls_sum", "_open_win_value_sum", "_dama_win_value_sum"],
    "riichi_turn": ["_riichi_turn_known", "_chasing_riichi", "_chasing_known", "_riichi_turn_sum"],
    "turn": ["_win_turn_known", "_deal_in_turn_known", "_win_turn_sum", "_deal_in_turn_sum"],
}


def _inputs(names: list[str]) -> set[str]:
    """Which per-seat inputs the hands carry: 'open', 'riichi_turn', 'turn'."""
    return {k for k, columns in {"open": [f"open_{s}" for s in SEATS], "riichi_turn": [f"riichi_turn_{s}" for s in SEATS],
                                 "turn": ["turn"]}.items() if any(c in names for c in columns)}


def _seat_sums(s: int, inputs: set[str] = frozenset(NEEDS)) -> dict[str, pl.Expr]:
    """What one row adds to the partial sums of the player in seat ``s`` (plain sums: the fast group-by path).

    Sums whose per-seat inputs are missing are constant zeros (no work per row); ``finalize_players`` turns
    the statistics built on them into nulls."""
    hand = pl.col("_first") & (pl.col("result") != "chombo")
    win = (pl.col("_paid") & (pl.col("_winner") == s)).fill_null(False)
    in_riichi = _bit("_hand_riichi", s)
    riichi = hand & in_riichi
    opened = pl.col(f"_open_{s}")
    deal_in = hand & pl.col("_dealt_in") & (pl.col("_loser") == s).fill_null(False)
    exhaustive = pl.col("result").is_in(["draw", "nagashi"])
    draw = hand & exhaustive
    won = pl.col(f"_won_{s}")
    dealer_hand = hand & (pl.col("dealer") == s)
    chasing, chasing_known = _chasing(s)
    turn = pl.col("_turn")
    riichi_turn = pl.col(f"_riichi_turn_{s}")
    delta = pl.col(DELTA_COLUMNS[s])
    others_tsumo = (pl.col("_paid") & (pl.col("result") == "tsumo") & (pl.col("_winner") != s)).fill_null(False)

    def value(condition: pl.Expr, amount: pl.Expr) -> pl.Expr:
        return pl.when(condition.fill_null(False)).then(amount).otherwise(0).fill_null(0)

    flags = {
        "hands": hand,
        "dealer_hands": dealer_hand,
        "dealer_keeps": dealer_hand & (pl.col("_dealer_won") | (exhaustive & pl.col(f"_tenpai_{s}").fill_null(False))
                                       | (pl.col("result") == "abort")),
        "wins": win,
        "tsumo_wins": win & (pl.col("result") == "tsumo"),
        "riichi_wins": win & in_riichi,
        "open_wins": win & opened,
        "dama_wins": win & ~in_riichi & ~opened,
        "deal_ins": deal_in,
        "riichi": riichi,
        "riichi_win": riichi & won,
        "riichi_deal_in": riichi & deal_in,
        "riichi_draw": riichi & exhaustive,
        "riichi_other_win": riichi & pl.col("_is_win") & ~won & ~deal_in,
        "draws": draw,
        "draw_tenpai": draw & pl.col(f"_tenpai_{s}").fill_null(False),
        "opened_hands": hand & opened,
        "_open_known_hands": hand & opened.is_not_null(),
        "_riichi_turn_known": riichi & riichi_turn.is_not_null(),
        "_chasing_riichi": riichi & chasing_known & chasing,
        "_chasing_known": riichi & chasing_known,
        "_win_turn_known": win & turn.is_not_null(),
        "_deal_in_turn_known": deal_in & turn.is_not_null(),
        "deal_ins_in_riichi": deal_in & in_riichi,
        "deal_ins_while_open": deal_in & opened,
        "deal_ins_to_riichi": deal_in & pl.col("_into_riichi"),
        "deal_ins_to_open": deal_in & pl.col("_into_open"),
        "deal_ins_to_dama": deal_in & pl.col("_into_dama") & ~pl.col("_into_unknown"),
        **{bucket: win & (pl.col("limit").is_null() if names is None else pl.col("limit").is_in(names))
           for bucket, names in LIMIT_BUCKETS.items()},
        "yakuman": win & pl.col("limit").str.contains("yakuman"),
        "nagashi": (pl.col("result") == "nagashi") & (pl.col("_winner") == s),
        "chombo": (pl.col("result") == "chombo") & (pl.col("_loser") == s),
    }
    amounts = {
        "points_received": delta.clip(lower_bound=0),
        "points_paid": -delta.clip(upper_bound=0),
        "tsumo_paid": value(others_tsumo, -delta.clip(upper_bound=0)),
        "_calls_sum": value(hand & opened, pl.col(f"_calls_{s}")),
        "_riichi_turn_sum": value(riichi, riichi_turn),
        "_win_turn_sum": value(win, turn),
        "_deal_in_turn_sum": value(deal_in, turn),
        "_win_value_sum": value(win, pl.col("points")),
        "_riichi_win_value_sum": value(win & in_riichi, pl.col("points")),
        "_open_win_value_sum": value(win & opened, pl.col("points")),
        "_dama_win_value_sum": value(win & ~in_riichi & ~opened, pl.col("points")),
        "_deal_in_cost_sum": value(deal_in, pl.col("_deal_in_cost")),
    }
    sums = {**{k: v.fill_null(False).cast(pl.Int64) for k, v in flags.items()}, **amounts}
    missing = {c for need, columns in NEEDS.items() if need not in inputs for c in columns}
    return {k: pl.lit(0, pl.Int64) if k in missing else v for k, v in sums.items()}


ROW_SUMS = list(_seat_sums(0))


AMOUNT_SUMS = ["points_received", "points_paid", "tsumo_paid", "_calls_sum", "_riichi_turn_sum", "_win_turn_sum",
               "_deal_in_turn_sum", "_win_value_sum", "_riichi_win_value_sum", "_open_win_value_sum",
               "_dama_win_value_sum", "_deal_in_cost_sum"]
COUNT_SUMS = [c for c in ROW_SUMS if c not in AMOUNT_SUMS]
# Counts are packed three to an Int64 (21 bits each) before the group-bys: a third of the columns to aggregate.
# A field holds a player's count within one part, so packing needs parts of fewer rows than this.
FIELD_BITS = 21
PACKED_ROWS_MAX = (1 << FIELD_BITS) - 1
WORDS = [COUNT_SUMS[i:i + 3] for i in range(0, len(COUNT_SUMS), 3)]


def _per_seat_sums(facts: pl.LazyFrame, inputs: set[str], packed: bool = True) -> pl.LazyFrame:
    """The plain sums of every player: each seat's rows summed by the player in it, then the four seats
    merged (four narrow group-bys; no frame of rows times seats is built). With ``packed``, the counts travel
    through the group-bys three to an integer (the caller checks the part is small enough)."""
    def columns(s: int) -> list[pl.Expr]:
        sums = _seat_sums(s, inputs)
        if not packed:
            return [e.alias(k) for k, e in sums.items()]
        words = [pl.sum_horizontal(sums[k] * (1 << (FIELD_BITS * j)) for j, k in enumerate(word)).alias(f"_word{i}")
                 for i, word in enumerate(WORDS)]
        return [*words, *[sums[k].alias(k) for k in AMOUNT_SUMS]]

    summed = [f"_word{i}" for i in range(len(WORDS))] + AMOUNT_SUMS if packed else ROW_SUMS
    per_seat = [
        facts.select(pl.col(PLAYER_COLUMNS[s]).alias("player"), *columns(s))
        .filter(pl.col("player").is_not_null())  # seat 3 of a three-player game
        .group_by("player").agg(pl.col(c).sum() for c in summed)
        for s in SEATS
    ]
    merged = pl.concat(per_seat).group_by("player").agg(pl.col(c).sum() for c in summed)
    if not packed:
        return merged
    mask = (1 << FIELD_BITS) - 1
    return merged.select(
        "player",
        *[(pl.col(f"_word{i}") // (1 << (FIELD_BITS * j))).and_(mask).alias(k)
          for i, word in enumerate(WORDS) for j, k in enumerate(word)],
        *AMOUNT_SUMS,
    )


def _hand_values(facts: pl.LazyFrame) -> pl.LazyFrame:
    """One row per win and per deal-in: player, game, round, honba and its points (for the best hands)."""
    where = ["game_id", "round", "honba"]
    wins = facts.filter(pl.col("_paid")).select(
        *where, _at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player"),
        pl.col("points").alias("win_points"), pl.lit(None, pl.Int64).alias("deal_in_points"),
    )
    deal_ins = facts.filter(pl.col("_first") & pl.col("_dealt_in") & (pl.col("result") != "chombo")).select(
        *where, _at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_loser")).alias("player"),
        pl.lit(None, pl.Int64).alias("win_points"), pl.col("_deal_in_cost").alias("deal_in_points"),
    )
    return pl.concat([wins, deal_ins])


def _arg_max(column: str, key: str) -> pl.Expr:
    """``column`` of the row with the largest ``key`` (ties: first game id, round, honba)."""
    order = [pl.col(key).fill_null(-1), pl.col(key.rsplit("_", 1)[0] + "_game"),
             pl.col(key.rsplit("_", 1)[0] + "_round"), pl.col(key.rsplit("_", 1)[0] + "_honba")]
    return pl.col(column).sort_by(order, descending=[True, False, False, False], nulls_last=True).first()


def _best(values: pl.LazyFrame, prefix: str, value: str) -> pl.LazyFrame:
    key = BEST[prefix]
    picked = values.filter(pl.col(value).is_not_null()).select(
        "player", pl.col(value).alias(key), pl.col("game_id").alias(f"{prefix}_game"),
        pl.col("round").alias(f"{prefix}_round"), pl.col("honba").alias(f"{prefix}_honba"),
    )
    return picked.group_by("player").agg(
        pl.col(key).max(), *[_arg_max(f"{prefix}_{c}", key) for c in ("game", "round", "honba")]
    )


def _yaku_names(schema: pl.Schema) -> pl.Expr | None:
    """The yaku of each win: computed from tiles, else as recorded (a list, or comma-separated text)."""
    if "yaku" in schema:
        return pl.col("yaku").list.eval(pl.element().struct.field("name").cast(pl.String))
    if "recorded_yaku" in schema:
        if schema["recorded_yaku"] == pl.String:
            return pl.col("recorded_yaku").str.split(",").list.eval(pl.element().str.strip_chars())
        return pl.col("recorded_yaku").cast(pl.List(pl.String))
    return None


def _yaku_partials(hands: pl.LazyFrame) -> pl.LazyFrame:
    """player -> list of {yaku, count} over the player's paid wins (empty without yaku columns)."""
    yaku = _yaku_names(hands.collect_schema())
    empty = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    if yaku is None:
        players = pl.concat([pl.col(c) for c in PLAYER_COLUMNS]).unique().drop_nulls()
        return hands.select(players.alias("player"), empty.alias("_yaku"))
    wins = hands.filter(pl.col("_paid")).select(
        _at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player"), yaku.alias("yaku"),
    ).explode("yaku").drop_nulls("yaku")
    return _count_map(wins.group_by("player", "yaku").agg(pl.len().cast(pl.Int64).alias("count")))


def _count_map(counts: pl.LazyFrame) -> pl.LazyFrame:
    return counts.group_by("player").agg(pl.struct("yaku", "count").sort_by("yaku").alias("_yaku"))


def player_partials(hands: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    """Mergeable aggregates per player of one part (whole games): the columns of :data:`MERGE`."""
    facts = _hand_facts(hands).cache()
    small = hands.select(pl.len()).collect().item() <= PACKED_ROWS_MAX
    per_hand = _per_seat_sums(facts, _inputs(hands.collect_schema().names()), packed=small)
    values = _hand_values(facts)
    # a dealership is one round of one game; its renchan is the number of hands it kept the deal for
    # the rows are in replay order: a dealership is a run of rows of one game and round (segment passes)
    dealership = seg.starts("game_id", "_round_idx")
    counted = (pl.col("_first") & (pl.col("result") != "chombo")).cast(pl.Int64)
    renchan = (
        facts.with_columns(
            (seg.total(counted, dealership, seg.ends_from_starts(dealership)) - 1).alias("renchan"),
            seg.first(_at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("dealer")), dealership).alias("player"),
        )
        .filter(dealership & (pl.col("renchan") >= 0))
        .group_by("player").agg(pl.col("renchan").max().alias("max_renchan"))
    )
    per_game = games.group_by("player").agg(
        pl.len().alias("games"),
        (~pl.col("complete")).sum().alias("incomplete_games") if "complete" in games.collect_schema().names()
        else pl.lit(0).alias("incomplete_games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).sum().alias("_points_units"),
        *[(pl.col("place") == p).sum().alias(f"place_{p}") for p in PLACES],
        *[pl.col("final_score").filter(pl.col("place") == p).sum().alias(f"_final_score_sum_{p}") for p in PLACES],
        (pl.col("final_score") < 0).sum().alias("busts"),
        pl.col("place").sum().alias("_place_sum"),
    )
    joined = per_game
    for other in (per_hand, renchan, _best(values, "best_win", "win_points"),
                  _best(values, "worst_deal_in", "deal_in_points"), _yaku_partials(hands)):
        joined = joined.join(other, on="player", how="left")
    return joined.select(
        "player",
        *[pl.col(c).fill_null(0).cast(pl.Int64) if MERGE[c] == "sum" else pl.col(c).cast(pl.Int64)
          for c in INT_PARTIALS],
        *[pl.col(f"{p}_{c}").cast(pl.String) for p in BEST for c in ("game", "round")],
        pl.col("_yaku").fill_null(pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))),
    )


def combine_partials(partials: pl.LazyFrame | list[pl.LazyFrame]) -> pl.LazyFrame:
    """Partial rows of many parts (stacked, or a list) merged into one partial row per player."""
    if isinstance(partials, list):
        partials = pl.concat(partials, how="vertical_relaxed")
    merge = {"sum": pl.Expr.sum, "max": pl.Expr.max}
    scalars = partials.group_by("player").agg(
        merge[how](pl.col(c)).alias(c) if how in merge else _arg_max(c, how.split(":", 1)[1])
        for c, how in MERGE.items() if how != "count_map"
    )
    yaku = _count_map(
        partials.select("player", "_yaku").explode("_yaku").drop_nulls("_yaku").unnest("_yaku")
        .group_by("player", "yaku").agg(pl.col("count").sum())
    )
    empty = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    return scalars.join(yaku, on="player", how="left").with_columns(pl.col("_yaku").fill_null(empty))


def _ratio(numerator: str, denominator: str) -> pl.Expr:
    return pl.when(pl.col(denominator) > 0).then(pl.col(numerator) / pl.col(denominator))


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
        partials.with_columns((pl.col("_points_units") / POINT_UNITS).alias("total_points"))
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
        )
        .with_columns(pl.when(~no_open).then(pl.col(c)).alias(c) for c in OPEN_COUNTS)
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
    from analyzer.validate import seat_of

    lf = hands.lazy()
    unpaid = pl.col("problems").fill_null("").str.contains("head_bump|triple_ron_abort")
    lf = lf.with_columns(
        seat_of(pl.col("winner").cast(pl.String)).alias("_winner"),
        (pl.col("result").is_in(["ron", "tsumo"]) & ~unpaid).alias("_paid"),
    )
    wins = lf.filter(pl.col("_paid")).group_by(
        _at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player")
    ).agg(pl.len().cast(pl.Int64).alias("wins"))
    partials = wins.join(_yaku_partials(lf), on="player", how="left")
    return finalize_yaku_stats(partials).collect()
