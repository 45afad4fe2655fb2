"""The library's entry points: :func:`score`, :func:`score_to` and :func:`check`, each a job run by an executor
into a sink (:mod:`analyzer.run`).

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.games.head()

Data flows one way; bad rows become rejects (with file, row, column, value and reason), never exceptions.
``executor=`` chooses where the partitions run (:class:`~analyzer.run.LocalExecutor`, the default, or
:class:`~analyzer.run.DaskExecutor`); ``workers=``, ``scheduler=`` and ``client=`` are shortcuts for a Dask one.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import replace
from pathlib import Path

import polars as pl

from analyzer.io.faults import interrupts_held, writing
from analyzer.io.formats import read_table
from analyzer.io.load import InputError
from analyzer.io.unknown_columns import check_input_columns
from analyzer.io.workbook import require_xlsxwriter
from analyzer.jobs import CheckJob, CheckResult, RunSummary, ScoreJob, ScoreResult
from analyzer.jobs.inputs import score_inputs
from analyzer.jobs.score import NO_HANDS
from analyzer.scoring.rejects import REJECTS_SCHEMA
from analyzer.players import DEFAULT_RANK_BY
from analyzer.ratings import RatingOptions
from analyzer.report import ReportOptions, write_report
from analyzer.core.rules import Rules
from analyzer.run import (
    ClusterDirectorySink,
    DirectorySink,
    MemorySink,
    NullSink,
    PartFilesSink,
    Progress,
    executor_for,
    partition_rows_for,
    read_part_files,
    run,
)

Data = pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path]


class _Executor:
    """The executor a call was given, or one made from the shortcuts and closed when the call ends."""

    def __init__(self, executor, progress, scheduler=None, client=None, workers=None, scratch=None,
                 in_flight=None) -> None:
        self.owned = executor is None
        self.executor = executor or executor_for(scheduler, client, workers, scratch, progress, in_flight)

    def __enter__(self):
        return self.executor

    def __exit__(self, *exc) -> None:
        if self.owned:
            self.executor.close()


def _partition_rows(executor, partition_rows: int | None, memory_limit: str | int | None) -> int:
    """The partition size of a run on ``executor``: its partitions in flight share the memory limit."""
    return partition_rows_for(partition_rows, memory_limit, getattr(executor, "in_flight", 1))


def score(
    data: Data,
    rules: Rules | str | Path | None = None,
    *,
    executor=None,
    rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY,
    min_games: int = 1,
    input_kind: str = "auto",
    teams: str | Path | pl.DataFrame | None = None,
    ratings: RatingOptions | str | None = None,
    ratings_from: str | Path | pl.DataFrame | None = None,
    partition_rows: int | None = None,
    memory_limit: str | int | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    client=None,
    workers: int | None = None,
    in_flight: int | None = None,
    strict: bool = False,
    events="auto",
) -> ScoreResult:
    """Score hand records — a frame of raw columns (as :func:`analyzer.load` gives) or paths — in memory.

    Without ``rules``, games that carry a ``rules`` column are scored under it, the others under the default
    preset (:func:`analyzer.scoring.parts.score_parts`). Paths are scored in partitions of whole games
    (``partition_rows`` rows, or as many as ``memory_limit`` allows, e.g. ``"2GB"``); for inputs too big for
    memory, :func:`score_to` writes each partition's rows as it goes.
    ``result.standings`` ranks the players of each kind of game (:mod:`analyzer.tournament.standings`); those with fewer
    than ``min_games`` games of a kind are listed after its ranked players, unranked.
    ``input_kind``: each file read as its columns say (``auto``: game-level sheets, :mod:`analyzer.tournament.sheets`, by
    their ``player`` and ``final_score`` columns), or every file as ``hands`` or as ``games`` (sheets).
    A column whose name is a near miss of one analyzer reads is a :class:`~analyzer.io.unknown_columns.ColumnWarning`
    before the run; ``strict`` refuses any column analyzer neither reads nor writes (an ``InputError``).
    ``ratings``: ``"tenhou"`` (the default), ``"openskill"``, ``"none"`` or :class:`~analyzer.ratings.RatingOptions`
    (start and scale); ``ratings_from``: an earlier run's players table, whose ratings the players start from
    (:mod:`analyzer.ratings`).
    Paths may name game logs too (a folder of them, beside hand records): they are imported for the run, as
    ``analyzer import`` does (``result.log_problems``: the files that did not import, the copies). ``events``:
    where the games' events are — ``"auto"`` (beside each hand-record file as ``NAME.events.parquet``, among the
    inputs, the logs' own), None (none), or files or a frame given (read before those found); with them
    ``result.hand_seats`` holds a row per hand and seat (:mod:`analyzer.jobs.events`).
    """
    with score_inputs(data, events) as inputs:
        check_input_columns(inputs.data, input_kind, strict)
        sink = MemorySink()
        with _Executor(executor, progress, scheduler, client, workers, in_flight=in_flight) as chosen:
            job = ScoreJob(rules, rank_by, min_games=min_games, input_kind=input_kind, teams=teams,
                           ratings=RatingOptions.of(ratings, ratings_from), events=inputs.events)
            summary = run(job, inputs.data, sink, chosen, _partition_rows(chosen, partition_rows, memory_limit))
    summary.log_problems = inputs.logs_read.problems
    return _in_memory(sink, summary)


def _in_memory(sink: MemorySink, summary: RunSummary) -> ScoreResult:
    return ScoreResult(
        hands=sink.frames["hands"], games=sink.frames["games"], players=summary.players,
        rejects=sink.frames["rejects"], rules=summary.rules, rulesets=summary.rulesets,
        yaku_stats=summary.yaku_stats, standings=summary.standings, sheet_rows=summary.sheet_rows,
        sessions=summary.sessions, teams=summary.teams, team_of=summary.team_of,
        ratings=sink.frames.get("ratings"), platform_ranks=sink.frames.get("platform_ranks"),
        hand_seats=sink.frames.get("hand_seats"), log_problems=summary.log_problems,
    )


def score_to(
    data: Data,
    outdir: str | Path,
    fmt: str = "parquet",
    rules: Rules | str | Path | None = None,
    *,
    executor=None,
    rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY,
    min_games: int = 1,
    report: str | Path | None = None,
    report_options: ReportOptions | None = None,
    input_kind: str = "auto",
    teams: str | Path | pl.DataFrame | None = None,
    ratings: RatingOptions | str | None = None,
    ratings_from: str | Path | pl.DataFrame | None = None,
    partition_rows: int | None = None,
    memory_limit: str | int | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    client=None,
    workers: int | None = None,
    in_flight: int | None = None,
    strict: bool = False,
    part_files: bool = False,
    events="auto",
) -> RunSummary:
    """Score hand records (paths; a frame is one partition) into ``OUTDIR/{hands,games,players,rejects}.{parquet,csv}``,
    one partition at a time.

    Each partition's hands, games and rejects are appended as soon as it is scored, so memory depends on the
    partition size, not on the input size. The four tables appear together when the run succeeds; a failed
    run leaves OUTDIR as it was. On a cluster the workers write their partitions' hands and games, and the
    same single files result (see docs/cluster.md); ``part_files=True`` keeps them as part files instead
    (``OUTDIR/hands/part-K.parquet``). ``report``: also write the HTML report there (``report_options``: its
    heading and how much of a big input it shows, :class:`~analyzer.report.ReportOptions`). ``progress(rows_done,
    rows_total, partitions_done)`` is called after each partition. ``strict``, game logs among the paths and
    ``events``: as for :func:`score`; with events the ``hand_seats`` table is written beside hands and games.
    """
    with score_inputs(data, events) as inputs:
        check_input_columns(inputs.data, input_kind, strict)
        with _Executor(executor, progress, scheduler, client, workers, in_flight=in_flight) as chosen:
            if fmt == "xlsx":
                require_xlsxwriter()  # before any input is read
            sink = _directory_sink(chosen, outdir, fmt, part_files, held=report is not None)
            job = ScoreJob(rules, rank_by, min_games=min_games, input_kind=input_kind, teams=teams,
                           ratings=RatingOptions.of(ratings, ratings_from), events=inputs.events)
            # with a report, the check's findings too (the report of a tournament lists them)
            result = run(CheckJob(job) if report is not None else job, inputs.data, sink, chosen,
                         _partition_rows(chosen, partition_rows, memory_limit))
        (result.run if report is not None else result).log_problems = inputs.logs_read.problems
        if report is None:
            return result
        try:  # the report is part of the run's set: written beside the staged tables, put in place with them
            # inside the inputs' scope: the events of logs this run imported are its temporary files
            result.run.paths["report"] = _report_with_tables(sink, result.run, result.findings, fmt, Path(report),
                                                             report_options, _report_events(inputs.events))
        except BaseException:
            sink.abort()
            raise
        return result.run


def _report_events(events) -> pl.DataFrame | list[str] | None:
    """The run's events as the report reads them: the frame given from Python, else the events tables."""
    if events is None or not events.known:
        return None
    return events.frame if events.frame is not None else list(events.tables)


