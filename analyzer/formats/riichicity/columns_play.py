"""The play of a batch of Riichi City records as the events table's rows, from their events as columns (the
second stage of :mod:`.columns`): no Python per event.

:func:`play_events` takes the draws, actions and kan dora events of the records' hands (a row each, their data
decoded as columns) and gives the rows they make (:class:`PlayRows`), as :func:`.read.parse_riichicity` makes
the model's events: a draw of a tile (not the turns after a call), a discard (a riichi declared on it one row
more), a call with its tiles, a north set aside, each new kan dora indicator, and a riichi stick placed
(``riichi_accepted``) right before the next draw or action that is not a win, or at the hand's end unless the
declaring tile is won on. Each row has a place in its hand (``within``: eight a source event, the stick first),
so that the hand's head and outcomes (:mod:`.columns`, per hand) sort in around them. Beside the rows:

* per hand, what its end needs (:func:`.read.finish_hand`): the tile each winner's action names, who acted last
  (the loser of a ron: a discard, a closed or added kan, a north set aside), each seat's stick placed, an open
  riichi declared, a rinshan tsumo right after an open kan;
* per discard, the tile count of its seat's hand before it, for ``tsumogiri`` (the tile discarded is the one
  just drawn and ``move_cards_pos`` names its place, the last);
* the files whose events break a rule of the per-game reader (it says why): a draw or action by a user who does
  not play, a tile code that is none, an action of no known code, a call of the wrong count of tiles, a closed
  kan of other tiles, an added kan without its pon (or a pon or added kan twice), a north in a four-player game,
  a call with no discard before it, a kan dora indicator code that is none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.formats.events import TILE_CODES
from analyzer.formats.riichicity.codes import (ACTION, ANKAN, CHI, DISCARD, DRAW, KAKAN, KAN_DORA, MINKAN, NUKI,
                                               OPEN_RIICHI_TYPES, PON, RON, TILES, TSUMO)
from analyzer.formats.tenhou.mjlog_columns_codes import EVENT
from analyzer.formats.tile_text import NORTH, RED

CODE_INDEX = np.full(0x200, -1, np.int16)  # a tile code -> the events table's tile Enum index (-1: none)
CODE_KIND = np.full(0x200, -1, np.int16)  # a tile code -> its kind (a red five its five's)
for _code, _tile in TILES.items():
    CODE_INDEX[_code] = TILE_CODES.index(_tile)
    CODE_KIND[_code] = _tile % RED
NORTH_INDEX = TILE_CODES.index(NORTH)
_CODE_INDEX = {code: int(CODE_INDEX[code]) for code in TILES}
_CODE_KIND = {code: int(CODE_KIND[code]) for code in TILES}
NO_POS = np.iinfo(np.int64).min  # a discard's move_cards_pos left out (or empty), or a row that is no discard
STEP = 8  # places a source event has in its hand: 0 the stick it places, 1 a declaration, 2 its own row
HELD = {EVENT["draw"]: 1, EVENT["discard"]: -1, EVENT["chi"]: -2, EVENT["pon"]: -2, EVENT["minkan"]: -3,
        EVENT["ankan"]: -4, EVENT["kakan"]: -1, EVENT["kita"]: -1}  # a row's change to its seat's tiles in hand
_CALL_EVENT = {**{a: EVENT["chi"] for a in CHI}, PON: EVENT["pon"], MINKAN: EVENT["minkan"], ANKAN: EVENT["ankan"],
               KAKAN: EVENT["kakan"], NUKI: EVENT["kita"], DISCARD: EVENT["discard"]}
_KNOWN = (*CHI, PON, MINKAN, ANKAN, KAKAN, NUKI, DISCARD, RON, TSUMO)


@dataclass
class PlayRows:
    """The rows the play makes (arrays, sorted by hand and place; ``tiles``: a call's tiles, sorted, else
    None), the per-hand values of the module docstring and the files refused."""

    hand: np.ndarray
    within: np.ndarray
    minor: np.ndarray
    ev: np.ndarray
    seat: np.ndarray
    tid: np.ndarray
    frm: np.ndarray
    pos: np.ndarray  # a discard's move_cards_pos[0], NO_POS none
    call: np.ndarray  # a call's row of call_tiles, -1 none
    call_tiles: np.ndarray  # calls x 4, sorted tile indices (-1 beyond its length)
    call_lengths: np.ndarray
    wins: list[tuple[int, int, int]]  # (hand, seat, card) in play order
    actor: np.ndarray  # per hand, -1: none
    accepted: np.ndarray  # hands x 4
    open_riichi: np.ndarray
    kan_paid: np.ndarray
    refused: set[int]


def _index(codes: np.ndarray) -> np.ndarray:
    inside = (codes >= 0) & (codes < len(CODE_INDEX))
    return np.where(inside, CODE_INDEX[np.where(inside, codes, 0)], -1)


def _kind(codes: np.ndarray) -> np.ndarray:
    inside = (codes >= 0) & (codes < len(CODE_KIND))
    return np.where(inside, CODE_KIND[np.where(inside, codes, 0)], -1)


def _last_before(mask: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """For each row, the last row of ``mask`` before it in its hand (-1: none)."""
    index = np.arange(len(mask))
    last = np.maximum.accumulate(np.where(mask, index, -1))
    before = np.concatenate([[-1], last[:-1]]) if len(mask) else last
    return np.where((before >= 0) & (hand[np.maximum(before, 0)] == hand), before, -1)


def play_events(ev: pl.DataFrame, file_of: np.ndarray, players: np.ndarray, end_row: np.ndarray,
                end_type: np.ndarray, gang_pay: np.ndarray) -> PlayRows:
    """The rows of the play events ``ev`` (columns ``h`` the hand, ``row`` its order, ``eventType``, ``seat`` -1
    for a user who does not play, the data's ``in_card``, ``action``, ``card``, ``group_cards``, ``is_li_zhi``,
    ``li_zhi_type``, ``move_cards_pos``, ``cards``; sorted by ``row``); per hand (by ``h``) its file, players,
    its end's row and ``end_type``, its room's ``isGangPay``."""
    hands = len(file_of)
    h = ev["h"].to_numpy()
    row = ev["row"].to_numpy()
    typ = ev["eventType"].to_numpy()
    seat = ev["seat"].to_numpy()
    action = ev["action"].fill_null(-1).to_numpy()
    card = ev["card"].fill_null(0).to_numpy()
    tid = _index(card)
    in_card = ev["in_card"].fill_null(0).to_numpy()
    draw = (typ == DRAW) & (in_card != 0)
    act = typ == ACTION
    win = act & np.isin(action, (RON, TSUMO))
    bad = ((draw | act) & (seat < 0)) | (draw & (_index(in_card) < 0)) | (act & ~np.isin(action, _KNOWN))
    bad |= act & ~win & (tid < 0)
    bad |= win & (card != 0) & (tid < 0)
    call = act & ~win & (action != DISCARD) & np.isin(action, _KNOWN)
    nuki = act & (action == NUKI)
    bad |= nuki & ((players[h] != 3) | (tid != NORTH_INDEX))
    # the tiles of each call (its own tiles and the one called; an added kan's from its pon)
    codes = pl.col("group_cards")
    group = ev.select(
        n=codes.list.len().fill_null(-1),
        own=codes.list.eval(pl.element().replace_strict(_CODE_INDEX, default=-1)),
        low=codes.list.eval(pl.element().replace_strict(_CODE_KIND, default=-1)).list.min().fill_null(-1),
        high=codes.list.eval(pl.element().replace_strict(_CODE_KIND, default=-1)).list.max().fill_null(-1))
    group_n = group["n"].to_numpy()
    bad |= call & (group["own"].list.min().fill_null(0).to_numpy() < 0)  # a code that is no tile
    meld = act & np.isin(action, (*CHI, PON, MINKAN))
    bad |= meld & (group_n + 1 != np.where(action == MINKAN, 4, 3))
    ankan = act & (action == ANKAN)
    kind = _kind(card)
    bad |= ankan & ~(np.isin(group_n, (3, 4)) & (group["low"].to_numpy() == kind) & (group["high"].to_numpy() == kind))
    kakan = act & (action == KAKAN)
    pon = act & (action == PON)
    key = (h.astype(np.int64) * 4 + np.maximum(seat, 0)) * 64 + np.maximum(kind, 0)
    pon_rows, kakan_rows = np.flatnonzero(pon), np.flatnonzero(kakan)
    pon_keys, pon_counts = np.unique(key[pon_rows], return_counts=True)
    kakan_keys, kakan_counts = np.unique(key[kakan_rows], return_counts=True)
    bad |= (pon | kakan) & np.isin(key, np.concatenate([pon_keys[pon_counts > 1], kakan_keys[kakan_counts > 1]]))
    by_key = np.argsort(key[pon_rows], kind="stable")
    at = np.searchsorted(key[pon_rows][by_key], key[kakan_rows])
    pon_of = pon_rows[by_key][np.minimum(at, max(len(pon_rows) - 1, 0))] if len(pon_rows) else kakan_rows * 0 - 1
    found = (pon_of >= 0) & (key[np.maximum(pon_of, 0)] == key[kakan_rows]) & (pon_of < kakan_rows)
    bad[kakan_rows[~found]] = True
    # who acted last (a ron's loser, a call's discarder)
    acting = act & np.isin(action, (DISCARD, ANKAN, KAKAN, NUKI))
    actor_row = _last_before(acting, h)
    frm = np.where(actor_row >= 0, seat[np.maximum(actor_row, 0)], -1)
    bad |= meld & (frm < 0)
    # the kan dora indicators: those beyond the most any earlier event of its hand gave
    dora = ev.select(pl.int_range(pl.len()).alias("i"), "h", pl.col("cards").fill_null(pl.lit([], pl.List(pl.Int64))),
                     pl.col("eventType")).filter(pl.col("eventType") == KAN_DORA)
    dora = dora.with_columns(seen=pl.col("cards").list.len().cum_max().shift(1, fill_value=0).over("h"))
    dora = dora.with_columns(at=pl.int_ranges(pl.col("cards").list.len())).explode("cards", "at").filter(
        pl.col("at") >= pl.col("seen"))
    dora_i, dora_code = dora["i"].to_numpy(), dora["cards"].to_numpy()
    dora_tid = _index(dora_code)
    bad[dora_i[dora_tid < 0]] = True
    # riichi: each declaration's stick, placed at the next draw or action that is not a win, else at the end
    declared = act & (action == DISCARD) & ev["is_li_zhi"].fill_null(False).to_numpy()
    trigger = draw | (act & ~win)
    trig_rows = np.flatnonzero(trigger)
    dec_rows = np.flatnonzero(declared)
    nxt = np.searchsorted(trig_rows, dec_rows, side="right")
    nxt_row = trig_rows[np.minimum(nxt, max(len(trig_rows) - 1, 0))] if len(trig_rows) else np.zeros(0, np.int64)
    placed_at = np.where((nxt < len(trig_rows)) & (h[nxt_row] == h[dec_rows]) if len(trig_rows) else
                         np.zeros(len(dec_rows), bool), nxt_row, -1)
    dec_h = h[dec_rows]
    at_end = placed_at < 0
    stick = ~at_end | (end_type[dec_h] != 0)
    stick_within = np.where(at_end, end_row[dec_h] * STEP, row[np.maximum(placed_at, 0)] * STEP)
    accepted = np.zeros((hands, 4), np.int64)
    np.add.at(accepted, (dec_h[stick], seat[dec_rows][stick]), 1)
    open_riichi = np.zeros(hands, bool)
    open_riichi[dec_h[np.isin(ev["li_zhi_type"].fill_null(-1).to_numpy()[dec_rows], OPEN_RIICHI_TYPES)]] = True
    # the rows: the play's own, the declarations, the sticks, the kan dora
    own = draw | (act & ~win)
    own_ev = np.where(draw, EVENT["draw"], -1)
    for code, event in _CALL_EVENT.items():
        own_ev[act & (action == code)] = event
    rows_h = np.concatenate([h[own], h[declared], dec_h[stick], h[dora_i]])
    within = np.concatenate([row[own] * STEP + 2, row[declared] * STEP + 1, stick_within[stick],
                             row[dora_i] * STEP + 2])
    minor = np.concatenate([np.zeros(own.sum(), np.int64), np.zeros(declared.sum(), np.int64),
                            np.zeros(stick.sum(), np.int64), dora.select("at")["at"].to_numpy()])
    event = np.concatenate([own_ev[own], np.full(declared.sum(), EVENT["riichi_declared"]),
                            np.full(stick.sum(), EVENT["riichi_accepted"]), np.full(len(dora_i), EVENT["dora"])])
    seats = np.concatenate([seat[own], seat[declared], seat[dec_rows][stick], np.full(len(dora_i), -1)])
    tids = np.concatenate([np.where(draw, _index(in_card), tid)[own], np.full(declared.sum(), -1),
                           np.full(stick.sum(), -1), dora_tid])
    frms = np.concatenate([np.where(meld, frm, -1)[own], np.full(declared.sum() + stick.sum() + len(dora_i), -1)])
    pos = ev["move_cards_pos"].list.first().fill_null(NO_POS).to_numpy()
    poss = np.concatenate([np.where(act & (action == DISCARD), pos, NO_POS)[own],
                           np.full(declared.sum() + stick.sum() + len(dora_i), NO_POS)])
    made = call & ~nuki & ~bad  # the calls that have tiles (those of a file refused are not needed)
    pon_for = np.full(len(h), -1, np.int64)
    pon_for[kakan_rows] = np.where(found, pon_of, -1)
    made_rows = np.flatnonzero(made)
    own_lists = group["own"]
    called = pl.concat_list(pl.col("tid"))
    made_tiles = pl.DataFrame({"tid": tid[made_rows], "kakan": kakan[made_rows],
                               "four": ankan[made_rows] & (group_n[made_rows] == 4),
                               "pon_tid": tid[np.maximum(pon_for[made_rows], 0)]}).with_columns(
        own=own_lists.gather(made_rows), pon_own=own_lists.gather(np.maximum(pon_for[made_rows], 0))).select(
        pl.when("kakan").then(pl.col("pon_own").list.concat(pl.concat_list("pon_tid")).list.concat(called))
        .when("four").then("own").otherwise(pl.col("own").list.concat(called)).list.sort().alias("tiles"))["tiles"]
    call_lengths = made_tiles.list.len().to_numpy()
    call_tiles = np.stack([made_tiles.list.get(i, null_on_oob=True).fill_null(-1).to_numpy() for i in range(4)],
                          axis=1) if len(made_rows) else np.zeros((0, 4), np.int64)
    call_of = np.full(len(h), -1, np.int64)
    call_of[made_rows] = np.arange(len(made_rows))
    calls = np.concatenate([call_of[own], np.full(declared.sum() + stick.sum() + len(dora_i), -1)])
    order = np.lexsort((minor, within, rows_h))
    kan_paid = _rinshan_after_open_kan(rows_h[order], event[order], hands, gang_pay & (end_type == 1))
    wins = list(zip(h[win].tolist(), seat[win].tolist(), card[win].tolist()))
    actor = np.full(hands, -1, np.int64)
    acting_rows = np.flatnonzero(acting)
    last = np.r_[h[acting_rows][1:] != h[acting_rows][:-1], True] if len(acting_rows) else acting_rows > 0
    actor[h[acting_rows][last]] = seat[acting_rows][last]
    refused = set(file_of[h[bad]].tolist())
    return PlayRows(rows_h[order], within[order], minor[order], event[order].astype(np.int8),
                    seats[order].astype(np.int8), tids[order].astype(np.int16), frms[order].astype(np.int8),
                    poss[order], calls[order], call_tiles.astype(np.int16), call_lengths, wins, actor, accepted,
                    open_riichi, kan_paid, refused)


def _rinshan_after_open_kan(hand: np.ndarray, event: np.ndarray, hands: int, wanted: np.ndarray) -> np.ndarray:
    """Per hand (where ``wanted``), whether of its last three model events (every row but a declaration; the
    rows sorted) the last two but kan dora are an open kan and a draw, as :func:`.read._rinshan_after_open_kan`
    sees them."""
    model = np.flatnonzero(event != EVENT["riichi_declared"])
    mh = hand[model]
    ends = np.r_[np.flatnonzero(mh[1:] != mh[:-1]), len(mh) - 1] if len(mh) else mh
    to_end = ends[np.searchsorted(ends, np.arange(len(mh)))] - np.arange(len(mh)) if len(mh) else mh
    kept = model[(to_end < 3) & (event[model] != EVENT["dora"])]
    kh = hand[kept]
    last = np.flatnonzero(np.r_[kh[1:] != kh[:-1], True]) if len(kh) else kh
    before = np.maximum(last - 1, 0)
    ok = ((event[kept[last]] == EVENT["draw"]) & (last > 0) & (kh[before] == kh[last])
          & (event[kept[before]] == EVENT["minkan"]))
    out = np.zeros(hands, bool)
    out[kh[last][ok]] = True
    return out & wanted
