"""Import real Tenhou game logs as hand records: :func:`read_tenhou`.

Formats (sniffed from the content, ``.gz`` files are decompressed):

* mjlog XML (``<mjloggm>``), a whole game per file;
* Tenhou JSON (the tenhou.net/6 viewer format): a whole game as one object, or JSON lines each holding some
  kyoku of the same game (the lines of one file are one game).

The same driver reads mjai logs (:func:`read_mjai`, parsed by :mod:`analyzer.formats.mjai.read`) into the same
columns; what mjai does not record is null there.

Standard Tenhou games are imported (and Mahjong Soul games converted to Tenhou JSON by tensoul, as Mahjong Soul
games: :mod:`.majsoul`), four-player and three-player (mjlog GO type bit 0x10; JSON with seat 3
empty or left out, see :mod:`analyzer.formats.tenhou.tenhou6_read`: seat 3 is then null in every per-seat column and the
rules spec is ``tenhou_sanma``); a special lobby's game (GO type bits above 0xFF, custom ``csrule``) imports under
its lobby's settlement with a note (:mod:`.lobby`); a malformed file becomes an :class:`ImportProblem` and the
other files still import. ``read_tenhou`` has no side effects (it only reads the given paths).

Output: one row per outcome, in play order (files in sorted path order); the columns are described in
:mod:`.columns`. A file is parsed by :mod:`.parse` and its game turned into rows by :mod:`.rows`; here the
files are found, read in parallel, and the games put together with their ids, a game met twice kept once.
A run of mjlog files is read as columns instead (:mod:`.read_columns`: the same rows, notes and refusals).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

import polars as pl
import pyarrow as pa

from analyzer.core.records import COPY, OTHER, compare_sources
from analyzer.formats.columns import COLUMNS
from analyzer.formats.files import DEFAULT_MAX_LOG_BYTES, FORMATS, expand_paths
from analyzer.formats.identity import id_kind, played_at
from analyzer.formats.model import ImportProblem, LogError
from analyzer.formats.parse import malformed_reason, parse_file, read_game
from analyzer.formats.read_columns import BATCH_FILES as COLUMN_BATCH_FILES
from analyzer.formats.read_columns import columns_batch, reads_as_columns
from analyzer.formats.rows import ANONYMOUS, game_rows
from analyzer.run.file_batches import check_where, default_workers, map_in_order

__all__ = ["ImportProblem", "read_tenhou", "read_mjai", "read_majsoul", "read_riichicity", "read_logs", "parse_file",
           "COLUMNS"]


def read_tenhou(
    paths: list[str | Path], workers: int | None = None, progress: Callable[[int, int, int], None] | None = None,
    max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read Tenhou logs (files, directories searched recursively, or glob patterns; ``.gz`` allowed).

    Returns the hand records (columns: :mod:`.columns`) and the problems: files that did not import
    (malformed, not a regular file, larger than ``max_log_size`` bytes, also
    once decompressed, another version of a game imported from an earlier file: the same Tenhou log id with
    other plays) and caveats about imported games (``imported=True``: a special lobby's rules, a copy of a
    game — the same content as an earlier file, or the same id and plays written otherwise
    (:mod:`analyzer.core.records`) — imported once and the later file skipped), with the game and the hand
    they are about where known.

    ``workers`` processes parse the files in parallel (default: one per core once there are enough files to
    pay for starting them); the result is the same in any case, rows in file order. ``progress(files_done,
    files_total, games_done)`` is called as batches of files are done.
    """
    return read_logs(paths, workers, "tenhou", progress, max_log_size)


