"""What the command line prints: the two consoles, progress while a long step runs, and the result tables.

Text from the data or the user (player names, file names, values, messages) goes through :func:`shown` (or
:func:`cell` inside rich markup): a control character is shown escaped (``\\x1b``), never sent to the terminal,
where an escape sequence in a player name could clear the screen or forge output.

The tables fit the terminal's width without cutting a name or a number (:mod:`analyzer.cli.fit`): a narrow
terminal gets fewer columns and shorter headers, and the findings as a list.
"""

from __future__ import annotations

import os
import re
import warnings
from contextlib import contextmanager

import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from analyzer.cli.fit import annotation, first_fitting, wrapped_widths
from analyzer.io.unknown_columns import ColumnWarning
from analyzer.tournament.standings import KIND, game_kind, kind_seats, kinds_of
from analyzer.report.viewer import where_recorded

# soft wrap: a message is one line in a log however long (tables still fit the width)
console = Console(stderr=True, soft_wrap=True)
# stdout: the terminal's width, or COLUMNS where it is set; else (a pipe, a file) 160, wide enough for the tables
out = Console(width=None if Console().is_terminal or os.environ.get("COLUMNS", "").isdigit() else 160,
              soft_wrap=True)

# C0 and C1 controls, DEL, and the bidirectional overrides and isolates (they reorder the text after them)
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
REASONS_SHOWN = 5  # reject reasons listed after a run
WIDE_PROGRESS = 120  # the terminal width from which the progress bar shows every column


def shown(value: object) -> str:
    """``value`` as text for the console, control characters escaped as Python writes them (``\\x1b``, ``\\n``)."""
    text = "" if value is None else str(value)
    return CONTROL.sub(lambda match: ascii(match.group())[1:-1], text)


def cell(value: object) -> str:
    """``value`` for rich markup (a table cell, a title, a coloured message): :func:`shown`, brackets escaped."""
    return escape(shown(value))


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

    # a narrow terminal: no partition count and no time left, the bar as long as the rest leaves it
    wide = console.width >= WIDE_PROGRESS
    columns = [TextColumn("{task.description}"), BarColumn(bar_width=40 if wide else None), MofNCompleteColumn(),
               TextColumn(unit), *[TextColumn("{task.fields[count]:,} " + counted)] * wide,
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), *[TimeRemainingColumn()] * wide]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None, count=0, rate="")

        def update(done: int, total: int, count: int) -> None:
            elapsed = bar.tasks[0].elapsed or 0
            per_second = count if rate_unit else done
            rate = f"{per_second / elapsed:,.0f} {rate_unit or unit}/s" if elapsed > 0 else ""
            bar.update(task, completed=done, total=total if total >= 0 else None, count=count, rate=rate)

        yield update


@contextmanager
def column_warnings():
    """Each :class:`~analyzer.io.unknown_columns.ColumnWarning` the library issues printed at once, as
    ``warning: column 'richi' is not used — did you mean 'riichi'? (hands.csv)``, once per column and meant
    column (the same column of a frame made from files already named is not named again)."""
    shown_before: set[tuple[str, str]] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("always", ColumnWarning)
        previous = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):
            if not isinstance(message, ColumnWarning):
                return previous(message, category, filename, lineno, file, line)
            if (message.column, message.meant) not in shown_before:
                shown_before.add((message.column, message.meant))
                console.print(f"[yellow]warning:[/] {cell(message)}", highlight=False)

        warnings.showwarning = show
        yield


def print_line(text: str) -> None:
    """A result line on stdout, printed as is (player names and paths may hold brackets), controls escaped."""
    out.print(shown(text), highlight=False, markup=False)


def print_standings(result, top: int) -> None:
    """The standings of a run (``result.standings``): one table per kind of game when the games mix kinds
    (:mod:`analyzer.tournament.standings`), each cut at ``top`` players with a line saying how many more there are."""
    standings = getattr(result, "standings", None)
    if top <= 0 or standings is None or standings.height == 0:
        return
    kinds = kinds_of(standings)
    for kind in kinds:
        rows = standings.filter(pl.col(KIND) == kind)
        if len(kinds) == 1:
            title = f"Standings (rules: {cell(result.rules_label)})"
        else:  # the kind's own rulesets
            names = sorted({r.name for r in getattr(result, "rulesets", []) if game_kind(r) == kind})
            title = f"Standings: {cell(kind)}" + (f" (rules: {cell(', '.join(names))})" if names else "")
        # hand statistics are over all of a player's games: shown when every game is of this kind
        out.print(first_fitting(out, [_standings_table(rows, top, title, kind_seats(kind), len(kinds) == 1, *layout)
                                      for layout in STANDINGS_LAYOUTS]))
        if rows.height > top:
            print_line(f"… and {rows.height - top} more (--top N to show more)")


# the standings' layouts, widest first (short: the headers on two lines and the places in one column, 2-0-0-1;
# rates: the hand rates; wrap: the names wrapped, the last resort): the first that fits the terminal is shown
STANDINGS_LAYOUTS = ((False, True, False), (True, True, False), (True, False, False), (True, False, True))


