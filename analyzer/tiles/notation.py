"""MPSZ notation parsed with string expressions into base-5 / base-32 count codes (no per-row Python).

A suit's digits (``"406"`` in ``123m406p``) are read with ``str.extract``; the red five ``0`` is read as 5
(and counted separately as aka); ``str.to_integer`` turns the digit string into a number whose 4-digit
chunks index ``DIG5``/``DIG32`` (see :mod:`analyzer.tiles.tables`).  Tile ids: suit*9 + rank, suits m p s z
= 0 1 2 3, ranks 0-based (z: 0-3 winds E S W N, 4-6 white green red).
"""

from __future__ import annotations

import polars as pl

from analyzer.tiles.tables import TILE_TOKENS, lut

SUITS = "mpsz"
HAND_RE = r"^(?:[0-9]+[mps]|[1-7]+z)+$"
TILE_RE = r"^(?:[0-9][mps]|[1-7]z)$"
INDICATORS_RE = r"^(?:[0-9]+[mps]|[1-7]+z)*$"


def digits_number(digits: pl.Expr) -> pl.Expr:
    """A suit's digit string as an integer, red 0 read as 5 (null/empty -> 0; more than 18 digits -> null)."""
    n = digits.str.replace_all("0", "5", literal=True).str.to_integer(strict=False)
    return pl.when(digits.is_null() | (digits == "")).then(0).otherwise(n)


def digits_codes(n: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """(base-5 code, base-32 code) of a digit number such as ``1123`` (see :func:`digits_number`)."""
    c5 = c32 = None
    for j in range(4):
        chunk = (n // 10 ** (4 * j)) % 10_000
        a, b = lut("DIG5", chunk.fill_null(0)), lut("DIG32", chunk.fill_null(0))
        c5 = a if c5 is None else c5 + a
        c32 = b if c32 is None else c32 + b
    return pl.when(n.is_null()).then(None).otherwise(c5), pl.when(n.is_null()).then(None).otherwise(c32)


def suit_digits(text: pl.Expr, letter: str) -> pl.Expr:
    """All digits of one suit, several groups allowed (``333s77s`` -> ``33377``); null if none."""
    return text.str.extract_all(rf"[0-9]+{letter}").list.join("").str.replace_all(letter, "", literal=True)


def tile_id(tile: pl.Expr) -> pl.Expr:
    """``"8p"`` -> 16; red five ``"0p"`` -> 13; anything else -> null."""
    return tile.replace_strict(TILE_TOKENS, default=None, return_dtype=pl.Int32)


def normalise_indicators(text: pl.Expr) -> pl.Expr:
    """One tile per digit in written order: ``"14p3z"`` -> ``"1p4p3z"`` (groups of up to 5 digits).

    Give it only the rows that need it (others null): the regex passes then cost nothing on them.
    """
    norm = text
    for _ in range(4):  # "145p" -> "1p45p" -> "1p4p5p"
        norm = norm.str.replace_all(r"([0-9])([0-9]+)([mpsz])", "${1}${3}${2}${3}")
    return norm


def next_tile(t: pl.Expr) -> pl.Expr:
    """The dora a given indicator points to (9 -> 1 in suits, N -> E, red -> white)."""
    suit, rank = t // 9, t % 9
    nr = (
        pl.when(suit < 3)
        .then((rank + 1) % 9)
        .when(rank < 4)
        .then((rank + 1) % 4)
        .otherwise(4 + (rank - 3) % 3)
    )
    return suit * 9 + nr
