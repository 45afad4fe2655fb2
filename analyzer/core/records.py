"""One game, several records of it: whether the rows a game has from each of its sources (the log files it was
imported from, the input files it was read from) are a copy of its first source's rows, the same plays recorded
otherwise, or another version of the game.

The rows of one game id from two sources are never merged: ``import`` keeps the first file of a game
(:mod:`analyzer.formats.read`), ``score`` and ``check`` the first source in input order
(:mod:`analyzer.scoring.records`). What the later sources are is :func:`compare_sources`: a group-by over the
game and the source of two hashes per row, compared as sorted lists with the first source's.

* :data:`COPY`: every value equal, row for row (where each row was recorded, ``log_file`` and ``log_row``,
  left out: it says where, not what);
* :data:`SAME_PLAYS`: equal but for how the game was written down: the columns of :data:`RECORDING_COLUMNS`
  (the room's name, the start time, the ranks, the server's rank points, the importer's notes) and the
  players' account ids (``Taro#121002`` is ``Taro``): a Mahjong Soul raw record and tensoul's copy of it;
* :data:`OTHER`: anything else: another version of the game (an edited log, a partial one).

The hashes are 64 bits (as the importers' content digests), of every value column of a row; a game has more
than one source only where something was given twice, so the comparison costs nothing on other input.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analyzer.core.schema import PLAYER_COLUMNS, PROVENANCE_COLUMNS, SEATS

COPY, SAME_PLAYS, OTHER = "copy", "same_plays", "other"
RECORDING_COLUMNS = frozenset({
    "room", "lobby", "played_at", "rules_note", "settlement",
    *[f"{name}_{s}" for name in ("dan", "rate", "platform_rank", "recorded_rank_points") for s in SEATS],
})
ACCOUNT_ID = r"#\d+$"  # a Mahjong Soul player named with the account id the log gives: nickname#account_id
FIRST = "_first"  # the suffix of the first source's columns in what compare_sources returns


def value_columns(names: Sequence[str]) -> list[str]:
    """The columns that say what a row records: not the working columns (``_…``) nor where it was recorded."""
    return [n for n in names if not n.startswith("_") and n not in PROVENANCE_COLUMNS]


def _plays(names: Sequence[str]) -> list[pl.Expr]:
    return [
        pl.col(n).cast(pl.String).str.replace(ACCOUNT_ID, "") if n in PLAYER_COLUMNS else pl.col(n)
        for n in value_columns(names) if n not in RECORDING_COLUMNS
    ]


def compare_sources(rows: pl.DataFrame, game: str, source: str, order: str, keep: Sequence[str] = ()) -> pl.DataFrame:
    """Each source of a game after its first (the source of the least ``order``), as one row: ``game``,
    ``source``, ``kind`` (:data:`COPY`, :data:`SAME_PLAYS` or :data:`OTHER`), the first row's ``keep`` columns
    and the first source's (``source`` and ``keep`` with the suffix :data:`FIRST`), in ``order``.

    ``rows`` are the rows of the games to compare (those with more than one source: every game given is
    compared, a game of one source gives nothing)."""
    hashed = rows.select(
        pl.col(game).alias("_g"), pl.col(source).alias("_s"), pl.col(order).alias("_o"),
        *[pl.col(k).alias(f"_k{i}") for i, k in enumerate(keep)],
        pl.struct(value_columns(rows.columns)).hash().alias("_all"),
        pl.struct(_plays(rows.columns)).hash().alias("_plays"),
    )
    kept = [f"_k{i}" for i in range(len(keep))]
    sources = hashed.group_by("_g", "_s").agg(
        pl.col("_o").min(), pl.col("_all").sort(), pl.col("_plays").sort(), *[pl.col(k).first() for k in kept],
    ).with_columns(pl.col("_o").rank("ordinal").over("_g").alias("_nth"))
    first = sources.filter(pl.col("_nth") == 1).select(
        "_g", *[pl.col(c).alias(c + FIRST) for c in ("_s", "_all", "_plays", *kept)]
    )
    later = sources.filter(pl.col("_nth") > 1).join(first, on="_g", how="inner")
    kind = (
        pl.when(pl.col("_all") == pl.col("_all" + FIRST)).then(pl.lit(COPY))
        .when(pl.col("_plays") == pl.col("_plays" + FIRST)).then(pl.lit(SAME_PLAYS))
        .otherwise(pl.lit(OTHER))
    )
    return later.sort("_o").select(
        pl.col("_g").alias(game), pl.col("_s").alias(source), kind.alias("kind"),
        *[pl.col(k).alias(name) for k, name in zip(kept, keep)], pl.col("_s" + FIRST).alias(source + FIRST),
        *[pl.col(k + FIRST).alias(name + FIRST) for k, name in zip(kept, keep)],
    )
