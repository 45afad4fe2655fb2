"""Columns analyzer does not use, found before a run from the inputs' names alone (no data is read):

* a column whose name is a near miss of a column analyzer reads (:mod:`analyzer.io.near_miss`), while that
  column is absent, is a :class:`ColumnWarning` — ``column 'richi' is not used — did you mean 'riichi'?`` —
  which the command line prints before the run;
* where the column it misses is one the rows need (``game_id``, ``round``, …, ``winner`` where a row wins,
  ``han`` and ``fu`` where a row wins and no tiles are given; a sheet's ``player`` and ``final_score``), it is
  an :class:`InputError` naming both instead: every row would otherwise be rejected for the same reason;
* ``strict``: any column analyzer neither reads nor writes itself is an :class:`InputError`;
* a file read in a way CSV files usually are not — Shift-JIS text, decimal commas — is a :class:`ReadWarning`,
  once per run.

Columns that are simply extra (``notes``, ``table_name``, ``comment``: near no known name) pass silently, and
so do the columns analyzer's importers and outputs write (``dan_0``, ``lobby``, ``points``, ``input_*``): a
``hands`` output or an imported log can be scored again under ``strict``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.formats.columns import COLUMNS as IMPORTED_COLUMNS
from analyzer.io.columns import (
    ALWAYS_REQUIRED, REQUIRED_BY_RESULT, SHEET_COLUMNS, SHEET_REQUIRED, InputError, csv_header, is_sheet,
    sheet_file,
)
from analyzer.io.csv_text import ENCODING_NAMES
from analyzer.io.decimal_comma import decimal_comma_columns, reads_decimal_commas
from analyzer.io.load import (
    INPUT_PREFIX, KNOWN_COLUMNS, OUTPUT_NAMES, VALIDATED_COLUMNS, comma_numbers, expand_inputs, format_of, input_name,
    read_names, scan_file,
)
from analyzer.io.near_miss import suggestion
from analyzer.core.schema import SEATS, WINNER_RESULTS
from analyzer.tiles.codes import CODE_COLUMNS

# What `check` compares with what it computes (analyzer.findings): read, so a misspelling of one is a near miss.
RECORDED_READ = {
    "recorded_han", "recorded_fu", "recorded_points", "recorded_limit", "recorded_yaku", "recorded_dora",
    "recorded_ura_dora", "recorded_aka_dora", "recorded_yakuman", "recorded_kyotaku",
    *[f"recorded_{fact}_{s}" for fact in ("delta", "final", "game_points", "chips") for s in SEATS],
}
WHERE_RECORDED = {"log_file", "log_row"}
# What is read from hand records; a near miss in a hand record is of one of these (its ``seats`` is not `seat`).
HAND_COLUMNS = frozenset(
    VALIDATED_COLUMNS | RECORDED_READ | WHERE_RECORDED
    | {"kyotaku", "recorded_kyotaku", "date", "turn", "session", "table"}
    | {f"{fact}_{s}" for fact in ("riichi_turn", "calls", "open") for s in SEATS}
)
# What is read from game-level sheets: every other column analyzer knows (KNOWN_COLUMNS), and what both read.
SHEET_READ = frozenset((KNOWN_COLUMNS - HAND_COLUMNS)
                       | {*SHEET_COLUMNS, "rules", "players", "date", "session", "table", *WHERE_RECORDED})
# Written by analyzer itself (its importers, `tiles encode`, the hands output): never unknown, never a target.
WRITTEN = frozenset({*IMPORTED_COLUMNS, *CODE_COLUMNS, *OUTPUT_NAMES, "kyotaku", "han", "fu", "yakuman"})
# Needed by the rows that win, unless tiles give them (then they are read from the tiles).
NEEDED_BY_WINS = ("han", "fu")
TILE_COLUMNS = ("hand", "tc_m")


class ColumnWarning(UserWarning):
    """A column is not used and its name is a near miss of one that would be: ``column`` (as the input names it),
    ``meant`` (the column it is probably meant to be) and ``where`` (the files, or ``the frame``)."""

    def __init__(self, column: str, meant: str, where: list[str]) -> None:
        self.column, self.meant, self.where = column, meant, where
        shown = where[0] if len(where) == 1 else f"{where[0]} and {len(where) - 1} more file(s)"
        super().__init__(f"column {column!r} is not used — did you mean {meant!r}? ({shown})")


class ReadWarning(ColumnWarning):
    """How files were read where it is not how CSV files usually are, said once before the run: Shift-JIS text
    (``read results.csv as Shift-JIS (cp932) text, not UTF-8``), decimal commas (``decimal commas read as decimal
    points (2,0 is 2.0) in penalty of results.csv``). ``column``: the columns concerned (a tuple, empty for the
    encoding), ``meant``: what they were read as, ``where``: the files."""

    def __init__(self, text: str, column: tuple[str, ...], meant: str, where: list[str]) -> None:
        self.column, self.meant, self.where = column, meant, where
        UserWarning.__init__(self, text)


def _shown_files(where: list[str]) -> str:
    return where[0] if len(where) == 1 else f"{where[0]} and {len(where) - 1} more file(s)"


def read_warnings(items: list[_Names]) -> list[ReadWarning]:
    """The :class:`ReadWarning` of each way local CSV files were read that is not UTF-8 and decimal points: one
    per way, naming the files (one pass over the number columns of a semicolon-separated file)."""
    shift_jis: list[str] = []
    commas: dict[str, list[str]] = {}  # column -> files
    for item in items:
        path = item.where
        if item.where == "the frame" or format_of(path) != "csv":
            continue
        try:
            header = csv_header(path)
            if header is None:
                continue
            if header.encoding == "cp932":
                shift_jis.append(path)
            if reads_decimal_commas(header.separator):
                names = read_names(header.names, path, KNOWN_COLUMNS, input_name)
                numbers = comma_numbers(path, header.separator)
                for column in decimal_comma_columns(path, names, numbers):
                    commas.setdefault(column, []).append(path)
        except (OSError, pl.exceptions.PolarsError, InputError):
            continue  # the run says what is wrong with the file
    found = []
    if shift_jis:
        found.append(ReadWarning(f"read {_shown_files(shift_jis)} as {ENCODING_NAMES['cp932']} text, not UTF-8",
                                 (), "cp932", shift_jis))
    if commas:
        where = list(dict.fromkeys(f for files in commas.values() for f in files))
        found.append(ReadWarning(f"decimal commas read as decimal points (2,0 is 2.0) in {', '.join(commas)} of "
                                 f"{_shown_files(where)}", tuple(commas), "decimal point", where))
    return found


@dataclass
class _Names:
    """One input's column names, as the pipeline reads them, and what it is read as."""

    where: str
    names: list[str]
    sheet: bool
    mixed: bool = False  # a frame of hand records and sheets together (analyzer.load's `_sheet` column)
    near: dict[str, str] = field(default_factory=dict)  # unknown name -> the column it misses

    @property
    def targets(self) -> frozenset[str]:
        if self.mixed:
            return HAND_COLUMNS | SHEET_READ
        return SHEET_READ if self.sheet else HAND_COLUMNS

    def unknown(self) -> list[str]:
        return [n for n in self.names if is_unknown(n, self.targets)]


