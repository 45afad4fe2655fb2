"""The play of every hand of a batch of mjlogs as the events table's rows, with its running values as
cumulative arithmetic (the second stage of :mod:`.mjlog_columns`).

The tag rows of :mod:`.mjlog_columns_tags` come in the events table's order already (each hand's deal markers
before its ``INIT``, which is the row of the first dora indicator; a ``REACH step="1"`` is the
``riichi_declared`` row, the discard it declares right after it; the outcomes last). :func:`stream` gives each
tag row its event (:data:`analyzer.formats.events.EVENTS` number, -1 for a tag that is no row), seat, tile id
and seat called from; :func:`play_rows` keeps the rows and adds, per hand (a segment of rows from the deal
marker of seat 0: running sums less their value at the segment's start):

* ``log_row`` (the hand's number in its file), ``seq`` (the row's in its hand);
* ``wall_left`` (the live wall less the draws so far), ``turn`` (a seat's discards so far, as
  :func:`analyzer.formats.events.game_events` counts them: one more on a draw, a call, a north set aside and a
  riichi declaration; an outcome's from the last draw or discard, the robbed kan's or the winner's);
* ``tsumogiri`` (the discard is the tile its seat just drew: the last draw, discard or call before it in the
  file is that seat's draw of that tile id, as the per-game reader keeps it across hands);
* an outcome row's tile (the last discard, the robbed kan's or north's tile, the tsumo's draw: the hand's last
  play, else found among its rows by a binary search) and the riichi sticks each seat put down in its hand
  (``sticks``, for the deltas of the hand's first outcome).

The seats' discards are counted in one running sum, packed a byte a seat. The scans are numpy's (one pass
each over flat integer arrays, no Python per row: Polars runs such sequential scans on one core too, with more
overhead per step). What this reading cannot give as the per-game
reader does is *refused* (:func:`refusals`): events before the first hand, a riichi declaration not right
before its seat's discard, play after a hand's result, outcomes of a hand in another order than the events
table's, a seat beyond the game's players, a wall drawn past empty.
"""

from __future__ import annotations

import numpy as np

from analyzer.formats.tenhou.mjlog_columns_codes import ANKAN, CHI, EVENT, KITA
from analyzer.formats.tenhou.mjlog_columns_tags import HAIPAI_CODE, Tags

HAIPAI, DRAW, DISCARD, DORA = EVENT["haipai"], EVENT["draw"], EVENT["discard"], EVENT["dora"]
DECLARED, ACCEPTED = EVENT["riichi_declared"], EVENT["riichi_accepted"]
RON, TSUMO, EXHAUSTIVE, ABORT = EVENT["ron"], EVENT["tsumo"], EVENT["exhaustive_draw"], EVENT["abort"]
SEATED = (HAIPAI, DRAW, DISCARD, *range(CHI, KITA + 1), DECLARED, ACCEPTED, RON, TSUMO)
MAX_TURN = 120  # the events table's turn is an Int8 (a real seat discards about 25 times)
NONE = -1


