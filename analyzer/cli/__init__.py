"""Command line: a thin click layer over the library (``analyzer.load``, ``analyzer.score``, …).

Exit status: 0 clean, 1 some rows rejected (or, for ``check``, mismatches found), 2 bad usage or unreadable
input — always with a one-line message, never a traceback (``--debug`` shows one).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click
import polars as pl
import polars.selectors as cs
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from analyzer.cluster import ClusterUnavailable
from analyzer.io.load import InputError
from analyzer.io.write import FORMATS, write_table
from analyzer.partition import parse_size
from analyzer.pipeline import ScoreResult, score, score_to
from analyzer.players import DEFAULT_RANK_BY, RANK_KEYS, rank_players, yaku_stats_from_hands
from analyzer.report import write_report
from analyzer.rules import RulesError, load_rules, preset_names

EXIT_CLEAN, EXIT_REJECTS, EXIT_USAGE = 0, 1, 2
# soft wrap: a message is one line in a log however long (tables still fit the width)
console = Console(stderr=True, soft_wrap=True)
out = Console(width=None if Console().is_terminal else 160, soft_wrap=True)


class Failure(click.ClickException):
    exit_code = EXIT_USAGE

    def show(self, file=None) -> None:
        console.print(f"[bold red]error:[/] {escape(self.message)}", highlight=False)


@contextmanager
def _friendly_errors(debug: bool):
    try:
        yield
    except (InputError, RulesError, OSError, ClusterUnavailable) as exc:
        if debug:
            raise
        raise Failure(str(exc)) from exc
    except pl.exceptions.PolarsError as exc:
        if debug:
            raise
        raise Failure(f"{type(exc).__name__}: {str(exc).splitlines()[0]}") from exc
    except (click.exceptions.Exit, click.ClickException, KeyboardInterrupt):
        raise
    except Exception as exc:  # a bug: still one line, with the way to see more
        if debug:
            raise
        raise Failure(f"internal error: {type(exc).__name__}: {exc} (--debug shows the traceback)") from exc


@contextmanager
def _progress(label: str):
    """A spinner while a long step runs, only on a terminal."""
    if console.is_terminal:
        with console.status(label):
            yield
    else:
        yield


EXIT_INTERRUPTED = 130


class _Group(click.Group):
    """Commands that end on Ctrl-C with their own exit status (130) and a one-line message."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            console.print("[bold red]interrupted[/]: outputs of this run were not written", highlight=False)
            ctx.exit(EXIT_INTERRUPTED)


def _refuse_inputs_as_outputs(inputs, outputs) -> None:
    """An output path that is also an input would be overwritten: refused before anything is read."""
    from analyzer.io.load import expand_inputs

    try:
        read = {p.resolve() for p in expand_inputs(list(inputs))}
    except InputError:
        return  # the run itself reports what is wrong with the inputs
    for path in outputs:
        if Path(path).resolve() in read:
            raise Failure(f"{path} is also an input: choose another output")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="analyzer")
def main() -> None:
    """Score Riichi mahjong hand records, replay games and total every player.

    \b
    analyzer score sample_logs/csv -o out          score, write out/*.parquet, print standings
    analyzer import tenhou LOGS… -o hands.parquet  read Tenhou logs into hand records
    analyzer import mjai LOGS… -o hands.parquet    read mjai logs (Mortal, mjai-reviewer) likewise
    analyzer check hands.parquet -o report.html    recompute and report every disagreement
    analyzer rules list                            the shipped rulesets
    analyzer rules show ema                        every option of a ruleset
    """


RANK_BY_HELP = "Comma-separated ranking keys, best first; later keys break ties of earlier ones. Keys: " + ", ".join(
    RANK_KEYS
)
RULES_HELP = "Ruleset: a preset name (see `analyzer rules list`), NAME;option=value…, or a TOML file."
PER_GAME_HELP = "Default: each game's own `rules` column (as imported logs have), else tenhou."
PARTITION_ROWS_HELP = "Rows per partition of whole games (memory grows with it). [default: 500,000]"
MEMORY_LIMIT_HELP = "Choose the partition size to stay within SIZE (e.g. 2GB, 512MB) while scoring."
SCHEDULER_HELP = "Run on this Dask cluster (tcp://HOST:8786); needs the dask extra. See README 'Running on a cluster'."
WORKERS_HELP = "Run on a local Dask cluster of N worker processes started for this run (needs the dask extra)."


def _check_size(memory_limit: str | None) -> None:
    if memory_limit is not None:
        try:
            parse_size(memory_limit)
        except ValueError as exc:
            raise Failure(f"--memory-limit: {exc}") from exc


