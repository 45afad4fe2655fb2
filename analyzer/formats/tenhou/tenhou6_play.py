"""Tenhou JSON's play back in order: the format keeps each seat's draws (calls among them) and discards in
lists of their own; after each discard, a pon/kan string naming the discarder at the head of another seat's
draw list (or a chi string at the head of the next seat's list) is a call, otherwise the next seat draws
(:func:`play_order`). Also the format's tile codes (:func:`json_tile`) and call strings."""

from __future__ import annotations

import functools
import re

from analyzer.formats.model import Kyoku, LogError
from analyzer.formats.tile_text import NORTH, RED


def _tile_of(code: int) -> int | None:
    if code in (51, 52, 53):
        return RED + (code - 51) * 9 + 4
    suit, num = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= num <= 9:
        return (suit - 1) * 9 + num - 1
    if suit == 4 and 1 <= num <= 7:
        return 27 + num - 1
    return None


_TILE_CODES = {code: t for code in range(60) if (t := _tile_of(code)) is not None}


def json_tile(code) -> int:
    try:
        t = _TILE_CODES[code]
    except (KeyError, TypeError):
        raise LogError(f"bad tile {code!r}") from None
    if code.__class__ is not int:  # 11.0 finds 11's entry
        raise LogError(f"bad tile {code!r}")
    return t


@functools.lru_cache(maxsize=4096)
def _call(text: str) -> tuple[str, tuple[int, ...], int, int]:
    """(letter, tiles, called tile, letter position) of a call string such as ``p434343`` or ``3737k3737``.

    Cached: the replay looks at a seat's next call after every discard of the seat before it, and the same
    strings recur from game to game."""
    m = re.fullmatch(r"((?:\d\d)*)([cpmka])((?:\d\d)+)", text)
    if not m:
        raise LogError(f"bad call string {text!r}")
    before, letter, after = m.groups()
    tiles = [json_tile(int(before[i : i + 2])) for i in range(0, len(before), 2)]
    tiles += [json_tile(int(after[i : i + 2])) for i in range(0, len(after), 2)]
    return letter, tuple(tiles), json_tile(int(after[:2])), len(before)


def _from_seat(caller: int, letter: str, pos: int) -> int:
    if letter == "c":
        return (caller + 3) % 4
    return (caller + {0: 3, 2: 2}.get(pos, 1)) % 4


class _Ambiguous(LogError):
    """A replay that failed after taking calls that could also belong to a later identical discard."""

    def __init__(self, message: str, choices: list[tuple[int, int]]):
        super().__init__(message)
        self.choices = choices


TSUMOGIRI = -1  # discard code 60: the tile just drawn
KAN_GAP = -2  # discard code 0: the place of a discard skipped after an open kan


def _discard_code(x) -> int | str:
    if x.__class__ is str:
        return x
    return TSUMOGIRI if x == 60 and x.__class__ is int else KAN_GAP if x == 0 and x.__class__ is int else json_tile(x)


def play_order(k: Kyoku, takes: list[list], discards: list[list]) -> list[tuple]:
    """Events in play order. When a seat discards the same tile again before a caller could draw, the format
    does not say which of the two discards was called: try the first, and on failure back-track (the later)."""
    # tile codes read once: draws as tiles, discards as tiles or TSUMOGIRI/KAN_GAP; calls and riichi stay text
    takes = [[x if x.__class__ is str else json_tile(x) for x in seat] for seat in takes]
    discards = [[_discard_code(x) for x in seat] for seat in discards]
    stack: list[frozenset] = [frozenset()]
    seen: set[frozenset] = set()
    first_error: LogError | None = None
    while stack and len(seen) < 256:
        skip = stack.pop()
        if skip in seen:
            continue
        seen.add(skip)
        try:
            return _replay_once(k, takes, discards, skip)
        except _Ambiguous as exc:
            first_error = first_error or exc
            for choice in exc.choices:
                if choice not in skip:
                    stack.append(skip | {choice})
    raise LogError(str(first_error)) if first_error else LogError("replay failed")


