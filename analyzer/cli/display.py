"""What the command line prints: the two consoles, progress while a long step runs, and the result tables."""

from __future__ import annotations

from contextlib import contextmanager

import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.table import Table

# soft wrap: a message is one line in a log however long (tables still fit the width)
console = Console(stderr=True, soft_wrap=True)
out = Console(width=None if Console().is_terminal else 160, soft_wrap=True)


@contextmanager
def progress(label: str):
    """A spinner while a long step runs, only on a terminal."""
    if console.is_terminal:
        with console.status(label):
            yield
    else:
        yield


@contextmanager
def progress_bar(label: str, unit: str = "rows", counted: str = "partition(s)", rate_unit: str | None = None):
    """A progress bar on a terminal (``unit`` done of all, a second count, a rate, ETA); nothing otherwise.

    The callback takes (done, total, count); the rate is ``done`` per second, or ``count`` per second in
    ``rate_unit`` when given (an import counts files but its rate is games/s)."""
    if not console.is_terminal:
        yield None
        return
    # imported here: rich.progress is not needed off a terminal, and startup time counts for short runs
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


def print_line(text: str) -> None:
    """A result line on stdout, printed as is (player names and paths may hold brackets)."""
    out.print(text, highlight=False, markup=False)


def print_standings(result, top: int) -> None:
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


def print_counts(result) -> None:
    print_line(
        f"rows read: {result.rows_read} = scored {result.rows_scored} + rejected {result.rows_rejected}"
        f" (scored with problems: {result.rows_with_problems}); games: {result.games}"
    )
    print_line("written: " + ", ".join(str(p) for p in result.paths.values()))
    if result.rows_rejected:
        console.print(
            f"[yellow]{result.rows_rejected} row(s) rejected: see {escape(str(result.paths['rejects']))}[/]", highlight=False
        )


def print_findings(result, show: int, notes: bool = False) -> None:
    """The findings of ``check``: counts per kind and field, then the first ``show`` of them, most serious kind
    first (:data:`analyzer.findings.KIND_ORDER`), each with the player's name where a seat is given. Notes are
    one line of counts unless ``notes`` lists them too (after the mismatches)."""
    if result.findings.height == 0:
        return
    listed = result.findings if notes else result.mismatches
    if listed.height:
        shown = result.summary.filter(pl.col("kind").is_in(listed["kind"].unique().implode()))
        summary = Table(title="Findings per kind and field" if notes else "Mismatches per kind and field")
        for name in ("kind", "field", "count", "games"):
            summary.add_column(name, justify="right" if name in ("count", "games") else "left")
        for row in shown.iter_rows():
            summary.add_row(*[escape(str(v)) for v in row])
        out.print(summary)
    if show > 0 and listed.height:
        what = "findings" if notes else "mismatches"
        columns = ["game_id", "round", "honba", "seat", "player", "kind", "field", "recorded", "computed",
                   "explanation"]
        table = Table(title=f"First {min(show, listed.height)} of {listed.height} {what}")
        for name in columns:
            table.add_column(name, overflow="fold")
        for row in listed.head(show).select(columns).iter_rows():
            table.add_row(*["" if v is None else escape(str(v)) for v in row])
        out.print(table)
    if not notes and result.notes.height:
        print_line(f"{result.notes_text()} — --notes to list them")
