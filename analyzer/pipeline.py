"""The whole job as one function: load → validate → score hands → replay games → aggregate.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.games.head()

Data flows one way; bad rows become rejects (with file, row, column, value and reason), never exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.games import game_results
from analyzer.io.load import as_text_columns, load
from analyzer.players import player_stats
from analyzer.problems import flag_problems
from analyzer.replay import derive_table_state, order_hands, running_scores
from analyzer.rules import Rules, RulesError, load_rules
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


RULES_COLUMN = "rules"


@dataclass
class ScoreResult:
    """The four outputs of a run, as DataFrames, and the counts that must add up.

    ``rules`` is the ruleset given to :func:`score` (or the default one); when the games were scored under
    their own ``rules`` column, ``rulesets`` lists every ruleset used and the games table says which game used
    which (column ``rules``).
    """

    hands: pl.DataFrame
    games: pl.DataFrame
    players: pl.DataFrame
    rejects: pl.DataFrame
    rules: Rules
    rulesets: list[Rules] = field(default_factory=list)

    @property
    def rows_rejected(self) -> int:
        return self.rejects.select(pl.struct("file", "row").n_unique()).item() if self.rejects.height else 0

    @property
    def rows_read(self) -> int:
        return self.hands.height + self.rows_rejected

    @property
    def rows_with_problems(self) -> int:
        return self.hands.filter(pl.col("problems") != "").height

    @property
    def rules_label(self) -> str:
        """'tenhou' for a single ruleset, 'per game: tenhou, tenhou;aka_dora=false' when games differ."""
        names = sorted({r.name for r in self.rulesets} or {self.rules.name})
        return names[0] if len(names) == 1 else "per game: " + ", ".join(names)


@dataclass
class ScoredPart:
    """The games of one ruleset, as two materialised stage boundaries (internal columns kept).

    ``checked``: every row validated and scored from its tiles, reject reasons included; ``scored``: the rows
    without reasons after the whole hand pipeline (``_seq`` and ``_hand`` are unique across the parts).
    """

    rules: Rules
    checked: pl.LazyFrame
    scored: pl.LazyFrame


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


def raw_input(data: pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path]) -> pl.LazyFrame:
    """Hand records as raw text columns with their source columns, from a frame or from paths."""
    if isinstance(data, (pl.LazyFrame, pl.DataFrame)):
        return _prepare_input(as_text_columns(data.lazy()))
    return _prepare_input(load(data))


def score_parts(raw: pl.LazyFrame, rules: Rules | str | Path | None = None) -> list[ScoredPart]:
    """Validate and score raw rows, one part per ruleset.

    With ``rules`` given every game uses it. Without, a game uses the ruleset named in its ``rules`` column
    (a spec such as ``tenhou;aka_dora=false``, as the Tenhou importer writes; the game's first row decides),
    and games without one use the default preset. Rows of a game whose spec is not a valid ruleset are
    rejected with the reason.
    """
    per_game = rules is None and RULES_COLUMN in raw.collect_schema().names()
    default = load_rules(rules)
    validated = validate(raw)
    if not per_game:
        return [_score_part(validated, default, offset=0)]
    game_spec = (
        pl.col(RULES_COLUMN).str.strip_chars().replace("", None).sort_by(INPUT_POSITION).drop_nulls().first()
        .over("game_id").fill_null(default.name)
    )
    validated = validated.with_columns(game_spec.alias("_rules_spec")).collect()
    by_name: dict[str, tuple[Rules, list[str]]] = {}
    bad_specs: dict[str, str] = {}
    for spec in sorted(validated["_rules_spec"].unique().to_list()):
        try:
            ruleset = load_rules(spec)
        except (RulesError, OSError) as exc:
            bad_specs[spec] = f"not a ruleset: {exc}"
            ruleset = default
        by_name.setdefault(ruleset.name, (ruleset, []))[1].append(spec)
    if bad_specs:
        bad = pl.col("_rules_spec").replace_strict(bad_specs, default=None, return_dtype=pl.String)
        reason = pl.struct(column=pl.lit(RULES_COLUMN), value=pl.col("_rules_spec"), reason=bad)
        validated = validated.with_columns(
            pl.when(bad.is_not_null())
            .then(pl.concat_list(pl.col("_reasons"), reason))
            .otherwise(pl.col("_reasons"))
            .alias("_reasons")
        )
    if not by_name:  # no rows at all
        return [_score_part(validated.drop("_rules_spec").lazy(), default, offset=0)]
    parts, offset = [], 0
    for ruleset, specs in by_name.values():
        rows = validated.filter(pl.col("_rules_spec").is_in(specs)).drop("_rules_spec")
        parts.append(_score_part(rows.lazy(), ruleset, offset))
        offset += rows.height
    return parts


def _score_part(validated: pl.LazyFrame, rules: Rules, offset: int) -> ScoredPart:
    # Two materialised stage boundaries: the validated rows (feeding both the rejects and the scoring) and the
    # scored hands (feeding the hands, games and players outputs). Planning the whole chain once per output
    # costs more than it saves.
    checked = validated.pipe(apply_tiles, rules).collect().lazy()
    scored = (
        score_hands(checked.filter(pl.col("_reasons").list.len() == 0), rules)
        .with_columns(pl.col("_seq") + offset, pl.col("_hand") + offset)
        .collect()
        .lazy()
    )
    return ScoredPart(rules=rules, checked=checked, scored=scored)


def assemble(parts: list[ScoredPart], rules: Rules) -> ScoreResult:
    """The four outputs from scored parts (the hands in replay order, games tagged with their ruleset)."""
    scored = pl.concat([p.scored for p in parts], how="diagonal_relaxed")
    checked = pl.concat([p.checked for p in parts], how="diagonal_relaxed")
    inputs = _input_columns(checked)
    names = scored.collect_schema().names()
    tile_columns = [c for c in TILE_OUTPUTS if c in names]
    given = [c for c in ("given_han", "given_fu", "given_yakuman") if c in names]
    hands_out = scored.sort("_seq").select(
        *inputs,
        *[c for c in [*ADDED_COLUMNS[:6], *tile_columns, *given, *ADDED_COLUMNS[6:]] if c not in inputs],
        *[pl.col(k).alias(v) for k, v in SOURCE_COLUMNS.items()],
    )
    games = pl.concat(
        [game_results(p.scored, p.rules).with_columns(pl.lit(p.rules.name).alias("rules")) for p in parts]
    ).sort("game_id", "place", "seat")
    players = player_stats(scored, games)
    hands_df, games_df, players_df, rejects_df = pl.collect_all([hands_out, games, players, rejects_of(checked)])
    return ScoreResult(
        hands=hands_df, games=games_df, players=players_df, rejects=rejects_df, rules=rules,
        rulesets=[p.rules for p in parts],
    )


def score(
    data: pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path],
    rules: Rules | str | Path | None = None,
) -> ScoreResult:
    """Score hand records: a LazyFrame/DataFrame of raw text columns (as :func:`analyzer.load` gives), or paths.

    Without ``rules``, games that carry a ``rules`` column are scored under it (see :func:`score_parts`), the
    others under the default preset.
    """
    parts = score_parts(raw_input(data), rules)
    return assemble(parts, load_rules(rules))


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