def read_mjai(
    paths: list[str | Path], workers: int | None = None, progress: Callable[[int, int, int], None] | None = None,
    max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read mjai logs (JSON lines, one whole game per file; see :mod:`analyzer.formats.mjai.read`) like
    :func:`read_tenhou`: the same columns, flags derived the same way; what mjai does not carry is null.
    Directories are searched for ``.json``, ``.jsonl`` and ``.mjson`` files (``.gz`` too)."""
    return read_logs(paths, workers, "mjai", progress, max_log_size)


def read_majsoul(
    paths: list[str | Path], workers: int | None = None, progress: Callable[[int, int, int], None] | None = None,
    max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read Mahjong Soul game records (the raw records its downloaders give, or tensoul's tenhou.net/6 JSON; see
    :mod:`analyzer.formats.majsoul.raw`) like :func:`read_tenhou`: the same columns, and from a raw record
    ``played_at`` from its start time and the server's rank-point changes (``recorded_rank_points_*``)."""
    return read_logs(paths, workers, "majsoul", progress, max_log_size)


def read_riichicity(
    paths: list[str | Path], workers: int | None = None, progress: Callable[[int, int, int], None] | None = None,
    max_log_size: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read Riichi City game records (the JSON its API returns for a game; see
    :mod:`analyzer.formats.riichicity.read`) like :func:`read_tenhou`: the same columns, ``played_at`` from the
    first event's time, the server's payments and final result (``recorded_final_*``, ``recorded_game_points_*``)."""
    return read_logs(paths, workers, "riichicity", progress, max_log_size)


def read_logs(
    paths: list[str | Path], workers: int | None = None, log_format: str = "tenhou",
    progress: Callable[[int, int, int], None] | None = None, max_log_size: int = DEFAULT_MAX_LOG_BYTES,
    scheduler: str | None = None, client=None, events=None,
) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """Read logs of ``log_format`` (``tenhou``, ``mjai``, ``majsoul``, ``riichicity``, or ``auto``: each file's format told from
    its content, :mod:`.detect`) into hand records and problems. The batches of files are read by ``workers``
    local processes, or as tasks on the Dask cluster at ``scheduler`` (or of ``client``): the same result.

    ``events``: where the games' events go as the same reading of each file gives them
    (:class:`analyzer.formats.events_import.ImportEvents`: its ``batch`` reads a batch into rows and events, its
    ``take`` is handed each batch's events and which of its files were imported)."""
    files, problems, batches = log_batches(paths, workers, log_format, max_log_size, scheduler, client, events)
    return _assemble(files, batches, problems, progress, events)


def log_batches(paths: list[str | Path], workers: int | None, log_format: str, max_log_size: int,
                scheduler: str | None = None, client=None, events=None,
                ) -> tuple[list[Path], list[ImportProblem], Iterator]:
    """The files found, the problems of the paths, and the batches of files as they are read (in file order):
    each ``(outcomes, table, *events)`` as :func:`_read_batch` (or ``events.batch``) gives it."""
    if log_format not in FORMATS:
        raise ValueError(f"unknown log format {log_format!r} (known: {', '.join(FORMATS)})")
    check_where(workers, scheduler, client)
    files, problems = expand_paths(paths, FORMATS[log_format])
    if workers is None:
        workers = default_workers(len(files), PARALLEL_FROM_FILES)
    local = workers if scheduler is None and client is None and events is None else 1  # forked processes
    if reads_as_columns(files, log_format, local):  # through the columns, batches on threads (Polars)
        read = partial(columns_batch, log_format=log_format, max_bytes=max_log_size, events=events is not None)
        batches = map_in_order(read, file_batches(files, COLUMN_BATCH_FILES), workers, scheduler, client, threads=True)
    else:
        read = partial(_read_batch if events is None else events.batch, log_format=log_format, max_bytes=max_log_size)
        batches = map_in_order(read, file_batches(files), workers, scheduler, client)
    return files, problems, batches


def file_batches(files: list[Path], size: int | None = None) -> list[list[Path]]:
    size = size or BATCH_FILES
    return [files[i : i + size] for i in range(0, len(files), size)]


PARALLEL_FROM_FILES = 200
BATCH_FILES = 32  # files per task: enough to pay for a task, small enough for an even load and a live progress bar


def _read_batch(
    files: list[Path], log_format: str = "tenhou", max_bytes: int = DEFAULT_MAX_LOG_BYTES,
) -> tuple[list[tuple[str, str, int, list[str], str | None]], pa.Table]:
    """Per file (game id, content digest, rows, notes, error), and the columns of the rows of every file that
    imports as an Arrow table, without the columns that depend on the game id. Arrow, not Polars: the workers
    are forked, and Polars' threads do not survive a fork; a table travels to the parent as one buffer."""
    return rows_of_games([read_game(f, log_format, max_bytes) for f in files])


def rows_of_games(reads: list[tuple]) -> tuple[list[tuple[str, str, int, list[str], str | None]], pa.Table]:
    """:func:`_read_batch` of files already read (each as :func:`read_game` gives it)."""
    outcomes = []
    columns: dict[str, list] = {name: [] for name in ROW_COLUMNS}
    for read in reads:
        gid, digest, rows, notes, error = _rows_of(*read)
        started = rows[0].get("played_at") if rows else None  # a log that says when its game started
        outcomes.append((gid, digest, len(rows), notes, error, started))
        for name, values in columns.items():
            values.extend([row.get(name) for row in rows])
    return outcomes, _table(columns)


ID_COLUMNS = ("game_id", "played_at")  # given per game when the game ids are known
ROW_COLUMNS = [name for name in COLUMNS if name not in ID_COLUMNS]


def _table(columns: dict[str, list]) -> pa.Table:
    """Python lists into Arrow: its converter builds the list columns ~20x faster than Polars' does."""
    return pa.table({name: pa.array(columns[name], type=_ARROW_TYPES[name]) for name in ROW_COLUMNS})


_ARROW_TYPES = {name: pl.Series(dtype=COLUMNS[name]).to_arrow().type for name in ROW_COLUMNS}


def _assemble(files: list[Path], batches, problems: list[ImportProblem], progress, events=None
              ) -> tuple[pl.DataFrame, list[ImportProblem]]:
    """The hand records of every batch in one frame (:class:`Assembly`) and the problems."""
    assembly = Assembly(files, problems)
    frames = list(assembly.frames(batches, progress, events))
    rows = pl.concat(frames) if frames else pl.DataFrame(schema={**COLUMNS, SOURCE: pl.Int64})
    hands = assembly.without_later(rows.lazy()).collect() if assembly.pending else rows
    return hands.select(list(COLUMNS)), problems


class Assembly:
    """The games of the batches put together, batch by batch: game ids and start times per game, a game met
    again (the same content or Tenhou log id as an earlier file) kept once, from the earlier file, anonymous
    players named after their game; each batch's events handed to ``events`` with the files whose rows are kept
    (those of a game met before are not: a copy, or another version of it, whose rows go). What the batches
    hold besides their rows goes into ``problems``."""

    def __init__(self, files: list[Path], problems: list[ImportProblem]) -> None:
        self.files, self.problems = files, problems
        self.first_file: dict[tuple[str, str], Path] = {}  # ("id", game id) and ("content", digest) -> first file
        self.pending: dict[int, int] = {}  # a file of a game met before with other content -> its problem's index
        self.games = 0

    def frames(self, batches, progress=None, events=None) -> Iterator[pl.DataFrame]:
        """Per batch its rows (:data:`.columns.COLUMNS` and :data:`SOURCE`, the number of each row's file), the
        rows of the files in :attr:`pending` among them, to be compared with the earlier file's
        (:meth:`settle_later`)."""
        files, problems, first_file = self.files, self.problems, self.first_file
        done = 0
        for outcomes, table, *batch_events in batches:
            keep: list[bool] = []  # per row of the batch: not a copy of an earlier game
            kept_files: list[bool] = []  # per file of the batch: its rows are kept
            ids: list[str] = []
            times: list = []
            sources: list[int] = []  # per row kept: the number of its file
            for gid, digest, n_rows, notes, error, started in outcomes:
                f = files[done]
                done += 1
                if error is not None:
                    problems.append(ImportProblem(str(f), error))
                    kept_files.append(False)
                    continue
                copy = copy_of(gid, digest, first_file)
                kept_files.append(copy is None and n_rows > 0)
                same_content = copy is not None and copy[2]
                keep.extend([not same_content] * n_rows)
                if copy is not None:
                    earlier, reason, _ = copy
                    problems.append(ImportProblem(str(f), reason, game_id=gid, imported=same_content,
                                                  same_as=str(earlier)))
                if same_content:
                    continue
                ids.extend([gid] * n_rows)
                times.extend([started or played_at(gid)] * n_rows)
                sources.extend([done - 1] * n_rows)
                if copy is not None:  # the same id, other content: its rows are compared with the earlier file's
                    self.pending[done - 1] = len(problems) - 1
                    continue
                first_file[("id", gid)] = first_file[("content", digest)] = f
                self.games += 1
                problems.extend(ImportProblem(str(f), note.text, game_id=gid, imported=True, hand=note.hand)
                                for note in notes)
            frame = pl.from_arrow(table)
            frame = frame if all(keep) else frame.filter(pl.Series(keep, dtype=pl.Boolean))
            if events is not None:
                events.take(batch_events[0], kept_files, files[done - len(outcomes):done])
            yield _with_ids(frame, ids, times, sources)
            if progress is not None:
                progress(done, len(files), self.games)

    def without_later(self, hands: pl.LazyFrame) -> pl.LazyFrame:
        """``hands`` without the rows of the files in :attr:`pending`, once :meth:`settle_later` has said what
        they are."""
        self.settle_later(hands)
        return hands.filter(~pl.col(SOURCE).is_in(list(self.pending)))

    def settle_later(self, hands: pl.LazyFrame) -> None:
        """The rows of the files in :attr:`pending` compared with the earlier file's (both among ``hands``;
        :func:`analyzer.core.records.compare_sources`), and their problems said accordingly: the same game
        recorded otherwise (a Mahjong Soul raw record and its tensoul copy) is skipped as a copy, imported once;
        another version stays refused. Either way only the earlier file's rows are kept."""
        pending, problems = self.pending, self.problems
        later = pl.col(SOURCE).is_in(list(pending))
        games = hands.filter(later).select(pl.col("game_id").unique()).collect()["game_id"].implode()
        for number, kind in compare_sources(hands.filter(pl.col("game_id").is_in(games)).collect(), "game_id",
                                            SOURCE, SOURCE).select(SOURCE, "kind").iter_rows():
            if kind == OTHER or number not in pending:
                continue
            index = pending[number]
            problem = problems[index]
            written = "rows" if kind == COPY else "plays, recorded otherwise"
            problems[index] = replace(problem, imported=True, reason=(
                f"the same game as {problem.same_as} (the same {id_kind(problem.game_id)} and {written}), "
                "skipped: imported once"))


def _with_ids(frame: pl.DataFrame, ids: list[str], times: list, sources: list[int]) -> pl.DataFrame:
    """A batch's rows with their game ids, start times and file numbers; players without a name are different
    people in every game."""
    game_id = pl.col("game_id")
    return frame.with_columns(
        pl.Series("game_id", ids, pl.String), pl.Series("played_at", times, COLUMNS["played_at"]),
        pl.Series(SOURCE, sources, pl.Int64),
    ).with_columns(
        pl.when(pl.col(f"player_{s}").str.starts_with(ANONYMOUS))
        .then(pl.lit(f"{ANONYMOUS}@") + game_id + pl.lit(f"#{s}"))
        .otherwise(pl.col(f"player_{s}"))
        .alias(f"player_{s}")
        for s in range(4)
    ).select(*COLUMNS, SOURCE)


SOURCE = "_source"  # the number of a row's file while the games are put together


def copy_of(gid: str, digest: str, first_file: dict[tuple[str, str], Path],
            verb: str = "imported") -> tuple[Path, str, bool] | None:
    """(the earlier file, the reason, whether the content is the same) when a game was met before in this
    run (``verb``: what the run does with a game). The same content is a copy (nothing lost); the same Tenhou
    log id with other content (an edited or partial log) is a conflict the user should look at: the file is
    not read."""
    by_content, by_id = first_file.get(("content", digest)), first_file.get(("id", gid))
    if by_content is not None:
        return by_content, f"the same game as {by_content} (the same content), skipped: {verb} once", True
    if by_id is not None:
        return by_id, (f"the same {id_kind(gid)} {gid} as {by_id} but other content: not {verb} "
                       f"(the game is {verb} from the earlier file)"), False
    return None


def _rows_of(game, gid: str, digest: str, error: str | None) -> tuple[str, str, list[dict], list[str], str | None]:
    """(game id, content digest, rows, notes, None) for a file that imports (as :func:`read_game` read it),
    ("", "", [], [], reason) for one that does not."""
    if game is None:
        return "", "", [], [], error
    try:
        return gid, digest, game_rows(game), list(game.notes), None
    except LogError as exc:
        return "", "", [], [], str(exc)
    except ValueError as exc:
        return "", "", [], [], malformed_reason(exc)
    except (KeyError, IndexError, TypeError, AttributeError, RecursionError, OverflowError, MemoryError) as exc:
        return "", "", [], [], f"malformed log ({type(exc).__name__}: {str(exc)[:200]})"