def stream(tags: Tags, players: np.ndarray, placed: dict[str, tuple]) -> dict[str, np.ndarray]:
    """Every tag row's ``file``, ``ev``, ``seat``, ``tid`` and ``frm``, -1 where none. ``placed`` gives, per
    source, (rows ``r``, ev, seat, tid, frm) arrays of the tags that are not draws or discards (None: not
    set)."""
    code, file = tags.code, tags.file
    n = len(code)
    placed = {name: (tags.row_of[rows], *rest) for name, (rows, *rest) in placed.items()}
    ev = np.full(n, NONE, np.int8)
    seat = np.full(n, NONE, np.int8)
    tid = np.full(n, NONE, np.int16)
    play = (code >= 0) & (code < HAIPAI_CODE)
    ev[play] = np.where(code[play] < 4 * 136, DRAW, DISCARD)
    seat[play] = (code[play] // 136) % 4
    tid[play] = code[play] % 136
    marker = code >= HAIPAI_CODE
    seat[marker] = code[marker] - HAIPAI_CODE
    ev[marker] = np.where(seat[marker] < players[file[marker]], HAIPAI, NONE)  # three players: no seat 3
    columns = {"ev": ev, "seat": seat, "tid": tid, "frm": np.full(n, NONE, np.int8)}
    for rows, *values in placed.values():
        for name, value in zip(columns, values):
            if value is not None:
                columns[name][rows] = value
    return {"file": file, "tag": tags.tag, **columns}


def _table(values: dict, kind, default=0) -> np.ndarray:
    """A look-up table by event (or seat) number read as a byte (-1, no event, is 255)."""
    table = np.full(256, default, kind)
    for keys, value in values.items():
        table[list(keys) if isinstance(keys, tuple) else keys] = value
    return table


CALLED_EVENTS = tuple(range(CHI, KITA + 1))
PLAYED = _table({(DRAW, DISCARD, *CALLED_EVENTS): True}, bool, False)
OUTCOME = _table({(RON, TSUMO, EXHAUSTIVE, ABORT): True}, bool, False)
TURN_ADD = _table({(DRAW, DECLARED, *CALLED_EVENTS): 1}, np.int16)  # a draw, a call, a declaration: one more
SEAT_BYTE = _table({s: 1 << (8 * s) for s in range(4)}, np.uint32)  # a seat's byte in a packed count
SEAT_SHIFT = _table({s: 8 * s for s in range(4)}, np.uint32)


def _before(positions: np.ndarray, at: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """The last of ``positions`` (sorted) before each of ``at`` and not before ``floor``; -1 where none."""
    i = np.searchsorted(positions, at) - 1
    found = positions[np.maximum(i, 0)] if len(positions) else np.zeros(len(at), np.int64)
    return np.where((i >= 0) & (found >= floor), found, NONE)


def play_rows(rows: dict[str, np.ndarray], players: np.ndarray, init_r: np.ndarray) -> dict[str, np.ndarray]:
    """The rows of the events table (``ev`` >= 0) with their running values (see the module docstring): arrays
    ``r`` (the tag row), ``file``, ``hand`` (the deal's number, ``init_r`` the deals' ``INIT`` rows), ``ev``,
    ``seat``, ``tid`` (-1: none), ``frm``, ``seq``, ``turn`` (-1: none), ``wall_left``, ``tsumogiri`` (-1 none,
    0, 1); per outcome row (``out``, its row) ``first`` (the hand's first) and ``sticks`` (outcomes x 4: each
    seat's riichi sticks in the hand); ``stray``: rows the hands above do not hold (refused)."""
    kept = np.flatnonzero(rows["ev"] >= 0)
    r = rows["tag"][kept]  # the tags' numbers (a deal marker's: its INIT's)
    if not len(r):  # no play at all (no hand: refused)
        r = np.zeros(0, np.int64)
        empty = {name: rows[name][r] for name in ("file", "ev", "seat", "tid", "frm")}
        return {"r": r, **empty, "hand": r, "seq": r, "turn": r, "wall_left": r,
                "tsumogiri": r.astype(np.int8), "out": r, "first": r.astype(bool), "sticks": np.zeros((0, 4), np.int64),
                "stray": r.astype(bool)}
    ev, seat, tid, frm, file = (rows[name][kept] for name in ("ev", "seat", "tid", "frm", "file"))
    by_event, by_seat = ev.view(np.uint8), seat.view(np.uint8)
    n = len(r)
    index = np.arange(n, dtype=np.int32)  # int32: half the memory of numpy's default (measured faster here)
    # the hands: segments of rows from a deal marker of seat 0
    start = (ev == HAIPAI) & (seat == 0)
    starts = np.flatnonzero(start).astype(np.int32)
    segment = np.cumsum(start, dtype=np.int32) - 1
    segment_c = np.maximum(segment, 0)
    if not len(starts):
        starts = np.zeros(1, np.int32)
    at_start = starts[segment_c]
    deal = np.searchsorted(init_r, r[starts]).astype(np.int32)  # a marker's tag is its INIT
    hand = np.minimum(deal, max(len(init_r) - 1, 0))[segment_c]
    stray = (segment < 0) | (file[at_start] != file)  # rows before their file's first hand
    drawn = np.cumsum(ev == DRAW, dtype=np.int32)
    wall = np.where(players[file[starts]] == 3, 55, 70).astype(np.int16)[segment_c]
    wall_left = wall - (drawn - drawn[at_start])
    # each seat's discards in the hand so far, a byte each (wrapping sums: the differences are exact)
    discarded = np.cumsum(SEAT_BYTE[by_seat] * (ev == DISCARD), dtype=np.uint32)
    discarded -= discarded[at_start]
    own = ((discarded >> SEAT_SHIFT[by_seat]) & 255).astype(np.int16)
    turn = own + TURN_ADD[by_event]
    turn[ev == DORA] = NONE
    # tsumogiri: the draw, discard or call before a discard in the file is its seat's draw of its tile id
    played = PLAYED[by_event]
    last_played = np.maximum.accumulate(np.where(played, index, NONE))
    discards = np.flatnonzero(ev == DISCARD)
    before = np.where(discards > 0, last_played[np.maximum(discards - 1, 0)], NONE)
    b = np.maximum(before, 0)
    giri = (before >= 0) & (ev[b] == DRAW) & (seat[b] == seat[discards]) & (tid[b] == tid[discards])
    tsumogiri = np.full(n, NONE, np.int8)
    tsumogiri[discards] = giri & (file[b] == file[discards])
    # the outcome rows, from the hand's last play (a discard, a draw, a call robbed)
    out = np.flatnonzero(OUTCOME[by_event])
    floor = at_start[out]
    last_play = np.where(last_played[out] >= floor, last_played[out], NONE)
    play_ev = np.where(last_play >= 0, ev[np.maximum(last_play, 0)], NONE)
    robbed = (play_ev >= CHI) & (play_ev <= KITA)
    ron, tsumo = ev[out] == RON, ev[out] == TSUMO

    def last_of(kinds: tuple[int, ...]) -> np.ndarray:
        """The hand's last row of ``kinds`` before each outcome (most are its last play)."""
        found = np.where(np.isin(play_ev, kinds), last_play, NONE)
        missing = np.flatnonzero((found < 0) & (last_play >= 0))
        if len(missing):
            rows_of = np.flatnonzero((ev == kinds[0]) | (ev == kinds[-1]))
            found[missing] = _before(rows_of, out[missing], floor[missing])
        return found

    last_discard, last_draw, last_turned = last_of((DISCARD,)), last_of((DRAW,)), last_of((DRAW, DISCARD))
    out_tile = np.select([ron & robbed, ron & (last_discard >= 0), tsumo & (last_draw >= 0)],
                         [tid[np.maximum(last_play, 0)], tid[np.maximum(last_discard, 0)],
                          tid[np.maximum(last_draw, 0)]], NONE)
    robbed_seat = seat[np.maximum(last_play, 0)].view(np.uint8)
    out_turn = np.select([ron & robbed, tsumo],
                         [((discarded[out] >> SEAT_SHIFT[robbed_seat]) & 255) + 1, own[out] + 1],
                         np.where(last_turned >= 0, turn[np.maximum(last_turned, 0)], 0))
    tid = tid.copy()
    tid[out] = out_tile
    turn[out] = out_turn
    previous = np.maximum(out - 1, 0)
    first = (out == floor) | ~OUTCOME[by_event[previous]] | (previous < floor)
    accepted = np.flatnonzero(ev == ACCEPTED)
    sticks = np.zeros((len(out), 4), np.int64)
    for s in range(4):  # the four seats
        of_seat = accepted[seat[accepted] == s]
        sticks[:, s] = np.searchsorted(of_seat, out) - np.searchsorted(of_seat, floor)
    following = np.minimum(out + 1, n - 1)
    stray[out] |= (out + 1 < n) & ~OUTCOME[by_event[following]] & (at_start[following] == floor)
    stray |= (wall_left < 0) | (turn > MAX_TURN)  # beyond what the events table's Int8 columns hold
    # (no seat on a dora row or a draw's outcome, no seat called from but on a chi, pon, open kan or ron: -1 in
    # the stream already)
    return {"r": r, "file": file, "hand": hand, "ev": ev, "seat": seat.astype(np.int8), "tid": tid, "frm": frm, "seq": (index - at_start + 1).astype(np.int16), "turn": turn.astype(np.int8),
            "wall_left": wall_left.astype(np.int8), "tsumogiri": tsumogiri, "out": out, "first": first,
            "sticks": sticks, "stray": stray}


def refusals(rows: dict[str, np.ndarray], e: dict[str, np.ndarray], players: np.ndarray) -> set[int]:
    """The files whose play the rows above do not read as the per-game reader (see the module docstring)."""
    ev, seat, file = rows["ev"], rows["seat"], rows["file"]
    declared = np.flatnonzero(ev == DECLARED)
    after = np.minimum(declared + 1, len(ev) - 1)
    bad_declared = ~((declared + 1 < len(ev)) & (ev[after] == DISCARD) & (seat[after] == seat[declared])
                     & (file[after] == file[declared]))
    ev, seat, frm, file = e["ev"], e["seat"], e["frm"], e["file"]
    count = players[file]
    out = e["out"]
    previous = np.maximum(out - 1, 0)
    order = (seat[out] - frm[out]) % 4
    bad_order = ~e["first"] & ~((ev[out] == RON) & (ev[previous] == RON) & (frm[out] == frm[previous])
                                & (order > (seat[previous] - frm[previous]) % 4))
    bad = e["stray"] | (np.isin(ev, SEATED) & (seat >= count)) | (frm >= count)
    return (set(rows["file"][declared[bad_declared]].tolist()) | set(file[bad].tolist())
            | set(file[out[bad_order]].tolist()))


def kept_rows(play: dict[str, np.ndarray], numbers: np.ndarray) -> dict[str, np.ndarray]:
    """The play rows (:func:`play_rows`) of the files kept (``numbers`` >= 0: each file's game number), their
    outcome rows (``out``) renumbered, with their ``first`` and ``sticks``."""
    kept = (numbers >= 0)[play["file"]]
    rows = ("r", "file", "hand", "ev", "seat", "tid", "frm", "seq", "turn", "wall_left", "tsumogiri")
    if kept.all():
        return {name: play[name] for name in (*rows, "out", "first", "sticks")}
    e = {name: play[name][kept] for name in rows}
    out_kept = kept[play["out"]]
    e["out"] = np.cumsum(kept)[play["out"][out_kept]] - 1
    e["first"], e["sticks"] = play["first"][out_kept], play["sticks"][out_kept]
    return e
