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

How a part's sums are counted (the costly step; see ``FIELD_BITS`` below): each count is one integer *seat mask*
per hand row (one field per seat), two to a word; the words and the per-seat amounts are summed over runs of
rows of one game by one integer-keyed group-by, and only the runs' rows (one per run and seat) are summed by
player name. The best and worst hands sort only the rows that reach each player's largest value.

Every published column is defined in the README glossary ("Statistics"). A statistic whose input columns are
missing (``riichi_turn_0..3``, ``calls_0..3``, ``open_0..3``, ``turn``) is null, never 0.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import polars as pl

from analyzer import segments as seg
from analyzer.schema import DELTA_COLUMNS, PLAYER_COLUMNS, ROUND_NAMES, SEATS
from analyzer.text import columns_where_every_row, one_of
from analyzer.validate import MAX_HONBA

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
# the columns of a partial row, in this order, as parts give them and as merged partials are (so both stack)
PARTIAL_COLUMNS = ["player", *INT_PARTIALS, *[f"{p}_{c}" for p in BEST for c in ("game", "round")], "_yaku"]

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


YES_WORDS = ["true", "1", "yes", "t"]
NO_WORDS = ["false", "0", "no", "f"]
INT_INPUTS = [*[f"calls_{s}" for s in SEATS], *[f"riichi_turn_{s}" for s in SEATS], "turn"]
FLAG_INPUTS = [*[f"open_{s}" for s in SEATS], *[f"tenpai_{s}" for s in SEATS]]


def _int(name: str, names: list[str], plain: bool = False) -> pl.Expr:
    """A per-seat numeric input column (text in the raw input), null when absent or empty; ``plain``: every
    value is empty or an integer as written (:func:`_plain_inputs`)."""
    if name not in names:
        return pl.lit(None, pl.Int64)
    text = pl.col(name).cast(pl.String)
    if plain:
        return text.str.to_integer(strict=False)
    return text.str.strip_chars().cast(pl.Float64, strict=False).cast(pl.Int64)


def _flag(name: str, names: list[str], plain: bool = False) -> pl.Expr:
    """A per-seat yes/no input column (true/false, 1/0, yes/no), null when absent, empty or unreadable;
    ``plain``: every value is empty or one of the words as written (:func:`_plain_inputs`)."""
    if name not in names:
        return pl.lit(None, pl.Boolean)
    text = pl.col(name).cast(pl.String)
    if not plain:
        text = text.str.strip_chars().str.to_lowercase()
    return pl.when(one_of(text, YES_WORDS)).then(True).when(one_of(text, NO_WORDS)).then(False)


def _plain_inputs(hands: pl.LazyFrame, names: list[str]) -> set[str]:
    """The per-seat input columns written plainly — every value empty, or an integer / a yes-no word exactly as
    read — which need no stripping, case folding or parsing through floating point. The importer writes them
    so (a boolean column reads as true/false); reading every value of 13 such columns the long way took three
    quarters of a part's statistics (one query decides, instead)."""
    def written_plainly(name: str) -> pl.Expr:
        text = pl.col(name).cast(pl.String)
        plain = (text.str.to_integer(strict=False).is_not_null() if name in INT_INPUTS
                 else one_of(text, YES_WORDS + NO_WORDS))
        return text.is_null() | (text == "") | plain

    return columns_where_every_row(hands, {c: written_plainly(c) for c in [*INT_INPUTS, *FLAG_INPUTS] if c in names})


def _at_seat(values: list[pl.Expr], seat: pl.Expr) -> pl.Expr:
    expr = pl.when(seat == 0).then(values[0])
    for s in SEATS[1:]:
        expr = expr.when(seat == s).then(values[s])
    return expr


def _bit(mask: str, seat: int | pl.Expr) -> pl.Expr:
    """Bit ``seat`` of a 4-bit seat mask column."""
    return pl.col(mask).and_(1 << seat if isinstance(seat, int) else seg.seat_bit(seat)) != 0