def _standings_table(rows: pl.DataFrame, top: int, title: str, seats: int, hand_rates: bool, short: bool = False,
                     with_rates: bool = True, wrap: bool = False) -> Table:
    # hand rates where some player has hands (a game-level sheet has none)
    rates = [c for c in ("win_rate", "deal_in_rate")
             if hand_rates and with_rates and c in rows.columns and rows[c].null_count() < rows.height]
    places = ["1st", "2nd", "3rd", "4th"][:seats]
    headers = {"win_rate": "win %", "deal_in_rate": "deal-in %"}
    names = ["#", "player", "games", "points", "avg", *([f"1st-{places[-1]}"] if short else places), "avg place",
             *[headers[r] for r in rates]]
    cells = []
    for row in rows.head(top).iter_rows(named=True):
        counts = [str(row[f"place_{p}"]) for p in range(1, seats + 1)]
        cells.append([
            "–" if row["rank"] is None else str(row["rank"]),
            shown(row["player"]),
            str(row["games"]) + ("*" if row["incomplete_games"] else ""),
            f"{row['total_points']:+.1f}",
            f"{row['avg_points']:+.1f}",
            *(["-".join(counts)] if short else counts),
            f"{row['avg_place']:.2f}",
            *["–" if row[r] is None else f"{100 * row[r]:.1f}" for r in rates],
        ])
    table = _plain_table(title, [(_two_lines(n) if short else n, "left" if n == "player" else "right") for n in names],
                         cells, {1} if wrap else set())
    captions = []
    # each game of the kind is counted once per seat in the players' incomplete games
    incomplete = int(rows["incomplete_games"].sum()) // seats
    if incomplete:
        captions.append(f"* counts incomplete games: {incomplete} game(s) are fragments, have rejected rows or do not"
                        " end where their rules end them (games table, column complete)")
    if rows["rank"].null_count():
        captions.append("– unranked: fewer games than --min-games")
    table.caption = annotation("\n".join(captions), out.width) if captions else None
    return table


def _two_lines(header: str) -> str:
    """A header on two lines, its last word on the second (``avg place``: ``avg`` over ``place``; ``games``
    under an empty line), so that a column is as narrow as its values or its longest header word."""
    first, _, last = header.rpartition(" ")
    return f"{first}\n{last}"


def _plain_table(title: str, columns: list[tuple[str, str]], cells: list[list[str]], wrap: set[int],
                 must_fit: bool = False) -> Table | None:
    """A table of ``columns`` (header, justify) and rows of plain text (:func:`shown`), no cell ever cut: a
    column is as wide as its widest cell, those in ``wrap`` wrap at their spaces, as wide as the terminal leaves
    them with no word split (:func:`analyzer.cli.fit.wrapped_widths`). Where that does not fit, None when
    ``must_fit``, else a table whose wrapping columns rich narrows further (a word longer than them folded)."""
    widths: list[int | None] | None = [None] * len(columns)
    if wrap:
        texts = [[header, *[row[i] for row in cells]] for i, (header, _) in enumerate(columns)]
        widths = wrapped_widths(texts, wrap, out.width - 3 * len(columns) - 1)  # padding and borders
        if widths is None and must_fit:
            return None
    table = Table(title=annotation(title, out.width))
    for i, ((header, justify), width) in enumerate(zip(columns, widths or [None] * len(columns))):
        table.add_column(header, justify=justify, width=width, no_wrap=i not in wrap, overflow="fold")
    for row in cells:
        table.add_row(*[escape(value) for value in row])
    return table


def print_teams(result, top: int) -> None:
    """The team standings of a run (``result.teams``), when its input names teams."""
    teams = getattr(result, "teams", None)
    if top <= 0 or teams is None or teams.height == 0:
        return
    out.print(first_fitting(out, [_teams_table(teams.head(top), wrap) for wrap in (False, True)]))
    if teams.height > top:
        print_line(f"… and {teams.height - top} more (--top N to show more)")


def _teams_table(teams: pl.DataFrame, wrap: bool) -> Table:
    names = ("#", "team", "members", "games", "points", "avg", "avg place")
    cells = [[str(row["rank"]), shown(row["team"]), str(row["members"]), str(row["games"]),
              f"{row['total_points']:+.1f}", "–" if row["avg_points"] is None else f"{row['avg_points']:+.1f}",
              "–" if row["avg_place"] is None else f"{row['avg_place']:.2f}"] for row in teams.iter_rows(named=True)]
    return _plain_table("Team standings", [(n, "left" if n == "team" else "right") for n in names], cells,
                        {1} if wrap else set())


def print_counts(result) -> None:
    print_line(
        f"rows read: {result.rows_read} = scored {result.rows_scored} + rejected {result.rows_rejected}"
        f" (scored with problems: {result.rows_with_problems}); games: {result.games}"
    )
    print_line("written: " + ", ".join(str(p) for p in dict.fromkeys(result.paths.values())))  # a workbook once
    print_rejects(result.rows_rejected, result.reject_reasons, result.paths.get("rejects"))