def _replay_once(k: Kyoku, takes: list[list], discards: list[list], skip: frozenset) -> list[tuple]:
    ti = [0, 0, 0, 0]
    di = [0, 0, 0, 0]
    hands = [list(h) for h in k.haipai]
    last_drawn: list[int | None] = [None] * 4
    events: list[tuple] = []
    choices: list[tuple[int, int]] = []  # (seat, discard index) whose call could belong to a later discard
    calls_left = sum(1 for seat in takes for x in seat if x.__class__ is str)  # no calls: no caller to look for
    n = k.players  # turns go round the seats that play (seat 3 is empty with three players)

    def fail(message: str):
        raise _Ambiguous(f"replay failed: {message}", choices)

    def remove(seat: int, tile: int, what: str) -> None:
        try:
            hands[seat].remove(tile)
        except ValueError:
            fail(f"seat {seat} {what} a tile it does not hold")

    turn, need_draw, rinshan = k.dealer, True, False
    while True:
        s = turn
        if need_draw:
            if ti[s] >= len(takes[s]):
                break
            t = takes[s][ti[s]]
            if t.__class__ is str:
                fail(f"seat {s}: call {t!r} where a draw was expected")
            ti[s] += 1
            last_drawn[s] = t
            hands[s].append(t)
            events.append(("draw", s, t, rinshan))
            rinshan = False
        if di[s] >= len(discards[s]):
            break
        d = discards[s][di[s]]
        at = di[s]
        di[s] += 1
        riichi = False
        if d.__class__ is str:
            if d.startswith("r"):
                riichi, d = True, _discard_code(int(d[1:]))
            elif d.startswith("f"):  # a north set aside (kita), then a replacement draw
                if n != 3 or not d[1:].isdigit() or json_tile(int(d[1:])) != NORTH:
                    raise LogError(f"seat {s}: {d!r} among discards (a north set aside is 'f44', three players only)")
                remove(s, NORTH, "sets aside")
                events.append(("kita", s, NORTH))
                need_draw, rinshan = True, True
                continue
            else:
                letter, tiles, called, _ = _call(d)
                if letter == "a":
                    for x in tiles:
                        remove(s, x, "ankans")
                    events.append(("call", s, "ankan", tiles, called, s))
                elif letter == "k":
                    rest = list(tiles)
                    for m in reversed(events):  # the pon this kakan extends
                        if m[0] == "call" and m[1] == s and m[2] == "pon" and m[3][0] % RED == called % RED:
                            for x in m[3]:
                                if x not in rest:
                                    fail(f"seat {s}: kakan {d!r} does not extend its pon")
                                rest.remove(x)
                            break
                    else:
                        fail(f"seat {s}: kakan {d!r} without a pon")
                    remove(s, rest[0], "kakans")
                    events.append(("call", s, "kakan", tiles, rest[0], s))
                else:
                    fail(f"seat {s}: unexpected {d!r} among discards")
                need_draw, rinshan = True, True
                continue
        if d == TSUMOGIRI:
            if last_drawn[s] is None:
                fail(f"seat {s}: tsumogiri without a drawn tile")
            tile = last_drawn[s]
        elif d == KAN_GAP:
            raise LogError("bad tile 0")
        else:
            tile = d
        last_drawn[s] = None
        try:
            hands[s].remove(tile)
        except ValueError:
            fail(f"seat {s} discards a tile it does not hold")
        events.append(("discard", s, tile, riichi, d == TSUMOGIRI))
        caller = None
        if calls_left and (s, at) not in skip:
            for o in ((s + 1) % 4, (s + 2) % 4, (s + 3) % 4):
                nxt = takes[o][ti[o]] if ti[o] < len(takes[o]) else None
                if nxt.__class__ is str:
                    letter, tiles, called, pos = _call(nxt)
                    if letter in "pm" and _from_seat(o, letter, pos) == s and called == tile:
                        caller = (o, letter, tiles, called, pos)
                        break
            if caller is None:
                o = (s + 1) % n
                nxt = takes[o][ti[o]] if ti[o] < len(takes[o]) else None
                if nxt.__class__ is str:
                    letter, tiles, called, pos = _call(nxt)
                    if letter == "c" and called == tile:
                        caller = (o, letter, tiles, called, pos)
            if caller is not None and any(
                x == TSUMOGIRI or x == d or (x.__class__ is str and x.startswith("r"))
                for x in discards[s][di[s] :]
            ):
                choices.append((s, at))
        if riichi and (caller is not None or ti[(s + 1) % n] < len(takes[(s + 1) % n])):
            events.append(("reach", s))
        elif riichi:
            events.append(("riichi_last", s))  # paid unless the result rons the discard: read with the result
        if caller is None:
            turn, need_draw = (s + 1) % n, True
            continue
        o, letter, tiles, called, pos = caller
        ti[o] += 1
        calls_left -= 1
        mk = {"c": "chi", "p": "pon", "m": "minkan"}[letter]
        rest = list(tiles)
        rest.remove(called)
        for x in rest:
            remove(o, x, f"{mk}s with")
        events.append(("call", o, mk, [*tiles[: pos // 2], *tiles[pos // 2 + 1 :], called], tile, s))
        turn = o
        if mk == "minkan":
            if di[o] < len(discards[o]) and discards[o][di[o]] == KAN_GAP:
                di[o] += 1
            need_draw, rinshan = True, True
        else:
            need_draw = False
    for s in range(4):
        if ti[s] != len(takes[s]) or di[s] != len(discards[s]):
            fail(f"seat {s} has unused draws/discards ({len(takes[s]) - ti[s]}/{len(discards[s]) - di[s]})")
    return events