# Counting per seat. Each count is one *seat mask* per row: an Int64 with a field of FIELD_BITS bits per seat,
# holding 1 in the field of each seat the row counts for. Masks combine with `&` and `|` (a riichi hand that the
# player won is `riichi & won`), so a statistic costs one integer expression per row, not one per seat, and two
# masks share a word (the seats' fields of the first at bits 0, 8, 16, 24, of the second at 32 … 56). The words
# are summed over *runs* of rows — consecutive rows with one seating (games in a row at one table share a run;
# a game's seat left empty in three-player records is one seating), cut to at most RUN_ROWS rows so that a
# field never overflows into the next and the top field never reaches the sign bit — by one group-by on an
# integer run key; only then are they split into seats and summed by player: the group-by on player names sees
# one row per run and seat instead of four per hand row.
FIELD_BITS = 8
FIELD_MASK = (1 << FIELD_BITS) - 1
RUN_ROWS = (1 << (FIELD_BITS - 1)) - 1
SEAT_FIELDS = 4 * FIELD_BITS  # bits of one mask; a word holds 64 // SEAT_FIELDS masks
MASKS_PER_WORD = 64 // SEAT_FIELDS
SEAT_WORD_FIELDS = FIELD_MASK | (FIELD_MASK << SEAT_FIELDS)  # one seat's field of each of a word's two masks


def _unit(s: int) -> int:
    """The seat mask of seat ``s`` alone."""
    return 1 << (FIELD_BITS * s)


ALL_SEATS = sum(_unit(s) for s in SEATS)


def _seat_mask(seat: pl.Expr) -> pl.Expr:
    """The seat mask of a seat number (0 for null or anything but 0-3; Polars' integer ``pow`` is slow)."""
    expr = pl.when(seat == 0).then(pl.lit(_unit(0), pl.Int64))
    for s in SEATS[1:]:
        expr = expr.when(seat == s).then(pl.lit(_unit(s), pl.Int64))
    return expr.otherwise(pl.lit(0, pl.Int64))


def _spread(bits: pl.Expr) -> pl.Expr:
    """A 4-bit seat mask (bit s for seat s, as replay keeps them) as a seat mask (bit s moved to field s)."""
    return pl.sum_horizontal(bits.and_(1 << s) * (1 << (FIELD_BITS * s - s)) for s in SEATS).cast(pl.Int64)


def _seats_where(conditions: list[pl.Expr]) -> pl.Expr:
    """The seat mask of the seats whose condition is true (null counts as false)."""
    return pl.sum_horizontal(
        pl.when(c).then(pl.lit(_unit(s), pl.Int64)).otherwise(pl.lit(0, pl.Int64)) for s, c in enumerate(conditions)
    )


def _has(mask: str, s: int) -> pl.Expr:
    """Seat ``s`` is in the seat mask column ``mask``."""
    return pl.col(mask).and_(_unit(s)) != 0


# counts and sums that need per-seat input columns: constant 0 when the input has none
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