def is_unknown(name: str, targets: Iterable[str]) -> bool:
    """Whether analyzer neither reads ``name`` (``targets``: the columns read from this kind of file; any column
    it reads from some kind of input) nor writes it."""
    return not (name.startswith("_") or name.startswith(INPUT_PREFIX) or name in targets or name in WRITTEN
                or name in KNOWN_COLUMNS)


def near_misses(names: list[str], targets: Iterable[str]) -> dict[str, str]:
    """{unknown name: the absent column of ``targets`` it is a near miss of} (:func:`analyzer.io.near_miss.suggestion`)."""
    absent = [t for t in targets if t not in names]
    found = {}
    for name in names:
        if is_unknown(name, targets):
            meant = suggestion(name, sorted(absent))
            if meant is not None:
                found[name] = meant
    return found


def _file_names(path: Path) -> list[str] | None:
    """A file's column names as the pipeline reads them (:func:`analyzer.io.load.scan_file`), from its header
    or Parquet schema only; None where it cannot be read, or two of its columns meet in one name (the run
    then says why, as it always has)."""
    try:
        if format_of(path) == "csv":
            found = csv_header(path)
            raw = found.names if found else []
        else:
            raw = pl.scan_parquet(path, glob=False).collect_schema().names()
        return list(read_names(raw, path, KNOWN_COLUMNS, input_name).values())
    except (OSError, pl.exceptions.PolarsError, InputError):
        return None


