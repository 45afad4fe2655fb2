"""``analyzer report``: score hand records and write one self-contained HTML report.

The run is :func:`analyzer.score_to` into a temporary directory beside the page (partitions of whole games, each
written as it is scored; removed at the end), and the page is built from the tables it wrote, reading only the
rows of what the page shows: memory does not grow with the input. The page is put in place once the run is
known to have something to show.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import click

from analyzer.api import score_to
from analyzer.io.load import load
from analyzer.io.unknown_columns import check_input_columns
from analyzer.io.write import write_atomic
from analyzer.core.rules import load_rules
from analyzer.core.selection import select_games
from analyzer.report import ReportOptions

from analyzer.cli.display import column_warnings, print_line, progress
from analyzer.cli.rating_options import rating_choice, rating_options
from analyzer.cli.report_options import report_page_choice, report_page_options
from analyzer.cli.errors import EXIT_CLEAN, EXIT_REJECTS, Failure, friendly_errors
from analyzer.cli.options import (
    debug_option, html_output, input_kind_option, min_games_option, rank_by_option, rules_option, strict_option,
    teams_option,
)


@click.command("report")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), callback=html_output,
              help="The report file (.html).")
@rules_option
@click.option("--player", "players", multiple=True, help="Only this player's standings row and section (repeatable).")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Only games from this day (YYYY-MM-DD; a `date` column, else a Tenhou log id's date).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Only games up to this day.")
@report_page_options()
@rank_by_option
@min_games_option
@input_kind_option
@strict_option
@teams_option
@rating_options
@debug_option
def report_command(inputs: tuple[str, ...], output: str, rules_spec: str | None, players: tuple[str, ...],
                   since, until, title: str, max_players: int | None, max_games: int | None,
                   max_standings: int | None, sources: bool, rank_by: tuple[str, ...], min_games: int,
                   input_kind: str, strict: bool, teams_path: str | None, ratings: str, ratings_from: str | None,
                   rating_start: float, rating_scale: float, debug: bool) -> None:
    """Score hand records or game-level sheets and write one self-contained HTML report (no network needed to
    open it). A tournament (sessions, teams or game-level sheets) also gets the standings by session, the rank
    chart, the team standings, who met whom and the check's findings. A big input's page has sections for the
    top players and a chosen set of games, and counts the rest (--max-players, --max-games)."""
    with friendly_errors(debug), column_warnings():
        rules = load_rules(rules_spec) if rules_spec is not None else None
        rating = rating_choice(ratings, ratings_from, rating_start, rating_scale)
        page = report_page_choice(title, max_players, max_games, max_standings, sources, players)
        summary, written = _run_report(list(inputs), output, rules, page, since and since.date(),
                                       until and until.date(), rank_by, min_games, input_kind, teams_path, strict,
                                       rating)
    print_line(
        f"{summary.games} game(s), {summary.players.height} player(s),"
        f" {summary.rows_rejected} rejected row(s); written: {written}"
    )
    sys.exit(EXIT_REJECTS if summary.rows_rejected else EXIT_CLEAN)


def _run_report(inputs: list[str], output: str, rules, page: ReportOptions, since, until,
                rank_by: tuple[str, ...], min_games: int = 1, input_kind: str = "auto", teams: str | None = None,
                strict: bool = False, ratings=None):
    """Score (and check) the inputs into a temporary directory beside ``output``, the page built from the tables
    there, then put the page in place: (the run's summary, the page's path)."""
    data = inputs  # files: cut into partitions of whole games
    if since is not None or until is not None:  # the games of those days: one frame
        check_input_columns(inputs, input_kind, strict)  # named by file, before the files become one frame
        data = select_games(load(inputs), since, until)
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".analyzer-report-", dir=Path(output).parent) as scratch:
        staged = Path(scratch) / "report.html"
        with progress("Scoring…"):
            summary = score_to(data, Path(scratch) / "tables", "parquet", rules, rank_by=rank_by,
                               min_games=min_games, report=staged, report_options=page, input_kind=input_kind,
                               teams=teams, strict=strict, ratings=ratings)
        if summary.rows_read == 0:  # an empty page would look like a report of nothing: said, and nothing written
            bounds = " and ".join(f"--{name} {day}" for name, day in (("since", since), ("until", until)) if day)
            raise Failure(f"no game matches {bounds}: {output} not written" if bounds else
                          f"no hand records in {', '.join(inputs)}: {output} not written")
        # a player with no games would get an empty section: refused, after scoring, as only then is it known
        missing = sorted(set(page.players) - set(summary.players["player"]))
        if missing:
            raise Failure(f"--player: no games of {', '.join(missing)} in the input")
        written = write_atomic(output, lambda temp: shutil.copyfile(staged, temp))
    return summary, written
