"""A game recorded twice, at ``score`` and ``check``: the rows of one game id from two sources are never merged.

A row imported from a log says where it was recorded (``log_file``); a *source* of a game is one log file in
one input file (two imports of a game are two sources even from one path: the log may have changed between
them). Rows without a ``log_file`` (a score sheet's) are one source whatever file they are in, so a sheet's
game may be split over files. A game with more than one source is scored from the first in input order
(input files in the order given, rows in file order); each later source is compared with it
(:func:`analyzer.core.records.compare_sources`):

* an exact copy: left to the copies of a row (``duplicate_row: an exact copy of row N of FILE``,
  :func:`analyzer.scoring.parts.score_parts`);
* the same plays recorded otherwise (a Mahjong Soul raw record's import and its tensoul copy's: other names
  for the players, the room, the start time): its rows rejected as ``duplicate_row: the same game as LOG (in
  FILE), its plays recorded otherwise: counted once``;
* another version (an edited or a partial log): its rows rejected as ``other_version``, naming both files.

Cost: rows without ``log_file`` skip all of it; otherwise a scan for games with several sources (a
comparison with the row before where each game's rows are together, else a group-by over the game of one
integer per row), and the comparison only for the games that have several.
"""

from __future__ import annotations

import polars as pl

from analyzer.core.records import COPY, FIRST, SAME_PLAYS, compare_sources
from analyzer.core.schema import INPUT_POSITION, LOG_FILE, SOURCE_FILE
from analyzer.scoring.rejects import add_bits, reason, reason_kind, when
from analyzer.scoring.validate import COPY_REASON_START

OTHER_VERSION = "other_version"
OTHER_VERSION_START = f"{OTHER_VERSION}: "
RECORD_REASON = "_record_reason"  # the reason text of a later source's rows
SOURCE = "_source"
R_RECORDED_TWICE = reason("game_id", pl.col("game_id"), pl.col(RECORD_REASON))
reason_kind(rf"^{COPY_REASON_START}the same game as (.*), its plays recorded otherwise: counted once$",
            COPY_REASON_START + "the same game recorded otherwise", "${1}", column=False)
reason_kind(rf"^{OTHER_VERSION_START}(game .*) is another version of the game in (.*): not scored, .*$",
            OTHER_VERSION_START + "another version of a game recorded earlier", "${1} and ${2}", column=False)


def _source() -> pl.Expr:
    """A row's source: its log file in its input file; null for a row not imported from a log."""
    return pl.when(pl.col(LOG_FILE).is_null()).then(pl.lit(None, pl.String)).otherwise(
        pl.concat_str([pl.col(SOURCE_FILE), pl.col(LOG_FILE)], separator="\n"))


def _several_sources(rows: pl.DataFrame) -> pl.Series:
    """The ``_game`` keys of the games whose rows come from more than one source."""
    game, log, file = pl.col("_game"), pl.col(LOG_FILE), pl.col(SOURCE_FILE)
    named = rows.select("_game", LOG_FILE, SOURCE_FILE)
    if named["_game"].null_count():  # rows without a game id: rejected, and no game's
        named = named.filter(game.is_not_null())
    runs = named.select((game != game.shift(1)).fill_null(True).sum()).item()
    if runs == named["_game"].n_unique():  # each game's rows together: a comparison with the row before
        other_file = log.is_not_null() & (file != file.shift(1))
        changed = (game == game.shift(1)) & (~log.eq_missing(log.shift(1)) | other_file)
        if not named.select(changed.fill_null(False).any()).item():
            return pl.Series("_game", [], named.schema["_game"])
    # else one integer per row: a hash of the source (its log file's and its input file's, a constant column);
    # two sources hashed alike by chance (one in 2^64) would go unseen
    key = pl.when(log.is_null()).then(pl.lit(0, pl.UInt64)).otherwise(log.hash() ^ file.hash())
    several = named.lazy().group_by("_game").agg((key.min() != key.max()).alias("_several"))
    return several.filter("_several").collect()["_game"]


def reject_other_records(validated: pl.DataFrame) -> pl.DataFrame:
    """``validated`` (with ``_game``) with the rows of each later source of a game rejected, unless they are
    exact copies of the first source's (those are the copies of a row): see the module docstring."""
    if LOG_FILE not in validated.columns:
        return validated
    games = _several_sources(validated)
    if games.is_empty():
        return validated
    rows = validated.filter(pl.col("_game").is_in(games.implode())).with_columns(_source().alias(SOURCE))
    later = compare_sources(rows, "_game", SOURCE, INPUT_POSITION, keep=[SOURCE_FILE, LOG_FILE]).filter(
        pl.col("kind") != COPY)
    if later.is_empty():
        return validated
    first, this = _where(FIRST), _where("")
    text = pl.when(pl.col("kind") == SAME_PLAYS).then(
        pl.format(COPY_REASON_START + "the same game as {}, its plays recorded otherwise: counted once", first)
    ).otherwise(pl.format(
        OTHER_VERSION_START + "game {} of {} is another version of the game in {}: not scored, the game is scored "
        "from {}", pl.col("game_id"), this, first, pl.coalesce(pl.col(LOG_FILE + FIRST), pl.col(SOURCE_FILE + FIRST))))
    rejected = rows.select("_game", SOURCE, INPUT_POSITION, "game_id").join(
        later, on=["_game", SOURCE], how="inner", nulls_equal=True).select(INPUT_POSITION, text.alias(RECORD_REASON))
    return validated.with_columns(
        pl.col(INPUT_POSITION).replace_strict(rejected[INPUT_POSITION], rejected[RECORD_REASON], default=None,
                                              return_dtype=pl.String).alias(RECORD_REASON)
    ).with_columns(add_bits([when(pl.col(RECORD_REASON).is_not_null(), R_RECORDED_TWICE)]))


def _where(suffix: str) -> pl.Expr:
    """Where a source's rows are: ``LOG (in FILE)``, or the input file of rows not imported from a log."""
    log, file = pl.col(LOG_FILE + suffix), pl.col(SOURCE_FILE + suffix)
    return pl.when(log.is_null()).then(file).otherwise(pl.format("{} (in {})", log, file))
