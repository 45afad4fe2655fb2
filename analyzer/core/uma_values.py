"""The values of a ruleset's two uma options (:mod:`analyzer.core.rules`), read from TOML lists, Python tuples or
the compact text a rules spec carries, and checked for their shape and size:

* ``uma``: places 1..n, ``[20, 10, -10, -20]`` or ``20/10/-10/-20``;
* ``floating_uma``: one row of places 1..n for each count of players who finish below the return points, 0..n
  in order, ``[[15, 5, -5, -15], …]`` or ``15/5/-5/-15,35/-5/-10/-20,…``; empty (``[]`` or ``""``) for none.

Errors are :class:`ValueError` with the text the ruleset's error says after naming where the option came from.
"""

from __future__ import annotations

import math

MAX_POINTS = 10_000_000  # far below what would overflow a payment; any amount or uma beyond it is a mistake


def uma_row(value, players: int, what: str = "uma") -> tuple[float, ...]:
    """The uma of places 1..``players`` from ``20/10/-10/-20``, a list or a tuple of numbers."""
    if isinstance(value, str):  # "10/5/-5/-10", the compact form a rules spec can carry
        value = value.split("/")
    try:
        row = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be numbers such as [20, 10, -10, -20]; got {value!r}") from None
    if len(row) != players:
        raise ValueError(f"{what} needs {players} numbers (places 1-{players}); got {len(row)}")
    if not all(math.isfinite(u) for u in row):
        raise ValueError(f"rule {what!r} must be a finite number; got {value!r}")
    if any(abs(u) > MAX_POINTS for u in row):
        raise ValueError(f"{what} values must be between -{MAX_POINTS:,} and {MAX_POINTS:,}")
    return row


def floating_uma(value, players: int) -> tuple[tuple[float, ...], ...]:
    """The rows of a floating uma (see the module docstring); ``()`` for none."""
    if isinstance(value, str):
        value = [row for row in value.split(",")] if value.strip() else []
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"floating_uma must be rows of numbers such as [[15, 5, -5, -15], …]; got {value!r}")
    if not value:
        return ()
    if len(value) != players + 1:
        raise ValueError(f"floating_uma needs {players + 1} rows (0-{players} players below return_points); "
                         f"got {len(value)}")
    return tuple(uma_row(row, players, f"floating_uma row {below} ({below} below)") for below, row in enumerate(value))


def uma_text(row: tuple[float, ...]) -> str:
    """``20/10/-10/-20``."""
    return "/".join(f"{u:g}" for u in row)