@main.command("score")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", "outdir", required=True, type=click.Path(file_okay=False), help="Output directory.")
@click.option("--rules", "rules_spec", default=None, help=RULES_HELP + " " + PER_GAME_HELP)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="parquet", show_default=True)
@click.option("--top", default=20, show_default=True, help="Players shown in the standings table (0 = none).")
@click.option("--partition-rows", type=click.IntRange(min=1), default=None, help=PARTITION_ROWS_HELP)
@click.option("--memory-limit", default=None, metavar="SIZE", help=MEMORY_LIMIT_HELP)
@click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option("--workers", type=click.IntRange(min=1), default=None, help=WORKERS_HELP)
@click.option("--rank-by", default=",".join(DEFAULT_RANK_BY), show_default=True, help=RANK_BY_HELP)
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the HTML report (standings, players, games) to this file.")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
def score_command(
    inputs: tuple[str, ...], outdir: str, rules_spec: str | None, fmt: str, top: int, partition_rows: int | None,
    memory_limit: str | None, scheduler: str | None, workers: int | None, rank_by: str, report_path: str | None,
    debug: bool,
) -> None:
    """Score hand records (CSV/Parquet files, directories, globs) into OUTDIR.

    Writes hands, games, players and rejects tables. Every input row lands in hands or rejects. Inputs of any
    size are scored in partitions of whole games, each written out as soon as it is scored.
    """
    with _friendly_errors(debug):
        _check_size(memory_limit)
        _refuse_inputs_as_outputs(inputs, [Path(outdir) / f"{n}.{fmt}" for n in ("hands", "games", "players", "rejects")])
        rules = load_rules(rules_spec) if rules_spec is not None else None
        label = f"{rules.name} rules" if rules is not None else "each game's rules"
        if scheduler is not None or workers is not None:
            if fmt != "parquet":
                raise Failure("a cluster run writes Parquet part files: leave out --format csv")
            from analyzer.cluster import score_on_cluster
            from analyzer.pipeline import _partition_rows

            with _progress(f"Scoring under {label} on a Dask cluster…"):
                result = score_on_cluster(
                    list(inputs), outdir, rules, scheduler=scheduler, workers=workers,
                    partition_rows=_partition_rows(partition_rows, memory_limit),
                )
        else:
            with _progress_bar(f"Scoring under {label}") as progress:
                result = score_to(
                    list(inputs), outdir, fmt, rules, partition_rows=partition_rows, memory_limit=memory_limit,
                    progress=progress,
                )
        keys = _rank_keys(rank_by)
        if tuple(keys) != DEFAULT_RANK_BY:
            result.players = rank_players(result.players, keys)
            write_table(result.players, result.paths["players"], fmt)
        if report_path is not None:
            with _progress("Writing the report…"):
                written = write_report(_read_back(result, fmt), report_path)
            result.paths["report"] = written
    _print_standings(result, top)
    _print_counts(result)
    sys.exit(EXIT_REJECTS if result.rows_rejected else EXIT_CLEAN)



def _rank_keys(text: str) -> list[str]:
    keys = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in keys if k not in RANK_KEYS]
    if unknown or not keys:
        raise Failure(f"--rank-by: unknown key(s) {', '.join(unknown) or '(none)'}; use {', '.join(RANK_KEYS)}")
    return keys


def _read_back(summary, fmt: str) -> ScoreResult:
    """The written tables of a run as a ScoreResult, for the report."""
    read = pl.read_csv if fmt == "csv" else pl.read_parquet
    hands = read(summary.paths["hands"])
    return ScoreResult(
        hands=hands, games=read(summary.paths["games"]), players=summary.players,
        rejects=read(summary.paths["rejects"]),
        rules=summary.rules, rulesets=summary.rulesets, yaku_stats=yaku_stats_from_hands(hands),
    )