def print_notes(notes: list[str]) -> None:
    """What the outputs could not hold (a table too big for a workbook), one line each, on the console."""
    for note in notes:
        console.print(f"[yellow]note: {cell(note)}[/]", highlight=False)


def print_rejects(rows: int, reasons, where) -> None:
    """``3 row(s) rejected — see out/rejects.parquet: 2× honba: …; 1× winner: …`` (the first kinds of reason,
    most first, from a table of ``column``, ``reason``, ``rows``, ``example``: ``24× duplicate_row: an exact copy
    of an earlier row (e.g. row 1 of hands.csv)``), on the console; nothing when no row was rejected."""
    if not rows:
        return
    items = []
    for column, reason, count, example in reasons.head(REASONS_SHOWN).select(
            "column", "reason", "rows", "example").iter_rows():
        item = f"{count}× {column}: {reason}" if column else f"{count}× {reason}"
        items.append(item + (f" ({'e.g. ' if count > 1 else ''}{example})" if example else ""))
    if reasons.height > REASONS_SHOWN:
        items.append(f"{reasons.height - REASONS_SHOWN} more reason(s)")
    text = f"{rows} row(s) rejected — see {where}" + (": " + "; ".join(items) if items else "")
    console.print(f"[yellow]{cell(text)}[/]", highlight=False)


def print_findings(result, show: int, notes: bool = False) -> None:
    """The findings of ``check``: counts per kind and field, then the first ``show`` of them, most serious kind
    first (:data:`analyzer.findings.KIND_ORDER`), each with the player's name where a seat is given and where it
    was recorded (:func:`analyzer.report.viewer.where_recorded`): a table where it fits the terminal with no word
    split, else a list (a line per finding, its explanation and where under it). Notes are one line of counts
    unless ``notes`` lists them too (after the mismatches)."""
    if result.findings.height == 0:
        return
    listed = result.findings if notes else result.mismatches
    if listed.height:
        shown = result.summary.filter(pl.col("kind").is_in(listed["kind"].unique().implode()))
        summary = Table(title="Findings per kind and field" if notes else "Mismatches per kind and field")
        for name in ("kind", "field", "count", "games"):
            summary.add_column(name, justify="right" if name in ("count", "games") else "left")
        for row in shown.iter_rows():
            summary.add_row(*[cell(v) for v in row])
        out.print(summary)
    if show > 0 and listed.height:
        what = "findings" if notes else "mismatches"
        title = f"First {min(show, listed.height)} of {listed.height} {what}"
        rows = listed.head(show).select(*FINDING_COLUMNS, where_recorded().alias("where"))
        table = _findings_table(rows, title)
        if table is not None:
            out.print(table)
        else:
            _list_findings(rows, title)
    if not notes and result.notes.height:
        print_line(f"{result.notes_text()} — --notes to list them")


FINDING_COLUMNS = ["game_id", "round", "honba", "seat", "player", "kind", "field", "recorded", "computed",
                   "explanation"]
FINDINGS_WRAPPED = {"recorded", "computed", "explanation"}  # the columns that may wrap (at their spaces)


def _findings_table(rows: pl.DataFrame, title: str) -> Table | None:
    """The findings as a table, the columns that may wrap as wide as the terminal leaves them with no word split;
    None where that does not fit."""
    cells = [[shown(v) for v in row] for row in rows.iter_rows()]
    wrap = {i for i, name in enumerate(rows.columns) if name in FINDINGS_WRAPPED}
    return _plain_table(escape(title), [(name, "left") for name in rows.columns], cells, wrap, must_fit=True)


def _list_findings(rows: pl.DataFrame, title: str) -> None:
    """The findings one after the other: ``T1 E2 honba 1 · seat 0 Aoki · payment delta_0: recorded -300,
    computed -400``, then its explanation and where it was recorded, indented; every line wrapped at spaces."""
    print_line(title)
    for row in rows.iter_rows(named=True):
        hand = [shown(row["game_id"]), shown(row["round"]), "" if row["honba"] is None else f"honba {row['honba']}"]
        who = ["" if row["seat"] is None else f"seat {row['seat']}", shown(row["player"])]
        parts = [" ".join(p for p in hand if p), " ".join(p for p in who if p), f"{row['kind']} {row['field']}"]
        values = ", ".join(f"{c} {shown(row[c])}" for c in ("recorded", "computed") if row[c] is not None)
        head = " · ".join(p for p in parts if p) + (f": {values}" if values else "")
        out.print(Text(shown(head), overflow="fold"), soft_wrap=False)
        for detail in (shown(row["explanation"]), f"at {shown(row['where'])}" if row["where"] else ""):
            if detail:
                out.print(Padding(Text(detail, overflow="fold"), (0, 0, 0, 4), expand=False), soft_wrap=False)