def _hand_facts(hands: pl.LazyFrame, longest: int) -> pl.LazyFrame:
    """Facts of each hand spread over its rows (a multiple ron has several rows) and the per-seat inputs parsed,
    the per-seat ones as seat masks: ``_won`` (seats paid in the hand), ``_riichi`` (declared in the hand),
    ``_tenpai``, and with ``open_*`` ``_open`` / ``_closed`` (known open / known closed); the outcome tests
    ``_counted_hand`` (a hand's first row, not chombo), ``_exhaustive`` (draw or nagashi), ``_paid_tsumo``.

    The rows are in replay order (:mod:`analyzer.replay`): a hand is a run of rows from ``_first`` to ``_last``,
    so its totals are segment passes, not hashed windows; its yes/no facts share one running total
    (:func:`analyzer.segments.pack`), ``longest`` the rows of the longest hand. Inputs the hands do not carry
    add no columns. Each step is its own ``select``: an expression used twice inside one is computed twice."""
    names = hands.collect_schema().names()
    inputs = _inputs(names)
    start, end = pl.col("_first"), pl.col("_last")
    paid_ron = pl.col("_paid") & (pl.col("result") == "ron")
    winner_riichi = _bit("_hand_riichi", pl.col("_winner"))
    facts = {
        "_dealt_in": paid_ron,
        "_into_riichi": paid_ron & winner_riichi,
        **{f"_won_{s}": pl.col("_paid") & (pl.col("_winner") == s) for s in SEATS},
    }
    # the per-seat inputs read from their text once, as columns: each is read several times below
    plain = _plain_inputs(hands, names)
    numbers, flags = {}, {}  # numbers go on to the runs, flags become seat masks here
    if "open" in inputs:
        flags |= {f"_open_flag_{s}": _flag(f"open_{s}", names, f"open_{s}" in plain) for s in SEATS}
        numbers |= {f"_calls_{s}": _int(f"calls_{s}", names, f"calls_{s}" in plain) for s in SEATS}
    if "riichi_turn" in inputs:
        numbers |= {f"_riichi_turn_{s}": _int(f"riichi_turn_{s}", names, f"riichi_turn_{s}" in plain) for s in SEATS}
    if "turn" in inputs:
        numbers["_turn"] = _int("turn", names, "turn" in plain)
    if any(f"tenpai_{s}" in names for s in SEATS):
        flags |= {f"_tenpai_flag_{s}": _flag(f"tenpai_{s}", names, f"tenpai_{s}" in plain) for s in SEATS}
    if numbers or flags:
        hands = hands.with_columns(e.alias(n) for n, e in {**numbers, **flags}.items())
    columns = [pl.col(n) for n in numbers]
    if "open" in inputs:
        opened = [pl.col(f"_open_flag_{s}") for s in SEATS]
        winner_open = _at_seat(opened, pl.col("_winner"))
        facts |= {
            "_into_open": paid_ron & winner_open,
            "_into_dama": paid_ron & ~winner_riichi & ~winner_open,
            "_into_unknown": paid_ron & winner_open.is_null(),
        }
        columns += [_seats_where(opened).alias("_open"), _seats_where([~o for o in opened]).alias("_closed")]
    tenpai = (_seats_where([pl.col(f"_tenpai_flag_{s}").fill_null(_bit("_tenpai_mask", s)) for s in SEATS])
              if any(f"tenpai_{s}" in names for s in SEATS) else _spread(pl.col("_tenpai_mask")))
    bits = seg.field_bits(longest)
    words = seg.pack(list(facts.values()), bits)
    word_names = [f"_hand_word{i}" for i in range(len(words))]
    kept = ["game_id", "round", "honba", "result", "points", "limit", "dealer", "_game", "_round_idx", "_game_start", "_first",
            "_last", "_paid", "_is_win", "_dealer_won", "_winner", "_loser", "_hand_riichi", *PLAYER_COLUMNS,
            *DELTA_COLUMNS]
    counted = hands.select(
        *kept, *columns,
        _spread(pl.col("_hand_riichi")).alias("_riichi"),
        tenpai.alias("_tenpai"),
        # outcome tests that several counts read, computed once each (a test repeated inside one select is
        # evaluated once per use)
        (pl.col("_first") & (pl.col("result") != "chombo")).alias("_counted_hand"),
        one_of(pl.col("result"), ["draw", "nagashi"]).alias("_exhaustive"),
        (pl.col("_paid") & (pl.col("result") == "tsumo")).fill_null(False).alias("_paid_tsumo"),
        pl.when(paid_ron).then(pl.col("points")).otherwise(0).fill_null(0).alias("_deal_in_cost"),
        *[w.alias(n) for w, n in zip(words, word_names)],
    ).with_columns(
        pl.col(c).cum_sum().alias(f"{c}_running") for c in [*word_names, "_deal_in_cost"]
    ).with_columns(
        seg.total_of_running(pl.col(f"{c}_running"), pl.col(c), start, end).alias(c)
        for c in [*word_names, "_deal_in_cost"]
    ).drop(f"{c}_running" for c in [*word_names, "_deal_in_cost"])
    totals = dict(zip(facts, seg.unpack(word_names, len(facts), bits)))
    return counted.with_columns(
        *[(totals[k] > 0).alias(k) for k in facts if not k.startswith("_won_")],
        pl.sum_horizontal(pl.when(totals[f"_won_{s}"] > 0).then(pl.lit(_unit(s), pl.Int64)).otherwise(0) for s in SEATS)
        .cast(pl.Int64).alias("_won"),
    ).drop(word_names)


