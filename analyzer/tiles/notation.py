"""MPSZ notation parsed with string expressions into base-32 count codes (no per-row Python).

A suit's digits (``"406"`` in ``123m406p``) become a number whose 5-digit chunks index ``DIG32`` (see
:mod:`analyzer.tiles.tables`; a zero digit adds nothing there).  Canonical hands are cut into suits by
arithmetic on one ``str.to_integer`` of all their digits, and a suit's red fives ``0`` are its digit count
less the tiles its code counts; other spellings go through ``str.extract_all``, with ``0`` read as 5 and the
reds counted with ``count_matches``.  Tile ids: suit*9 + rank, suits m p s z
= 0 1 2 3, ranks 0-based (z: 0-3 winds E S W N, 4-6 white green red).
"""

from __future__ import annotations

import polars as pl

from analyzer.tiles.tables import CHUNK, TILE_TOKENS, lut

SUITS = "mpsz"
HAND_RE = r"^(?:[0-9]+[mps]|[1-7]+z)+$"
TILE_RE = r"^(?:[0-9][mps]|[1-7]z)$"


def digits_number(digits: pl.Expr) -> pl.Expr:
    """A suit's digit string as an integer, red 0 read as 5 (null/empty -> 0; more than 15 digits -> null)."""
    n = digits.str.replace_all("0", "5", literal=True).str.to_integer(strict=False)
    return pl.when(digits.is_null() | (digits == "")).then(0).when(digits.str.len_bytes() <= 15).then(n)


