"""Facts of each hand, and the optional per-seat inputs read from their text.

Most counts ask about the hand a row belongs to (was anyone dealt in, who won) or about per-seat inputs that
not every record carries (``open_*``, ``calls_*``, ``riichi_turn_*``, ``turn``, ``tenpai_*``).
:func:`hand_facts` computes them once per row, as columns that the partial sums (:mod:`.sums`) read;
:func:`seat_inputs` says which inputs a part carries, and :data:`NEEDS` which sums are constant 0 without them.
"""

from __future__ import annotations

import polars as pl

from analyzer.core import segments as seg
from analyzer.players.seats import at_seat, bit, seats_where, spread, unit
from analyzer.core.schema import DELTA_COLUMNS, PLAYER_COLUMNS, SEATS
from analyzer.core.text import columns_where_every_row, one_of

YES_WORDS = ["true", "1", "yes", "t"]
NO_WORDS = ["false", "0", "no", "f"]
# a row's game has events (set by the part when it is given them): its chasing riichi is counted from the events
WITH_EVENTS = "_with_events"
INT_INPUTS = [*[f"calls_{s}" for s in SEATS], *[f"riichi_turn_{s}" for s in SEATS], "turn"]
FLAG_INPUTS = [*[f"open_{s}" for s in SEATS], *[f"tenpai_{s}" for s in SEATS]]

# counts and sums that need per-seat input columns: constant 0 when the input has none
NEEDS = {
    "open": ["opened_hands", "_open_known_hands", "open_wins", "dama_wins", "deal_ins_while_open", "deal_ins_to_open",
             "deal_ins_to_dama", "_calls_sum", "_open_win_value_sum", "_dama_win_value_sum"],
    "riichi_turn": ["_riichi_turn_known", "_chasing_riichi", "_chasing_known", "_riichi_turn_sum"],
    "turn": ["_win_turn_known", "_deal_in_turn_known", "_win_turn_sum", "_deal_in_turn_sum"],
}


def int_input(name: str, names: list[str], plain: bool = False) -> pl.Expr:
    """A per-seat numeric input column (text in the raw input), null when absent or empty; ``plain``: every
    value is empty or an integer as written (:func:`_plain_inputs`)."""
    if name not in names:
        return pl.lit(None, pl.Int64)
    text = pl.col(name).cast(pl.String)
    if plain:
        return text.str.to_integer(strict=False)
    return text.str.strip_chars().cast(pl.Float64, strict=False).cast(pl.Int64)


def flag_input(name: str, names: list[str], plain: bool = False) -> pl.Expr:
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


def seat_inputs(names: list[str]) -> set[str]:
    """Which per-seat inputs the hands carry: 'open', 'riichi_turn', 'turn'; 'events' where the part marked the
    hands of games with events (:data:`WITH_EVENTS`)."""
    return {k for k, columns in {"open": [f"open_{s}" for s in SEATS], "riichi_turn": [f"riichi_turn_{s}" for s in SEATS],
                                 "turn": ["turn"], "events": [WITH_EVENTS]}.items() if any(c in names for c in columns)}


def hand_facts(hands: pl.LazyFrame, longest: int) -> pl.LazyFrame:
    """Facts of each hand spread over its rows (a multiple ron has several rows) and the per-seat inputs parsed,
    the per-seat ones as seat masks: ``_won`` (seats paid in the hand), ``_riichi`` (declared in the hand),
    ``_tenpai``, and with ``open_*`` ``_open`` / ``_closed`` (known open / known closed); the outcome tests
    ``_counted_hand`` (a hand's first row, not chombo), ``_exhaustive`` (draw or nagashi), ``_paid_tsumo``.

    The rows are in replay order (:mod:`analyzer.game.replay`): a hand is a run of rows from ``_first`` to ``_last``,
    so its totals are segment passes, not hashed windows; its yes/no facts share one running total
    (:func:`analyzer.core.segments.pack`), ``longest`` the rows of the longest hand. Inputs the hands do not carry
    add no columns. Each step is its own ``select``: an expression used twice inside one is computed twice."""
    names = hands.collect_schema().names()
    inputs = seat_inputs(names)
    start, end = pl.col("_first"), pl.col("_last")
    paid_ron = pl.col("_paid") & (pl.col("result") == "ron")
    winner_riichi = bit("_hand_riichi", pl.col("_winner"))
    facts = {
        "_dealt_in": paid_ron,
        "_into_riichi": paid_ron & winner_riichi,
        **{f"_won_{s}": pl.col("_paid") & (pl.col("_winner") == s) for s in SEATS},
    }
    # the per-seat inputs read from their text once, as columns: each is read several times below
    plain = _plain_inputs(hands, names)
    numbers, flags = {}, {}  # numbers go on to the runs, flags become seat masks here
    if "open" in inputs:
        flags |= {f"_open_flag_{s}": flag_input(f"open_{s}", names, f"open_{s}" in plain) for s in SEATS}
        numbers |= {f"_calls_{s}": int_input(f"calls_{s}", names, f"calls_{s}" in plain) for s in SEATS}
    if "riichi_turn" in inputs:
        numbers |= {f"_riichi_turn_{s}": int_input(f"riichi_turn_{s}", names, f"riichi_turn_{s}" in plain)
                    for s in SEATS}
    if "turn" in inputs:
        numbers["_turn"] = int_input("turn", names, "turn" in plain)
    if any(f"tenpai_{s}" in names for s in SEATS):
        flags |= {f"_tenpai_flag_{s}": flag_input(f"tenpai_{s}", names, f"tenpai_{s}" in plain) for s in SEATS}
    if numbers or flags:
        hands = hands.with_columns(e.alias(n) for n, e in {**numbers, **flags}.items())
    columns = [pl.col(n) for n in numbers]
    if "open" in inputs:
        opened = [pl.col(f"_open_flag_{s}") for s in SEATS]
        winner_open = at_seat(opened, pl.col("_winner"))
        facts |= {
            "_into_open": paid_ron & winner_open,
            "_into_dama": paid_ron & ~winner_riichi & ~winner_open,
            "_into_unknown": paid_ron & winner_open.is_null(),
        }
        columns += [seats_where(opened).alias("_open"), seats_where([~o for o in opened]).alias("_closed")]
    tenpai = (seats_where([pl.col(f"_tenpai_flag_{s}").fill_null(bit("_tenpai_mask", s)) for s in SEATS])
              if any(f"tenpai_{s}" in names for s in SEATS) else spread(pl.col("_tenpai_mask")))
    bits = seg.field_bits(longest)
    words = seg.pack(list(facts.values()), bits)
    word_names = [f"_hand_word{i}" for i in range(len(words))]
    kept = ["game_id", "round", "honba", "result", "points", "limit", "dealer", "_game", "_round_idx", "_game_start", "_first",
            "_last", "_paid", "_is_win", "_dealer_won", "_winner", "_loser", "_hand_riichi", *PLAYER_COLUMNS,
            *DELTA_COLUMNS, *([WITH_EVENTS] if WITH_EVENTS in names else [])]
    counted = hands.select(
        *kept, *columns,
        spread(pl.col("_hand_riichi")).alias("_riichi"),
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
        pl.sum_horizontal(pl.when(totals[f"_won_{s}"] > 0).then(pl.lit(unit(s), pl.Int64)).otherwise(0) for s in SEATS)
        .cast(pl.Int64).alias("_won"),
    ).drop(word_names)