def _is_limit(names: list[str] | None) -> pl.Expr:
    """The hand's ``limit`` is one of ``names`` (None: no limit)."""
    if names is None:
        return pl.col("limit").is_null()
    return one_of(pl.col("limit"), names)


@cache  # building the expressions costs more than a small part's sums: once per set of inputs
def _seat_masks(inputs: frozenset[str]) -> dict[str, pl.Expr]:
    """Per count, the seat mask of the seats a row counts for (on :func:`_hand_facts` with ``_win``,
    ``_deal_in``, ``_riichi_hand`` and ``_dealer`` added); counts whose inputs are missing are left out."""
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
        "nagashi": on(result == "nagashi", _seat_mask(pl.col("_winner"))),
        "chombo": on(result == "chombo", _seat_mask(pl.col("_loser"))),
    }
    if "riichi_turn" in inputs:
        chasing = [_chasing(s) for s in SEATS]
        masks |= {
            "_riichi_turn_known": riichi.and_(_seats_where([pl.col(f"_riichi_turn_{s}").is_not_null() for s in SEATS])),
            "_chasing_riichi": riichi.and_(_seats_where([known & earlier for earlier, known in chasing])),
            "_chasing_known": riichi.and_(_seats_where([known for _, known in chasing])),
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
    win, deal_in, riichi = _has("_win", s), _has("_deal_in", s), _has("_riichi_hand", s)
    in_riichi = _has("_riichi", s)
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
        opened, closed = _has("_open", s), _has("_closed", s)
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


# The best win and the worst deal-in go through the runs and the players' sums as one sortable integer per seat
# and row: the value, then its place reversed — the game (``_game`` numbers games in game id order), the round
# in name order (as the tables sort them), the honba — so that the largest key is the largest value at its first
# place, and a maximum finds it. Scored rows have honba 0..MAX_HONBA (validation rejects others); the bits of
# the game number and of the largest value are read from the part, and must fit 63 bits with the place.
HONBA_BITS = MAX_HONBA.bit_length()
PLACE_BITS = 4 + HONBA_BITS
ROUNDS_BY_NAME = sorted(ROUND_NAMES)  # E1..E4, N1..N4, S1..S4, W1..W4
_NAME_RANK = [ROUNDS_BY_NAME.index(name) for name in ROUND_NAMES]  # by _round_idx


def _hand_key(value: pl.Expr, game_bits: int) -> pl.Expr:
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


def _bounds(hands: pl.LazyFrame) -> PartBounds:
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


def _seat_rows(facts: pl.LazyFrame, inputs: set[str], bounds: PartBounds) -> tuple[pl.LazyFrame, SeatSums]:
    """One row per run and seat (``player``): the counts of the run's rows for the player in the seat,
    the amounts (``AMOUNT_SUMS``), ``max_renchan``, and the keys ``_best_win_key`` / ``_worst_deal_in_key`` of
    the run's best win and worst deal-in; and what is summed (:class:`SeatSums`: the counts whose inputs exist,
    two to a word, and the amounts).

    Every count is a seat mask, two masks to a word; the words, the per-seat amounts, each seat's longest
    renchan and its hand keys go through one aggregation over the run of rows (see ``FIELD_BITS``), then each
    run is split into its four seats."""
    hand = pl.col("_counted_hand")
    masks = _seat_masks(frozenset(inputs))
    words = [list(masks)[i:i + MASKS_PER_WORD] for i in range(0, len(masks), MASKS_PER_WORD)]
    amounts = {s: _seat_amounts(s, frozenset(inputs)) for s in SEATS}
    # a dealership is one round of one game (a run of rows in replay order); its renchan is the number of
    # hands it kept the deal for, credited to the dealer on the dealership's first row
    dealership = pl.col("_dealership")
    game_bits = bounds.game_bits
    rows = facts.with_columns(
        pl.when(pl.col("_paid")).then(_seat_mask(pl.col("_winner"))).otherwise(pl.lit(0, pl.Int64)).alias("_win"),
        pl.when(hand & pl.col("_dealt_in")).then(_seat_mask(pl.col("_loser"))).otherwise(pl.lit(0, pl.Int64))
        .alias("_deal_in"),
        pl.when(hand).then(pl.col("_riichi")).otherwise(pl.lit(0, pl.Int64)).alias("_riichi_hand"),
        _seat_mask(pl.col("dealer")).alias("_dealer"),
        hand.cast(pl.Int64).alias("_counted"),
        (pl.col("_game_start") | (pl.col("_round_idx") != pl.col("_round_idx").shift(1))).fill_null(True)
        .alias("_dealership"),
        (seg.starts(*PLAYER_COLUMNS) | (pl.int_range(pl.len(), dtype=pl.Int64) % RUN_ROWS == 0))
        .cast(pl.Int64).cum_sum().alias("_run"),
        _hand_key(pl.col("points"), game_bits).alias("_win_key"),
        _hand_key(pl.col("_deal_in_cost"), game_bits).alias("_deal_in_key"),
    ).with_columns(
        pl.col("_counted").cum_sum().alias("_counted_running"), seg.ends_from_starts(dealership).alias("_dealership_end"),
    ).with_columns(
        seg.total_of_running(pl.col("_counted_running"), pl.col("_counted"), dealership, pl.col("_dealership_end"))
        .alias("_dealer_hands")
    ).with_columns(
        pl.when(dealership & (pl.col("_dealer_hands") >= 1)).then(pl.col("_dealer_hands") - 1).alias("_renchan"),
    )
    # The aggregation only adds columns up (expressions inside an aggregation are evaluated group by group).
    # Runs are consecutive rows numbered in order: `group_by_dynamic` on the run number with windows of one
    # sums slices of rows, 2.5x faster than hashing the run number.
    word_names = [f"_word{i}" for i in range(len(words))]
    summed = [f"{k}_{s}" for s in SEATS for k in amounts[s]]
    largest = [f"{c}_{s}" for s in SEATS for c in ("_renchan", "_best_win_key", "_worst_deal_in_key")]
    per_run = rows.select(
        pl.col("_run").set_sorted(), *PLAYER_COLUMNS,
        *[pl.sum_horizontal(masks[k] * (1 << (SEAT_FIELDS * j)) for j, k in enumerate(word)).alias(name)
          for name, word in zip(word_names, words)],
        *[e.alias(f"{k}_{s}") for s in SEATS for k, e in amounts[s].items()],
        *[pl.when(pl.col("dealer") == s).then(pl.col("_renchan")).alias(f"_renchan_{s}") for s in SEATS],
        *[pl.when(_has("_win", s)).then(pl.col("_win_key")).alias(f"_best_win_key_{s}") for s in SEATS],
        *[pl.when(_has("_deal_in", s)).then(pl.col("_deal_in_key")).alias(f"_worst_deal_in_key_{s}") for s in SEATS],
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

    seat_rows = pl.concat([
        per_run.select(
            pl.col(PLAYER_COLUMNS[s]).alias("player"),
            *[seat_word(i, s).alias(f"_word{i}") for i in range(len(words))],
            *[pl.col(f"{k}_{s}").alias(k) for k in amounts[s]],
            pl.col(f"_renchan_{s}").alias("max_renchan"),
            *[pl.col(f"_{p}_key_{s}").alias(f"_{p}_key") for p in BEST],
        ).filter(pl.col("player").is_not_null())  # seat 3 of a three-player game
        for s in SEATS
    ])
    return seat_rows, SeatSums(words, list(amounts[0]))


class SeatSums(NamedTuple):
    """What :func:`_seat_rows` sums per seat: the counts as words (``_word{i}`` holds ``words[i]``, 32 bits each)
    and the amounts as columns of their own."""

    words: list[list[str]]
    amounts: list[str]


def _per_seat_sums(seat_rows: pl.LazyFrame, summed: SeatSums) -> pl.LazyFrame:
    """Per player, the counts of :data:`COUNT_SUMS`, the sums of :data:`AMOUNT_SUMS` (0 where their inputs are
    missing), ``max_renchan`` and the largest hand keys ``_best_win_key``, ``_worst_deal_in_key``."""
    keys = [f"_{p}_key" for p in BEST]
    word_names = [f"_word{i}" for i in range(len(summed.words))]
    counts = {k: (pl.col(f"_word{i}") // (1 << (SEAT_FIELDS * j))).and_((1 << SEAT_FIELDS) - 1)
              for i, word in enumerate(summed.words) for j, k in enumerate(word)}
    return seat_rows.group_by("player").agg(
        pl.col(*word_names, *summed.amounts).sum(), pl.col("max_renchan", *keys).max()
    ).select(
        "player",
        *[counts[c].alias(c) if c in counts else pl.col(c) if c in summed.amounts else pl.lit(0, pl.Int64).alias(c)
          for c in ROW_SUMS],
        "max_renchan", *keys,
    )


def _arg_max(column: str, key: str) -> pl.Expr:
    """``column`` of the row with the largest ``key`` (ties: first game id, round, honba)."""
    order = [pl.col(key).fill_null(-1), pl.col(key.rsplit("_", 1)[0] + "_game"),
             pl.col(key.rsplit("_", 1)[0] + "_round"), pl.col(key.rsplit("_", 1)[0] + "_honba")]
    return pl.col(column).sort_by(order, descending=[True, False, False, False], nulls_last=True).first()


def _game_ids(hands: pl.LazyFrame) -> pl.DataFrame:
    """``game_id`` by ``_game`` (one row per game), sorted by ``_game`` for :func:`_best` to look game numbers up."""
    return hands.filter(seg.starts("_game")).select("_game", "game_id").collect().sort("_game")


def _best(sums: pl.DataFrame, game_ids: pl.DataFrame, game_bits: int) -> pl.DataFrame:
    """The best win and the worst deal-in of each player (value, game, round, honba) from the largest hand keys
    of :func:`_per_seat_sums`; ``game_ids`` (:func:`_game_ids`) gives the game id of a game number, found by a
    binary search of its sorted numbers (a join costs twice as much)."""
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


def _yaku_names(schema: pl.Schema) -> pl.Expr | None:
    """The yaku of each win: computed from tiles, else as recorded (a list, or comma-separated text)."""
    if "yaku" in schema:
        return pl.col("yaku").list.eval(pl.element().struct.field("name").cast(pl.String))
    if "recorded_yaku" in schema:
        if schema["recorded_yaku"] == pl.String:
            return pl.col("recorded_yaku").str.split(",").list.eval(pl.element().str.strip_chars())
        return pl.col("recorded_yaku").cast(pl.List(pl.String))
    return None


def _yaku_partials(hands: pl.LazyFrame) -> pl.LazyFrame | None:
    """player -> list of {yaku, count} over the player's paid wins; None without yaku columns."""
    yaku = _yaku_names(hands.collect_schema())
    if yaku is None:
        return None
    wins = hands.filter(pl.col("_paid")).select(
        _at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player"), yaku.alias("yaku"),
    ).explode("yaku").drop_nulls("yaku")
    return _count_map(wins.group_by("player", "yaku").agg(pl.len().cast(pl.Int64).alias("count")))


def _count_map(counts: pl.LazyFrame) -> pl.LazyFrame:
    return counts.group_by("player").agg(pl.struct("yaku", "count").sort_by("yaku").alias("_yaku"))


def player_partials(hands: pl.LazyFrame, games: pl.LazyFrame) -> pl.LazyFrame:
    """Mergeable aggregates per player of one part (whole games): the columns of :data:`MERGE`."""
    bounds = _bounds(hands)
    seat_rows, summed = _seat_rows(_hand_facts(hands, bounds.longest), _inputs(hands.collect_schema().names()), bounds)
    per_hand = _best(_per_seat_sums(seat_rows, summed).collect(), _game_ids(hands), bounds.game_bits).lazy()
    place, final_score = pl.col("place"), pl.col("final_score")
    has_complete = "complete" in games.collect_schema().names()
    # each game's contribution as columns first, then plain sums (a filter inside an aggregation runs per group)
    per_game = games.select(
        "player",
        pl.lit(1, pl.Int64).alias("games"),
        (~pl.col("complete")).cast(pl.Int64).alias("incomplete_games") if has_complete
        else pl.lit(0, pl.Int64).alias("incomplete_games"),
        (pl.col("game_points") * POINT_UNITS).round().cast(pl.Int64).alias("_points_units"),
        *[(place == p).cast(pl.Int64).alias(f"place_{p}") for p in PLACES],
        *[pl.when(place == p).then(final_score).otherwise(0).alias(f"_final_score_sum_{p}") for p in PLACES],
        (final_score < 0).cast(pl.Int64).alias("busts"),
        place.alias("_place_sum"),
    ).group_by("player").agg(pl.all().sum())
    yaku = _yaku_partials(hands)
    joined = per_game
    for other in (per_hand,
                  *([] if yaku is None else [yaku])):
        joined = joined.join(other, on="player", how="left")
    no_yaku = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    return joined.select(
        "player",
        *[pl.col(c).fill_null(0).cast(pl.Int64) if MERGE[c] == "sum" else pl.col(c).cast(pl.Int64)
          for c in INT_PARTIALS],
        *[pl.col(f"{p}_{c}").cast(pl.String) for p in BEST for c in ("game", "round")],
        no_yaku.alias("_yaku") if yaku is None else pl.col("_yaku").fill_null(no_yaku),
    )


def _carried(partials: pl.LazyFrame, maxima: pl.LazyFrame, prefix: str, key: str) -> pl.LazyFrame:
    """Per player, the columns carried with ``key`` (``arg_max:KEY`` in :data:`MERGE`) from the row with the
    largest ``key`` (ties: first game id, round, honba): only the rows that reach the player's maximum are
    sorted, once, instead of every player's rows once per carried column (:func:`_arg_max`)."""
    carried = [c for c, how in MERGE.items() if how == f"arg_max:{key}"]
    return (
        partials.select("player", key, *carried)
        .join(maxima.select("player", pl.col(key).alias("_largest")), on="player", how="left")
        .filter(pl.col(key).fill_null(-1) == pl.col("_largest").fill_null(-1))
        .sort("player", f"{prefix}_game", f"{prefix}_round", f"{prefix}_honba", nulls_last=True)
        .unique("player", keep="first", maintain_order=True)
        .select("player", *carried)
    )


def combine_partials(partials: pl.LazyFrame | list[pl.LazyFrame]) -> pl.LazyFrame:
    """Partial rows of many parts (stacked, or a list) merged into one partial row per player."""
    if isinstance(partials, list):
        partials = pl.concat(partials, how="vertical_relaxed")
    merge = {"sum": pl.Expr.sum, "max": pl.Expr.max}
    maxima = partials.group_by("player").agg(
        merge[how](pl.col(c)).alias(c) for c, how in MERGE.items() if how in merge
    ).collect().lazy()  # read once per best hand below
    scalars = maxima
    for prefix, key in BEST.items():  # each best hand from the maxima alone (not from the join before it)
        scalars = scalars.join(_carried(partials, maxima, prefix, key), on="player", how="left")
    yaku = _count_map(
        partials.select("player", "_yaku").explode("_yaku").drop_nulls("_yaku").unnest("_yaku")
        .group_by("player", "yaku").agg(pl.col("count").sum())
    )
    empty = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    return scalars.join(yaku, on="player", how="left").with_columns(pl.col("_yaku").fill_null(empty)).select(
        PARTIAL_COLUMNS
    )


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
    from analyzer.problems import has_code, problem_lists
    from analyzer.validate import seat_of

    lf = problem_lists(hands.lazy())
    unpaid = has_code("head_bump", "triple_ron_abort")
    lf = lf.with_columns(
        seat_of(pl.col("winner").cast(pl.String)).alias("_winner"),
        (one_of(pl.col("result"), ["ron", "tsumo"]) & ~unpaid).alias("_paid"),
    )
    wins = lf.filter(pl.col("_paid")).group_by(
        _at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("_winner")).alias("player")
    ).agg(pl.len().cast(pl.Int64).alias("wins"))
    yaku = _yaku_partials(lf)
    no_yaku = pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64})))
    partials = wins.with_columns(no_yaku.alias("_yaku")) if yaku is None else wins.join(yaku, on="player", how="left")
    return finalize_yaku_stats(partials).collect()