@main.command("report")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The report file (.html).")
@click.option("--rules", "rules_spec", default=None, help=RULES_HELP + " " + PER_GAME_HELP)
@click.option("--player", "players", multiple=True, help="Only this player's standings row and section (repeatable).")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Only games from this day (YYYY-MM-DD; a `date` column, else a Tenhou log id's date).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Only games up to this day.")
@click.option("--rank-by", default=",".join(DEFAULT_RANK_BY), show_default=True, help=RANK_BY_HELP)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
def report_command(inputs: tuple[str, ...], output: str, rules_spec: str | None, players: tuple[str, ...],
                   since, until, rank_by: str, debug: bool) -> None:
    """Score hand records and write one self-contained HTML report (no network needed to open it)."""
    from analyzer.io.load import load
    from analyzer.selection import select_games

    keys = _rank_keys(rank_by)
    with _friendly_errors(debug):
        rules = load_rules(rules_spec) if rules_spec is not None else None
        raw = select_games(load(list(inputs)), since and since.date(), until and until.date())
        with _progress("Scoring…"):
            result = score(raw, rules)
        result.players = rank_players(result.players, keys)
        missing = sorted(set(players) - set(result.players["player"]))
        if missing:
            raise Failure(f"--player: no games of {', '.join(missing)} in the input")
        written = write_report(result, output, list(players) or None)
    out.print(
        f"{result.games['game_id'].n_unique()} game(s), {result.players.height} player(s),"
        f" {result.rows_rejected} rejected row(s); written: {written}",
        highlight=False, markup=False,
    )
    sys.exit(EXIT_REJECTS if result.rows_rejected else EXIT_CLEAN)


@contextmanager
def _progress_bar(label: str, unit: str = "rows", counted: str = "partition(s)", rate_unit: str | None = None):
    """A progress bar on a terminal (``unit`` done of all, a second count, a rate, ETA); nothing otherwise.

    The callback takes (done, total, count); the rate is ``done`` per second, or ``count`` per second in
    ``rate_unit`` when given (an import counts files but its rate is games/s)."""
    if not console.is_terminal:
        yield None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
               TextColumn("{task.fields[count]:,} " + counted), TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None, count=0, rate="")

        def update(done: int, total: int, count: int) -> None:
            elapsed = bar.tasks[0].elapsed or 0
            per_second = count if rate_unit else done
            rate = f"{per_second / elapsed:,.0f} {rate_unit or unit}/s" if elapsed > 0 else ""
            bar.update(task, completed=done, total=total if total >= 0 else None, count=count, rate=rate)

        yield update


def _print_standings(result, top: int) -> None:
    if top <= 0 or result.players.height == 0:
        return
    table = Table(title=f"Standings (rules: {result.rules_label})")
    for name in ["#", "player", "games", "points", "avg", "1st", "2nd", "3rd", "4th", "avg place", "win %", "deal-in %"]:
        table.add_column(name, justify="left" if name == "player" else "right")
    # every game has four seats: the players' incomplete games, summed, count each game four times
    incomplete = int(result.players["incomplete_games"].sum()) // 4 if "incomplete_games" in result.players.columns else 0
    if incomplete:
        table.caption = (f"* counts incomplete games: {incomplete} game(s) are fragments, have rejected rows or do not"
                         " end where their rules end them (games table, column complete)")
    for row in result.players.head(top).iter_rows(named=True):
        table.add_row(
            str(row["rank"]),
            escape(row["player"]),
            str(row["games"]) + ("*" if row.get("incomplete_games") else ""),
            f"{row['total_points']:+.1f}",
            f"{row['avg_points']:+.1f}",
            *[str(row[f"place_{p}"]) for p in range(1, 5)],
            f"{row['avg_place']:.2f}",
            f"{100 * (row['win_rate'] or 0):.1f}",
            f"{100 * (row['deal_in_rate'] or 0):.1f}",
        )
    out.print(table)


def _print_counts(result) -> None:
    out.print(
        f"rows read: {result.rows_read} = scored {result.rows_scored} + rejected {result.rows_rejected}"
        f" (scored with problems: {result.rows_with_problems}); games: {result.games}",
        highlight=False, markup=False,
    )
    out.print("written: " + ", ".join(str(p) for p in result.paths.values()), highlight=False, markup=False)
    if result.rows_rejected:
        console.print(
            f"[yellow]{result.rows_rejected} row(s) rejected: see {escape(str(result.paths['rejects']))}[/]", highlight=False
        )


