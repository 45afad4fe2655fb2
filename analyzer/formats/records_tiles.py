"""Tiles of the log tables (the tile Enum, :data:`.log_tables.TILE`) as the hand records write them, and their
kinds: expressions over tile and tile-list columns (what :mod:`.tile_text` does for one tile at a time)."""

from __future__ import annotations

import polars as pl

from analyzer.formats.events import TILES
from analyzer.formats.tile_text import TERMINAL_HONOUR

SUITS = "mpsz"
# the tiles in the order a hand is written: by kind, a red five before the other fives (tile_text._ORDER)
WRITTEN_ORDER = pl.Enum(sorted(TILES, key=lambda t: (SUITS.index(t[1]), 2 * (int(t[0]) or 5) + (t[0] != "0"))))
KIND_OF_TEXT = {t: (int(t[0]) or 5) - 1 + 9 * SUITS.index(t[1]) for t in TILES}
_KINDS = pl.Series("kind", [KIND_OF_TEXT[t] for t in TILES], pl.Int8)
KIND_TEXT = {k: t for t, k in KIND_OF_TEXT.items() if t[0] != "0"}  # a kind as tile_str writes it


def kind(tile: pl.Expr) -> pl.Expr:
    """The kind 0-33 (Int8) of a tile column (a red five a five)."""
    return pl.lit(_KINDS).gather(tile.to_physical())  # the physical codes index the table as they are


_TERMINAL_HONOUR_CODES = [c for c, t in enumerate(TILES) if KIND_OF_TEXT[t] in TERMINAL_HONOUR]


def terminal_or_honour(tile: pl.Expr) -> pl.Expr:
    """Whether a tile column's tiles are terminals or honours (a red five is not)."""
    return tile.to_physical().is_in(_TERMINAL_HONOUR_CODES)


_WRITTEN = [t for t in WRITTEN_ORDER.categories]
_WRITTEN_CODE = pl.Series("written", [_WRITTEN.index(t) for t in TILES], pl.Int64)  # tile code -> written place
_DIGIT = pl.Series("digit", [t[0] for t in _WRITTEN])
_SUIT = pl.Series("suit", [t[1] for t in _WRITTEN])
_ROW = "_tiles_row"


def with_tiles_text(frame: pl.LazyFrame, columns: dict[str, str]) -> pl.LazyFrame:
    """``frame`` with a text column for each list-of-tiles column (``{text: tiles}``), as
    :func:`.tile_text.tiles_str` writes a list: sorted and grouped, ``123m406p789s1122z`` ("" for no tiles, null
    for null). The lists are exploded, sorted by row and written place (one Int64 key) and joined back: a
    suit's letter follows its last digit (a group-by keeps the order of its rows within each group)."""
    frame = frame.with_row_index(_ROW)
    for text, source in columns.items():
        tiles = (frame.select(_ROW, tile=pl.col(source)).explode("tile", empty_as_null=False, keep_nulls=False)
                 .select(_ROW, key=pl.col(_ROW).cast(pl.Int64) * 64
                         + pl.lit(_WRITTEN_CODE).gather(pl.col("tile").to_physical().cast(pl.Int64)))
                 .sort("key"))
        place = pl.col("key") % 64
        suit = pl.lit(_SUIT).gather(place)
        last_of_suit = ((pl.col(_ROW) != pl.col(_ROW).shift(-1)) | (suit != suit.shift(-1))).fill_null(True)
        piece = pl.concat_str(pl.lit(_DIGIT).gather(place), pl.when(last_of_suit).then(suit).otherwise(pl.lit("")))
        # the rows of a group keep their order (sorted by key here): implode and join, no sort per group
        written = (tiles.with_columns(piece=piece).group_by(_ROW).agg(pl.col("piece"))
                   .select(_ROW, pl.col("piece").list.join("").alias(text)))
        frame = frame.join(written, on=_ROW, how="left", maintain_order="left").with_columns(
            pl.when(pl.col(source).is_not_null()).then(pl.col(text).fill_null("")).alias(text))
    return frame.drop(_ROW)


