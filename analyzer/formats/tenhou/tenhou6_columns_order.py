"""tenhou.net/6 JSON's play put back in order for every hand of a batch at once: the rule of
:func:`.tenhou6_play.play_order` (a seat draws and discards; after a discard a pon or open kan string naming the
discarder at the head of another seat's draws, else a chi string at the head of the next seat's, is a call, and
the caller discards next; otherwise the next seat draws) taken by all hands in lock-step, one turn of each hand
per step, as numpy arrays over the hands (about a hundred steps a batch, whatever its size).

The per-game reader tries the first reading and, only when it fails, others (a seat that discards the same tile
twice before the call): these columns take the first one, and a hand it fails for (a call where a draw should be,
a draw or discard left over, a tsumogiri without a draw, a kakan without its pon, a tile discarded or called that
the seat does not hold: :func:`checks`) has its file *refused*, for the per-game reader to read and say why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.formats.tenhou.mjlog_columns_codes import ANKAN, CHI, EVENT, KAKAN, KITA, MINKAN, PON
from analyzer.formats.tenhou.tenhou6_columns_items import (ADDED_KAN, CHI_L, CLOSED_KAN, GAP, GIRI, KIND, MINKAN_L,
                                                           NORTH_OUT, PON_L, RIICHI, RIICHI_GIRI, Items)
from analyzer.formats.events import TILE_CODES
from analyzer.formats.tile_text import NORTH

DRAW, DISCARD = EVENT["draw"], EVENT["discard"]
DECLARED, ACCEPTED = EVENT["riichi_declared"], EVENT["riichi_accepted"]
NORTH_TILE = TILE_CODES.index(NORTH)
CALL_EVENT = np.array([CHI, PON, MINKAN, ANKAN, KAKAN], np.int8)  # by call letter
SLOTS = 8  # places of a step's events: draw, declaration, discard (or kita, kan), acceptance, call
MAX_STEPS = 2000


@dataclass
class Play:
    """The play's events of every hand, in order (hand, then play): ``hand``, ``ev``, ``seat``, ``tile`` (the
    tile Enum's index, -1: none), ``frm`` (-1: none), ``call`` (the call string's number, -1: none),
    ``giri`` (a discard of the tile just drawn); ``last_riichi`` per hand the seat whose riichi on the hand's
    last discard is settled by the result (-1: none); ``failed`` per hand."""

    hand: np.ndarray
    ev: np.ndarray
    seat: np.ndarray
    tile: np.ndarray
    frm: np.ndarray
    call: np.ndarray
    giri: np.ndarray
    last_riichi: np.ndarray
    failed: np.ndarray


class _Out:
    def __init__(self) -> None:
        self.parts: list[tuple] = []

    def add(self, hands, order, ev, seat, tile, frm=None, call=None, giri=None) -> None:
        n = len(hands)
        if not n:
            return
        full = np.full(n, -1, np.int64)
        self.parts.append((hands, np.full(n, order) if np.isscalar(order) else order, np.broadcast_to(ev, (n,)),
                           seat, tile, full if frm is None else frm, full if call is None else call,
                           np.zeros(n, bool) if giri is None else giri))

    def columns(self) -> list[np.ndarray]:
        if not self.parts:
            return [np.zeros(0, np.int64) for _ in range(7)] + [np.zeros(0, bool)]
        return [np.concatenate([p[i] for p in self.parts]) for i in range(8)]


def play_order(items: Items, players: np.ndarray, dealer: np.ndarray) -> Play:
    """Every hand's play in order (see the module docstring); ``players`` and ``dealer`` per hand."""
    hands = len(players)
    # per hand and seat, flat (hand * 4 + seat): the draws and discards taken so far, the tile just drawn
    ti, di = np.zeros(hands * 4, np.int64), np.zeros(hands * 4, np.int64)
    drawn = np.full(hands * 4, -1, np.int64)
    takes, take_start = items.takes.reshape(-1), items.take_start.reshape(-1)
    drops, drop_start = items.drops.reshape(-1), items.drop_start.reshape(-1)
    take_call = np.append(items.take_call, -1)  # a last entry for the hands that take nothing this step
    take_tile = np.append(items.take_tile, -1)
    drop_kind = np.append(items.drop_kind, -1)
    drop_tile = np.append(items.drop_tile, -1)
    drop_call = np.append(items.drop_call, -1)
    none_taken, none_dropped = len(items.take_call), len(items.drop_kind)
    turn, need = dealer.astype(np.int64).copy(), np.ones(hands, bool)
    alive, failed = ~items.bad.copy(), items.bad.copy()
    last_riichi = np.full(hands, -1, np.int64)
    out = _Out()
    letter, called = np.append(items.letter, -9), np.append(items.called, -1)
    flat = _Flat(ti, takes, take_start, take_call, none_taken)
    for step in range(MAX_STEPS):
        a = np.flatnonzero(alive)
        if not len(a):
            break
        at = step * SLOTS
        s, n = turn[a], players[a].astype(np.int64)
        f = a * 4 + s
        drawing = need[a] & (ti[f] < takes[f])
        ended = need[a] & ~drawing
        tix = np.where(drawing, take_start[f] + ti[f], none_taken)
        bad = drawing & (take_call[tix] >= 0)
        draws = drawing & ~bad
        tile = take_tile[tix]
        out.add(a[draws], at, DRAW, s[draws], tile[draws])
        ti[f[draws]] += 1
        drawn[f[draws]] = tile[draws]
        go = ~ended & ~bad
        acting = go & (di[f] < drops[f])
        ended |= go & ~acting
        dix = np.where(acting, drop_start[f] + di[f], none_dropped)
        di[f[acting]] += 1
        kind = drop_kind[dix]
        north = kind == NORTH_OUT
        bad |= north & (n != 3)
        out.add(a[north], at + 2, KITA, s[north], np.full(int(north.sum()), NORTH_TILE))
        for kan_kind, letter_of in ((CLOSED_KAN, 3), (ADDED_KAN, 4)):
            kan = kind == kan_kind
            ix = drop_call[dix[kan]]
            out.add(a[kan], at + 2, CALL_EVENT[letter_of], s[kan], called[ix], call=ix)
        need[a[north | (kind == CLOSED_KAN) | (kind == ADDED_KAN)]] = True
        bad |= acting & ((kind == GAP) | (kind < 0))
        discard = acting & (kind >= 0) & (kind <= RIICHI_GIRI) & (kind != GAP)
        giri = discard & ((kind == GIRI) | (kind == RIICHI_GIRI))
        riichi = discard & ((kind == RIICHI) | (kind == RIICHI_GIRI))
        held = drawn[f]
        bad |= giri & (held < 0)
        discard &= ~bad
        dtile = np.where(giri, held, drop_tile[dix])
        drawn[f[discard]] = -1
        declared = riichi & discard
        out.add(a[declared], at + 1, DECLARED, s[declared], np.full(int(declared.sum()), -1))
        out.add(a[discard], at + 2, DISCARD, s[discard], dtile[discard], giri=giri[discard])
        caller, call = _caller(flat, a, s, n, dtile, discard, letter, called, items.place)
        following = (s + 1) % n
        more = ti[a * 4 + following] < takes[a * 4 + following]
        accepted = declared & ((caller >= 0) | more)
        out.add(a[accepted], at + 3, ACCEPTED, s[accepted], np.full(int(accepted.sum()), -1))
        last = declared & ~accepted
        last_riichi[a[last]] = s[last]
        passed = discard & (caller < 0)
        turn[a[passed]], need[a[passed]] = following[passed], True
        took = discard & (caller >= 0)
        o, ix = caller[took], call[took]
        taker = a[took] * 4 + o
        ti[taker] += 1
        kinds = letter[ix]
        out.add(a[took], at + 4, CALL_EVENT[kinds], o, dtile[took], s[took], ix)
        turn[a[took]] = o
        open_kan = kinds == MINKAN_L
        need[a[took]] = open_kan
        kan_f = taker[open_kan]
        gap = di[kan_f] < drops[kan_f]
        gap &= drop_kind[np.where(gap, drop_start[kan_f] + di[kan_f], none_dropped)] == GAP
        di[kan_f[gap]] += 1
        failed[a[bad]] = True
        alive[a[bad | ended]] = False
    failed |= alive  # not ended within the steps
    left = (ti != takes) | (di != drops)
    failed |= left.reshape(hands, 4).any(axis=1)
    hand, order, ev, seat, tile, frm, call, giri = out.columns()
    sort = np.lexsort((order, hand))
    return Play(hand[sort], ev[sort].astype(np.int8), seat[sort].astype(np.int8), tile[sort].astype(np.int16),
                frm[sort].astype(np.int8), call[sort], giri[sort], last_riichi, failed)