@main.command("check")
@click.argument("inputs", nargs=-1, required=True)
@click.option("--rules", "rules_spec", default=None, help=RULES_HELP + " " + PER_GAME_HELP)
@click.option(
    "-o", "--output", "report", type=click.Path(dir_okay=False),
    help="Write every finding to report.csv, report.parquet or report.html.",
)
@click.option("--show", default=20, show_default=True, help="Findings printed on screen (0 = none).")
@click.option("--partition-rows", type=click.IntRange(min=1), default=None, help=PARTITION_ROWS_HELP)
@click.option("--memory-limit", default=None, metavar="SIZE", help=MEMORY_LIMIT_HELP)
@click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option("--workers", type=click.IntRange(min=1), default=None, help=WORKERS_HELP)
@click.option(
    "--scratch", default=None, metavar="DIR",
    help="On a cluster: where the bucket files go, a path or URL every worker reaches. [default: a temporary directory]",
)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
def check_command(
    inputs: tuple[str, ...], rules_spec: str | None, report: str | None, show: int, partition_rows: int | None,
    memory_limit: str | None, scheduler: str | None, workers: int | None, scratch: str | None, debug: bool,
) -> None:
    """Recompute hand records and report every disagreement with what they recorded.

    \b
    Compares each recorded_* column present (han, fu, yakuman, points, limit, yaku, dora, deltas, final
    scores, game points) and checks that honba and riichi sticks follow, the dealer rotates as the outcome
    requires, han/fu and winners are possible, and the recorded score changes balance.
    Exit status 0 when everything agrees, 1 when there are mismatches (notes alone do not count).
    """
    from analyzer.check import REPORT_FORMATS, check, write_report

    with _friendly_errors(debug):
        rules = load_rules(rules_spec) if rules_spec is not None else None
        if report is not None and Path(report).suffix.lower().lstrip(".") not in REPORT_FORMATS:
            raise Failure(f"report {report}: use a .csv, .parquet or .html file name")
        if report is not None:
            _refuse_inputs_as_outputs(inputs, [report])
        _check_size(memory_limit)
        with _progress_bar("Checking") as progress:
            result = check(
                list(inputs), rules, partition_rows=partition_rows, memory_limit=memory_limit, keep_scored=False,
                progress=progress, scheduler=scheduler, workers=workers, scratch=scratch,
            )
        written = write_report(result, report) if report else None
    _print_summary(result, show)
    out.print(f"{result.headline()}; rules: {result.rules_label}", highlight=False, markup=False)
    if written:
        out.print(f"written: {written}", highlight=False, markup=False)
    sys.exit(EXIT_CLEAN if result.ok else EXIT_REJECTS)


def _print_summary(result, show: int) -> None:
    if result.findings.height == 0:
        return
    summary = Table(title="Findings per kind and field")
    for name in ("kind", "field", "count", "games"):
        summary.add_column(name, justify="right" if name in ("count", "games") else "left")
    for row in result.summary.iter_rows():
        summary.add_row(*[escape(str(v)) for v in row])
    out.print(summary)
    if show <= 0:
        return
    columns = ["game_id", "round", "honba", "seat", "field", "recorded", "computed", "explanation"]
    table = Table(title=f"First {min(show, result.findings.height)} of {result.findings.height} findings")
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in result.findings.head(show).select(columns).iter_rows():
        table.add_row(*["" if v is None else escape(str(v)) for v in row])
    out.print(table)


@main.group("import")
def import_group() -> None:
    """Turn recorded game logs into hand records."""


MAX_LOG_SIZE_HELP = "Largest log file read, and largest content a .gz may decompress to; a larger one is reported."


def _import_options(command):
    """The arguments and options every ``import`` command takes (paths, output, workers, size cap, debug)."""
    for option in reversed([
        click.argument("paths", nargs=-1, required=True),
        click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
                     help="hands.parquet or hands.csv"),
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Processes parsing files in parallel. [default: one per core from 200 files on]"),
        click.option("--max-log-size", default="64MB", show_default=True, metavar="SIZE", help=MAX_LOG_SIZE_HELP),
        click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors."),
    ]):
        command = option(command)
    return command


@import_group.command("tenhou")
@_import_options
def import_tenhou(paths: tuple[str, ...], output: str, workers: int | None, max_log_size: str, debug: bool) -> None:
    """Read Tenhou logs (mjlog XML or tenhou.net/6 JSON; files, directories, globs, .gz) into hand records.

    A malformed or unsupported file (e.g. three-player, corrupt .gz, not a regular file, too large) is reported
    and the others still import; exit status 1 when some file did not import. A copy of a game (the same
    content as an earlier file) is imported once and the copy reported (exit 0); another version of a game
    (the same Tenhou log id, other content) is reported and not imported (exit 1).
    """
    _import_logs(paths, output, workers, debug, "tenhou", "Tenhou", max_log_size)


@import_group.command("mjai")
@_import_options
def import_mjai(paths: tuple[str, ...], output: str, workers: int | None, max_log_size: str, debug: bool) -> None:
    """Read mjai logs (JSON lines of Mortal, mjai-reviewer --mjai-out, gimite's mjai; one game per file;
    files, directories, globs, .gz) into hand records, with the same columns as `import tenhou`.

    A malformed, truncated or one-player-view (hidden tiles) file is reported and the others still import.
    Exit status 1 when some file did not import.
    """
    _import_logs(paths, output, workers, debug, "mjai", "mjai", max_log_size)


