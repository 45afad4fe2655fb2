"""Text built from columns, and what text columns hold."""

from __future__ import annotations

import polars as pl


def format_text(template: str, *args: pl.Expr | str) -> pl.Expr:
    """``pl.format`` (``{}`` placeholders, column names or expressions) built from ``concat_str``.

    Polars 2.1's streaming engine panics on ``pl.format`` evaluated after a filter (assertion ``i < self.len()``
    in its binview array); ``concat_str`` gives the same text without it. A null value gives a null result.
    """
    pieces = template.split("{}")
    if len(pieces) != len(args) + 1:
        raise ValueError(f"template {template!r} takes {len(pieces) - 1} values, got {len(args)}")
    parts: list[pl.Expr] = [pl.lit(pieces[0])]
    for arg, piece in zip(args, pieces[1:]):
        parts += [(pl.col(arg) if isinstance(arg, str) else arg).cast(pl.String), pl.lit(piece)]
    return pl.concat_str(parts)


def columns_where_every_row(lf: pl.LazyFrame, conditions: dict[str, pl.Expr]) -> set[str]:
    """The names of ``conditions`` whose condition holds on every row of ``lf`` (one query for all of them):
    used to find text columns already written plainly, which then skip their stripping and parsing."""
    if not conditions:
        return set()
    held = lf.select(c.all().alias(name) for name, c in conditions.items()).collect().row(0, named=True)
    return {name for name, ok in held.items() if ok}


def one_of(text: pl.Expr, values: list[str] | tuple[str, ...]) -> pl.Expr:
    """Whether ``text`` equals one of a few ``values`` (null where it is null), as ``is_in`` says.

    Equalities or-ed together: ``is_in`` hashes every row into a set, three to four times slower on the short
    word lists of the scoring stages, which test ``result`` some twenty times per row."""
    if not values:
        return text.is_in(list(values))
    tests = [text == value for value in values]
    return tests[0] if len(tests) == 1 else pl.any_horizontal(tests)
