"""The draw and discard lists of tenhou.net/6 JSON hands as flat integer columns, for :mod:`.tenhou6_columns_order`.

The logs' ``log`` arrays, written compactly (``orjson.dumps``: no spaces, no escapes but in odd strings), are
one byte buffer; numpy finds the structure in it: the bytes inside strings (a running count of quotes), the
brackets and commas outside them, the depth after each (a running sum), so each scalar between two of them is an
item of an element of a hand (depth 3: ``log`` > hand > element). Per hand, element ``4 + 3 s + 1`` holds seat
``s``'s draws, ``4 + 3 s + 2`` its discards. Items are decoded by byte arithmetic, as
:func:`.tenhou6_play.play_order` reads them:

* a number of one or two digits: a tile code (``JSON_TILE``; in a discard list ``60`` the tile just drawn and
  ``0`` the place of a discard skipped after an open kan);
* ``"rNN"``: a riichi declared with that discard; ``"f44"``: a north set aside;
* a call string (``c121314``, ``15p1515``, ``151515m15``, ``151515a15``, ``1515k5115``): its letter, its tiles in
  order, the called (or added) tile, the letter's place.

Anything else in a draw or discard list (a list, another number or string, a call of another length) makes
its file *refused*: the per-game reader reads it and says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.formats.events import TILE_CODES
from analyzer.formats.model import LogError
from analyzer.formats.tenhou.tenhou6_play import json_tile
from analyzer.formats.tile_text import RED

_ENUM = {t: i for i, t in enumerate(TILE_CODES)}


def _json_table() -> np.ndarray:
    table = np.full(100, -1, np.int16)
    for code in range(100):
        try:
            table[code] = _ENUM[json_tile(code)]
        except LogError:
            pass
    return table


JSON_TILE = _json_table()  # a JSON tile code -> the tile Enum's index, -1 for none
KIND = np.array([t % RED for t in TILE_CODES], np.int16)  # the tile Enum's index -> its kind (a red five a five)
LETTERS = {ord(c): i for i, c in enumerate("cpmak")}  # chi, pon, open kan, closed kan, added kan
CHI_L, PON_L, MINKAN_L, ANKAN_L, KAKAN_L = range(5)
# discard kinds
TILE, GIRI, GAP, RIICHI, RIICHI_GIRI, NORTH_OUT, CLOSED_KAN, ADDED_KAN = range(8)
_WIDTH = 9  # the longest string read: a kan's eight digits and its letter
_DIGITS = {CHI_L: 6, PON_L: 6, MINKAN_L: 8, ANKAN_L: 8, KAKAN_L: 8}


@dataclass
class Items:
    """Per hand and seat (arrays hands x 4) where its draws and its discards start in the flat columns and how
    many there are; the draws' tile (-1: a call) and call; the discards' kind, tile and call; the calls' letter,
    tiles (calls x 4, -1 past its length), length, called tile and letter place; ``bad``: hands with an item
    these columns do not read."""

    take_start: np.ndarray
    takes: np.ndarray
    drop_start: np.ndarray
    drops: np.ndarray
    take_tile: np.ndarray
    take_call: np.ndarray
    drop_kind: np.ndarray
    drop_tile: np.ndarray
    drop_call: np.ndarray
    letter: np.ndarray
    tiles: np.ndarray
    length: np.ndarray
    called: np.ndarray
    place: np.ndarray
    bad: np.ndarray
    deals: np.ndarray  # hands x 4 x 13: each seat's dealt tiles in the log's order (-1: none)
    dealt: np.ndarray  # hands x 4: how many tiles each seat is dealt


def play_items(buffer: bytes, seats_listed: np.ndarray) -> Items:
    """The play lists of every hand in ``buffer`` (the batch's ``log`` arrays one after another);
    ``seats_listed`` per hand: how many seats' lists it has (4, or 3 for a three-player hand of 14 entries)."""
    hands = len(seats_listed)
    b = np.frombuffer(buffer, np.uint8)
    inside = (np.cumsum(b == 34, dtype=np.int64) & 1).astype(bool)  # an opening quote and a string's bytes
    pos = np.flatnonzero(~inside & ((b == 91) | (b == 93) | (b == 44)))
    ch = b[pos]
    opens = ch == 91
    depth = np.cumsum(opens.astype(np.int8) - (ch == 93), dtype=np.int32)
    hand_open = opens & (depth == 2)
    hand_of = np.cumsum(hand_open, dtype=np.int32) - 1
    counted = np.cumsum(opens & (depth == 3), dtype=np.int32)
    counted_at_hand = counted[np.flatnonzero(hand_open)]
    listed = seats_listed.astype(np.int32)
    bad = np.zeros(hands, bool)

    def place_of(at: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The hand, seat and list (0 dealt, 1 drawn, 2 discarded) of separators inside an element, and
        whether that element is a seat's list."""
        hand = hand_of[at]
        element = counted[at] - counted_at_hand[hand] - 1 - 4
        seat, which = element // 3, element % 3
        return hand, seat, which, (element >= 0) & (seat < listed[hand])

    nested = np.flatnonzero(opens & (depth == 4))  # a list inside a seat's list
    hand, _, _, listed_in = place_of(nested)
    bad[hand[listed_in]] = True
    inner = np.flatnonzero(depth[:-1] == 3)
    inner = inner[pos[inner + 1] > pos[inner] + 1]  # a scalar between two separators inside an element
    hand, seat, which, listed_in = place_of(inner)
    sep = inner[listed_in]
    hand, seat, which = hand[listed_in], seat[listed_in], which[listed_in]
    start, end = pos[sep] + 1, pos[sep + 1]
    slot = (hand * 4 + seat) * 3 + which  # in the log's order: by hand, seat, then dealt, drawn, discarded
    counts = np.bincount(slot, minlength=hands * 12).reshape(hands, 4, 3)
    value, text, letter, tiles, length, called, place, wrong = _decode(b, start, end)
    bad[hand[wrong]] = True
    kind_of = np.append(letter, -9)[np.where(text >= 0, text, len(letter))]  # per item: its string's letter
    dealt = which == 0
    deal_tile = np.where(text >= 0, -1, JSON_TILE[np.clip(value, 0, 99)])[dealt]
    bad[hand[dealt][deal_tile < 0]] = True
    take = which == 1
    take_call = np.where((text >= 0) & (kind_of >= CHI_L) & (kind_of <= MINKAN_L), text, -1)[take]
    take_tile = np.where(text >= 0, -1, JSON_TILE[np.clip(value, 0, 99)])[take]
    bad[hand[take][(text[take] >= 0) & (take_call < 0)]] = True  # a riichi, north or closed kan among draws
    bad[hand[take][(text[take] < 0) & (take_tile < 0)]] = True  # a bad tile
    drop = which == 2
    kind, tile, call = _discards(value[drop], text[drop], kind_of[drop])
    bad[hand[drop][kind < 0]] = True
    deals = np.full((hands, 4, 13), -1, np.int16)
    full = (counts[:, :, 0] == 13)[hand[dealt], seat[dealt]]
    bad[hand[dealt][~full]] = True
    at = np.arange(int(dealt.sum())) - np.repeat(_starts(counts[:, :, 0]).reshape(-1), counts[:, :, 0].reshape(-1))
    deals[hand[dealt][full], seat[dealt][full], at[full]] = deal_tile[full]
    return _items(counts[:, :, 1:], take_tile, take_call, kind, tile, call, letter, tiles, length, called, place,
                  bad, deals, counts[:, :, 0])


def _starts(counts: np.ndarray) -> np.ndarray:
    """Where each (hand, seat)'s items start among the flat items of its kind."""
    flat = counts.reshape(-1)
    return (np.cumsum(flat) - flat).reshape(counts.shape)


def _items(counts, take_tile, take_call, kind, tile, call, letter, tiles, length, called, place, bad,
           deals, dealt) -> Items:
    """The flat columns split into draws and discards, with each seat's start in its own column."""
    takes, drops = counts[:, :, 0], counts[:, :, 1]
    return Items(_starts(takes), takes, _starts(drops), drops, take_tile.astype(np.int16), take_call, kind, tile,
                 call, letter, tiles, length, called, place, bad, deals, dealt)


def _decode(b: np.ndarray, start: np.ndarray, end: np.ndarray):
    """Per item its number (-1: not one), its string's number among the strings (-1: not one); per string its
    letter (-1: not a call), tiles, length, called tile, letter place; per item whether it does not read."""
    n = len(start)
    is_text = b[np.minimum(start, len(b) - 1)] == 34 if n else np.zeros(0, bool)
    size = end - start
    # numbers: one or two digits
    d0 = b[np.minimum(start, len(b) - 1)].astype(np.int64) - 48
    d1 = b[np.minimum(start + 1, len(b) - 1)].astype(np.int64) - 48
    one = (size == 1) & (d0 >= 0) & (d0 <= 9)
    two = (size == 2) & (d0 >= 0) & (d0 <= 9) & (d1 >= 0) & (d1 <= 9)
    value = np.where(one, d0, np.where(two, d0 * 10 + d1, -1))
    wrong = ~is_text & (value < 0)
    strings = np.flatnonzero(is_text)
    text = np.full(n, -1, np.int64)
    text[strings] = np.arange(len(strings))
    s0, chars = start[strings] + 1, end[strings] - 1 - (start[strings] + 1)  # inside the quotes
    wrong[strings[(chars < 3) | (chars > _WIDTH)]] = True
    at = s0[:, None] + np.arange(_WIDTH)
    c = np.where(np.arange(_WIDTH) < chars[:, None], b[np.minimum(at, len(b) - 1)], 0).astype(np.int64)
    digit = (c >= 48) & (c <= 57)
    used = np.arange(_WIDTH) < chars[:, None]
    letters = used & ~digit
    one_letter = letters.sum(axis=1) == 1
    p = np.argmax(letters, axis=1)
    code = np.full(256, -1, np.int64)
    for key, i in LETTERS.items():
        code[key] = i
    first_char = c[:, 0]
    letter = np.where(one_letter, code[c[np.arange(len(c)), p]], -1)
    letter = np.where(one_letter & (p % 2 == 0) & (chars - 1 - p >= 2), letter, -1)
    digits_needed = np.array([_DIGITS[i] for i in range(5)] + [0])[letter]
    letter = np.where(chars - 1 == digits_needed, letter, -1)
    # a riichi ("r" and a tile code) and a north set aside ("f44") are told by their first letter (-2, -3)
    riichi = (chars == 3) & (first_char == ord("r")) & digit[:, 1] & digit[:, 2]
    north = (chars == 3) & (first_char == ord("f")) & (c[:, 1] == 52) & (c[:, 2] == 52)
    letter = np.where(riichi, -2, np.where(north, -3, letter))
    wrong[strings[letter == -1]] = True
    # tiles: the digit pairs around the letter
    pair = np.arange(4)
    index = np.where(2 * pair[None, :] < p[:, None], 2 * pair[None, :], 2 * pair[None, :] + 1)
    rows = np.arange(len(c))[:, None]
    pair_code = (c[rows, np.minimum(index, _WIDTH - 1)] - 48) * 10 + (c[rows, np.minimum(index + 1, _WIDTH - 1)] - 48)
    length = np.where(letter >= 0, (chars - 1) // 2, 0)
    tiles = np.where(pair[None, :] < length[:, None], JSON_TILE[np.clip(pair_code, 0, 99)], -1).astype(np.int16)
    wrong[strings[(letter >= 0) & ((tiles < 0) & (pair[None, :] < length[:, None])).any(axis=1)]] = True
    called = tiles[np.arange(len(c)), np.minimum(p // 2, 3)]
    riichi_code = (c[:, 1] - 48) * 10 + (c[:, 2] - 48)
    value[strings] = np.where(riichi, riichi_code, -1)
    return value, text, letter, tiles, length, called, p, wrong


def _discards(value: np.ndarray, text: np.ndarray, kind_of: np.ndarray):
    """Each discard's kind (-1: not read here), tile (-1: none, or the tile just drawn) and call (-1: none);
    ``kind_of`` its string's letter (-2 a riichi, -3 a north set aside)."""
    is_text = text >= 0
    riichi = is_text & (kind_of == -2)
    code = np.where(is_text & ~riichi, -1, value)  # a riichi's value is its discard's code
    tile = np.where(code >= 0, JSON_TILE[np.clip(code, 0, 99)], -1).astype(np.int16)
    kind = np.full(len(value), -1, np.int64)
    plain = ~is_text
    kind[plain & (code == 60)] = GIRI
    kind[plain & (code == 0)] = GAP
    kind[plain & (tile >= 0)] = TILE
    kind[riichi & (code == 60)] = RIICHI_GIRI
    kind[riichi & (tile >= 0)] = RIICHI
    kind[is_text & (kind_of == -3)] = NORTH_OUT
    kind[is_text & (kind_of == ANKAN_L)] = CLOSED_KAN
    kind[is_text & (kind_of == KAKAN_L)] = ADDED_KAN
    call = np.where(is_text & (kind_of >= ANKAN_L), text, -1)
    return kind, tile, call
