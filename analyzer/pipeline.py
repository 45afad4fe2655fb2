"""The whole job as one function: load → validate → score hands → replay games → aggregate.

>>> import analyzer
>>> result = analyzer.score(analyzer.load("sample_logs/csv"), rules="ema")
>>> result.games.head()

Data flows one way; bad rows become rejects (with file, row, column, value and reason), never exceptions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.games import game_results
from analyzer.io.load import as_text_columns, expand_inputs, load
from analyzer.io.write import ResultWriter
from analyzer.per_game import GAME_RULES, per_game_columns, scoring_key
from analyzer.partition import DEFAULT_PARTITION_ROWS, Part, Plan, parse_size, plan, rows_for_memory
from analyzer.players import combine_partials, finalize_players, finalize_yaku_stats, player_partials
from analyzer.problems import flag_problems, rows_with_problems as _rows_with_problems
from analyzer.replay import REPLAY_ORDER, derive_table_state, game_keys, order_hands, running_scores, sort_for_replay
from analyzer.rules import Rules, RulesError, from_spec, load_rules, preset_names
from analyzer.schema import DELTA_COLUMNS, INPUT_POSITION, SCORE_COLUMNS, SOURCE_FILE, SOURCE_ROW
from analyzer.scoring.checks import seat_checks, value_checks
from analyzer.scoring.payments import deltas, hand_value
from analyzer.scoring.tiles_stage import TILE_OUTPUTS, apply_tiles
from analyzer.rejects import REJECT, add_bits, is_clean, reason, rejects_of, when
from analyzer.validate import COPY_REASON_START, R_DUPLICATE, validate

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
# The partitions' partial rows (one per player and partition, ~75 columns: about 0.6 kB each) are merged into one
# row per player once this many pile up: memory stays flat however many partitions a run has (at 10^6 rows, 30M
# input rows peaked at 2.67 GB against 1.74 GB for 10M).
MERGE_PARTIALS_ROWS = 200_000
R_RULES = reason(RULES_COLUMN, pl.col("_rules_spec"), pl.col("_rules_problem"))


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
    yaku_stats: pl.DataFrame | None = None  # player, yaku, count, rate (player null: all players)

    @property
    def rows_rejected(self) -> int:
        return self.rejects.select(pl.struct("file", "row").n_unique()).item() if self.rejects.height else 0

    @property
    def rows_read(self) -> int:
        return self.hands.height + self.rows_rejected

    @property
    def rows_with_problems(self) -> int:
        return _rows_with_problems(self.hands)

    @property
    def rules_label(self) -> str:
        return rules_label(self.rulesets, self.rules)


def rules_label(rulesets: list[Rules], rules: Rules) -> str:
    """'tenhou' for a single ruleset, 'per game: tenhou, tenhou;aka_dora=false' when games differ."""
    names = sorted({r.name for r in rulesets} or {rules.name})
    return names[0] if len(names) == 1 else "per game: " + ", ".join(names)


@dataclass
class ScoredPart:
    """The games of one ruleset (or of several that differ only in per-game options: ``members``, each game's
    own options in columns, see :mod:`analyzer.per_game`), as two materialised stage boundaries (internal
    columns kept).

    ``checked``: every row validated and scored from its tiles, reject reasons included; ``scored``: the rows
    without reasons after the whole hand pipeline (``_seq`` and ``_hand`` are unique across the parts).
    """

    rules: Rules
    checked: pl.LazyFrame
    scored: pl.LazyFrame
    members: list[Rules] = field(default_factory=list)  # the rulesets of its games (analyzer.per_game)


def _input_columns(lf: pl.LazyFrame) -> list[str]:
    return [c for c in lf.collect_schema().names() if not c.startswith("_")]


def score_hands(valid: pl.LazyFrame, rules: Rules, presorted: bool = False) -> pl.LazyFrame:
    """Scored hand rows (internal columns kept) from validated rows without reject reasons.

    ``presorted``: the rows are in replay order already (:func:`analyzer.replay.sort_for_replay`).
    """
    return (
        valid.pipe(hand_value, rules)
        .pipe(order_hands, rules, presorted)
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
    and games without one use the default preset (a three-player game — a ``players`` column of 3, or no
    ``player_3`` on any of its rows — the default's three-player preset, ``tenhou_sanma`` for ``tenhou``).
    Rows of a game whose spec is not a valid ruleset are rejected with the reason.
    """
    # read once: validation first asks which columns are written plainly, then cleans the others
    raw = _prepare_input(raw).collect().lazy()
    names = raw.collect_schema().names()
    default = load_rules(rules)
    validated = validate(raw).pipe(game_keys)
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
    # Rulesets that score every hand alike share a part, each game's own options in columns (analyzer.per_game)
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
    checked = (
        validated.collect().lazy().pipe(seat_checks, rules).pipe(apply_tiles, rules).pipe(value_checks, rules)
        .collect()
    )
    # Filtering or sorting a wide frame copies every column: skip both when there is nothing to do.
    valid = checked.filter(is_clean()) if (checked[REJECT] != 0).any() else checked
    valid, checked = _drop_copies(sort_for_replay(valid), checked)
    scored = (
        score_hands(valid.lazy(), rules, presorted=True)
        .with_columns(pl.col("_seq") + offset, pl.col("_hand") + offset)
        .collect()
        .lazy()
    )
    return ScoredPart(rules=rules, checked=checked.lazy(), scored=scored, members=members or [rules])


