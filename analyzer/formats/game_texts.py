"""What the per-game exports from the log tables share (:mod:`.mjai.write_columns`,
:mod:`.tenhou.tenhou6_columns`): JSON text as Polars expressions, the tile lookups, the ruleset spec of each
game, and :class:`GameTexts`, the texts of a batch's games as one byte buffer.

A game's file is built as rows of text in the file's order (an event's JSON line, a piece of a hand's arrays),
the rows of a game one after the other; Arrow keeps a string column's values as one buffer, so a game's file is
the slice of that buffer from its first row to its last (:meth:`GameTexts.of_rows`): no join of strings per
game, no copy per line. Most rows are one of a few hundred texts (a draw of a tile by a seat), gathered from a
table of them (:func:`lookup`); only the rare rows (calls, the starts and ends of hands) are put together with
``concat_str`` and written over the gathered rows (``scatter``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analyzer.formats.events import EVENTS, TILES
from analyzer.formats.model import LogError
from analyzer.formats.records_games import game_of
from analyzer.formats.rules_spec import rules_spec

EVENT_INDEX = {name: i for i, name in enumerate(EVENTS)}  # the events table's Enum, by its physical code
TILE_INDEX = {name: i for i, name in enumerate(TILES)}
HONOURS = "ESWNPFC"
MJAI_TILES = [t if t[1] != "z" else HONOURS[int(t[0]) - 1] for t in TILES]
MJAI_TILES = [f"5{t[1]}r" if t[0] == "0" else t for t in MJAI_TILES]  # 1m..9m, 5mr a red five, E S W N P F C
TENHOU_CODES = [51 + "mps".index(t[1]) if t[0] == "0" else 10 * ("mpsz".index(t[1]) + 1) + int(t[0]) for t in TILES]
KINDS = [("mpsz".index(t[1])) * 9 + (5 if t[0] == "0" else int(t[0])) - 1 for t in TILES]  # 0-33, red = its five
# the order the readers keep a call's other tiles in (the events table sorts them): by kind, a red five after
# the other fives
CALL_ORDER = [2 * KINDS[i] + (1 if t[0] == "0" else 0) for i, t in enumerate(TILES)]


def tile_code(tile: pl.Expr) -> pl.Expr:
    """A tile column's place in :data:`TILES` (Int64; null stays null)."""
    return tile.to_physical().cast(pl.Int64)


def lookup(values: list, index: pl.Expr, dtype=pl.String) -> pl.Expr:
    """``values[index]`` per row (null where ``index`` is null)."""
    return pl.lit(pl.Series(values, dtype=dtype)).gather(index)


def tile_texts(tiles: pl.Expr, texts: list[str]) -> pl.Expr:
    """A list of tiles as a list of their texts (``texts`` in :data:`TILES` order)."""
    return tiles.list.eval(pl.element().cast(pl.String).replace_strict(dict(zip(TILES, texts)),
                                                                       return_dtype=pl.String))


def json_value(value: pl.Expr) -> pl.Expr:
    """The JSON text of each value as ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` writes it
    (strings escaped the same way; a float as Python's repr from 1e-4 on; null: ``null``)."""
    return (pl.struct(value.alias("v")).struct.json_encode().str.strip_prefix('{"v":').str.strip_suffix("}"))


def json_ints(values: pl.Expr) -> pl.Expr:
    """A list of integers as JSON (``[1,2]``; null stays null)."""
    return pl.concat_str(pl.lit("["), values.cast(pl.List(pl.String)).list.join(","), pl.lit("]"))


def json_int(value: pl.Expr) -> pl.Expr:
    """An integer as JSON, ``null`` for null."""
    return value.cast(pl.String).fill_null("null")


def json_bool(value: pl.Expr) -> pl.Expr:
    return pl.when(value).then(pl.lit("true")).when(~value).then(pl.lit("false")).otherwise(pl.lit("null"))


def json_tiles(tiles: pl.Expr, texts: list[str] = MJAI_TILES) -> pl.Expr:
    """A list of tiles as a JSON list of their texts (mjai's by default); null stays null."""
    return json_value(tile_texts(tiles, texts))


def run_starts(*keys: str) -> pl.Expr:
    """True where a run of equal ``keys`` starts, in a frame sorted by them."""
    changed = [pl.col(k) != pl.col(k).shift(1) for k in keys]
    return pl.any_horizontal(changed).fill_null(True)


def count_in_run(flag: pl.Expr, start: pl.Expr) -> pl.Expr:
    """How many rows of the run so far (this one included) have ``flag``: a running sum less its value before
    the run's start (``start``: :func:`run_starts`); no window over groups, which costs per group."""
    counted = flag.cast(pl.Int64).cum_sum()
    return counted - pl.when(start).then(counted - flag.cast(pl.Int64)).forward_fill()


