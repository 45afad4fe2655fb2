"""``analyzer import [tenhou|mjai|majsoul]``: turn recorded game logs into hand records."""

from __future__ import annotations

import sys

import click

from analyzer.formats.import_file import import_logs

from analyzer.cli.display import cell, console, print_line, progress_bar
from analyzer.cli.import_events import EventsBeside, events_flag
from analyzer.cli.errors import EXIT_CLEAN, EXIT_REJECTS, Failure, friendly_errors
from analyzer.cli.options import import_options


class _FormatWordOptional(click.Group):
    """``analyzer import LOGS… -o FILE``: without a format word, the files' formats are told from their content
    (the hidden ``any`` command); ``import tenhou`` and ``import mjai`` read as they always have."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [ANY_FORMAT, *args]
        return super().parse_args(ctx, args)


ANY_FORMAT = "any"


@click.group("import", cls=_FormatWordOptional)
def import_group() -> None:
    """Turn recorded game logs into hand records.

    \b
    analyzer import LOGS… -o hands.parquet         each file's format told from its content
    analyzer import tenhou LOGS… -o hands.parquet  mjlog XML or tenhou.net/6 JSON only
    analyzer import mjai LOGS… -o hands.parquet    mjai JSON lines only
    analyzer import majsoul LOGS… -o hands.parquet Mahjong Soul raw records or tensoul JSON only
    analyzer import riichicity LOGS… -o hands.parquet  Riichi City records only
    """


@import_group.command(ANY_FORMAT, hidden=True)
@import_options
@events_flag
def import_any(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None, max_log_size: int,
               debug: bool, with_events: bool = False) -> None:
    """Read logs of any format (mjlog XML, tenhou.net/6 JSON, mjai JSON lines, Mahjong Soul raw records, Riichi
    City records; each file's format told from its content; files, directories, globs, .gz) into hand records.
    Exit status 1 when some file did not import."""
    _import_logs(paths, output, workers, debug, "auto", "game", max_log_size, scheduler, with_events)


@import_group.command("tenhou")
@import_options
@events_flag
def import_tenhou(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None, max_log_size: int,
                  debug: bool, with_events: bool = False) -> None:
    """Read Tenhou logs (mjlog XML or tenhou.net/6 JSON; files, directories, globs, .gz) into hand records.

    Four- and three-player (sanma) games are read; Mahjong Soul games converted to tenhou.net/6 JSON by tensoul
    are read as Mahjong Soul games (rules majsoul, the record id as game id); a special lobby's game (chips,
    雀荘, custom rules) imports with a note on what of its rules is not reproduced. A malformed file (e.g. a
    corrupt .gz, not a regular file, too large) is reported and the others still import; exit status 1 when
    some file did not import. Notes name the file, and the game and hand where known. A copy of a game (the same content as an earlier file,
    or the same log id and plays written otherwise: a Mahjong Soul raw record and its tensoul copy) is imported
    once, from the first file, and the copy reported (exit 0); another version of a game (the same log id,
    other plays) is reported and not imported (exit 1).
    """
    _import_logs(paths, output, workers, debug, "tenhou", "Tenhou", max_log_size, scheduler, with_events)


@import_group.command("mjai")
@import_options
@events_flag
def import_mjai(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None, max_log_size: int,
                debug: bool, with_events: bool = False) -> None:
    """Read mjai logs (JSON lines of Mortal, mjai-reviewer --mjai-out, gimite's mjai; one game per file;
    files, directories, globs, .gz) into hand records, with the same columns as `import tenhou`.

    A malformed, truncated or one-player-view (hidden tiles) file is reported and the others still import.
    Exit status 1 when some file did not import.
    """
    _import_logs(paths, output, workers, debug, "mjai", "mjai", max_log_size, scheduler, with_events)


@import_group.command("majsoul")
@import_options
@events_flag
def import_majsoul(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None, max_log_size: int,
                   debug: bool, with_events: bool = False) -> None:
    """Read Mahjong Soul game records (files, directories, globs, .gz) into hand records, with the same columns
    as `import tenhou`: the raw records its downloaders give (decoded JSON: {"head", "data"}, or a list of round
    actions) and tensoul's tenhou.net/6 JSON.

    Four- and three-player games; the rules from the room (ranked rooms from a table; a friendly room or a
    tournament from its rules in the record, else from its play, with a note); players as nickname#account_id,
    their rank before the game (platform_rank_*), played_at from the record's start time and the rank points
    the server gave (recorded_rank_points_*). A binary (protobuf) record is refused, saying which form to give.
    Exit status 1 when some file did not import.
    """
    _import_logs(paths, output, workers, debug, "majsoul", "Mahjong Soul", max_log_size, scheduler, with_events)


@import_group.command("riichicity")
@import_options
@events_flag
def import_riichicity(paths: tuple[str, ...], output: str, workers: int | None, scheduler: str | None,
                      max_log_size: int, debug: bool, with_events: bool = False) -> None:
    """Read Riichi City (麻雀一番街) game records (the JSON its API returns for a game; files, directories, globs,
    .gz) into hand records, with the same columns as `import tenhou`.

    Four- and three-player games; the rules from the record (ranked rules, its start points, length and red
    fives; what its room plays beyond the rules, such as open riichi, is said in a note); players as
    nickname#userId, played_at from its first event, the server's payments and final result. A wall that does
    not match its SHA-256 is said in a note. Exit status 1 when some file did not import.
    """
    _import_logs(paths, output, workers, debug, "riichicity", "Riichi City", max_log_size, scheduler, with_events)


def _import_logs(
    paths, output: str, workers: int | None, debug: bool, log_format: str, label: str, max_log_size: int,
    scheduler: str | None = None, with_events: bool = False,
) -> None:
    events = EventsBeside(output, with_events)  # --events: written beside, put in place with the hand records
    written = None
    try:
        with friendly_errors(debug):
            with progress_bar("Importing", unit="files", counted="games", rate_unit="games") as progress:
                written = import_logs(list(paths), output, log_format, workers, progress=progress,
                                      max_log_size=max_log_size, scheduler=scheduler, events=events.reader())
            problems = written.problems
            if written.rows == 0 and not problems:
                raise Failure(f"no {label} logs found in " + ", ".join(paths))
        failed = [p for p in problems if not p.imported]
        for problem in problems:
            colour = "yellow" if problem.imported else "red"
            console.print(f"[{colour}]{cell(problem.where)}[/]: {cell(problem.reason)}", highlight=False)
        if written.rows == 0:  # nothing to write: an existing output stays as it was
            raise Failure(f"no game imported; {output} not written")
        with friendly_errors(debug):
            events.stage()
            written.commit()
            written_events = events.commit()
    finally:
        if written is not None:
            written.abort()  # what is left staged: nothing after the commit
        events.drop()
    copies = sum(1 for p in problems if p.same_as is not None and p.imported)
    print_line(
        f"imported {written.games} game(s), {written.rows} row(s) into {output};"
        f" {len(failed)} file(s) not imported" + (f"; {copies} file(s) skipped as the same game as another" if copies else "")
        + written_events
    )
    sys.exit(EXIT_REJECTS if failed else EXIT_CLEAN)