def _drop_copies(ordered: pl.DataFrame, checked: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Rows that repeat an earlier row of their game exactly (the same record given twice: two files, or the
    CSV and the Parquet of one sheet) are rejected as copies instead of being paid twice.

    Exact copies share every replay key, so in replay order each copy follows its original: comparing each
    row with the one before it finds them all, with no hashing of whole rows. Only the rows whose replay keys
    (integers) equal the row before's — a multiple ron, a chombo, a copy: a few in a hundred — are compared
    column by column."""
    same_keys = pl.all_horizontal(pl.col(k).eq_missing(pl.col(k).shift(1)) for k in REPLAY_ORDER if k != "_pos")
    candidates = ordered.select(pl.int_range(pl.len(), dtype=pl.Int64).filter(same_keys)).to_series()
    if candidates.is_empty():
        return ordered, checked
    values = [c for c in ordered.columns if not c.startswith("_") and c in checked.columns]
    row, before = ordered[candidates].select(values), ordered[candidates - 1].select(values)
    same = row.select(pl.all_horizontal(row[c].eq_missing(before[c]) for c in values)).to_series()
    copies = candidates.filter(same)
    if copies.is_empty():
        return ordered, checked
    flagged = ordered.select(
        pl.int_range(pl.len(), dtype=pl.Int64).is_in(copies.implode()).alias("_copy"), "_pos", "_row", "_file"
    )
    # a run of copies follows its original: the run's first row is the one kept
    run = (~pl.col("_copy")).cum_sum()
    flagged = flagged.select(
        "_pos", "_copy", pl.col("_row").first().over(run).alias("_copy_of_row"),
        pl.col("_file").first().over(run).alias("_copy_of_file"),
    ).filter("_copy")
    checked = checked.join(flagged, on="_pos", how="left", maintain_order="left").with_columns(
        add_bits([when(pl.col("_copy"), R_DUPLICATE)])
    ).drop("_copy")
    return ordered.filter(~pl.col("_pos").is_in(flagged["_pos"].implode())), checked


@dataclass
class PartResult:
    """The outputs of the games of one partition (whole games): what :func:`score_to` appends per partition.

    ``rejects`` keeps ``_pos`` and ``_bit`` so that the rejects of all partitions sort into input order.
    """

    hands: pl.DataFrame
    games: pl.DataFrame
    rejects: pl.DataFrame
    partials: pl.DataFrame | None  # None when assembled without statistics
    rulesets: list[Rules]
    statistics_seconds: float = 0.0  # wall time of the players' partial sums


def _hands_output(scored: pl.LazyFrame, checked: pl.LazyFrame, multiple: bool) -> pl.LazyFrame:
    inputs = _input_columns(checked)
    names = scored.collect_schema().names()
    tile_columns = [c for c in TILE_OUTPUTS if c in names]
    given = [c for c in ("given_han", "given_fu", "given_yakuman") if c in names]
    # Each ruleset's rows are in replay order already; rows of several rulesets interleave by game.
    ordered = scored.sort("_game", "_seq") if multiple else scored
    return ordered.select(
        *inputs,
        *[c for c in [*ADDED_COLUMNS[:6], *tile_columns, *given, *ADDED_COLUMNS[6:]] if c not in inputs],
        *[pl.col(k).alias(v) for k, v in SOURCE_COLUMNS.items()],
    )


def _game_rows(part: ScoredPart) -> pl.LazyFrame:
    """The games table rows of a part, each tagged with its game's ruleset."""
    games = game_results(part.scored, part.rules)
    if GAME_RULES in games.collect_schema().names():
        return games.rename({GAME_RULES: "rules"})
    return games.with_columns(pl.lit(part.rules.name).alias("rules"))


def assemble_part(parts: list[ScoredPart], statistics: bool = True) -> PartResult:
    """The outputs of one partition from its scored ruleset parts; without ``statistics`` no players' partial
    sums (``partials`` is None: ``check`` needs them only when it keeps the scored tables)."""
    scored = pl.concat([p.scored for p in parts], how="diagonal_relaxed")
    checked = pl.concat([p.checked for p in parts], how="diagonal_relaxed")
    hands_out = _hands_output(scored, checked, multiple=len(parts) > 1)
    # a part's game rows come in game id, place and seat order already; rows of several parts interleave
    games = pl.concat([_game_rows(p) for p in parts])
    if len(parts) > 1:
        games = games.sort("game_id", "place", "seat")
    hands_df, games_df, rejects_df = pl.collect_all([hands_out, games, rejects_of(checked, keep_order=True)])
    # a game with a rejected row is incomplete — unless the row was only a copy of one that was scored
    lost = rejects_df.filter(~pl.col("reason").str.starts_with(COPY_REASON_START))["game_id"]
    games_df = games_df.with_columns(pl.col("complete") & ~pl.col("game_id").is_in(lost.implode()))
    rulesets = [r for p in parts for r in p.members or [p.rules]]
    if not statistics:
        return PartResult(hands_df, games_df, rejects_df, None, rulesets)
    started = time.perf_counter()
    partials = player_partials(scored, games_df.lazy()).collect()
    return PartResult(hands_df, games_df, rejects_df, partials, rulesets,
                      statistics_seconds=time.perf_counter() - started)


def score_partition(raw: pl.LazyFrame, rules: Rules | str | Path | None = None) -> PartResult:
    """Score the rows of whole games (one partition): every output but the players table, and its partials."""
    return assemble_part(score_parts(raw, rules))


def finish_rejects(frames: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(frames, how="vertical").sort("_pos", "column", "_bit").drop("_pos", "_bit")


def finish_players(partials: list[pl.DataFrame]) -> pl.DataFrame:
    return finalize_players(combine_partials([p.lazy() for p in partials])).collect()


def finish_yaku_stats(partials: list[pl.DataFrame]) -> pl.DataFrame:
    return finalize_yaku_stats(combine_partials([p.lazy() for p in partials])).collect()


def unique_rulesets(rulesets: list[Rules]) -> list[Rules]:
    seen: dict[str, Rules] = {}
    for r in rulesets:
        seen.setdefault(r.name, r)
    return list(seen.values())


def assemble(parts: list[ScoredPart], rules: Rules) -> ScoreResult:
    """The four outputs from scored parts (the hands in replay order, games tagged with their ruleset)."""
    part = assemble_part(parts)
    return ScoreResult(
        hands=part.hands, games=part.games, players=finish_players([part.partials]),
        rejects=finish_rejects([part.rejects]), rules=rules, rulesets=part.rulesets,
        yaku_stats=finish_yaku_stats([part.partials]),
    )


def _partition_rows(partition_rows: int | None, memory_limit: str | int | None) -> int:
    if partition_rows is not None and partition_rows < 1:
        raise ValueError("partition_rows must be at least 1")
    if memory_limit is not None:
        limit = parse_size(memory_limit) if isinstance(memory_limit, str) else int(memory_limit)
        by_memory = rows_for_memory(limit)
        return min(partition_rows, by_memory) if partition_rows else by_memory
    return partition_rows or DEFAULT_PARTITION_ROWS


def plan_input(data, partition_rows: int | None, memory_limit: str | int | None) -> Plan:
    if isinstance(data, (pl.LazyFrame, pl.DataFrame)):
        frame = _prepare_input(as_text_columns(data.lazy()))
        return Plan([Part(0, -1, -1, frame)], rows=-1, games=-1, spilled=False)
    inputs = [data] if isinstance(data, (str, Path)) else list(data)
    return plan(expand_inputs(inputs), _partition_rows(partition_rows, memory_limit))


def score(
    data: pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path],
    rules: Rules | str | Path | None = None,
    *,
    partition_rows: int | None = None,
    memory_limit: str | int | None = None,
    scheduler: str | None = None,
    client=None,
    workers: int | None = None,
) -> ScoreResult:
    """Score hand records: a LazyFrame/DataFrame of raw text columns (as :func:`analyzer.load` gives), or paths.

    Without ``rules``, games that carry a ``rules`` column are scored under it (see :func:`score_parts`), the
    others under the default preset. Paths are scored in partitions of whole games (``partition_rows`` rows,
    or as many as ``memory_limit`` allows, e.g. ``"2GB"``) and the results put together in memory; for
    inputs too big for that, :func:`score_to` writes each partition's rows as it goes. ``scheduler`` (a Dask
    scheduler address), ``client`` (a ``distributed.Client``) or ``workers`` (a local cluster of N processes)
    score the partitions on a Dask cluster instead (:mod:`analyzer.cluster`), with the same result.
    """
    if scheduler is not None or client is not None or workers is not None:
        import tempfile

        from analyzer.cluster import read_parts, score_on_cluster

        with tempfile.TemporaryDirectory(prefix="analyzer-cluster-") as outdir:
            summary = score_on_cluster(data, outdir, rules, scheduler=scheduler, client=client, workers=workers,
                                       partition_rows=_partition_rows(partition_rows, memory_limit))
            tables = read_parts(outdir)
        return ScoreResult(**tables, rules=summary.rules, rulesets=summary.rulesets)
    work = plan_input(data, partition_rows, memory_limit)
    try:
        results = [score_partition(part.frame, rules) for part in work]
    finally:
        work.close()
    return combine_results(results, load_rules(rules))


def combine_results(results: list[PartResult], rules: Rules) -> ScoreResult:
    """The partitions' outputs as one :class:`ScoreResult` (in memory)."""
    return ScoreResult(
        hands=pl.concat([r.hands for r in results], how="vertical"),
        games=pl.concat([r.games for r in results], how="vertical"),
        players=finish_players([r.partials for r in results]),
        rejects=finish_rejects([r.rejects for r in results]),
        rules=rules,
        rulesets=unique_rulesets([x for r in results for x in r.rulesets]),
        yaku_stats=finish_yaku_stats([r.partials for r in results]),
    )


@dataclass
class RunSummary:
    """What :func:`score_to` wrote: counts, the (small) players table, and the paths."""

    rows_scored: int
    rows_rejected: int
    rows_with_problems: int
    games: int
    players: pl.DataFrame
    rules: Rules
    rulesets: list[Rules]
    paths: dict[str, Path | str]
    partitions: int
    spilled: bool
    workers: int = 1  # processes of a cluster run (analyzer.cluster); 1 on one machine
    seconds: float = 0.0  # wall time of the run (single machine)
    statistics_seconds: float = 0.0  # of it, the players' statistics: partial sums, their merges, the table

    @property
    def rows_read(self) -> int:
        return self.rows_scored + self.rows_rejected

    @property
    def rules_label(self) -> str:
        return rules_label(self.rulesets, self.rules)


def score_to(
    data: str | Path | list[str | Path],
    outdir: str | Path,
    fmt: str = "parquet",
    rules: Rules | str | Path | None = None,
    *,
    partition_rows: int | None = None,
    memory_limit: str | int | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> RunSummary:
    """Score hand records into ``OUTDIR/{hands,games,players,rejects}.{parquet,csv}``, one partition at a time.

    Each partition's hands, games and rejects are appended to the output files as soon as it is scored, so
    memory depends on the partition size, not on the input size; the players table is combined from each
    partition's partial aggregates at the end. The four files appear together when the run succeeds (they are
    written in a temporary directory inside OUTDIR and renamed into place); a failed run leaves OUTDIR as it
    was. ``progress(rows_done, rows_total, partitions_done)`` is called after each partition.
    """
    started = time.perf_counter()
    ruleset = load_rules(rules)
    work = plan_input(data, partition_rows, memory_limit)
    writer = ResultWriter(outdir, fmt, streamed=len(work.parts) > 1)
    rejects, partials, rulesets = [], [], []
    scored = problems = games = done = 0
    statistics = 0.0  # seconds spent on the players' statistics, reported in the summary and the manifest
    try:
        for number, part in enumerate(work, start=1):
            result = score_partition(part.frame, rules)
            writer.append("hands", result.hands)
            writer.append("games", result.games)
            rejects.append(result.rejects)
            partials.append(result.partials)
            statistics += result.statistics_seconds
            if sum(p.height for p in partials) > MERGE_PARTIALS_ROWS:  # keep them as small as the player pool
                merging = time.perf_counter()
                partials = [combine_partials([p.lazy() for p in partials]).collect()]
                statistics += time.perf_counter() - merging
            rulesets.extend(result.rulesets)
            scored += result.hands.height
            problems += _rows_with_problems(result.hands)
            games += result.games["game_id"].n_unique()
            done += result.hands.height + result.rejects.select(pl.col("_pos").n_unique()).item()
            if progress is not None:
                progress(done, work.rows, number)
        finishing = time.perf_counter()
        players = finish_players(partials)
        statistics += time.perf_counter() - finishing
        rejects_df = finish_rejects(rejects)
        writer.append("players", players)
        writer.append("rejects", rejects_df)
        seconds = time.perf_counter() - started
        paths = writer.commit({"seconds": {"run": round(seconds, 3), "statistics": round(statistics, 3)}})
    except BaseException:
        writer.abort()
        raise
    finally:
        work.close()
    return RunSummary(
        rows_scored=scored, rows_rejected=rejects_df.select(pl.struct("file", "row").n_unique()).item()
        if rejects_df.height else 0,
        rows_with_problems=problems, games=games, players=players, rules=ruleset,
        rulesets=unique_rulesets(rulesets), paths=paths, partitions=len(work.parts), spilled=work.spilled,
        seconds=seconds, statistics_seconds=statistics,
    )


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