def indicators_text(tiles: pl.Expr) -> pl.Expr:
    """Dora indicators in their order, each with its suit (:func:`.tile_text.indicators_str`): ``3m7z1p``."""
    return tiles.cast(pl.List(pl.String)).list.join("")


def tile_text(tile: pl.Expr) -> pl.Expr:
    """One tile as its text (``8p``, ``0p`` the red five)."""
    return tile.cast(pl.String)


# A seat's concealed tiles as two Int64 words of 3-bit counts, one digit per tile code (the tile Enum's
# physical value): codes 0-18 in LOW, 19-36 in HIGH. A tile moved is a power of 8 added or taken away, so a
# running sum of moves is the hand after each (a count stays below 8); sums of many hands' words wrap around,
# and differences of them are exact modulo 2**64, as the hands' own words are.
LOW_CODES = 19
_CODES = range(len(TILES))
_POW_LOW = pl.Series("low", [8**c if c < LOW_CODES else 0 for c in _CODES], pl.Int64)
_POW_HIGH = pl.Series("high", [8 ** (c - LOW_CODES) if c >= LOW_CODES else 0 for c in _CODES], pl.Int64)
MAX_COUNT = 7


def tile_words(tile: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """One tile as the words (LOW, HIGH) of a hand holding only it."""
    code = tile.to_physical()
    return pl.lit(_POW_LOW).gather(code), pl.lit(_POW_HIGH).gather(code)


def count_in(low: pl.Expr, high: pl.Expr, tile: pl.Expr) -> pl.Expr:
    """How many of a tile column's tile the hand of words ``low``, ``high`` holds."""
    code = tile.to_physical()
    word = pl.when(code < LOW_CODES).then(low).otherwise(high)
    place = pl.lit(_POW_LOW).gather(code) + pl.lit(_POW_HIGH).gather(code)
    return (word // place) % 8


def code_count(low: pl.Expr, high: pl.Expr, code: int) -> pl.Expr:
    """How many tiles of the tile code ``code`` the hand of words ``low``, ``high`` holds."""
    word, place = (low, 8**code) if code < LOW_CODES else (high, 8 ** (code - LOW_CODES))
    return (word // place) % 8


_REPEATS = {t: pl.Series(t, [t[0] * n for n in range(MAX_COUNT + 1)]) for t in TILES}


def words_text(low: pl.Expr, high: pl.Expr) -> pl.Expr:
    """The hand of words ``low``, ``high`` as :func:`.tile_text.tiles_str` writes it: ``123m406p789s1122z``."""
    parts = []
    for suit in SUITS:
        digits = pl.concat_str([pl.lit(_REPEATS[t]).gather(code_count(low, high, TILES.index(t)))
                                for t in _WRITTEN if t[1] == suit])
        parts.append(pl.when(digits != "").then(digits + suit).otherwise(pl.lit("")))
    return pl.concat_str(parts)


# Tiles dealt and drawn in a hand as counts of 8 bits, seven tile codes a word (six words): a hand's sum of
# them stays exact up to 255 of a tile (a hand draws at most its wall).
ADD_PER_WORD, ADD_BITS = 7, 8
ADD_WORDS = -(-len(TILES) // ADD_PER_WORD)
_ADD_POW = [pl.Series(f"add{w}", [2 ** (ADD_BITS * (c % ADD_PER_WORD)) if c // ADD_PER_WORD == w else 0
                                  for c in _CODES], pl.Int64) for w in range(ADD_WORDS)]


def add_words(tile: pl.Expr) -> dict[str, pl.Expr]:
    """One tile as the words ``add0..add5`` of a count of tiles dealt and drawn."""
    code = tile.to_physical()
    return {f"add{w}": pl.lit(_ADD_POW[w]).gather(code) for w in range(ADD_WORDS)}


def added_count(code: int) -> pl.Expr:
    """The count of the tile code ``code`` in the words ``add0..add5``."""
    return (pl.col(f"add{code // ADD_PER_WORD}") // 2 ** (ADD_BITS * (code % ADD_PER_WORD))) % 2**ADD_BITS
