"""The facts of each seat's play in each hand, from the events table: one row per hand and seat
(:func:`hand_seats`), joinable to the hand records and the events by ``game_id`` and ``log_row``.

Columns (null where the seat did not do what a column describes):

======================  =============================================================================
``start_shanten``       the shanten of the seat's 13 dealt tiles (the dealer's first draw not included)
``riichi_seq``          the ``seq`` of its riichi declaration
``riichi_turn``         the turn of its riichi declaration
``riichi_accepted``     its declaration was accepted (false: ronned on the declaring tile)
``riichi_first``        no other seat's riichi was accepted before it declared (in event order)
``riichi_chased``       another seat's riichi was accepted after its own was
``riichi_waits``        the wait kinds of its concealed hand after the declaring discard
``riichi_wait_left``    the wait tiles left in its view then: 4 per wait kind less the copies it can see —
                        its own concealed tiles, every tile that left any seat's hand (discards, the
                        revealed tiles of melds, kans, norths set aside) and the dora indicators shown
``riichi_furiten``      a wait kind is among its own discards of the hand (the declaring tile included)
``deal_in_shanten``     the shanten of its concealed hand after the tile it dealt in with left it
``first_call_turn``     the turn of its first chi, pon or open kan
``calls``               its chi, pon and open kans
``kans``                its open, added and closed kans
======================  =============================================================================

Every fact is a join or a group-by over the events and the seats' replayed hands (:mod:`.state`); the waits at
the declarations are the only per-row table lookups beyond the shanten.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyzer.play.state import HAND, kind_of, seat_states, shanten_column, three_player_hands, tile_changes
from analyzer.tiles.shanten import waits

SEAT = (*HAND, "seat")
CALLS = ("chi", "pon", "minkan")
KANS = ("minkan", "kakan", "ankan")
# a ron is on the last tile that left the dealer-in's hand: a discard, or an added kan robbed
DEALT_IN_WITH = ("discard", "kakan")


def _event(name: str | tuple) -> pl.Expr:
    names = [name] if isinstance(name, str) else list(name)
    return pl.col("event").cast(pl.String).is_in(names)


def _riichi(events: pl.LazyFrame) -> pl.LazyFrame:
    """One row per declaration: its seq and turn, whether it was accepted, first or chased, and the seq of
    its declaring discard (the seat's next discard)."""
    declared = events.filter(_event("riichi_declared")).select(*SEAT, riichi_seq="seq", riichi_turn="turn")
    accepted = events.filter(_event("riichi_accepted")).select(*SEAT, accepted_seq="seq")
    discards = events.filter(_event("discard")).select(*SEAT, discard_seq="seq")
    declaring = (declared.join(discards, on=SEAT).filter(pl.col("discard_seq") > pl.col("riichi_seq"))
                 .group_by(SEAT).agg(pl.col("discard_seq").min()))
    others = accepted.rename({"seat": "other", "accepted_seq": "other_seq"})
    first = (declared.join(others, on=HAND).filter(pl.col("other") != pl.col("seat"))
             .group_by(SEAT).agg(riichi_before=(pl.col("other_seq") < pl.col("riichi_seq")).any()))
    mine = declared.join(accepted, on=SEAT, how="left")
    chased = (mine.join(others, on=HAND).filter((pl.col("other") != pl.col("seat"))
                                               & (pl.col("other_seq") > pl.col("accepted_seq")))
              .group_by(SEAT).agg(riichi_chased=pl.lit(True)))
    return (mine.join(declaring, on=SEAT, how="left").join(first, on=SEAT, how="left")
            .join(chased, on=SEAT, how="left")
            .select(*SEAT, "riichi_seq", "riichi_turn", "discard_seq",
                    riichi_accepted=pl.col("accepted_seq").is_not_null(),
                    riichi_first=~pl.col("riichi_before").fill_null(False),
                    riichi_chased=pl.col("riichi_chased").fill_null(False)))


def _seen_before(rows: pl.LazyFrame, tiles: pl.LazyFrame, on: tuple) -> pl.LazyFrame:
    """Per row of ``rows`` (``_row``, ``on`` columns, ``seq``) and kind: the tiles of ``tiles`` (``on``,
    ``seq``, ``kind``, ``n``) at or before its seq."""
    return (rows.join(tiles, on=list(on)).filter(pl.col("tile_seq") <= pl.col("seq"))
            .group_by("_row", "kind").agg(pl.col("n").sum()))


def _dense(frame: pl.DataFrame, at: pl.DataFrame) -> np.ndarray:
    """``frame``'s (``_row``, ``kind``, ``n``) as counts (len(at), 34), a row per row of ``at``."""
    out = np.zeros((at.height, 34), np.int64)
    placed = frame.join(at.select("_row").with_row_index("i"), on="_row")
    out[placed["i"].to_numpy().astype(np.int64), placed["kind"].to_numpy().astype(np.int64)] = placed["n"].to_numpy()
    return out


def _wait_facts(events: pl.DataFrame, frame: pl.LazyFrame, riichi: pl.DataFrame, states: tuple) -> pl.DataFrame:
    """``riichi_waits``, ``riichi_wait_left`` and ``riichi_furiten`` of each declaration with a discard."""
    found = riichi.filter(pl.col("discard_seq").is_not_null())
    if found.height == 0:
        return found.select(*SEAT, riichi_waits=pl.lit(None, pl.Int8), riichi_wait_left=pl.lit(None, pl.Int8),
                            riichi_furiten=pl.lit(None, pl.Boolean))
    # the declaring discard's row, and the seat's hand after it
    keyed = frame.select("_row", *SEAT, "seq")
    at = (found.lazy().join(keyed, left_on=[*SEAT, "discard_seq"], right_on=[*SEAT, "seq"])
          .select("_row", *SEAT, seq="discard_seq").sort("_row").collect())
    rows, counts, sets = states
    position = np.full(events.height, -1, np.int64)
    position[rows] = np.arange(len(rows))
    picked = position[at["_row"].to_numpy()]
    hand, called = counts[picked].astype(np.int8), sets[picked]
    sanma = three_player_hands(events)[at["_row"].to_numpy()]
    wait = np.zeros(hand.shape, bool)
    for three in (False, True):
        pick = sanma == three
        if pick.any():
            wait[pick] = waits(hand[pick], called[pick], three_players=three)
    # every tile that left a hand is in view, and the dora indicators shown
    # (a called tile, already in view as a discard, enters the caller's hand and leaves it in the meld: net 0)
    left_hands = (tile_changes(frame).group_by("_row", "kind").agg(pl.col("change").sum())
                  .filter(pl.col("change") < 0).join(keyed, on="_row")
                  .select(*HAND, tile_seq="seq", kind="kind", n=-pl.col("change").cast(pl.Int64)))
    kinds = kind_of("tile", list(frame.collect_schema()["tile"].categories))
    indicators = frame.filter(_event("dora")).select(*HAND, tile_seq="seq", kind=kinds, n=pl.lit(1, pl.Int64))
    visible = pl.concat([left_hands, indicators])
    seen = _dense(_seen_before(at.lazy().select("_row", *HAND, "seq"), visible, HAND).collect(), at)
    own_discards = (frame.filter(_event("discard"))
                    .select(*SEAT, tile_seq="seq", kind=kinds, n=pl.lit(1, pl.Int64)))
    discarded = _dense(_seen_before(at.lazy().select("_row", *SEAT, "seq"), own_discards, SEAT).collect(), at)
    left = np.where(wait, np.clip(4 - hand - seen, 0, 4), 0).sum(axis=1)
    return at.select(*SEAT).with_columns(
        riichi_waits=pl.Series(wait.sum(axis=1), dtype=pl.Int8),
        riichi_wait_left=pl.Series(left, dtype=pl.Int8),
        riichi_furiten=pl.Series((wait & (discarded > 0)).any(axis=1)))


def hand_seats(events: pl.DataFrame) -> pl.DataFrame:
    """One row per hand and seat of ``events`` (the events table): the facts of the module's table, sorted
    by ``game_id``, ``log_row`` and ``seat``."""
    events = events.drop("shanten", strict=False)
    frame = events.lazy().with_row_index("_row")
    states = seat_states(events)
    with_shanten = frame.with_columns(shanten=shanten_column(events, states))
    seats = frame.filter(_event("haipai")).select(*SEAT)
    start = with_shanten.filter(_event("haipai")).select(*SEAT, start_shanten="shanten")
    riichi = _riichi(frame).collect()
    waits_ = _wait_facts(events, frame, riichi, states)
    ron = frame.filter(_event("ron")).select(*HAND, seat="from_seat", ron_seq="seq").unique()
    dealt = (with_shanten.filter(_event(DEALT_IN_WITH)).join(ron, on=SEAT)
             .filter(pl.col("seq") < pl.col("ron_seq"))
             .group_by(SEAT).agg(deal_in_shanten=pl.col("shanten").sort_by("seq").last()))
    plays = (frame.filter(_event((*CALLS, *KANS))).group_by(SEAT)
             .agg(first_call_turn=pl.col("turn").filter(_event(CALLS)).min(),
                  calls=_event(CALLS).sum().cast(pl.Int8), kans=_event(KANS).sum().cast(pl.Int8)))
    table = (seats.join(start, on=SEAT, how="left")
             .join(riichi.lazy().drop("discard_seq"), on=SEAT, how="left")
             .join(waits_.lazy(), on=SEAT, how="left")
             .join(dealt, on=SEAT, how="left").join(plays, on=SEAT, how="left")
             .with_columns(pl.col("calls", "kans").fill_null(0))
             .sort(SEAT).collect())
    return table.select(*SEAT, "start_shanten", "riichi_seq", "riichi_turn", "riichi_accepted", "riichi_first",
                        "riichi_chased", "riichi_waits", "riichi_wait_left", "riichi_furiten", "deal_in_shanten",
                        "first_call_turn", "calls", "kans")