def _report_with_tables(sink, summary: RunSummary, findings: pl.DataFrame, fmt: str, report: Path,
                        options: ReportOptions | None, events=None) -> Path:
    """The report of the tables ``sink`` holds staged, then the tables and the report put in place together:
    a report in OUTDIR is renamed in with the tables (an earlier one put back if that fails); one elsewhere is
    written to a temporary name beside it and renamed right after the tables."""
    tables = written_tables(replace(summary, paths=sink.staged(summary.paths)), fmt)
    inside = isinstance(sink, DirectorySink) and report.resolve().parent == sink.outdir.resolve()
    staged = sink.staging / report.name if inside else report.with_name(f".{report.name}.{uuid.uuid4().hex[:8]}.tmp")
    with writing(report):
        try:
            write_report(tables, staged, findings=findings, options=options, events=events)
            with interrupts_held():  # the tables in place, then the report: Ctrl-C waits for both
                sink.release((report.name,) if inside else ())
                if not inside:
                    os.replace(staged, report)
        finally:
            if not inside:
                staged.unlink(missing_ok=True)
    return report


def _directory_sink(executor, outdir: str | Path, fmt: str, part_files: bool, held: bool = False):
    """Where a :func:`score_to` run writes: the same files whatever the executor, or part files on request;
    ``held``: the commit stages the tables, put in place by the sink's ``release``."""
    if not executor.remote:
        if part_files:
            raise InputError("part files are written by a cluster's workers: add --workers or --scheduler, or "
                             "leave out --part-files")
        return DirectorySink(outdir, fmt, held)
    if part_files or "://" in str(outdir):  # an object store, say: fsspec moves instead of renames
        if fmt != "parquet":
            raise InputError("part files, and an OUTDIR given as a URL, are written as Parquet: leave out "
                             f"--format {fmt}")
        return PartFilesSink(outdir, part_files=part_files, held=held)
    return ClusterDirectorySink(outdir, fmt, held)


