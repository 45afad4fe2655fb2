"""``analyzer score`` on game logs and events: the ``--events`` / ``--no-events`` options, the logs among the
inputs read with a progress bar, and what reading them gave, said as ``analyzer import`` says it."""

from __future__ import annotations

import click

from analyzer.jobs.inputs import LogsRead, ScoreInputs

from analyzer.cli.display import cell, console, print_line, progress_bar

EVENTS_HELP = ("An events table (`analyzer export events`) of the games, read before those found beside the "
               "inputs. Without it the events are looked for beside each input NAME.parquet or NAME.csv as "
               "NAME.events.parquet (what `analyzer import --events` writes), among the inputs, and in the logs "
               "given; with events the hand_seats table is written and the players table has the play "
               "statistics. Repeatable.")
NO_EVENTS_HELP = "Score without any events: no hand_seats table, no play statistics (the logs' are not read)."



def events_options(command):
    """``--events FILE`` (repeatable) and ``--no-events``, in that order in ``--help``."""
    command = click.option("--no-events", "no_events", is_flag=True, help=NO_EVENTS_HELP)(command)
    return click.option("--events", "events", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
                        help=EVENTS_HELP)(command)


def read_logs_of(inputs: ScoreInputs) -> LogsRead:
    """The logs among the inputs imported for the run (a progress bar on a terminal while they are read)."""
    if not inputs.logs:
        return inputs.logs_read
    with progress_bar("Reading logs", unit="files", counted="games", rate_unit="games") as progress:
        return inputs.import_logs(progress=progress)


def print_inputs_read(inputs: ScoreInputs, read: LogsRead) -> None:
    """Each problem of the logs (red: a file not imported; yellow: a copy or a caveat) and one line of counts,
    ``logs: imported 4 game(s), 15 row(s), 686 event(s) from 5 file(s); 0 file(s) not imported``; then the
    events tables read beside the hand records, ``events: out/hands.events.parquet``."""
    if read.files:
        for problem in read.problems:
            colour = "yellow" if problem.imported else "red"
            console.print(f"[{colour}]{cell(problem.where)}[/]: {cell(problem.reason)}", highlight=False)
        copies = f"; {read.copies} file(s) skipped as the same game as another" if read.copies else ""
        events = f", {read.events} event(s)" if read.events else ""
        print_line(f"logs: imported {read.games} game(s), {read.rows} row(s){events} from {read.files} file(s); "
                   f"{read.failed} file(s) not imported{copies}")
    tables = inputs.found_events()
    if tables:
        print_line("events: " + ", ".join(tables))
