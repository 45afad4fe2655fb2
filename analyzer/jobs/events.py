"""The events of a score run's games (``docs/outputs.md#events``): where they come from, each partition's share,
and the partition's ``hand_seats`` table (:func:`analyzer.play.seats.hand_seats`).

A run knows the events of its games from, in this order (:class:`EventSources`; the first that holds a game is
the one read for it, so a game in two tables is read once):

* the events given to it (``score --events FILE``, ``analyzer.score(…, events=…)``: files or a frame);
* beside each hand-record file, ``NAME.events.parquet`` for ``NAME.parquet`` or ``NAME.csv``
  (:func:`events_beside`: what ``analyzer import --events`` writes), or the logs' own when the run imported
  them itself (:mod:`analyzer.jobs.inputs`);
* an events table among the inputs (``analyzer export events``'s, told by its columns: :func:`is_events_table`).

A partition holds whole games, and its events are the rows of its game ids (:meth:`EventSources.read`): each
table filtered by the range of the partition's ids first (row groups outside it are skipped on their
statistics, which ``export events`` keeps for ``game_id``), then by the ids themselves.

Rows the run imported from logs into a temporary file are named by their log (:func:`with_log_sources`), as
the hands and rejects tables name the rows of an import: the temporary file is gone when the run ends.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from analyzer.core.schema import LOG_FILE, SOURCE_FILE, SOURCE_ROW
from analyzer.formats.events import SCHEMA as EVENTS_SCHEMA
from analyzer.formats.events import seats_of
from analyzer.io.errors import InputError
from analyzer.io.files import format_of
from analyzer.play.seats import EVENT_COLUMNS as SEAT_EVENT_COLUMNS
from analyzer.play.seats import COLUMNS as SEATS_COLUMNS
from analyzer.play.seats import SEAT, hand_seats, with_start_scores

EVENTS_SUFFIX = ".events.parquet"
# the columns that tell an events table from hand records (which have a ``result`` and no ``seq``)
EVENTS_KEYS = frozenset({"game_id", "log_row", "seq", "event"})
EXPORT_HINT = "analyzer export events, or analyzer import --events, writes one"


def events_beside(path: str | Path) -> Path:
    """Where the events of a hand-record file are looked for: ``hands.parquet`` → ``hands.events.parquet``
    (``hands.csv`` too)."""
    path = Path(path)
    return path.with_name(path.stem + EVENTS_SUFFIX)


def _columns(path: Path) -> list[str] | None:
    try:
        return pl.scan_parquet(path, glob=False).collect_schema().names()
    except (OSError, pl.exceptions.PolarsError):
        return None


def _parquet_holding(path: str | Path, columns) -> bool:
    """Whether ``path`` is a Parquet file with all of ``columns`` and no hand records' ``result`` (from its
    footer)."""
    if format_of(path) != "parquet":
        return False
    names = _columns(Path(path))
    return names is not None and set(columns) <= set(names) and "result" not in names


def is_events_table(path: str | Path) -> bool:
    """Whether ``path`` is a Parquet file of the events table (by its columns, from the file's footer)."""
    return _parquet_holding(path, EVENTS_KEYS)


def is_seats_table(path: str | Path) -> bool:
    """Whether ``path`` is a Parquet file of the ``hand_seats`` table (:mod:`analyzer.play.seats`: as an import
    writes beside its events, or a score run among its outputs), by its columns."""
    return _parquet_holding(path, SEATS_COLUMNS)


def events_table(path: str | Path, what: str) -> str:
    """``path`` as an events table to read, or an :class:`InputError` saying what it is not (``what``: how the
    run came to it, e.g. ``--events``)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{what}: no such file: {path}")
    names = _columns(path)
    if names is None:
        raise InputError(f"{what}: cannot read {path} as Parquet")
    missing = sorted(EVENTS_KEYS - set(names))
    if missing or "result" in names:
        lacks = f"no column {', '.join(map(repr, missing))}" if missing else "it has hand records' result column"
        raise InputError(f"{what}: {path} is not an events table ({lacks}; {EXPORT_HINT})")
    return str(path)


@dataclass(frozen=True)
class EventSources:
    """Where a run's events are: ``frame`` (given from Python) first, then the ``tables`` (Parquet files) in
    order; a game's events are read from the first of them that has it. ``imported``: the hand-record files
    the run wrote from logs itself, whose rows are named by their log (:func:`with_log_sources`). Picklable:
    a cluster's workers read their buckets' events themselves."""

    tables: tuple[str, ...] = ()
    frame: pl.DataFrame | None = None
    imported: tuple[str, ...] = ()
    seats: tuple[str, ...] = ()  # the hand_seats made from each of the tables, where every one has them

    def with_seats(self) -> EventSources:
        """These sources with the ``hand_seats`` files made from their tables
        (:func:`~analyzer.formats.events.seats_of`: an import wrote them with the events), where every table
        has one and no frame is given: a run reads those instead of replaying the events."""
        if self.frame is not None or not self.tables:
            return self
        found = [seats_of(path) for path in self.tables]
        return replace(self, seats=tuple(found)) if all(found) else self

    @property
    def known(self) -> bool:
        """Whether there are events to read (else only the logs' import is named: ``--no-events``)."""
        return bool(self.tables) or self.frame is not None

    def read(self, game_ids: pl.Series, columns: tuple[str, ...] | None = None) -> pl.DataFrame:
        """The events of the games ``game_ids`` (a partition's: whole games), each game's rows as its table
        holds them (in play order, one game after another); of ``columns`` only (those a table has), where
        given."""
        sources = ([self.frame.lazy()] if self.frame is not None else []) + [
            pl.scan_parquet(path, glob=False) for path in self.tables]
        if columns is not None:
            sources = [lf.select(c for c in columns if c in lf.collect_schema().names()) for lf in sources]
        return _rows_of(game_ids, sources, empty_events() if columns is None else empty_events().select(columns))

    def read_seats(self, game_ids: pl.Series) -> pl.DataFrame:
        """The ``hand_seats`` rows of the games ``game_ids`` from :attr:`seats` (``start_score`` null: it is
        of the scored hand records, :func:`~analyzer.play.seats.with_start_scores`)."""
        sources = [pl.scan_parquet(path, glob=False) for path in self.seats]
        return _rows_of(game_ids, sources, empty_seats())


def _rows_of(game_ids: pl.Series, sources: list[pl.LazyFrame], empty: pl.DataFrame) -> pl.DataFrame:
    """The rows of the games ``game_ids`` in ``sources``, each game's from the first source that has it."""
    ids = game_ids.cast(pl.String).drop_nulls().unique().sort()
    if ids.is_empty() or not sources:
        return empty
    wanted = pl.col("game_id").is_between(pl.lit(ids[0]), pl.lit(ids[-1])) & pl.col("game_id").is_in(ids.implode())
    if len(sources) == 1:
        return sources[0].filter(wanted).collect()
    frames = [lf.filter(wanted).with_columns(pl.lit(i, pl.Int32).alias("_source")) for i, lf in enumerate(sources)]
    # a game in two tables: read from the first
    rows = pl.concat(frames, how="diagonal_relaxed")
    return rows.filter(pl.col("_source") == pl.col("_source").min().over("game_id")).drop("_source").collect()


def empty_events() -> pl.DataFrame:
    """An events table without rows."""
    return pl.DataFrame(schema=EVENTS_SCHEMA)


def empty_seats() -> pl.DataFrame:
    """A ``hand_seats`` table without rows (:data:`analyzer.play.seats.COLUMNS`, as :func:`hand_seats` gives)."""
    return pl.DataFrame(schema=SEATS_COLUMNS)


SEAT_HAND_COLUMNS = ("game_id", "log_row", *(f"score_{s}" for s in range(4)), *(f"delta_{s}" for s in range(4)))


def seats_table(events: pl.DataFrame | None, hands: pl.DataFrame | None = None,
                made: pl.DataFrame | None = None) -> pl.DataFrame:
    """The ``hand_seats`` table of a partition's events (``hands``: its scored hand records, which give each
    seat's score at the hand's start), or of its rows ``made`` with the events (:meth:`EventSources.read_seats`)
    where given; without either, a table of its columns and no rows."""
    if hands is not None and not set(SEAT_HAND_COLUMNS) <= set(hands.columns):
        hands = None
    if made is not None:
        return made.sort(SEAT) if hands is None else with_start_scores(made, hands.select(SEAT_HAND_COLUMNS))
    if events is None or not events.height:
        return empty_seats()
    return hand_seats(events, None if hands is None else hands.select(SEAT_HAND_COLUMNS))


def with_log_sources(raw: pl.DataFrame, imported: tuple[str, ...]) -> pl.DataFrame:
    """Rows read from the files in ``imported`` (hand records the run imported from logs) named by their log
    file (``_file``) and their place among its rows (``_row``, from 1), not by the temporary file."""
    if not imported or LOG_FILE not in raw.columns or not raw.height:
        return raw
    from_logs = pl.col(SOURCE_FILE).is_in(list(imported))
    first = pl.col(SOURCE_ROW).min().over(SOURCE_FILE, LOG_FILE)
    return raw.with_columns(
        pl.when(from_logs).then(pl.col(LOG_FILE).cast(pl.String)).otherwise(pl.col(SOURCE_FILE)).alias(SOURCE_FILE),
        pl.when(from_logs).then(pl.col(SOURCE_ROW) - first + 1).otherwise(pl.col(SOURCE_ROW)).alias(SOURCE_ROW),
    )