def written_tables(summary: RunSummary, fmt: str = "parquet") -> ScoreResult:
    """The tables a :func:`score_to` run wrote, read back (with its players and yaku tables) for a report: a
    Parquet table as a lazy scan of its file, so that the report collects only the rows it shows."""
    paths = summary.paths
    if Path(str(paths["hands"])).suffix == "":  # part files of a cluster run
        tables = read_part_files(Path(str(paths["hands"])).parent)
    else:
        missing = [name for name in ("hands", "games", "rejects") if name not in paths]
        if missing:  # left out of a workbook that could not hold them
            raise InputError(f"the report needs the {', '.join(missing)} table(s), too big for a workbook: "
                             "use --format parquet")
        empty = {"rejects": REJECTS_SCHEMA, "hands": NO_HANDS}
        tables = {name: _scanned(paths[name], name, empty.get(name)) for name in ("hands", "games", "rejects")}
        tables.update({name: _scanned(paths[name], name) for name in ("ratings", "platform_ranks") if name in paths})
    return ScoreResult(
        hands=tables["hands"], games=tables["games"], players=summary.players, rejects=tables["rejects"],
        rules=summary.rules, rulesets=summary.rulesets, yaku_stats=summary.yaku_stats,
        standings=summary.standings, sheet_rows=summary.sheet_rows, sessions=summary.sessions,
        teams=summary.teams, team_of=summary.team_of, ratings=tables.get("ratings"),
        platform_ranks=tables.get("platform_ranks"),
    )


def _scanned(path: str | Path, name: str, empty: dict | None = None) -> pl.DataFrame | pl.LazyFrame:
    """A table a run wrote: a Parquet file scanned lazily, any other format read."""
    if Path(str(path)).suffix.lower() == ".parquet":
        return pl.scan_parquet(path)
    return read_table(path, name, empty)


def check(
    data: Data,
    rules: Rules | str | Path | None = None,
    *,
    executor=None,
    keep_scored: bool = True,
    input_kind: str = "auto",
    rank_by: tuple[str, ...] | list[str] = DEFAULT_RANK_BY,
    min_games: int = 1,
    teams: str | Path | pl.DataFrame | None = None,
    ratings: RatingOptions | str | None = None,
    ratings_from: str | Path | pl.DataFrame | None = None,
    partition_rows: int | None = None,
    memory_limit: str | int | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    client=None,
    workers: int | None = None,
    scratch: str | Path | None = None,
    in_flight: int | None = None,
    strict: bool = False,
) -> CheckResult:
    """Score hand records and compare everything recorded with what the rules give (:mod:`analyzer.findings`).

    Runs partition by partition like :func:`score`; ``keep_scored=False`` keeps only the findings and counts
    (nothing else in memory: flat on any input). ``scratch``: where a cluster run puts its bucket files (a path
    or URL every worker reaches). ``strict``: as for :func:`score`.
    """
    check_input_columns(data, input_kind, strict)
    sink = MemorySink() if keep_scored else NullSink()
    job = CheckJob(ScoreJob(rules, rank_by, statistics=keep_scored, min_games=min_games, input_kind=input_kind,
                            teams=teams, ratings=RatingOptions.of(ratings, ratings_from)))
    with _Executor(executor, progress, scheduler, client, workers, scratch, in_flight) as chosen:
        result = run(job, data, sink, chosen, _partition_rows(chosen, partition_rows, memory_limit))
    if keep_scored:
        result.scored = _in_memory(sink, result.run)
    return result
