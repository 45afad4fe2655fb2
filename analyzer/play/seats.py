"""The facts of each seat's play in each hand, from the events table: one row per hand and seat
(:func:`hand_seats`), joinable to the hand records and the events by ``game_id`` and ``log_row``.

Columns (null where the seat did not do what a column describes):

======================  =============================================================================
``start_shanten``       the shanten of the seat's 13 dealt tiles (the dealer's first draw not included)
``start_score``         its score at the hand's start (from the hand records, when given; else null)
``start_place``         its place at the hand's start, by the recorded score changes of the game's earlier
                        hands (every seat starts equal), ties by seat (seat 0 first)
``score_change``        its recorded score change in the hand: all its outcome rows, the riichi stick paid,
                        honba and sticks collected included (null: the hand has no outcome row)
``riichi_seq``          the ``seq`` of its riichi declaration
``riichi_turn``         the turn of its riichi declaration
``riichi_accepted``     its declaration was accepted (false: ronned on the declaring tile)
``riichi_first``        no other seat's riichi was accepted before it declared (in event order)
``riichi_chased``       another seat's riichi was accepted after its own was
``riichi_waits``        the wait kinds of its concealed hand after the declaring discard
``riichi_wait_left``    the wait tiles left in its view then: 4 per wait kind less the copies it can see —
                        its own concealed tiles, every tile of every meld, every discard not taken by a call
                        (the declaring tile included), the norths set aside and the dora indicators shown
``riichi_furiten``      a wait kind is among its own discards of the hand (the declaring tile included)
``deal_in_shanten``     the shanten of its concealed hand after the tile it dealt in with left it
``first_call_turn``     the turn of its first chi, pon or open kan
``calls``               its chi, pon and open kans
``ippatsu_cancels``     of those, the ones made after another seat's riichi was accepted and before that
                        seat's next discard
``kans``                its open, added and closed kans
======================  =============================================================================

Every fact is an array over *slots* (``hand * 4 + seat``) filled from the seats' hands in hand order
(:mod:`.state`) by binary searches and ``bincount`` (:mod:`.riichi`); shanten and waits are looked up only where
a fact needs them (the deal, the declaring discard, the tile dealt in): the events' own ``shanten`` where they
have it, else from the seat's hand at that row, summed from its changes up to it
(:func:`~analyzer.play.state.codes_at`: no hand is kept for every row).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyzer.play.riichi import SeatRows, ippatsu_cancels, riichi_facts
from analyzer.play.state import CALLS_FROM_DISCARDS, HAND, UNKNOWN, SeatStates, codes_at, seat_states
from analyzer.play.suits import shanten_of_codes

SEAT = (*HAND, "seat")
# the columns of the events table that the facts are made of (``shanten`` where the table has it)
EVENT_COLUMNS = ("game_id", "log_row", "seq", "turn", "seat", "event", "tile", "tiles", "from_seat",
                 *(f"delta_{s}" for s in range(4)), "shanten")
KANS = ("minkan", "kakan", "ankan")
OUTCOMES = ("ron", "tsumo", "exhaustive_draw", "abort")
COLUMNS = {
    "game_id": pl.String, "log_row": pl.Int16, "seat": pl.Int8, "start_shanten": pl.Int8, "start_score": pl.Int32,
    "start_place": pl.Int8, "score_change": pl.Int32, "riichi_seq": pl.Int16, "riichi_turn": pl.Int8,
    "riichi_accepted": pl.Boolean, "riichi_first": pl.Boolean, "riichi_chased": pl.Boolean,
    "riichi_waits": pl.Int8, "riichi_wait_left": pl.Int8, "riichi_furiten": pl.Boolean,
    "deal_in_shanten": pl.Int8, "first_call_turn": pl.Int8, "calls": pl.Int8, "ippatsu_cancels": pl.Int8,
    "kans": pl.Int8,
}


def _shanten_at(states: SeatStates, rows: np.ndarray) -> np.ndarray:
    """The acting seat's shanten after each of ``rows``: the events' own where they give it, else from its
    hand then (:func:`~analyzer.play.state.codes_at`)."""
    shanten = np.full(len(rows), UNKNOWN, np.int8) if states.shanten is None else states.shanten[rows]
    missing = np.flatnonzero(shanten == UNKNOWN)
    if len(missing):
        shanten[missing] = shanten_of_codes(*codes_at(states, rows[missing]), states.three(rows[missing]))
    return shanten


def _score_changes(states: SeatStates, hands: int) -> tuple[np.ndarray, np.ndarray]:
    """(hands, 4) recorded score changes (all outcome rows of the hand) and whether each is known."""
    outcome = np.flatnonzero(states.rows_of(OUTCOMES))
    columns = [f"delta_{s}" for s in range(4) if f"delta_{s}" in states.events.columns]
    deltas = states.events.select(columns)[outcome]
    change, known = np.zeros((hands, 4), np.int64), np.zeros((hands, 4), bool)
    for s in range(4):
        delta = deltas[f"delta_{s}"].to_numpy() if f"delta_{s}" in columns else None
        if delta is None:
            continue
        given = ~np.isnan(delta.astype(np.float64))
        change[:, s] = np.bincount(states.hand[outcome[given]], weights=delta[given].astype(np.float64),
                                   minlength=hands).astype(np.int64)
        known[np.unique(states.hand[outcome[given]]), s] = True
    return change, known


def _start_places(keys: pl.DataFrame, change: np.ndarray, known: np.ndarray, dealt: np.ndarray) -> np.ndarray:
    """(hands, 4) place at each hand's start (0: unknown): the game's earlier hands (by ``log_row``) summed,
    ties by seat; unknown after a hand of the game whose changes are not known."""
    order = keys.select(pl.int_range(pl.len()).sort_by(list(HAND))).to_series().to_numpy()
    game = keys["game_id"].to_numpy()[order]
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]]) if len(order) else np.zeros(0, np.int64)
    lengths = np.diff(np.append(starts, len(order)))
    usable = known | ~dealt
    played = np.where(usable, change, 0)[order]
    running = np.cumsum(played, axis=0) - played
    running -= np.repeat(running[starts], lengths, axis=0)
    unknown = np.cumsum(~usable[order].all(axis=1)) - ~usable[order].all(axis=1)
    unknown -= np.repeat(unknown[starts], lengths)
    present = dealt[order]
    ahead = np.zeros(running.shape, np.int64)
    for s in range(4):
        for o in range(4):
            if o != s:
                better = (running[:, o] > running[:, s]) | ((running[:, o] == running[:, s]) & (o < s))
                ahead[:, s] += present[:, o] & better
    place = np.where(present & (unknown == 0)[:, None], ahead + 1, 0)
    out = np.zeros_like(place)
    out[order] = place
    return out


def _start_scores(hands: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """(``game_id``, ``log_row``, ``seat``, ``start_score``) from scored hand records: each hand's first row's
    scores less its changes (``_first`` marks it where the frame has it; else the first row in the frame's
    order, as the hands table is written: replay order)."""
    lf = hands.lazy()
    names = lf.collect_schema().names()
    first = lf.filter(pl.col("_first")) if "_first" in names else lf.group_by(*HAND, maintain_order=True).first()
    return (first.select(pl.col("game_id").cast(pl.String), pl.col("log_row").cast(pl.Int16, strict=False),
                         *[(pl.col(f"score_{s}") - pl.col(f"delta_{s}")).alias(str(s)) for s in range(4)])
            .unpivot(index=list(HAND), variable_name="seat", value_name="start_score")
            .select(*HAND, pl.col("seat").cast(pl.Int8), pl.col("start_score").cast(pl.Int32))
            .drop_nulls("start_score"))


def _table(keys: pl.DataFrame, slots: np.ndarray, facts: dict[str, tuple[np.ndarray, np.ndarray]]) -> pl.DataFrame:
    """The table's rows at ``slots``: the hand's keys, the seat, and each fact's value where it is valid (one
    query puts the nulls in)."""
    values = {name: value[slots] for name, (value, _) in facts.items()}
    valid = {f"_valid_{name}": ok[slots] for name, (_, ok) in facts.items()}
    ids = keys[slots // 4] if len(slots) else keys.clear()
    frame = pl.DataFrame({"seat": slots % 4, **values, **valid})
    return pl.concat([ids, frame], how="horizontal").select(
        pl.col("game_id").cast(pl.String), pl.col("log_row").cast(pl.Int16), pl.col("seat").cast(pl.Int8),
        *[pl.when(pl.col(f"_valid_{name}")).then(pl.col(name)).cast(COLUMNS[name]).alias(name) for name in facts])


def hand_seats(events: pl.DataFrame, hands: pl.DataFrame | pl.LazyFrame | None = None,
               states: SeatStates | None = None) -> pl.DataFrame:
    """One row per hand and seat of ``events`` (the events table; any row order): the facts of the module's
    table, sorted by ``game_id``, ``log_row`` and ``seat``. ``hands``: scored hand records of the same games
    (``game_id``, ``log_row``, ``score_0..3``, ``delta_0..3``), which give ``start_score``; ``states``: the
    events' :func:`~analyzer.play.state.seat_states` when they are known already."""
    states = seat_states(events, every_row=False) if states is None else states
    ordered = states.events
    n = ordered.height
    hands_in = int(states.hand[-1]) + 1 if n else 0
    slots = 4 * hands_in
    has_seat = states.seat >= 0
    dealt_rows = np.flatnonzero(states.rows_of("haipai") & has_seat)
    dealt = np.zeros(slots, bool)
    dealt[states.slot(dealt_rows)] = True
    start_shanten = np.zeros(slots, np.int64)
    start_shanten[states.slot(dealt_rows)] = _shanten_at(states, dealt_rows)

    keys = ordered.select(HAND)[states.starts] if n else pl.DataFrame(schema={c: ordered.schema[c] for c in HAND})
    change, known = _score_changes(states, hands_in)
    place = _start_places(keys, change, known, dealt.reshape(-1, 4)).reshape(-1)

    discards = SeatRows(states, states.rows_of("discard"))
    riichi = riichi_facts(states, slots, discards)
    cancels = ippatsu_cancels(states, slots, riichi.accepted_seq, discards)

    # a ron is on the last tile that left the dealer-in's hand: its last row before the ron
    rons = np.flatnonzero(states.rows_of("ron"))
    from_seat = states.values("from_seat", rons, missing=-1)
    rons, from_seat = rons[from_seat >= 0], from_seat[from_seat >= 0]
    before = SeatRows(states).find(from_seat, states.key[rons], after=False)
    found = before >= 0
    deal_in_slots = states.hand[rons[found]].astype(np.int64) * 4 + from_seat[found]
    deal_in_shanten, dealt_in = np.zeros(slots, np.int64), np.zeros(slots, bool)
    deal_in_shanten[deal_in_slots], dealt_in[deal_in_slots] = _shanten_at(states, before[found]), True

    call_rows = np.flatnonzero(states.rows_of(CALLS_FROM_DISCARDS) & has_seat)
    calls = np.bincount(states.slot(call_rows), minlength=slots)
    kans = np.bincount(states.slot(np.flatnonzero(states.rows_of(KANS) & has_seat)), minlength=slots)
    first_call_turn = np.zeros(slots, np.int64)
    call_slots, first = np.unique(states.slot(call_rows), return_index=True)
    first_call_turn[call_slots] = states.values("turn", call_rows[first])

    everywhere, declared, waited = np.ones(slots, bool), riichi.declared, riichi.waited
    facts = {
        "start_shanten": (start_shanten, dealt), "start_score": (start_shanten, ~everywhere),
        "start_place": (place, place > 0), "score_change": (change.reshape(-1), known.reshape(-1)),
        "riichi_seq": (riichi.seq, declared), "riichi_turn": (riichi.turn, declared),
        "riichi_accepted": (riichi.accepted, declared), "riichi_first": (riichi.first, declared),
        "riichi_chased": (riichi.chased, declared), "riichi_waits": (riichi.waits, waited),
        "riichi_wait_left": (riichi.wait_left, waited), "riichi_furiten": (riichi.furiten, waited),
        "deal_in_shanten": (deal_in_shanten, dealt_in), "first_call_turn": (first_call_turn, calls > 0),
        "calls": (calls, everywhere), "ippatsu_cancels": (cancels, everywhere), "kans": (kans, everywhere),
    }
    table = _table(keys, np.flatnonzero(dealt), facts)
    return table.select(list(COLUMNS)).sort(SEAT) if hands is None else with_start_scores(table, hands)


def with_start_scores(seats: pl.DataFrame, hands: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """``seats`` (a :func:`hand_seats` table) with ``start_score`` from the scored hand records ``hands``, sorted
    by ``game_id``, ``log_row`` and ``seat``."""
    joined = seats.drop("start_score").lazy().join(_start_scores(hands), on=list(SEAT), how="left")
    return joined.select(list(COLUMNS)).collect().sort(SEAT)
