"""Aggregates over runs of rows that share a key, in rows sorted by that key: sums as differences of running
sums at the runs' ends, the last and first value where a condition holds as filled values. Linear passes that
keep the rows' order: no hash table of groups, which costs more than the rows once the groups are millions
(the seats of ten thousand games)."""

from __future__ import annotations

import polars as pl

KEY_BITS = 16  # a value of a run's last/first row is kept with its key in one Int64: the value below 2**16


def run_totals(frame: pl.LazyFrame, key: str, sums: dict[str, pl.Expr],
               lasts: dict[str, tuple[pl.Expr, pl.Expr]] | None = None,
               firsts: dict[str, tuple[pl.Expr, pl.Expr]] | None = None) -> pl.LazyFrame:
    """One row per run of ``key`` in ``frame`` (sorted by it): ``key``, each of ``sums`` summed over the run
    (Int64; wrapping sums, exact for totals that fit), each of ``lasts`` (name: (condition, value), a value
    0..65535) the value of the run's last row where the condition holds and of ``firsts`` its first such row
    (null where no row does)."""
    lasts, firsts = lasts or {}, firsts or {}
    k = pl.col(key)
    end = (k != k.shift(-1)).fill_null(True)
    start = (k != k.shift(1)).fill_null(True)
    running = {f"_sum_{name}": value.cast(pl.Int64).cum_sum() for name, value in sums.items()}
    # a value marked with its run's key: filled forward (the last) or backward (the first) and kept where the
    # run's key is its own
    marked = {name: pl.when(cond).then(k * 2**KEY_BITS + value.cast(pl.Int64)) for name, (cond, value) in
              lasts.items()}
    first_marked = {name: pl.when(cond).then(k * 2**KEY_BITS + value.cast(pl.Int64)) for name, (cond, value) in
                    firsts.items()}
    rows = frame.select(
        key, _end=end,
        **running,
        **{f"_last_{name}": expr.forward_fill() for name, expr in marked.items()},
        **{f"_first_{name}": pl.when(start).then(expr.backward_fill()).forward_fill()
           for name, expr in first_marked.items()},
    ).filter("_end")

    def own(column: str) -> pl.Expr:
        value = pl.col(column)
        return pl.when(value // 2**KEY_BITS == k).then(value % 2**KEY_BITS)

    return rows.select(
        key,
        **{name: pl.col(f"_sum_{name}") - pl.col(f"_sum_{name}").shift(1).fill_null(0) for name in sums},
        **{name: own(f"_last_{name}") for name in lasts},
        **{name: own(f"_first_{name}") for name in firsts},
    )
