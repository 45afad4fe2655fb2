"""The page options of ``report`` (``--title``, ``--max-players``, ``--max-games``, ``--max-standings``,
``--sources``) and the same on ``score`` for its ``--report`` page (``--report-title``, …), read into one
:class:`~analyzer.report.ReportOptions` (:mod:`analyzer.report.options`)."""

from __future__ import annotations

import click

from analyzer.report import ReportOptions
from analyzer.report.options import DEFAULT_TITLE, MAX_GAMES, MAX_PLAYERS, MAX_STANDINGS

from analyzer.cli.errors import Failure

NAMES = ("title", "max_players", "max_games", "max_standings", "sources")


def _limit(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """A whole number of at least 0, or ``all`` (no limit: None)."""
    if value is None or value.strip().lower() == "all":
        return None
    try:
        number = int(value.replace(",", "").replace("_", ""))
    except ValueError:
        number = -1
    if number < 0:
        raise Failure(f"{param.opts[0]}: a whole number of at least 0, or all, not {value!r}")
    return number


def report_page_options(prefix: str = ""):
    """The page options, named ``--title``, … (``prefix`` ``"report-"``: ``--report-title``, … for ``score``),
    passed to the command as ``title``, ``max_players``, ``max_games``, ``max_standings`` and ``sources``."""
    page = "the --report page" if prefix else "the page"

    def decorate(command):
        for decorator in reversed([
            click.option(f"--{prefix}title", "title", default=DEFAULT_TITLE, show_default=True, metavar="TEXT",
                         help=f"The heading (and window title) of {page}."),
            click.option(f"--{prefix}max-players", "max_players", default=str(MAX_PLAYERS), show_default=True,
                         callback=_limit, metavar="N|all",
                         help=f"Players with a section of their own on {page}, the top ones by rank; the others "
                              "are counted (every player is in the standings)."),
            click.option(f"--{prefix}max-games", "max_games", default=str(MAX_GAMES), show_default=True,
                         callback=_limit, metavar="N|all",
                         help=f"Games with a section of their own on {page} (about 7 KB each): those the page "
                              "refers to first, then the first in input order; the others are counted."),
            click.option(f"--{prefix}max-standings", "max_standings", default=str(MAX_STANDINGS), show_default=True,
                         callback=_limit, metavar="N|all",
                         help=f"Rows of each standings table on {page}, the top ones by rank."),
            click.option(f"--{prefix}sources", "sources", is_flag=True, default=False,
                         help=f"Also say on {page} where each game and row was recorded: log files and input "
                              "files with their paths on this machine, which a reader of a published page does "
                              "not have."),
        ]):
            command = decorator(command)
        return command

    return decorate


def report_page_choice(title: str, max_players: int | None, max_games: int | None, max_standings: int | None,
                       sources: bool, players: tuple[str, ...] = ()) -> ReportOptions:
    """The options given, as :class:`ReportOptions`."""
    return ReportOptions(title=title, max_players=max_players, max_games=max_games, max_standings=max_standings,
                         sources=sources, players=tuple(players))


def report_page_given(ctx: click.Context) -> list[str]:
    """The page options given on the command line (not left at their defaults), by their names as typed."""
    source = click.core.ParameterSource
    return [param.opts[0] for param in ctx.command.params
            if param.name in NAMES and ctx.get_parameter_source(param.name) == source.COMMANDLINE]