def _import_logs(
    paths, output: str, workers: int | None, debug: bool, log_format: str, label: str, max_log_size: str
) -> None:
    from analyzer.importers.tenhou import read_logs

    try:
        max_bytes = parse_size(max_log_size)
    except ValueError as exc:
        raise Failure(f"--max-log-size: {exc}") from exc
    with _friendly_errors(debug):
        if Path(output).suffix.lower() not in (".parquet", ".pq", ".csv"):
            raise Failure(f"{output}: use a .parquet or .csv file name")
        with _progress_bar("Importing", unit="files", counted="games", rate_unit="games") as progress:
            hands, problems = read_logs(list(paths), workers, log_format, progress=progress, max_log_size=max_bytes)
        if hands.height == 0 and not problems:
            raise Failure(f"no {label} logs found in " + ", ".join(paths))
    failed = [p for p in problems if not p.imported]
    for problem in problems:
        colour = "yellow" if problem.imported else "red"
        console.print(f"[{colour}]{escape(str(problem.file))}[/]: {escape(problem.reason)}", highlight=False)
    if hands.height == 0:  # nothing to write: an existing output stays as it was
        raise Failure(f"no game imported; {output} not written")
    if Path(output).suffix.lower() == ".csv":
        # the text `score` reads from a Parquet import, so a CSV and a Parquet import of a game are exact copies
        hands = hands.with_columns(cs.datetime().cast(pl.String))
    with _friendly_errors(debug):
        write_table(hands, output)
    copies = sum(1 for p in problems if p.same_as is not None and p.imported)
    out.print(
        f"imported {hands['game_id'].n_unique()} game(s), {hands.height} row(s) into {output};"
        f" {len(failed)} file(s) not imported" + (f"; {copies} file(s) skipped as the same game as another" if copies else ""),
        highlight=False, markup=False,
    )
    sys.exit(EXIT_REJECTS if failed else EXIT_CLEAN)


@main.group("tiles")
def tiles_group() -> None:
    """Tile codes: hands stored as integers, scored with less work than their MPSZ text."""


@tiles_group.command("encode")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="codes.parquet or codes.csv")
@click.option("--drop-text", is_flag=True, help="Leave out the text columns (hand, melds, win_tile, dora, ura).")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
def tiles_encode(inputs: tuple[str, ...], output: str, drop_text: bool, debug: bool) -> None:
    """Read the tiles of hand records (CSV/Parquet) into tile codes (tc_* columns) and write every row.

    `analyzer score` and `check` take the result like the text it came from. A row whose tiles cannot be
    read is kept, with tc_error saying why (1 bad_notation, 2 bad_meld); exit status 1 when there are some.
    """
    from analyzer.tiles.codes import ENCODE_ERRORS
    from analyzer.tiles.encode_files import encode_to

    with _friendly_errors(debug):
        if Path(output).suffix.lower() not in (".parquet", ".pq", ".csv"):
            raise Failure(f"{output}: use a .parquet or .csv file name")
        _refuse_inputs_as_outputs(inputs, [output])
        with _progress_bar("Encoding") as progress:
            summary = encode_to(list(inputs), output, drop_text=drop_text, progress=progress)
    for code, count in sorted(summary.errors.items()):
        console.print(f"[yellow]{count} row(s) with unreadable tiles: {ENCODE_ERRORS[code]}[/]", highlight=False)
    out.print(f"encoded {summary.hands} hand(s) of {summary.rows} row(s) into {output}", highlight=False, markup=False)
    sys.exit(EXIT_REJECTS if summary.errors else EXIT_CLEAN)


@main.group("rules")
def rules_group() -> None:
    """List the shipped rulesets or show one."""


@rules_group.command("list")
def rules_list() -> None:
    """The shipped presets and where their values come from."""
    table = Table(title="Rulesets")
    table.add_column("name")
    table.add_column("source")
    for name in preset_names():
        table.add_row(name, load_rules(name).source)
    out.print(table)


@rules_group.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Every option of a ruleset (preset name, NAME;option=value…, or TOML file) with its meaning."""
    with _friendly_errors(False):
        rules = load_rules(name)
    table = Table(title=f"Ruleset {rules.name}")
    table.add_column("option")
    table.add_column("value")
    table.add_column("meaning")
    for option, value, doc in rules.table():
        table.add_row(option, value, doc)
    out.print(table)


if __name__ == "__main__":
    main()
