"""``analyzer score``: score hand records into an output directory and print the standings."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path

import click

from analyzer.api import score_to
from analyzer.jobs.inputs import ScoreInputs
from analyzer.io.formats import RUN_FORMATS, table_file
from analyzer.core.rules import load_rules

from analyzer.cli.display import column_warnings, print_counts, print_notes, print_standings, print_teams, progress_bar
from analyzer.cli.score_logs import events_options, print_inputs_read, read_logs_of
from analyzer.cli.errors import (
    EXIT_CLEAN, EXIT_REJECTS, WRITTEN, Failure, friendly_errors, refuse_inputs_as_outputs,
)
from analyzer.cli.rating_options import rating_choice, rating_options
from analyzer.cli.report_options import report_page_choice, report_page_given, report_page_options
from analyzer.cli.options import (
    debug_option, html_output, input_kind_option, min_games_option, rank_by_option, rules_option, run_options,
    strict_option, teams_option,
)

TABLES = ("hands", "games", "hand_seats", "players", "rejects", "sessions", "teams", "ratings", "platform_ranks")


@click.command("score")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", "outdir", required=True, type=click.Path(file_okay=False), help="Output directory.")
@rules_option
@click.option("--format", "fmt", type=click.Choice(RUN_FORMATS), default="parquet", show_default=True,
              help="parquet or csv: a file per table; xlsx: one workbook, results.xlsx, a sheet per table (needs "
                   "analyzer[xlsx]); json: JSON arrays, hands and rejects as NDJSON.")
@click.option("--top", default=20, show_default=True, help="Players shown in the standings table (0 = none).")
@run_options
@rank_by_option
@min_games_option
@input_kind_option
@strict_option
@teams_option
@click.option("--part-files", is_flag=True, default=False,
              help="On a cluster (--workers, --scheduler): keep hands and games (and hand_seats) as the workers "
                   "wrote them, OUTDIR/hands/part-K.parquet, instead of one file each.")
@rating_options
@events_options
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None, callback=html_output,
              help="Also write the HTML report (standings, players, games) to this file.")
@report_page_options("report-")
@debug_option
def score_command(
    inputs: tuple[str, ...], outdir: str, rules_spec: str | None, fmt: str, top: int, partition_rows: int | None,
    memory_limit: int | None, in_flight: int | None, scheduler: str | None, workers: int | None,
    rank_by: tuple[str, ...],
    min_games: int, input_kind: str, strict: bool, teams_path: str | None, part_files: bool, ratings: str,
    ratings_from: str | None, rating_start: float, rating_scale: float, events: tuple[str, ...], no_events: bool,
    report_path: str | None, title: str,
    max_players: int | None, max_games: int | None, max_standings: int | None, sources: bool, debug: bool,
) -> None:
    """Score hand records (CSV/Parquet files, directories, globs) and game logs into OUTDIR.

    Writes hands, games, players and rejects tables. Every input row lands in hands or rejects. Game logs
    among the inputs (any format `analyzer import` reads, told from their content; a folder of them, beside
    hand records) are imported for the run: a log that does not read is reported and the others are scored
    (exit status 1). Where the games' events are known — the logs', NAME.events.parquet beside an input
    NAME.parquet or NAME.csv (what `analyzer import --events` writes), an events table among the inputs, or
    --events — the hand_seats table is written too, and the players table has the play statistics. Inputs of any
    size are scored in partitions of whole games, each written out as soon as it is scored. The standings
    rank each kind of game (4- or 3-player, hanchan or east-only) on its own. A game-level result sheet (one row
    per player per game: game_id, player, final_score; or one row per table: player_0, final_score_0, … or
    east, east_score, …) is settled from its final scores; with a session column
    the standings after each session are a table of their own (sessions), with teams the team standings (teams).
    """
    with friendly_errors(debug), column_warnings(), ExitStack() as stack:
        given = report_page_given(click.get_current_context())
        if given and report_path is None:
            raise Failure(f"{', '.join(given)}: options of the --report page: add --report FILE")
        if events and no_events:
            raise Failure("--events and --no-events: give one of them")
        refuse_inputs_as_outputs(inputs, [Path(outdir) / table_file(name, fmt) for name in TABLES])
        rules = load_rules(rules_spec) if rules_spec is not None else None
        rating = rating_choice(ratings, ratings_from, rating_start, rating_scale)
        label = f"{rules.name} rules" if rules is not None else "each game's rules"
        found = ScoreInputs(list(inputs), False if no_events else (list(events) or "auto"),
                            scratch=outdir if scheduler else None)  # a cluster's workers read the logs' import
        stack.enter_context(found)
        read = read_logs_of(found)
        print_inputs_read(found, read)
        with progress_bar(f"Scoring under {label}") as bar:
            result = score_to(found, outdir, fmt, rules, rank_by=rank_by, min_games=min_games,
                              report=report_path, input_kind=input_kind, teams=teams_path,
                              report_options=report_page_choice(title, max_players, max_games, max_standings,
                                                                sources),
                              ratings=rating,
                              partition_rows=partition_rows, memory_limit=memory_limit,
                              progress=bar, scheduler=scheduler, workers=workers, in_flight=in_flight,
                              strict=strict, part_files=part_files)
    click.get_current_context().meta[WRITTEN] = outdir  # Ctrl-C from here on: the run is in OUTDIR all the same
    print_standings(result, top)
    print_teams(result, top)
    print_counts(result)
    print_notes(result.notes)
    sys.exit(EXIT_REJECTS if result.rows_rejected or read.failed else EXIT_CLEAN)
