"""Tables that fit the terminal, with no name or number cut short.

Rich fits a table that is too wide by cutting its cells (``Bre…``, ``+91…``) or folding words mid-cell. The
command line instead offers each table in layouts from the widest to the narrowest (fewer columns, shorter
headers) and prints the first whose natural width fits the console (:func:`first_fitting`); where some columns
may wrap, their widths are shared out so that no word is split (:func:`wrapped_widths`). A wider terminal gets
the wider layout.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

UNBOUNDED = 10_000  # a width no table reaches: what a table measures at it is its natural width


def natural_width(console: Console, table: Table) -> int:
    """The width ``table`` takes when nothing limits it (borders and padding included)."""
    return Measurement.get(console, console.options.update_width(UNBOUNDED), table).maximum


def first_fitting(console: Console, layouts: list[Table]) -> Table:
    """The first of ``layouts`` (widest first) that fits ``console``'s width, else the last (the narrowest)."""
    return next((t for t in layouts if natural_width(console, t) <= console.width), layouts[-1])


def text_width(text: str) -> int:
    """The cells of the widest line of ``text``."""
    return max((cell_len(line) for line in text.split("\n")), default=0)


def word_width(text: str) -> int:
    """The cells of the longest word of ``text``: the narrowest it wraps to without splitting a word."""
    return max((cell_len(word) for word in text.split()), default=0)


def wrapped_widths(columns: list[list[str]], wrap: set[int], room: int) -> list[int | None] | None:
    """Widths for the columns of a table (each a header and its cells, as shown) within ``room`` cells of text
    (the console's width less borders and padding): a column not in ``wrap`` as wide as its widest cell (None:
    rich measures it alike), one in ``wrap`` at least its longest word and as close to its widest line as the
    room allows, the room shared out evenly. None where even that does not fit."""
    widest = [max(map(text_width, cells), default=0) for cells in columns]
    fixed = sum(w for i, w in enumerate(widest) if i not in wrap)
    widths = {i: max(map(word_width, columns[i]), default=0) for i in sorted(wrap)}
    spare = room - fixed - sum(widths.values())
    if spare < 0:
        return None
    while spare > 0:
        short = {i: widest[i] - w for i, w in widths.items() if w < widest[i]}
        if not short:
            break
        widths[max(short, key=lambda i: (short[i], -i))] += 1
        spare -= 1
    return [widths.get(i) for i in range(len(columns))]


def annotation(text: str, width: int) -> str | Text:
    """A title or caption (rich markup) as it is when its lines fit ``width``, else as text that wraps (to the
    table's width): printed as is, a long caption would run past the terminal's edge."""
    if all(cell_len(Text.from_markup(line).plain) <= width for line in text.split("\n")):
        return text
    wrapping = Text.from_markup(text, justify="left", overflow="fold")
    wrapping.no_wrap = False  # the console prints with soft wrap (no wrapping) unless a text says otherwise
    return wrapping
