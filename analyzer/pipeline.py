"""The whole job as one function: load → validate → score hands → replay games → aggregate.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.games.head()

Data flows one way; bad rows become rejects (with file, row, column, value and reason), never exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analyzer.games import game_results
from analyzer.io.load import as_text_columns, load
from analyzer.players import player_stats
from analyzer.problems import flag_problems
from analyzer.replay import derive_table_state, order_hands, running_scores
from analyzer.rules import Rules, load_rules
from analyzer.schema import DELTA_COLUMNS, INPUT_POSITION, SCORE_COLUMNS, SOURCE_FILE, SOURCE_ROW
from analyzer.scoring.payments import deltas, hand_value
from analyzer.scoring.tiles_stage import TILE_OUTPUTS, apply_tiles
from analyzer.validate import rejects_of, validate

ADDED_COLUMNS = [
    "dealer",
    "replayed_honba",
    "kyotaku",
    "han",
    "fu",
    "yakuman",
    "base_points",
    "limit",
    "points",
    *DELTA_COLUMNS,
    *SCORE_COLUMNS,
    "problems",
]
SOURCE_COLUMNS = {SOURCE_FILE: "source_file", SOURCE_ROW: "source_row"}


@dataclass
class ScoreResult:
    """The four outputs of a run, as DataFrames, and the counts that must add up."""

    hands: pl.DataFrame
    games: pl.DataFrame
    players: pl.DataFrame
    rejects: pl.DataFrame
    rules: Rules

    @property
    def rows_rejected(self) -> int:
        return self.rejects.select(pl.struct("file", "row").n_unique()).item() if self.rejects.height else 0

    @property
    def rows_read(self) -> int:
        return self.hands.height + self.rows_rejected

    @property
    def rows_with_problems(self) -> int:
        return self.hands.filter(pl.col("problems") != "").height


def _input_columns(lf: pl.LazyFrame) -> list[str]:
    return [c for c in lf.collect_schema().names() if not c.startswith("_")]


def score_hands(valid: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Scored hand rows (internal columns kept) from validated rows without reject reasons."""
    return (
        valid.pipe(hand_value, rules)
        .pipe(order_hands, rules)
        .pipe(derive_table_state, rules)
        .pipe(deltas, rules)
        .pipe(running_scores, rules)
        .pipe(flag_problems, rules)
    )


def score(
    data: pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path],
    rules: Rules | str | Path | None = None,
) -> ScoreResult:
    """Score hand records: a LazyFrame/DataFrame of raw text columns (as :func:`analyzer.load` gives), or paths."""
    rules = load_rules(rules)
    if isinstance(data, (pl.LazyFrame, pl.DataFrame)):
        raw = _prepare_input(as_text_columns(data.lazy()))
    else:
        raw = _prepare_input(load(data))
    inputs = _input_columns(raw)
    # Two materialised stage boundaries: the validated rows (feeding both the rejects and the scoring) and the
    # scored hands (feeding the hands, games and players outputs). Planning the whole chain once per output
    # costs more than it saves.
    checked = validate(raw).pipe(apply_tiles, rules).collect().lazy()
    scored = score_hands(checked.filter(pl.col("_reasons").list.len() == 0), rules).collect().lazy()
    tile_columns = [c for c in TILE_OUTPUTS if c in scored.collect_schema().names()]
    given = [c for c in ("given_han", "given_fu", "given_yakuman") if c in scored.collect_schema().names()]
    hands_out = scored.sort("_seq").select(
        *inputs,
        *[c for c in [*ADDED_COLUMNS[:6], *tile_columns, *given, *ADDED_COLUMNS[6:]] if c not in inputs],
        *[pl.col(k).alias(v) for k, v in SOURCE_COLUMNS.items()],
    )
    games = game_results(scored, rules)
    players = player_stats(scored, games)
    hands_df, games_df, players_df, rejects_df = pl.collect_all([hands_out, games, players, rejects_of(checked)])
    return ScoreResult(hands=hands_df, games=games_df, players=players_df, rejects=rejects_df, rules=rules)


def _prepare_input(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Frames built in Python have no source file; give them one so rejects still point somewhere.

    A recorded ``kyotaku`` is renamed ``recorded_kyotaku``: the replayed sticks take the name ``kyotaku``.
    """
    names = lf.collect_schema().names()
    if "kyotaku" in names and "recorded_kyotaku" not in names:
        lf = lf.rename({"kyotaku": "recorded_kyotaku"})
    if SOURCE_ROW not in names:
        lf = lf.with_row_index(SOURCE_ROW, offset=1).with_columns(pl.col(SOURCE_ROW).cast(pl.Int64))
    if SOURCE_FILE not in names:
        lf = lf.with_columns(pl.lit("<frame>").alias(SOURCE_FILE))
    if INPUT_POSITION not in names:
        lf = lf.with_columns(pl.col(SOURCE_ROW).alias(INPUT_POSITION))
    return lf
