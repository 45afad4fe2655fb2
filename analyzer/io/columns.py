"""What an input's columns say before any row is scored: the mistakes a new user makes with them, each one clear
line (an :class:`InputError`) raised while the run is planned, before anything is written.

* a CSV file's separator and encoding are read off its start (:mod:`analyzer.io.csv_text`), and a header that
  names a column twice is refused (:func:`check_header`) — Polars would rename the second copy;
* column names are matched without case and surrounding spaces where that names a known column (``Round`` is
  ``round``); two columns that meet in one name are refused (:func:`read_names`);
* a required column that is missing is named with the closest column present (:func:`check_required`): a sheet
  whose every row would otherwise be rejected for the same reason is one error instead.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path

import polars as pl

from analyzer.io.csv_text import csv_header
from analyzer.io.errors import InputError
from analyzer.io.wide import is_wide
from analyzer.core.schema import LOSER_RESULTS, PLAYER_COLUMNS, WINNER_RESULTS


# Every row needs these: without one, every row of the file would be rejected for the same reason.
ALWAYS_REQUIRED = ["game_id", "round", "honba", "result", *PLAYER_COLUMNS[:3]]
# Needed only where some row's result needs them (a sheet of draws names no winner).
REQUIRED_BY_RESULT = {"winner": WINNER_RESULTS, "loser": LOSER_RESULTS}
# A game-level result sheet (one row per player per game, analyzer.tournament.sheets) needs these, and has no ``result``.
SHEET_REQUIRED = ["game_id", "player", "final_score"]
SHEET_OPTIONAL = ["session", "table", "seat", "chombo", "penalty", "team", "leftover_sticks", "recorded_place",
                  "recorded_points"]
SHEET_COLUMNS = [*SHEET_REQUIRED, *SHEET_OPTIONAL]
# What an input is read as: each file by its columns (``auto``), or every file as hand records or as game-level
# sheets.
INPUT_KINDS = ("auto", "hands", "games")


def is_sheet(names: Iterable[str]) -> bool:
    """Whether columns of these names are a game-level sheet: ``player`` and ``final_score``, no ``result``; or
    a wide one (one row per game: ``final_score_0`` or ``east_score``, see :mod:`analyzer.io.wide`)."""
    names = set(names)
    return ({"player", "final_score"} <= names and "result" not in names) or is_wide(names)


def sheet_file(names: Iterable[str], input_kind: str = "auto") -> bool:
    """Whether a file of these columns is read as a game-level sheet under ``input_kind``."""
    if input_kind not in INPUT_KINDS:
        raise ValueError(f"input kind must be one of {', '.join(INPUT_KINDS)}; got {input_kind!r}")
    return input_kind == "games" or (input_kind == "auto" and is_sheet(names))


def check_header(path: str | Path) -> None:
    """A CSV header that names one column twice is refused (Polars would read the second as ``NAME_duplicated_0``,
    and the value the user meant would be silently dropped)."""
    found = csv_header(path)
    if found is None:
        return
    seen: set[str] = set()
    for name in found.names:
        if name in seen:
            raise InputError(f"the column {clipped(name)!r} appears twice in {path}: keep one")
        seen.add(name)


# A column name is shown in a message up to this many characters: a file that is no sheet (a line of text, junk)
# has a "name" of kilobytes.
SHOWN_NAME = 40


def clipped(name: str) -> str:
    """``name`` for a message: cut short (``…``) beyond :data:`SHOWN_NAME` characters."""
    return name if len(name) <= SHOWN_NAME else name[:SHOWN_NAME - 1] + "…"


def read_names(names: Iterable[str], where: str | Path, known: frozenset[str] | set[str],
               rename: Callable[[str], str] = lambda name: name) -> dict[str, str]:
    """{name in the input: name it is read as}: without surrounding spaces, and lower-cased where that gives a
    known column (``Round`` is ``round``; an unknown ``Notes`` keeps its case), then ``rename``. Two columns
    read as one name (``Round`` and ``round``) are refused: which one is meant cannot be guessed."""
    read: dict[str, str] = {}
    by_target: dict[str, str] = {}
    for name in names:
        stripped = name.strip()
        folded = stripped.lower() if stripped.lower() in known else stripped
        target = rename(folded)
        if target in by_target:
            raise InputError(f"the columns {clipped(by_target[target])!r} and {clipped(name)!r} of {where} have the "
                             f"same name ({clipped(folded)!r}) once case and spaces are set aside: keep one")
        by_target[target] = name
        read[name] = target
    return read


def check_required(lf: pl.LazyFrame, where: str | Path, input_kind: str = "auto") -> None:
    """The columns every row needs, and ``winner``/``loser`` where a row's result needs one, are present in
    ``lf`` (one file's or one frame's columns as the pipeline reads them); the first missing one is an
    :class:`InputError` naming it and the closest column present. A game-level sheet (:func:`sheet_file`) needs
    :data:`SHEET_REQUIRED` instead."""
    names = lf.collect_schema().names()
    if sheet_file(names, input_kind):
        missing = [c for c in SHEET_REQUIRED if c not in names]
        if missing:
            raise InputError(missing_message(missing, names, where, SHEET_REQUIRED) + " (read as a game-level sheet)")
        return
    missing = [c for c in ALWAYS_REQUIRED if c not in names]
    by_result = {c: results for c, results in REQUIRED_BY_RESULT.items() if c not in names}
    if by_result and "result" in names:
        outcome = pl.col("result").cast(pl.String).str.strip_chars().str.to_lowercase()
        needed = lf.select(outcome.is_in(results).any().alias(c) for c, results in by_result.items()).collect()
        missing += [c for c in by_result if needed[c].item()]
    if missing:
        hint = ""
        if input_kind == "auto" and "player" in names and "final_score" in names:
            hint = (" (its player and final_score columns look like a game-level sheet, which has no result "
                    "column: drop it, or choose --input-kind games)")
        raise InputError(missing_message(missing, names, where) + hint)


def missing_message(missing: list[str], names: list[str], where: str | Path,
                    required: list[str] | None = None) -> str:
    """``no column 'winner' in FILE — did you mean 'winer'?``: the closest column that is not one analyzer reads
    already, or the columns there are when none is close."""
    first = missing[0]
    # internal columns (source file, row) and the required ones present are no one's misspelling
    required = ALWAYS_REQUIRED if required is None else required
    candidates = [n for n in names if not n.startswith("_") and n not in required and n not in REQUIRED_BY_RESULT]
    close = difflib.get_close_matches(first, candidates, n=1, cutoff=0.6)
    if close:
        hint = f" — did you mean {clipped(close[0])!r}?"
    else:
        shown = [clipped(n) for n in names if not n.startswith("_")]
        hint = f" (its columns: {', '.join(shown[:12])}{', …' if len(shown) > 12 else ''})" if shown else " (no columns)"
    also = f" (also missing: {', '.join(map(repr, missing[1:]))})" if len(missing) > 1 else ""
    return f"no column {first!r} in {where}{hint}{also}"