@dataclass
class _Flat:
    """The draws taken so far and the draw lists, flat by hand and seat (see :func:`play_order`)."""

    ti: np.ndarray
    takes: np.ndarray
    take_start: np.ndarray
    take_call: np.ndarray
    none_taken: int


def _caller(flat: _Flat, a, s, n, dtile, discard, letter, called, place):
    """The seat that calls each discard (-1: none) and its call: a pon or open kan naming the discarder, by the
    seats after it in turn; else a chi by the next seat."""
    caller = np.full(len(a), -1, np.int64)
    call = np.full(len(a), -1, np.int64)
    if not flat.none_taken:
        return caller, call
    place = np.append(place, 0)
    ti, takes, take_start, take_call = flat.ti, flat.takes, flat.take_start, flat.take_call
    for k in (1, 2, 3):
        o = (s + k) % 4
        f = a * 4 + o
        has = discard & (caller < 0) & (ti[f] < takes[f])
        ix = take_call[np.where(has, take_start[f] + ti[f], flat.none_taken)]
        # the called tile's place among the string's tiles says the seat called from (.tenhou6_play._from_seat)
        p = place[ix]
        frm = (o + np.where(p == 0, 3, np.where(p == 2, 2, 1))) % 4
        kind = letter[ix]
        match = has & ((kind == PON_L) | (kind == MINKAN_L)) & (frm == s) & (called[ix] == dtile)
        caller[match], call[match] = o[match], ix[match]
    o = (s + 1) % n
    f = a * 4 + o
    has = discard & (caller < 0) & (ti[f] < takes[f])
    ix = take_call[np.where(has, take_start[f] + ti[f], flat.none_taken)]
    match = has & (letter[ix] == CHI_L) & (called[ix] == dtile)
    caller[match], call[match] = o[match], ix[match]
    return caller, call


