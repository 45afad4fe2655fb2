"""Tiles as the importers hold them, small ints, and their MPSZ text.

``kind`` 0-33 is the tile (0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N white green red); a red five is
:data:`RED` plus its kind (so ``RED + 4`` is the red 5m), which keeps it apart from the other fives while
``tile % RED`` still finds its kind.
"""

from __future__ import annotations

RED = 100
NORTH = 30  # tile kind of the north wind (set aside as nukidora with three players)
TERMINAL_HONOUR = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])


def kind(tile: int) -> int:
    return tile % RED


def is_red(tile: int) -> bool:
    return tile >= RED


def _digit(tile: int) -> str:
    if is_red(tile):
        return "0"
    k = kind(tile)
    return str(k % 9 + 1) if k < 27 else str(k - 26)


def _suit(tile: int) -> str:
    return "mpsz"[kind(tile) // 9]


_TILES = [*range(34), *(RED + k for k in (4, 13, 22))]
_DIGITS = {t: _digit(t) for t in _TILES}
_SUITS = {t: _suit(t) for t in _TILES}
_ORDER = {t: 2 * kind(t) + (0 if is_red(t) else 1) for t in _TILES}  # by kind, a red five first
_STRS = {t: _DIGITS[t] + _SUITS[t] for t in _TILES}


def tile_str(tile: int) -> str:
    """One tile in MPSZ, e.g. ``8p``; a red five is ``0p``."""
    return _STRS[tile]


def tiles_str(tiles: list[int]) -> str:
    """Sorted and grouped MPSZ, e.g. ``123m406p789s1122z``."""
    parts: list[str] = []
    suit = ""
    for t in sorted(tiles, key=_ORDER.__getitem__):
        if _SUITS[t] != suit:
            if suit:
                parts.append(suit)
            suit = _SUITS[t]
        parts.append(_DIGITS[t])
    if suit:
        parts.append(suit)
    return "".join(parts)


def indicators_str(tiles: list[int]) -> str:
    """Dora indicators in their order, each with its own suit letter, e.g. ``3m7z1p``."""
    return "".join([_STRS[t] for t in tiles])


def meld_str(meld_kind: str, tiles: list[int]) -> str:
    return f"{meld_kind}:{tiles_str(tiles)}"

