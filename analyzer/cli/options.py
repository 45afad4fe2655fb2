"""Options that several commands share, each written once, and the callbacks that validate option values.

A callback raises :class:`Failure` (not ``click.BadParameter``) so that a bad value reads as it always has:
``error: --memory-limit: …`` with exit status 2 and no usage text. Each command body receives clean values.
"""

from __future__ import annotations

from pathlib import Path

import click

from analyzer.io.columns import INPUT_KINDS
from analyzer.run import parse_size
from analyzer.players import DEFAULT_RANK_BY, RANK_KEYS

from analyzer.cli.errors import Failure

RULES_HELP = "Ruleset: a preset name (see `analyzer rules list`), NAME;option=value…, or a TOML file."
PER_GAME_HELP = "Default: each game's own `rules` column (as imported logs have), else tenhou."
PARTITION_ROWS_HELP = ("Rows per partition of whole games (memory grows with it). [default: 500,000 shared by the "
                       "partitions in flight, at least 125,000 each]")
MEMORY_LIMIT_HELP = ("Keep the run within SIZE (e.g. 2GB): partitions are cut from what SIZE leaves beside the "
                     "run's fixed cost; a SIZE below it is refused with the figure needed.")
SCHEDULER_HELP = "Run on this Dask cluster (tcp://HOST:8786); needs the dask extra. See docs/cluster.md."
IN_FLIGHT_HELP = ("Score N partitions at once on this machine, sharing its cores; --memory-limit is shared "
                  "between them. [default: half the cores, 2 to 8]")
WORKERS_HELP = "Run on a local Dask cluster of N worker processes started for this run (needs the dask extra)."
RANK_BY_HELP = "Comma-separated ranking keys, best first; later keys break ties of earlier ones. Keys: " + ", ".join(
    RANK_KEYS
)
MAX_LOG_SIZE_HELP = "Largest log file read, and largest content a .gz may decompress to; a larger one is reported."


def _size(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """A size such as 2GB, as bytes."""
    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError as exc:
        raise Failure(f"{param.opts[0]}: {exc}") from exc


def _rank_keys(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    keys = tuple(k.strip() for k in value.split(",") if k.strip())
    unknown = [k for k in keys if k not in RANK_KEYS]
    if unknown or not keys:
        raise Failure(f"--rank-by: unknown key(s) {', '.join(unknown) or '(none)'}; use {', '.join(RANK_KEYS)}")
    return keys


def output_suffix(suffixes: tuple[str, ...], message: str):
    """A callback refusing an output file whose suffix names no format written there, before anything is read.

    ``message`` is formatted with ``path``."""

    def refuse(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None and Path(value).suffix.lower() not in suffixes:
            raise Failure(message.format(path=value))
        return value

    return refuse


# the tables that `import` and `tiles encode` write
table_output = output_suffix((".parquet", ".pq", ".csv"), "{path}: use a .parquet or .csv file name")
# the HTML report (`report -o`, `score --report`): a page written into report.pdf would open as a broken file
html_output = output_suffix((".html", ".htm"), "{path}: the report is an HTML page: use a .html or .htm file name")


def _stack(*decorators):
    """One decorator applying several, listed in the order they appear in ``--help``."""

    def apply(command):
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


rules_option = click.option("--rules", "rules_spec", default=None, help=RULES_HELP + " " + PER_GAME_HELP)

# how a run is split into partitions and where it runs (score, check)
run_options = _stack(
    click.option("--partition-rows", type=click.IntRange(min=1), default=None, help=PARTITION_ROWS_HELP),
    click.option("--memory-limit", default=None, metavar="SIZE", callback=_size, help=MEMORY_LIMIT_HELP),
    click.option("--in-flight", type=click.IntRange(min=1), default=None, metavar="N", help=IN_FLIGHT_HELP),
    click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP),
    click.option("--workers", type=click.IntRange(min=1), default=None, help=WORKERS_HELP),
)

rank_by_option = click.option(
    "--rank-by", default=",".join(DEFAULT_RANK_BY), show_default=True, callback=_rank_keys, help=RANK_BY_HELP
)

min_games_option = click.option(
    "--min-games", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
    help="Rank only players with at least N games of a kind of game; the others are listed after them, unranked.",
)

debug_option = click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")

# what the inputs are (score, check, report): hand records, game-level result sheets, or each file by its columns
input_kind_option = click.option(
    "--input-kind", type=click.Choice(INPUT_KINDS), default="auto", show_default=True,
    help="Read each file by its columns (a game-level sheet has player and final_score and no result; one row per "
         "table: final_score_0 or east_score), or every file as hand records (hands) or as game-level sheets "
         "(games).",
)
strict_option = click.option(
    "--strict", is_flag=True,
    help="Refuse any input column analyzer neither reads nor writes (exit status 2), instead of passing it "
         "through; without it, only a near miss of a known column is named (warning: column 'richi' is not used).",
)
teams_option = click.option(
    "--teams", "teams_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
    help="CSV with columns player and team: the team standings (wins over a sheet's team column).",
)

# where the files of an `import` or `export` are read: local processes, or a Dask cluster
LOG_WORKERS_HELP = ("Workers on this machine reading files in parallel: processes (threads of this one where an import "
                    "reads mjlog or mjai files as columns). [default: one per core from 200 files on]")
LOG_SCHEDULER_HELP = ("Read the files as tasks on this Dask cluster (tcp://HOST:8786; needs the dask extra): the same "
                      "output as a local run. See docs/cluster.md.")
log_runner_options = _stack(
    click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N", help=LOG_WORKERS_HELP),
    click.option("--scheduler", default=None, metavar="ADDRESS", help=LOG_SCHEDULER_HELP),
    click.option("--max-log-size", default="64MB", show_default=True, metavar="SIZE", callback=_size,
                 help=MAX_LOG_SIZE_HELP),
)

# every `import` command: paths, output, workers, scheduler, size cap, debug
import_options = _stack(
    click.argument("paths", nargs=-1, required=True),
    click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), callback=table_output,
                 help="hands.parquet or hands.csv"),
    log_runner_options,
    debug_option,
)


def export_options(output_option):
    """Every `export` command: paths, its output, workers, scheduler, size cap, debug."""
    return _stack(click.argument("paths", nargs=-1, required=True), output_option, log_runner_options, debug_option)
