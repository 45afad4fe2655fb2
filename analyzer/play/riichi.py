"""The riichi facts of each hand and seat, and the calls that cancel an ippatsu, from the seats' hands
(:mod:`.state`) as arrays in hand order.

Facts are kept per *slot*, ``hand * 4 + seat``. A seat's rows in hand order have increasing keys (``hand *
2**16 + seq``), so "the seat's next discard after a row" or "its last row before one" is a binary search
among them (:class:`SeatRows`); "the tiles in view at a row" are the rows before it in its hand, a range of the
rows of the tiles shown, counted per kind by one ``bincount`` over all the ranges at once (:func:`in_ranges`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer.play.state import CALLS_FROM_DISCARDS, SEQ_BITS, SeatStates, codes_at, in_ranges, listed_tiles
from analyzer.play.suits import counts_of, waits_of_codes

NONE = 1 << 20  # a seq after every seq: no such row
# rows whose tile is in view once played: discards, added kans, norths set aside, dora indicators; a called
# tile is in view as the discard it was, so a meld shows its other tiles
SHOWN_TILE = ("discard", "kakan", "kita", "dora")
SHOWN_MELD = (*CALLS_FROM_DISCARDS, "ankan")


class SeatRows:
    """Per seat, the rows of ``states`` that are one of some events (all rows of the seat with ``mask`` None),
    in hand order, and their keys."""

    def __init__(self, states: SeatStates, mask: np.ndarray | None = None) -> None:
        self.states = states
        if mask is None:
            self.rows, self.keys = list(states.seat_rows), list(states.seat_keys)
        else:
            self.rows = [rows[mask[rows]] for rows in states.seat_rows]
            self.keys = [states.key[r] for r in self.rows]

    def find(self, seats: np.ndarray, keys: np.ndarray, after: bool) -> np.ndarray:
        """For each (seat, key): the seat's first row after ``key`` (``after``) or its last row before it, in
        the same hand; −1 where there is none."""
        out = np.full(len(keys), -1, np.int64)
        for s in range(4):
            pick = np.flatnonzero(seats == s)
            if not len(pick) or not len(self.rows[s]):
                continue
            at = np.searchsorted(self.keys[s], keys[pick], side="right" if after else "left") - (0 if after else 1)
            found = (at >= 0) & (at < len(self.rows[s]))
            rows = self.rows[s][np.clip(at, 0, len(self.rows[s]) - 1)]
            same_hand = self.states.hand[rows] == keys[pick] >> SEQ_BITS
            out[pick] = np.where(found & same_hand, rows, -1)
        return out

    def first_in_hand(self, s: int, keys: np.ndarray) -> np.ndarray:
        """Index (among seat ``s``'s rows) of its first row in the hand of each key."""
        return np.searchsorted(self.keys[s], (keys >> SEQ_BITS) << SEQ_BITS, side="left")


def _count_kinds(owner: np.ndarray, kinds: np.ndarray, weights: np.ndarray, targets: int) -> np.ndarray:
    return np.bincount(owner * 34 + kinds, weights=weights, minlength=targets * 34).reshape(targets, 34)


def _in_view(states: SeatStates, keys: np.ndarray) -> np.ndarray:
    """(T, 34): the tiles every seat can see at each key (its hand's rows up to it): those of
    :data:`SHOWN_TILE` rows and of melds (:data:`SHOWN_MELD`), less each called tile (in view as a discard)."""
    kind = states.kind
    shown = np.flatnonzero(states.rows_of(SHOWN_TILE) & (kind >= 0))
    called = np.flatnonzero(states.rows_of(CALLS_FROM_DISCARDS) & (kind >= 0))
    melds = np.flatnonzero(states.rows_of(SHOWN_MELD))
    owner, meld_kinds = listed_tiles(states.events, melds)
    meld_rows = melds[owner]
    sources = [(states.key[shown], kind[shown], 1), (states.key[called], kind[called], -1),
               (states.key[meld_rows], meld_kinds, 1)]
    seen = np.zeros((len(keys), 34), np.int64)
    for source_keys, kinds, sign in sources:
        lo = np.searchsorted(source_keys, (keys >> SEQ_BITS) << SEQ_BITS, side="left")
        hi = np.searchsorted(source_keys, keys, side="right")
        owner, index = in_ranges(lo, hi)
        seen += sign * np.bincount(owner * 34 + kinds[index], minlength=len(keys) * 34).reshape(len(keys), 34)
    return seen


class Riichi(NamedTuple):
    """Per slot (4 per hand): the declaration's ``seq`` and ``turn`` (``declared``), ``accepted``, ``first``,
    ``chased``; the wait kinds, wait tiles left and furiten after the declaring discard (``waited``: found)."""

    declared: np.ndarray
    seq: np.ndarray
    turn: np.ndarray
    accepted: np.ndarray
    first: np.ndarray
    chased: np.ndarray
    waited: np.ndarray
    waits: np.ndarray
    wait_left: np.ndarray
    furiten: np.ndarray
    accepted_seq: np.ndarray  # (hands, 4), NONE without


def riichi_facts(states: SeatStates, slots: int, discards: SeatRows) -> Riichi:
    """The :class:`Riichi` facts of every slot (``slots``: 4 × the hands; ``discards``: the seats' discards)."""
    declared_rows = np.flatnonzero(states.rows_of("riichi_declared") & (states.seat >= 0))
    accepted_rows = np.flatnonzero(states.rows_of("riichi_accepted") & (states.seat >= 0))
    declared_slots, accepted_slots = states.slot(declared_rows), states.slot(accepted_rows)
    declared, accepted = np.zeros(slots, bool), np.zeros(slots, bool)
    declared[declared_slots], accepted[accepted_slots] = True, True
    riichi_seq, riichi_turn = np.zeros(slots, np.int64), np.zeros(slots, np.int64)
    riichi_seq[declared_slots] = states.seq(declared_rows)
    riichi_turn[declared_slots] = states.values("turn", declared_rows)
    accepted_seq = np.full(slots, NONE, np.int64)
    accepted_seq[accepted_slots] = states.seq(accepted_rows)
    by_hand = accepted_seq.reshape(-1, 4)
    hand_of = np.arange(slots) // 4
    # one's own acceptance comes after one's declaration: the earliest of the hand is another seat's if earlier
    first = by_hand.min(axis=1)[hand_of] > riichi_seq
    latest = np.where(by_hand < NONE, by_hand, -1).max(axis=1)[hand_of]
    chased = accepted & (latest > accepted_seq)

    at = discards.find(states.seat[declared_rows], states.key[declared_rows], after=True)
    found = at >= 0
    targets, owners = at[found], declared_slots[found]
    codes, sets = codes_at(states, targets)
    wait = waits_of_codes(codes, sets, states.three(targets))
    hand_counts = counts_of(codes).astype(np.int64)
    left = np.clip(4 - hand_counts - _in_view(states, states.key[targets]), 0, 4)
    discarded = np.zeros(wait.shape, bool)
    for s in range(4):  # the seat's own discards of the hand, the declaring one included
        pick = np.flatnonzero(states.seat[targets] == s)
        if len(pick):
            keys = states.key[targets[pick]]
            lo = discards.first_in_hand(s, keys)
            hi = np.searchsorted(discards.keys[s], keys, side="right")
            owner, index = in_ranges(lo, hi)
            kinds = states.kind[discards.rows[s][index]]
            discarded[pick] = _count_kinds(owner, kinds, np.ones(len(index)), len(pick)) > 0
    waited = np.zeros(slots, bool)
    waited[owners] = True
    waits_, wait_left, furiten = np.zeros(slots, np.int64), np.zeros(slots, np.int64), np.zeros(slots, bool)
    waits_[owners] = wait.sum(axis=1)
    wait_left[owners] = np.where(wait, left, 0).sum(axis=1)
    furiten[owners] = (wait & discarded).any(axis=1)
    return Riichi(declared, riichi_seq, riichi_turn, accepted, first, chased, waited, waits_, wait_left, furiten,
                  by_hand)


def ippatsu_cancels(states: SeatStates, slots: int, accepted_seq: np.ndarray, discards: SeatRows) -> np.ndarray:
    """Per slot: the seat's chi, pon and open kans made after another seat's riichi was accepted and before that
    seat's next discard (``accepted_seq``: (hands, 4) from :func:`riichi_facts`; ``discards``: the seats')."""
    hands = len(accepted_seq)
    open_until = np.full((hands, 4), -1, np.int64)
    for s in range(4):
        riichi_hands = np.flatnonzero(accepted_seq[:, s] < NONE)
        next_discard = discards.find(np.full(len(riichi_hands), s), (riichi_hands << SEQ_BITS)
                                     + accepted_seq[riichi_hands, s], after=True)
        open_until[riichi_hands, s] = np.where(next_discard >= 0, states.seq(np.maximum(next_discard, 0)), NONE)
    calls = np.flatnonzero(states.rows_of(CALLS_FROM_DISCARDS) & (states.seat >= 0))
    hand, caller, at = states.hand[calls], states.seat[calls], states.seq(calls)
    window = (accepted_seq[hand] < at[:, None]) & (at[:, None] < open_until[hand])
    window[np.arange(len(calls)), caller] = False
    return np.bincount(states.slot(calls[window.any(axis=1)]), minlength=slots)