def checks(play: Play, items: Items) -> tuple[np.ndarray, np.ndarray]:
    """(each kakan's added tile, by the play's rows: -1 elsewhere; the hands whose play these columns refuse: a
    kakan without the pon it extends, a tile discarded, called with or set aside that its seat does not hold)."""
    n = len(play.ev)
    hands = len(play.failed)
    bad = np.zeros(hands, bool)
    added = np.full(n, -1, np.int64)
    ev, call = play.ev, play.call
    tiles = items.tiles
    kakan = np.flatnonzero(ev == KAKAN)
    if len(kakan):
        pon = np.flatnonzero(ev == PON)
        pon_tiles = tiles[call[pon]]
        # the pon's first tile but the called one (.tenhou6_play: ``m[3][0]``) names the kind a kakan extends
        first = np.where(items.place[call[pon]] // 2 == 0, pon_tiles[:, 1], pon_tiles[:, 0])
        pon_key = (play.hand[pon].astype(np.int64) * 4 + play.seat[pon]) * 64 + KIND[first]
        kakan_key = (play.hand[kakan].astype(np.int64) * 4 + play.seat[kakan]) * 64 + KIND[play.tile[kakan]]
        composite = pon_key * (n + 1) + pon
        order = np.argsort(composite)
        found = np.searchsorted(composite[order], kakan_key * (n + 1) + kakan) - 1
        if not len(pon):  # no pon for any kakan to extend
            pon, order, found, pon_key, pon_tiles = (np.zeros(1, np.int64),) * 3 + (np.full(1, -1),) + (
                np.zeros((1, 4), np.int16),)
        which = order[np.maximum(found, 0)]
        ok = (found >= 0) & (pon_key[which] == kakan_key)
        counts = np.zeros((len(kakan), 37), np.int64)
        k_tiles = tiles[call[kakan]]
        rows = np.repeat(np.arange(len(kakan)), 4)
        np.add.at(counts, (rows, np.maximum(k_tiles.reshape(-1), 0)), (k_tiles.reshape(-1) >= 0).astype(np.int64))
        p_tiles = pon_tiles[which][:, :3].astype(np.int64)
        np.add.at(counts, (np.repeat(np.arange(len(kakan)), 3), np.maximum(p_tiles.reshape(-1), 0)), -1)
        ok &= (counts >= 0).all(axis=1) & (counts.sum(axis=1) == 1)
        added[kakan] = np.argmax(counts, axis=1)
        bad[play.hand[kakan[~ok]]] = True
    bad |= _not_held(play, items, added)
    return added, bad


def _not_held(play: Play, items: Items, added: np.ndarray) -> np.ndarray:
    """Hands in which a seat gives away a tile it does not hold: the dealt tiles and draws in, the discards,
    norths, kan tiles and the tiles a call is made with out, in play order."""
    hands = len(play.failed)
    ev, seat, tile, call = play.ev, play.seat.astype(np.int64), play.tile.astype(np.int64), play.call
    place = np.arange(len(ev), dtype=np.int64)
    parts = []  # (hand, seat, tile, place, step within the place, change)
    haipai = items.deals
    h, s, t = np.nonzero(haipai >= 0)
    parts.append((h, s, haipai[h, s, t].astype(np.int64), np.full(len(h), -1), np.zeros(len(h)), np.ones(len(h))))
    for kinds, change in (((DRAW,), 1), ((DISCARD, KITA), -1)):
        rows = np.flatnonzero(np.isin(ev, kinds))
        parts.append((play.hand[rows], seat[rows], tile[rows], place[rows], np.ones(len(rows)),
                      np.full(len(rows), change)))
    rows = np.flatnonzero(ev == KAKAN)
    parts.append((play.hand[rows], seat[rows], added[rows], place[rows], np.ones(len(rows)), -np.ones(len(rows))))
    rows = np.flatnonzero(np.isin(ev, (CHI, PON, MINKAN, ANKAN)))
    for i in range(4):
        tiles_i = items.tiles[call[rows], i]
        used = tiles_i >= 0
        r = rows[used]
        parts.append((play.hand[r], seat[r], tiles_i[used].astype(np.int64), place[r], np.ones(len(r)),
                      -np.ones(len(r))))
    opened = rows[ev[rows] != ANKAN]  # the called tile is not the caller's: given back before its tiles go
    parts.append((play.hand[opened], seat[opened], tile[opened], place[opened], np.zeros(len(opened)),
                  np.ones(len(opened))))
    hand, seat_, tile_, at, sub, change = (np.concatenate([np.asarray(p[i]) for p in parts]) for i in range(6))
    key = (hand.astype(np.int64) * 4 + seat_) * 64 + tile_
    order = np.lexsort((sub, at, key))
    key, change, hand = key[order], change[order].astype(np.int64), hand[order]
    total = np.cumsum(change)
    group_start = np.r_[True, key[1:] != key[:-1]]
    base = np.maximum.accumulate(np.where(group_start, np.arange(len(key)), 0))
    running = total - np.r_[0, total][base]
    bad = np.zeros(hands, bool)
    bad[hand[running < 0]] = True
    return bad
