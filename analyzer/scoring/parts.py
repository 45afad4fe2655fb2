"""Scoring the rows of one partition (whole games): each game under its ruleset, the check stages, the copies
of a row rejected, the hand stages.

:func:`score_parts` is the work one partition does before its outputs are assembled
(:mod:`analyzer.jobs.outputs`): it reads the rows once, validates them, groups the games by ruleset and runs
:mod:`analyzer.scoring.stages` on each group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.io.load import load, prepare_input, read_frame
from analyzer.game.per_game import per_game_columns, scoring_key
from analyzer.scoring.rejects import add_bits, is_clean, reason, when
from analyzer.game.replay import REPLAY_ORDER, game_keys, sort_for_replay
from analyzer.core.rules import Rules, RulesError, from_spec, load_rules, preset_names
from analyzer.core.schema import INPUT_POSITION, LOG_FILE, PROVENANCE_COLUMNS
from analyzer.scoring.records import reject_other_records
from analyzer.scoring.stages import CHECK_STAGES, run_stages, score_hands
from analyzer.scoring.validate import R_DUPLICATE, validate

RULES_COLUMN = "rules"
R_RULES = reason(RULES_COLUMN, pl.col("_rules_spec"), pl.col("_rules_problem"))


@dataclass
class ScoredPart:
    """The games of one ruleset (or of several that differ only in per-game options: ``members``, each game's
    own options in columns, see :mod:`analyzer.game.per_game`), as two materialised stage boundaries (internal
    columns kept).

    ``checked``: every row validated and scored from its tiles, reject reasons included; ``scored``: the rows
    without reasons after the whole hand pipeline (``_seq`` and ``_hand`` are unique across the parts).
    """

    rules: Rules
    checked: pl.LazyFrame
    scored: pl.LazyFrame
    members: list[Rules] = field(default_factory=list)  # the rulesets of its games (analyzer.game.per_game)


def raw_input(data: pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path]) -> pl.LazyFrame:
    """Hand records as raw text columns with their source columns, from a frame or from paths."""
    if isinstance(data, (pl.LazyFrame, pl.DataFrame)):
        return read_frame(data)
    return prepare_input(load(data))


def score_parts(raw: pl.LazyFrame, rules: Rules | str | Path | None = None) -> list[ScoredPart]:
    """Validate and score raw rows, one part per ruleset.

    With ``rules`` given every game uses it. Without, a game uses the ruleset named in its ``rules`` column
    (a spec such as ``tenhou;aka_dora=false``, as the Tenhou importer writes; the game's first row decides),
    and games without one use the default preset (a three-player game — a ``players`` column of 3, or no
    ``player_3`` on any of its rows — the default's three-player preset, ``tenhou_sanma`` for ``tenhou``).
    Rows of a game whose spec is not a valid ruleset are rejected with the reason.
    """
    # read once: validation first asks which columns are written plainly, then cleans the others
    raw = prepare_input(raw).collect().lazy()
    names = raw.collect_schema().names()
    default = load_rules(rules)
    validated = validate(raw).pipe(game_keys)
    if LOG_FILE in names:  # imported rows: a game recorded in two logs (or imported twice) is scored from the first
        validated = reject_other_records(validated.collect()).lazy()
    three_player = _three_player_game(validated.collect_schema().names())
    per_game = rules is None and RULES_COLUMN in names
    if rules is None and not per_game:  # a seat 3 left empty somewhere: maybe three-player games
        validated = validated.collect().lazy()
        maybe = (pl.col("player_3").is_null() | (pl.col("player_3") == "")).any()
        if "players" in names:
            maybe = maybe | (pl.col("players").cast(pl.String).str.strip_chars() == "3").any()
        per_game = validated.select(maybe).collect().item() and validated.select(
            three_player.over("game_id").any()).collect().item()
    if not per_game:
        return [_score_part(validated, default, offset=0)]
    spec = (
        pl.col(RULES_COLUMN).str.strip_chars().replace("", None).sort_by(INPUT_POSITION).drop_nulls().first()
        .over("game_id") if RULES_COLUMN in names else pl.lit(None, pl.String)
    )
    sanma_default = f"{default.name}_sanma" if f"{default.name}_sanma" in preset_names() else default.name
    fallback = pl.when(three_player.over("game_id")).then(pl.lit(sanma_default)).otherwise(pl.lit(default.name))
    validated = validated.with_columns(spec.fill_null(fallback).alias("_rules_spec")).collect()
    by_name: dict[str, tuple[Rules, list[str]]] = {}
    bad_specs: dict[str, str] = {}
    for spec in sorted(validated["_rules_spec"].unique().to_list()):
        try:
            ruleset = from_spec(spec)  # a preset and options only: data never names a file to read
        except (RulesError, OSError) as exc:
            bad_specs[spec] = f"not a ruleset: {exc}"
            ruleset = default
        by_name.setdefault(ruleset.name, (ruleset, []))[1].append(spec)
    validated = validated.with_columns(
        pl.col("_rules_spec").replace_strict(bad_specs, default=None, return_dtype=pl.String).alias("_rules_problem")
    ).with_columns(add_bits([when(pl.col("_rules_problem").is_not_null(), R_RULES)]))
    if not by_name:  # no rows at all
        return [_score_part(validated.lazy(), default, offset=0)]
    # Rulesets that score every hand alike share a part, each game's own options in columns (analyzer.game.per_game)
    groups: dict[tuple, dict[str, Rules]] = {}
    for ruleset, specs in by_name.values():
        groups.setdefault(scoring_key(ruleset), {}).update(dict.fromkeys(specs, ruleset))
    parts, offset = [], 0
    for by_spec in groups.values():
        rows = validated.filter(pl.col("_rules_spec").is_in(list(by_spec)))
        members = unique_rulesets(list(by_spec.values()))
        if len(members) > 1:
            rows = rows.with_columns(per_game_columns(pl.col("_rules_spec"), by_spec))
        parts.append(_score_part(rows.lazy(), members[0], offset, members))
        offset += rows.height
    return parts


def _three_player_game(names: list[str]) -> pl.Expr:
    """Per row, whether its game is a three-player record (an aggregate: use it ``.over("game_id")`` or with
    ``.any()``): its first ``players`` value is 3, or without one no row names a ``player_3``."""
    seat3_empty = (
        (pl.col("player_3").is_null() | (pl.col("player_3") == "")).all() if "player_3" in names else pl.lit(True)
    )
    if "players" not in names:
        return seat3_empty
    stated = pl.col("players").cast(pl.String).str.strip_chars().replace("", None).drop_nulls().first()
    return pl.when(stated.is_not_null()).then(stated == "3").otherwise(seat3_empty)


def _score_part(validated: pl.LazyFrame, rules: Rules, offset: int, members: list[Rules] | None = None) -> ScoredPart:
    # Two materialised stage boundaries: the validated rows (feeding both the rejects and the scoring) and the
    # scored hands (feeding the hands, games and players outputs). Planning the whole chain once per output
    # costs more than it saves.
    # The tile scorer joins its frame with parts of itself: validate first, or every join would validate again.
    checked = run_stages(validated.collect().lazy(), CHECK_STAGES, rules).collect()
    # Filtering or sorting a wide frame copies every column: the rows rejected are sliced around, and rows
    # already in replay order are not sorted.
    rejected = checked.select(pl.int_range(pl.len(), dtype=pl.Int64).filter(~is_clean().fill_null(False))).to_series()
    valid = without_rows(checked, rejected) if len(rejected) else checked
    valid, checked = _drop_copies(sort_for_replay(valid), checked)
    scored = (
        score_hands(valid.lazy(), rules)
        .with_columns(pl.col("_seq") + offset, pl.col("_hand") + offset)
        .collect()
        .lazy()
    )
    return ScoredPart(rules=rules, checked=checked.lazy(), scored=scored, members=members or [rules])


def _drop_copies(ordered: pl.DataFrame, checked: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Rows that repeat an earlier row of their game exactly (the same record given twice: two files, or the
    CSV and the Parquet of one sheet) are rejected as copies instead of being paid twice. Where a row was
    recorded (``log_file``, ``log_row``) is not what it says: the same game imported from two paths is copied.

    Exact copies share every replay key, so in replay order each copy follows its original: comparing each
    row with the one before it finds them all, with no hashing of whole rows. Only the rows whose replay keys
    (integers) equal the row before's — a multiple ron, a chombo, a copy: a few in a hundred — are compared
    column by column."""
    same_keys = pl.all_horizontal(pl.col(k).eq_missing(pl.col(k).shift(1)) for k in REPLAY_ORDER if k != "_pos")
    candidates = ordered.select(pl.int_range(pl.len(), dtype=pl.Int64).filter(same_keys)).to_series()
    if candidates.is_empty():
        return ordered, checked
    values = [c for c in ordered.columns if not c.startswith("_") and c in checked.columns
              and c not in PROVENANCE_COLUMNS]
    row, before = ordered[candidates].select(values), ordered[candidates - 1].select(values)
    same = row.select(pl.all_horizontal(row[c].eq_missing(before[c]) for c in values)).to_series()
    copies = candidates.filter(same)
    if copies.is_empty():
        return ordered, checked
    # a run of copies follows its original, the row before the run (copies - their rank is constant along a run)
    originals = copies.to_frame("at").select(pl.col("at").min().over(
        pl.col("at") - pl.int_range(pl.len(), dtype=pl.Int64)) - 1).to_series()
    copied_pos = ordered["_pos"].gather(copies)
    copy_of = {name: pl.col("_pos").replace_strict(copied_pos, ordered[source].gather(originals), default=None,
                                                   return_dtype=ordered.schema[source])
               for name, source in (("_copy_of_row", "_row"), ("_copy_of_file", "_file"))}
    # columns added, not joined: a join (or a window over the rows) copies every column of the partition
    checked = checked.with_columns(**copy_of).with_columns(
        add_bits([when(pl.col("_pos").is_in(copied_pos.implode()), R_DUPLICATE)]))
    return without_rows(ordered, copies), checked


MANY_RUNS = 64  # more runs of rows left out than this: the rest is filtered (one copy), not sliced (a chunk each)


def without_rows(frame: pl.DataFrame, at: pl.Series) -> pl.DataFrame:
    """``frame`` without the rows at ``at`` (ascending positions): the slices between the runs of them, not a
    copy of every column (a filter copies the whole partition for one rejected row)."""
    run = at - pl.int_range(len(at), dtype=pl.Int64, eager=True)  # constant along a run of consecutive rows
    starts, ends = at.filter(run != run.shift(1).fill_null(-1)), at.filter(run != run.shift(-1).fill_null(-1)) + 1
    if len(starts) > MANY_RUNS:
        return frame.filter(~pl.int_range(pl.len(), dtype=pl.Int64).is_in(at.implode()))
    kept = zip([0, *ends.to_list()], [*starts.to_list(), frame.height])
    return pl.concat([frame.slice(lo, hi - lo) for lo, hi in kept if hi > lo] or [frame.clear()], rechunk=False)


def unique_rulesets(rulesets: list[Rules]) -> list[Rules]:
    """The rulesets by name, first of each kept, in order."""
    seen: dict[str, Rules] = {}
    for r in rulesets:
        seen.setdefault(r.name, r)
    return list(seen.values())
