"""mjai's JSON lines read into events, and the fields of an event read and checked: tiles, seats, the four
scores or deltas. A field that is not what the protocol says is a :class:`LogError` naming it."""

from __future__ import annotations

import json

from analyzer.formats.model import LogError
from analyzer.formats.tile_text import RED

_HONOURS = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
_SUITS = {"m": 0, "p": 9, "s": 18}


class _Hidden(LogError):
    pass


def tile(code) -> int:
    """One mjai tile (``1m``..``9s``, ``5mr`` red five, ``E S W N P F C``) as the shared model's int."""
    if isinstance(code, str):
        if code in _HONOURS:
            return _HONOURS[code]
        if len(code) in (2, 3) and code[0] in "123456789" and code[1] in _SUITS:
            k = _SUITS[code[1]] + int(code[0]) - 1
            if len(code) == 2:
                return k
            if code[2] == "r" and code[0] == "5":
                return RED + k
        if code == "?":
            raise _Hidden("hidden tile '?': the log is one player's view, not a whole game, and cannot be replayed")
    raise LogError(f"bad tile {code!r}")


def tile_list(codes, n: int | None = None) -> list[int]:
    if not isinstance(codes, list) or (n is not None and len(codes) != n):
        raise LogError(f"expected a list of {n or 'some'} tiles, got {codes!r}")
    return [tile(c) for c in codes]


def seat_of(ev: dict, key: str) -> int:
    s = ev.get(key)
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3:
        raise LogError(f"{ev.get('type')}: bad {key} {s!r}")
    return s


def four_ints(values, what: str, players: int = 4) -> list[int]:
    """Four per-seat integers; a three-player game's three (seat 3 is then 0)."""
    if not isinstance(values, list) or len(values) != players or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise LogError(f"bad {what} {values!r} (expected {players} integers: a {players}-player game)")
    return list(values) + [0] * (4 - players)


def numbered_events(text: str) -> list[tuple[int, dict]]:
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    try:  # one decoder call for the whole file; line by line only to say where it is broken
        values = json.loads("[" + ",".join(line for _, line in numbered) + "]")
    except json.JSONDecodeError:
        values = None
    if values is not None and len(values) == len(numbered) and numbered and all(
        isinstance(v, dict) and isinstance(v.get("type"), str) for v in values
    ):
        return [(n, v) for (n, _), v in zip(numbered, values)]
    out = []
    for n, line in numbered:
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"line {n}: not valid JSON ({exc.msg})") from None
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            if not out and isinstance(ev, dict) and "log" in ev:
                raise LogError("not an mjai log but a Tenhou JSON log: import it with `analyzer import tenhou`")
            raise LogError(f"line {n}: not an mjai event (a JSON object with a 'type')")
        out.append((n, ev))
    if not out:
        raise LogError("empty file: no mjai events")
    return out
