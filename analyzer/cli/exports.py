"""``analyzer export events|mjai|tenhou6``: every event of every game, in the formats other tools read."""

from __future__ import annotations

import sys

import click

from analyzer.formats.export import export_events, export_mjai, export_tenhou6

from analyzer.cli.display import cell, console, print_line, progress_bar
from analyzer.cli.errors import EXIT_CLEAN, EXIT_REJECTS, Failure, friendly_errors
from analyzer.cli.options import export_options, output_suffix


@click.group("export")
def export_group() -> None:
    """Write every event of every game: an events table, mjai JSON lines or tenhou.net/6 JSON.

    Each log's format (mjlog XML, tenhou.net/6 JSON, mjai JSON lines) is told from its content, so a folder
    of mixed logs works. See docs/exporting.md.
    """


events_output = output_suffix((".parquet", ".pq"), "{path}: the events table is Parquet: use a .parquet file name")


@export_group.command("events")
@export_options(click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
                             callback=events_output, help="events.parquet"))
def export_events_command(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None,
                          max_log_size: int, debug: bool) -> None:
    """Read logs (files, directories, globs, .gz; any format) into one Parquet table of one row per event:
    haipai, draw, discard, calls, riichi, dora, and each hand's outcome with the deltas per seat.

    game_id and log_row join to the hand records of `analyzer import`. A malformed file is reported and the
    others still export; exit status 1 when some file did not export.
    """
    _export(export_events, paths, output, workers, scheduler, max_log_size, debug)


@export_group.command("mjai")
@export_options(click.option("-o", "--output", required=True, type=click.Path(file_okay=False),
                             help="Output directory: one GAME_ID.mjai.jsonl per game."))
def export_mjai_command(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None,
                        max_log_size: int, debug: bool) -> None:
    """Read logs (any format) into mjai JSON lines, one GAME_ID.mjai.jsonl per game in OUTPUT, as Mortal and
    mjai-reviewer read them; `analyzer import` reads them back. Exit status 1 when some file did not export."""
    _export(export_mjai, paths, output, workers, scheduler, max_log_size, debug)


@export_group.command("tenhou6")
@export_options(click.option("-o", "--output", required=True, type=click.Path(file_okay=False),
                             help="Output directory: one GAME_ID.json per game."))
def export_tenhou6_command(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None,
                           max_log_size: int, debug: bool) -> None:
    """Read logs (any format) into tenhou.net/6 JSON, one GAME_ID.json per game in OUTPUT, as Tenhou's viewer
    opens them. Exit status 1 when some file did not export."""
    _export(export_tenhou6, paths, output, workers, scheduler, max_log_size, debug)


def _export(function, paths, output: str, workers: int | None, scheduler: str | None, max_log_size: int,
            debug: bool) -> None:
    with friendly_errors(debug):
        with progress_bar("Exporting", unit="files", counted="games", rate_unit="games") as progress:
            summary = function(list(paths), output, workers=workers, scheduler=scheduler, progress=progress,
                               max_log_size=max_log_size)
    for problem in summary.problems:
        colour = "yellow" if problem.imported else "red"
        console.print(f"[{colour}]{cell(problem.where)}[/]: {cell(problem.reason)}", highlight=False)
    if summary.games == 0:
        raise Failure(f"no game exported; {output} not written" if summary.problems
                      else "no logs found in " + ", ".join(paths))
    print_line(f"exported {summary.games} game(s), {summary.rows} {summary.unit} into {output}; "
               f"{summary.failed} file(s) not exported"
               + (f"; {summary.copies} file(s) skipped as the same game as another" if summary.copies else ""))
    sys.exit(EXIT_REJECTS if summary.failed else EXIT_CLEAN)