def call_others(calls: pl.LazyFrame) -> pl.LazyFrame:
    """Per call (``row``, ``tile`` the called tile, ``tiles`` sorted as the events table sorts them) ``other``:
    its tiles but one called, in the order the readers keep them (:data:`CALL_ORDER`), and ``missing``: its
    tiles do not hold the called tile."""
    element = calls.select("row", "tile", other="tiles").explode("other").with_columns(
        called=pl.col("other") == pl.col("tile"), order=lookup(CALL_ORDER, tile_code(pl.col("other")), pl.Int64))
    element = element.with_columns(first_called=pl.col("called") & (count_in_run(pl.col("called"),
                                                                                 run_starts("row")) == 1))
    missing = element.group_by("row").agg(missing=~pl.col("called").any())
    others = (element.filter(~pl.col("first_called")).sort("row", "order")
              .group_by("row", maintain_order=True).agg(pl.col("other")))
    return missing.join(others, on="row", how="left").with_columns(
        pl.col("other").fill_null(pl.lit([], pl.List(pl.Enum(TILES)))))


def hand_bounds(frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The first and last row of each hand of ``frame`` (sorted by ``game``, ``log_row``), in hand order."""
    game, row = frame["game"].to_numpy(), frame["log_row"].to_numpy()
    change = np.flatnonzero((game[1:] != game[:-1]) | (row[1:] != row[:-1])) + 1
    first = np.concatenate([[0], change]) if len(game) else np.zeros(0, np.int64)
    last = np.concatenate([change - 1, [len(game) - 1]]) if len(game) else np.zeros(0, np.int64)
    return first, last


def refusal(exc: Exception) -> str:
    """The reason the export gives for a game its writer raised ``exc`` on (:func:`.game_files.games_batch`)."""
    return str(exc) if isinstance(exc, LogError) else f"cannot export ({type(exc).__name__}: {str(exc)[:200]})"


def rules_specs(games: pl.DataFrame, hands: pl.DataFrame) -> tuple[pl.Series, dict[int, str]]:
    """Per game the ruleset spec of its log (:func:`.rules_spec.rules_spec`, null for a game without hands),
    and the reason of each game (by number) it cannot be worked out for: a few values per game, in Python, by
    the function the model's writers call (its first hand is all it reads of the play)."""
    first = {row["game"]: row for row in hands.select("game", "log_row", "kyoku", "honba", "kyotaku", "scores")
             .unique("game", keep="first", maintain_order=True).iter_rows(named=True)}
    specs, errors = [], {}
    for row in games.iter_rows(named=True):
        spec = None
        if row["game"] in first:
            try:
                spec = rules_spec(game_of(row, first[row["game"]]))
            except (LogError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
                errors[row["game"]] = refusal(exc)
        specs.append(spec)
    return pl.Series("rules", specs, dtype=pl.String), errors


def first_error(errors: list[pl.DataFrame], games: pl.DataFrame) -> pl.Series:
    """Per game (in ``games``' order) the first of its errors: each frame of ``errors`` has ``game``, ``rank``
    (an Int64 saying where in the writing the error comes: the lowest first) and ``error``."""
    found = pl.concat([e.select(pl.col("game").cast(pl.Int32), pl.col("rank").cast(pl.Int64),
                                pl.col("error").cast(pl.String)) for e in errors])
    first = found.sort("game", "rank").unique("game", keep="first")
    return games.select("game").join(first, on="game", how="left", maintain_order="left")["error"]


@dataclass(frozen=True)
class GameTexts:
    """The files of a batch's games: per game (in the games table's order) its id, its text's bytes (a slice
    of ``data``) or the reason it cannot be written (``errors``)."""

    game_ids: list[str]
    errors: list[str | None]
    data: memoryview
    starts: np.ndarray
    ends: np.ndarray

    @classmethod
    def of_rows(cls, rows: pl.Series, row_games: np.ndarray, games: pl.DataFrame, errors: pl.Series,
                alone: dict[int, str] | None = None) -> GameTexts:
        """The texts of ``rows`` (UTF-8 text in file order, a game's rows together, null: nothing), the rows of
        game number ``row_games`` (sorted); a game with no rows gets ``alone[game]`` (or an empty text)."""
        array = rows.rechunk().to_arrow()
        if array.type != "large_string":
            array = array.cast("large_string")
        offsets = np.frombuffer(array.buffers()[1], dtype=np.int64)[array.offset:array.offset + len(array) + 1]
        data = array.buffers()[2]
        numbers = games["game"].to_numpy()
        lo = np.searchsorted(row_games, numbers, side="left")
        hi = np.searchsorted(row_games, numbers, side="right")
        starts, ends = offsets[lo].copy(), offsets[hi].copy()
        whole = memoryview(b"" if data is None else data)
        apart = np.flatnonzero(lo == hi)  # games without rows (no hands): their texts after the rows'
        if len(apart):
            pieces, size = [bytes(whole)], len(whole)
            for i in apart:
                text = ((alone or {}).get(int(numbers[i])) or "").encode("utf-8")
                starts[i], ends[i] = size, size + len(text)
                pieces.append(text)
                size += len(text)
            whole = memoryview(b"".join(pieces))
        return cls(games["game_id"].to_list(), errors.to_list(), whole, starts, ends)

    def __len__(self) -> int:
        return len(self.game_ids)

    def bytes_of(self, i: int) -> memoryview | None:
        """The UTF-8 bytes of game ``i``'s file, or None when it cannot be written."""
        return None if self.errors[i] is not None else self.data[self.starts[i]:self.ends[i]]

    def text(self, i: int) -> str | None:
        """Game ``i``'s file as text, or None when it cannot be written."""
        view = self.bytes_of(i)
        return None if view is None else str(view, "utf-8")
