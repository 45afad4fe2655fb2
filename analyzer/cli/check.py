"""``analyzer check``: recompute hand records and report every disagreement with what they recorded."""

from __future__ import annotations

import sys

import click

from analyzer.api import check
from analyzer.findings.report import REPORT_FORMATS, write_findings
from analyzer.core.rules import load_rules

from analyzer.cli.display import column_warnings, print_findings, print_line, progress_bar
from analyzer.cli.errors import EXIT_CLEAN, EXIT_REJECTS, friendly_errors, refuse_inputs_as_outputs
from analyzer.cli.options import (
    debug_option, input_kind_option, output_suffix, rules_option, run_options, strict_option, teams_option,
)

report_output = output_suffix(tuple("." + f for f in REPORT_FORMATS),
                              "report {path}: use a .csv, .parquet or .html file name")


@click.command("check")
@click.argument("inputs", nargs=-1, required=True)
@rules_option
@click.option(
    "-o", "--output", "report", type=click.Path(dir_okay=False), callback=report_output,
    help="Write every finding to report.csv, report.parquet or report.html.",
)
@click.option("--show", default=20, show_default=True, help="Findings printed on screen (0 = none).")
@click.option("--notes", is_flag=True,
              help="List the notes too (after the mismatches); without it they are one line of counts.")
@run_options
@input_kind_option
@strict_option
@teams_option
@click.option(
    "--scratch", default=None, metavar="DIR",
    help="On a cluster: where the bucket files go, a path or URL every worker reaches. [default: a temporary directory]",
)
@debug_option
def check_command(
    inputs: tuple[str, ...], rules_spec: str | None, report: str | None, show: int, notes: bool,
    partition_rows: int | None, memory_limit: int | None, in_flight: int | None, scheduler: str | None,
    workers: int | None,
    input_kind: str, strict: bool, teams_path: str | None, scratch: str | None, debug: bool,
) -> None:
    """Recompute hand records and report every disagreement with what they recorded.

    \b
    Compares each recorded_* column present (han, fu, yakuman, points, limit, yaku, dora, deltas, final
    scores, game points) and checks that honba and riichi sticks follow, the dealer rotates as the outcome
    requires, han/fu and winners are possible, and the recorded score changes balance.
    Mismatches are listed most serious first (money, payment, value, game_end, table, plausibility, tiles,
    reject); notes are counted, and listed with --notes. -o writes every finding in the same order.
    On a game-level sheet: tables whose final scores and leftover sticks do not add up, recorded places and
    game points, a player twice at a table or at two tables in a session, tables of the wrong size, players
    in two teams; a player missing from a session is a note.
    Exit status 0 when everything agrees, 1 when there are mismatches (notes alone do not count).
    """
    with friendly_errors(debug), column_warnings():
        rules = load_rules(rules_spec) if rules_spec is not None else None
        if report is not None:
            refuse_inputs_as_outputs(inputs, [report])
        with progress_bar("Checking") as bar:
            # the findings are all the command needs: the scored rows are not kept
            result = check(list(inputs), rules, keep_scored=False, partition_rows=partition_rows,
                           memory_limit=memory_limit, progress=bar, scheduler=scheduler, workers=workers,
                           in_flight=in_flight, scratch=scratch, input_kind=input_kind, teams=teams_path,
                           strict=strict)
        written = write_findings(result, report) if report else None
    print_findings(result, show, notes)
    print_line(f"{result.headline()}; rules: {result.rules_label}")
    if written:
        print_line(f"written: {written}")
    sys.exit(EXIT_CLEAN if result.ok else EXIT_REJECTS)
