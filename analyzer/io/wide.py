"""Wide game-level sheets: one row per game (a table of a session), each seat's cells in columns of their own,
turned into the long form (one row per player per game, :mod:`analyzer.tournament.sheets`) as they are read, so that the
same checks and the same settlement apply.

Two ways of naming a seat's columns are read:

* 0-based seat numbers: ``player_0`` … ``player_{N-1}`` with ``final_score_0`` … (and ``chombo_i``,
  ``penalty_i``, ``team_i``, ``recorded_place_i``, ``recorded_points_i``);
* seat winds: ``east``, ``east_score``, ``south``, ``south_score``, … (and ``east_chombo``, ``east_penalty``,
  ``east_team``, ``east_recorded_place``, ``east_recorded_points``).

A file is wide where it has no ``result`` column (hand records have ``player_0..3`` too, and a ``result``) and
has ``final_score_0`` or ``east_score``; its seats are the numbers (winds) whose player or score column it has.
The other columns (``game_id``, ``session``, ``table``, ``leftover_sticks``, ``rules``, ``players``, anything
else) belong to the game: every seat's row gets them. A sheet of three seats says ``players`` = 3 where it has
no such column: its games are settled under the default ruleset's three-player preset unless told otherwise. Without ``game_id`` a game's id is made from its
``session``, ``table`` and row (``1-3-row4``; the file's name stands in where there is neither).

Each long row keeps the wide row's ``_row`` (and ``_pos``: a row is still one unit of the input) and says which
seat of it it is (``_wide_index``, or ``_wide_wind`` for seat-named columns), so that a reject names the wide
column (``final_score_2``, ``west_score``) — :func:`wide_column`; ``_wide_first`` marks a row's first seat, so
that rows read, scored and rejected are counted in the sheet's rows. A seat whose every cell is blank, in a row
with other seats, is no player (a three-player game in a four-seat sheet); a row with no seat at all keeps its
first seat, so that it is rejected rather than lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import polars as pl

WINDS = ("east", "south", "west", "north")
# the long form's per-seat columns, in the order a reshaped row has them
SEAT_FIELDS = ("player", "final_score", "chombo", "penalty", "team", "recorded_place", "recorded_points")
# what a seat wind is followed by in a seat-named column ("east" is the player, "east_score" the final score)
WIND_SUFFIX = {"player": "", "final_score": "_score", **{f: f"_{f}" for f in SEAT_FIELDS[2:]}}
MAX_SEATS = 4
# the columns a long row keeps to name its wide seat (null on rows of other files)
WIDE_INDEX, WIDE_WIND = "_wide_index", "_wide_wind"
# true on the first seat of each wide row: the rows of a wide sheet are counted as its rows, not its seats
WIDE_FIRST = "_wide_first"


def index_column(field: str, seat: int) -> str:
    return f"{field}_{seat}"


def wind_column(field: str, seat: int) -> str:
    return f"{WINDS[seat]}{WIND_SUFFIX[field]}"


# every name a wide sheet's per-seat column may have (read without case, like the other known columns)
WIDE_COLUMNS = frozenset(
    name(field, seat) for field in SEAT_FIELDS for seat in range(MAX_SEATS) for name in (index_column, wind_column))


@dataclass(frozen=True)
class WideLayout:
    """How one wide file names its seats: ``style`` ``index`` or ``wind``; ``seats``: the seat numbers it has;
    ``columns``: {(field, seat): the file's column} for the per-seat columns it has."""

    style: str
    seats: tuple[int, ...]
    columns: dict[tuple[str, int], str]


def wide_layout(names: Iterable[str]) -> WideLayout | None:
    """The wide layout of a file of these (read) column names; None where it is not a wide sheet."""
    names = set(names)
    if "result" in names:
        return None
    for style, name in (("index", index_column), ("wind", wind_column)):
        if name("final_score", 0) not in names:
            continue
        seats = tuple(s for s in range(MAX_SEATS)
                      if name("player", s) in names or name("final_score", s) in names)
        columns = {(f, s): name(f, s) for f in SEAT_FIELDS for s in seats if name(f, s) in names}
        return WideLayout(style, seats, columns)
    return None


def is_wide(names: Iterable[str]) -> bool:
    return wide_layout(names) is not None


def missing_seat_columns(layout: WideLayout) -> list[str]:
    """The player and score columns a wide sheet's seats need and it lacks (``final_score_3`` beside
    ``player_3``)."""
    name = index_column if layout.style == "index" else wind_column
    return [name(f, s) for s in layout.seats for f in ("player", "final_score") if (f, s) not in layout.columns]


def _blank(column: str, dtype: pl.DataType) -> pl.Expr:
    if dtype == pl.String:
        return pl.col(column).is_null() | (pl.col(column).str.strip_chars() == "")
    return pl.col(column).is_null()


def made_game_id(names: Iterable[str], file: str | Path) -> pl.Expr:
    """A game's id where the sheet has none: its session, table and row (``1-3-row4``), or the file's name and
    row where it has neither session nor table."""
    names = set(names)
    labels = [pl.col(c).cast(pl.String).str.strip_chars().replace("", None) for c in ("session", "table")
              if c in names]
    row = pl.concat_str(pl.lit("row"), pl.col("_row").cast(pl.String))
    if not labels:
        return pl.concat_str(pl.lit(PurePosixPath(str(file)).stem + "-"), row)
    return pl.concat_str([*labels, row], separator="-", ignore_nulls=True)


def to_long(lf: pl.LazyFrame, layout: WideLayout, file: str | Path) -> pl.LazyFrame:
    """The rows of a wide sheet (with their ``_row``) as the long form: one row per seat that holds a player,
    rows of one game together in seat order, with ``seat`` and the seat's wide name (:data:`WIDE_INDEX`,
    :data:`WIDE_WIND`). One select per seat, stacked: no per-row work."""
    schema = lf.collect_schema()
    per_seat = {c for c in layout.columns.values()}
    shared = [c for c in schema.names() if c not in per_seat and c != "seat"]
    if "game_id" not in schema:
        lf = lf.with_columns(made_game_id(schema.names(), file).alias("game_id"))
        shared = ["game_id", *shared]
    if len(layout.seats) == 3 and "players" not in schema:  # a sheet of three seats is of three-player games
        lf = lf.with_columns(pl.lit("3").alias("players"))
        shared = [*shared, "players"]
    fields = [f for f in SEAT_FIELDS if any((f, s) in layout.columns for s in layout.seats)]
    # a field some seats have and others lack is null there: its type is the one the seats that have it share
    types = {f: _field_type([schema[c] for (g, _), c in layout.columns.items() if g == f]) for f in fields}
    # whether each seat is empty, worked out once for the seats' selects below
    lf = lf.with_columns(pl.all_horizontal(_blank(layout.columns[(f, s)], schema[layout.columns[(f, s)]])
                                           for f in fields if (f, s) in layout.columns).alias(f"_blank_{s}")
                         for s in layout.seats)
    blank = {s: pl.col(f"_blank_{s}") for s in layout.seats}
    # a seat with nothing in it is no player, unless no seat of the row has anything (then the first stays)
    empty_row = pl.all_horizontal(blank.values())
    frames = []
    for order, seat in enumerate(layout.seats):
        keep = ~blank[seat] | (empty_row if order == 0 else pl.lit(False))
        before_blank = pl.all_horizontal(blank[s] for s in layout.seats[:order]) if order else pl.lit(True)
        frames.append(lf.select(
            *shared,
            pl.lit(seat, pl.Int64).alias("seat"),
            *[(pl.col(layout.columns[(f, seat)]).cast(types[f]) if (f, seat) in layout.columns
               else pl.lit(None, types[f])).alias(f) for f in fields],
            pl.lit(seat if layout.style == "index" else None, pl.Int64).alias(WIDE_INDEX),
            pl.lit(WINDS[seat] if layout.style == "wind" else None, pl.String).alias(WIDE_WIND),
            (keep & before_blank).alias(WIDE_FIRST),
            keep.alias("_wide_keep"),
        ))
    # the seats' frames stacked (seat by seat, each with every row) and interleaved by one gather: each row's
    # seats together in seat order, rows in file order, with no sort; then the empty seats dropped
    seats = len(layout.seats)
    k = pl.int_range(pl.len(), dtype=pl.Int64)
    interleave = (k % seats) * (pl.len() // seats) + k // seats
    return (pl.concat(frames, how="vertical").select(pl.all().gather(interleave))
            .filter(pl.col("_wide_keep")).drop("_wide_keep"))


def _field_type(types: list[pl.DataType]) -> pl.DataType:
    return types[0] if all(t == types[0] for t in types) else pl.String


def wide_column(column: pl.Expr) -> pl.Expr:
    """The name of the column a long-form ``column`` (a reject's) came from in a wide sheet: ``final_score`` of
    seat 2 is ``final_score_2`` (or ``west_score``); columns of the game, and rows of a long sheet, as they are.
    Needs the row's :data:`WIDE_INDEX` and :data:`WIDE_WIND`."""
    per_seat = column.is_in(list(SEAT_FIELDS))
    suffix = column.replace_strict(list(WIND_SUFFIX), list(WIND_SUFFIX.values()), default="",
                                   return_dtype=pl.String)
    return (
        pl.when(per_seat & pl.col(WIDE_INDEX).is_not_null())
        .then(pl.concat_str(column, pl.lit("_"), pl.col(WIDE_INDEX).cast(pl.String)))
        .when(per_seat & pl.col(WIDE_WIND).is_not_null())
        .then(pl.concat_str(pl.col(WIDE_WIND), suffix))
        .otherwise(column)
    )