def _inputs(data, input_kind: str) -> list[_Names]:
    if isinstance(data, (pl.LazyFrame, pl.DataFrame)):
        raw = data.lazy().collect_schema().names()
        names = [*read_names([n for n in raw if not n.startswith("_")], "the frame", KNOWN_COLUMNS).values(),
                 *[n for n in raw if n.startswith("_")]]
        mixed = input_kind == "auto" and "_sheet" in names
        return [_Names("the frame", names, sheet_file(names, input_kind), mixed)]
    try:
        files = expand_inputs([data] if isinstance(data, (str, Path)) else list(data))
    except InputError:
        return []  # not local files (a cluster's URLs), or none: the run says what is wrong
    found = []
    for path in files:
        names = _file_names(path)
        if names is not None:
            found.append(_Names(str(path), names, sheet_file(names, input_kind)))
    return found


def _read_as(item: _Names, input_kind: str) -> None:
    """Settle what ``item`` is read as and its near misses: a file that is a sheet once its near misses are
    read as what they miss (``finalscore``) is one, so that the error names the misspelling."""
    item.near = near_misses(item.names, item.targets)
    if input_kind == "auto" and not item.sheet and not item.mixed and "result" not in item.names:
        as_sheet = near_misses(item.names, SHEET_READ)
        if is_sheet([*item.names, *as_sheet.values()]):
            item.sheet, item.near = True, as_sheet


def _wins(item: _Names, index: int, data) -> bool:
    """Whether some row of the input is a win (one pass over its ``result``: only where a near miss asks)."""
    lf = data.lazy() if item.where == "the frame" else scan_file(item.where, index)
    outcome = pl.col("result").cast(pl.String).str.strip_chars().str.to_lowercase()
    return bool(lf.select(outcome.is_in(WINNER_RESULTS).any()).collect().item())


def _refuse_missing(item: _Names, index: int, data) -> None:
    """A column the rows need that is absent while a near miss of it is there: one error naming both."""
    by_target = {meant: name for name, meant in item.near.items()}
    if item.sheet:
        needed = [c for c in SHEET_REQUIRED if c in by_target]
        suffix = " (read as a game-level sheet)"
    else:
        needed = [c for c in ALWAYS_REQUIRED if c in by_target]
        suffix = ""
        by_result = [c for c in REQUIRED_BY_RESULT if c in by_target]
        if not any(t in item.names for t in TILE_COLUMNS):
            by_result += [c for c in NEEDED_BY_WINS if c in by_target]
        if not needed and by_result and "result" in item.names and _wins(item, index, data):
            needed = by_result
            suffix = " (its win rows need it)" if needed[0] in NEEDED_BY_WINS else ""
    if needed:
        first = needed[0]
        raise InputError(f"no column {first!r} in {item.where} — did you mean {by_target[first]!r}?{suffix}")


def check_input_columns(data, input_kind: str = "auto", strict: bool = False) -> list[ColumnWarning]:
    """Look at the column names of ``data`` (paths, or a frame) before a run: a near miss of a column some rows
    need is an :class:`InputError`; ``strict``: so is any unknown column; otherwise each near miss is a
    :class:`ColumnWarning`, issued (``warnings.warn``) once per name and returned, with the ways files are read
    that are not the usual (:func:`read_warnings`). Files that cannot be read, or are not local, are left to the
    run."""
    inputs = _inputs(data, input_kind)
    found: dict[tuple[str, str], list[str]] = {}
    for index, item in enumerate(inputs):
        _read_as(item, input_kind)
        _refuse_missing(item, index, data)
        unknown = item.unknown()
        if strict and unknown:
            first = unknown[0]
            meant = f" — did you mean {item.near[first]!r}?" if first in item.near else ""
            others = f"; also {', '.join(map(repr, unknown[1:]))}" if len(unknown) > 1 else ""
            raise InputError(f"column {first!r} of {item.where} is not one analyzer reads{meant} (--strict refuses "
                             f"unknown columns{others})")
        for name, meant in item.near.items():
            found.setdefault((name, meant), []).append(item.where)
    issued = [ColumnWarning(name, meant, where) for (name, meant), where in found.items()]
    issued += read_warnings(inputs)
    for warning in issued:
        warnings.warn(warning, stacklevel=3)
    return issued