def digits_code32(n: pl.Expr) -> pl.Expr:
    """Base-32 count code (one 5-bit count per rank) of a digit number such as ``1123`` (see
    :func:`digits_number`); null for null."""
    chunks = [lut("DIG32", ((n // 10 ** (CHUNK * j)) % 10**CHUNK).fill_null(0)) for j in range(3)]
    return pl.when(n.is_not_null()).then(chunks[0] + chunks[1] + chunks[2])


def split_suits(col, out: str, hand: pl.Expr) -> list[dict[str, pl.Expr]]:
    """Stages adding ``{out}c32_{s}`` = the base-32 count code of suit s (m p s z) of ``hand`` (see
    :func:`digits_code32`; a red ``0`` counts as a 5), ``{out}aka`` = its red fives and ``{out}ok`` = the
    string is valid MPSZ.

    Fast path for canonical strings (suits in m p s z order, each once, <= 18 digits): four literal ``find``
    give each suit's digit count; the letters are dropped and the whole hand read with one ``to_integer``,
    then each suit is cut out of that number arithmetically.  A red ``0`` stays a 0 there (a zero digit adds
    no count): a suit's red fives are its digit count less its tiles counted.  Other strings (``333s77s555p``)
    go through the regex path on a column that is null for canonical rows.
    """
    st1 = {f"{out}pos{s}": hand.str.find(letter, literal=True).cast(pl.Int64) for s, letter in enumerate(SUITS)}
    st2: dict[str, pl.Expr] = {}
    prev = pl.lit(0, pl.Int64)
    for s in range(4):
        st2[f"{out}start{s}"] = prev
        prev = pl.coalesce(col(f"{out}pos{s}") + 1, prev)
    st2[f"{out}end"] = prev
    st3: dict[str, pl.Expr] = {}
    ordered = pl.lit(True)
    last = pl.lit(-1, pl.Int64)
    for s in range(4):
        pos, start = col(f"{out}pos{s}"), col(f"{out}start{s}")
        ordered = ordered & (pos.is_null() | (pos > last))
        last = pl.coalesce(pos, last)
        st3[f"{out}len{s}"] = pl.when(pos.is_not_null()).then(pos - start).otherwise(0)
    n_found = sum(col(f"{out}pos{s}").is_not_null().cast(pl.Int64) for s in range(4))
    st3[f"{out}ordered"] = ordered & (col(f"{out}end") == hand.str.len_bytes()) & (n_found > 0)
    # all digits of the hand as one number (<= 18 digits): suits are read off it by their digit counts
    raw = hand.str.replace_many(list(SUITS), [""] * len(SUITS))
    st3[f"{out}all"] = raw.str.to_integer(strict=False)
    st3[f"{out}nletters"] = hand.str.len_bytes() - raw.str.len_bytes()
    # to_integer takes a leading sign, which would stand in for a digit
    st3[f"{out}signed"] = hand.str.starts_with("+") | hand.str.starts_with("-")
    st4: dict[str, pl.Expr] = {}
    total = sum(col(f"{out}len{s}") for s in range(4))
    before = pl.lit(0, pl.Int64)
    for s in range(4):
        after = total - before - col(f"{out}len{s}")
        digits = col(f"{out}len{s}")
        st4[f"{out}fnum{s}"] = (col(f"{out}all") // lut("POW10", after.clip(0, 18))) % lut("POW10", digits.clip(0, 18))
        before = before + digits
    groups_ok = pl.all_horizontal(
        [col(f"{out}pos{s}").is_null() | (col(f"{out}len{s}") > 0) for s in range(4)]
    )
    st5 = {
        f"{out}canon": (
            col(f"{out}ordered") & groups_ok & col(f"{out}all").is_not_null() & (col(f"{out}nletters") == n_found)
            & (total <= 18) & ~col(f"{out}signed")
        ).fill_null(False)
    }
    st6 = {f"{out}other": pl.when(~col(f"{out}canon")).then(hand)}
    st7 = {
        **{
            f"{out}code{s}": digits_code32(
                pl.when(col(f"{out}canon")).then(col(f"{out}fnum{s}"))
                .otherwise(digits_number(suit_digits(col(f"{out}other"), letter)))
            )
            for s, letter in enumerate(SUITS)
        },
        f"{out}slow_ok": col(f"{out}other").str.contains(HAND_RE).fill_null(False),
    }
    # a canonical suit's red fives: its digits less the tiles its code counts (the digit sum of base 32)
    reds = [pl.when(col(f"{out}canon")).then(col(f"{out}len{s}") - col(f"{out}code{s}") % 31).otherwise(0)
            for s in range(4)]
    st8 = {f"{out}red{s}": reds[s] for s in range(4)}
    red = [col(f"{out}red{s}") for s in range(4)]
    st9 = {
        **{f"{out}c32_{s}": col(f"{out}code{s}") + red[s] * 32**4 for s in range(3)},
        f"{out}c32_3": col(f"{out}code3"),
        f"{out}aka": pl.when(col(f"{out}canon")).then(red[0] + red[1] + red[2])
        .otherwise(col(f"{out}other").str.count_matches("0", literal=True)),
        # a 0 among the honours is no tile
        f"{out}ok": (col(f"{out}canon") & (red[3] == 0)) | col(f"{out}slow_ok"),
    }
    return [st1, st2, st3, st4, st5, st6, st7, st8, st9]


def suit_digits(text: pl.Expr, letter: str) -> pl.Expr:
    """All digits of one suit, several groups allowed (``333s77s`` -> ``33377``); null if none."""
    return text.str.extract_all(rf"[0-9]+{letter}").list.join("").str.replace_all(letter, "", literal=True)


_TOKENS = pl.Enum(list(TILE_TOKENS))
_TOKEN_IDS = pl.Series(list(TILE_TOKENS.values()), dtype=pl.Int32)


def tile_id(tile: pl.Expr) -> pl.Expr:
    """``"8p"`` -> 16; red five ``"0p"`` -> 13; anything else (``""``, ``"8"``, ``"8q"``) -> null.

    A cast to an Enum of the tile tokens and a gather: cheaper than ``replace_strict`` with the dictionary."""
    return pl.lit(_TOKEN_IDS).gather(tile.cast(_TOKENS, strict=False).to_physical())


def normalise_indicators(text: pl.Expr) -> pl.Expr:
    """One tile per digit in written order: ``"14p3z"`` -> ``"1p4p3z"`` (groups of up to 5 digits).

    Give it only the rows that need it (others null): the regex passes then cost nothing on them.
    """
    norm = text
    for _ in range(4):  # "145p" -> "1p45p" -> "1p4p5p"
        norm = norm.str.replace_all(r"([0-9])([0-9]+)([mpsz])", "${1}${3}${2}${3}")
    return norm
