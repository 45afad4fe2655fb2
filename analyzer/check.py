"""Checking recorded results: score the records, compare every ``recorded_*`` value, run consistency checks.

``check(data, rules=None) -> CheckResult`` scores hand records exactly as :func:`analyzer.score` does (each game
under its own ``rules`` column unless ``rules`` is given) and returns one *finding* per disagreement:

=============== =========================================================================================
game_id, round, where: the game, the hand's round and recorded honba, ``hand_no`` (1 = the game's first
honba, hand_no  hand in replay order) and ``seat`` for per-seat fields (null otherwise)
seat
field           what differs: ``han``, ``fu``, ``yakuman``, ``points``, ``limit``, ``yaku``, ``dora``,
                ``ura_dora``, ``aka_dora``, ``delta_0``..``delta_3``, ``honba``, ``kyotaku``, ``round``,
                ``delta_sum``, ``han_fu``, ``final_score``, ``game_points``, ``end`` (where the game ends), a problem
                code's field, ``duplicate_row`` (a row that exactly repeats an earlier row of its game: counted
                once), or the column of a rejected row
kind            ``value`` (the hand's worth), ``payment`` (score changes), ``table`` (honba, sticks, dealer
                rotation), ``plausibility`` (a han/fu or winner combination no hand can have), ``money``
                (recorded changes do not balance), ``game_end`` (final scores, game points, a game that goes on
                after its rules end it or ends before they let it), ``tiles`` (the
                tiles cannot be scored), ``reject`` (the row could not be scored at all), ``note`` (worth
                knowing, not a disagreement: a game fragment replayed from its first row)
recorded        the recorded value as text; ``computed`` the value analyzer computes
explanation     a short reason: the yaku or fu items that differ, the payment behind a delta, …
source_file,    where the row came from
source_row
=============== =========================================================================================

Everything is column work on the scored frames; findings are sorted by game, hand, field and seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.per_game import last_round_expr
from analyzer.game_end import dealer_stays, hand_ends, next_round, round_name
from analyzer.io.html import html_page
from analyzer.io.load import InputError
from analyzer.io.write import write_atomic, write_table
from analyzer.pipeline import (
    PartResult,
    ScoredPart,
    _partition_rows,
    ScoreResult,
    plan_input,
    assemble_part,
    combine_results,
    finish_rejects,
    rules_label,
    score_parts,
    unique_rulesets,
)
from analyzer.rules import Rules, load_rules
from analyzer.scoring.points import base_points, hand_points
from analyzer.schema import DELTA_COLUMNS, SEATS
from analyzer.text import format_text, one_of
from analyzer.validate import COPY_REASON_START, DUPLICATE_ROW

FINDING_SCHEMA = {
    "game_id": pl.String,
    "round": pl.String,
    "honba": pl.Int64,
    "hand_no": pl.Int64,
    "seat": pl.Int64,
    "field": pl.String,
    "kind": pl.String,
    "recorded": pl.String,
    "computed": pl.String,
    "explanation": pl.String,
    "source_file": pl.String,
    "source_row": pl.Int64,
}
NOT_A_MISMATCH = ("note",)
WIN = one_of(pl.col("result"), ["ron", "tsumo"])

# problem codes of the scoring pipeline that are findings of their own (the *_mismatch codes of the tiles
# stage are covered by the field comparisons instead): code -> (field, kind, explanation)
PROBLEM_FINDINGS = {
    "head_bump": ("winner", "plausibility", "a further winner on one discard under head-bump (atamahane) rules"),
    "triple_ron_abort": ("result", "plausibility", "a triple ron is an abortive draw under these rules"),
    "duplicate_winner": ("winner", "plausibility", "the same player wins twice in one hand"),
    "seating_mismatch": ("players", "table", "the seating differs from the game's first row"),
    "riichi_not_tenpai": ("tenpai", "plausibility", "a riichi player is not listed tenpai at the draw"),
    "pao_without_yakuman": ("pao", "plausibility", "a liable player for a hand that is not a yakuman"),
    "abort_not_in_rules": ("result", "table", "an abortive draw under rules without them"),
    "nagashi_not_in_rules": ("result", "table", "nagashi mangan under rules without it"),
    "implausible_han_fu": ("han_fu", "plausibility", "no hand has this han/fu combination"),
    "bad_notation": ("hand", "tiles", "the tiles are not MPSZ notation"),
    "bad_meld": ("melds", "tiles", "a meld is not a valid chi, pon or kan"),
    "tile_count": ("hand", "tiles", "the hand and melds do not hold 14 tiles (kans as 3)"),
    "fifth_copy": ("hand", "tiles", "a tile appears five times"),
    "win_tile_not_in_hand": ("win_tile", "tiles", "the winning tile is not in the hand"),
    "not_complete": ("hand", "tiles", "the tiles are not a complete hand"),
    "no_yaku": ("hand", "tiles", "the hand has no yaku"),
    "partial_game": ("round", "note", "the game does not start at E1: replayed from the counters of its first row"),
    "loser_ignored": ("loser", "plausibility", "a loser is given for a result that has none"),
    "winner_ignored": ("winner", "plausibility", "a winner is given for a result that has none"),
}


@dataclass
class CheckResult:
    """The findings of a check, their counts per field and kind, and what was scored.

    ``scored`` holds every scored table when :func:`check` was asked to keep them (the default from Python);
    the counts (``rows_read``, ``games``, ``columns``, ``rules_label``) are there either way.
    """

    findings: pl.DataFrame
    scored: ScoreResult | None
    rows_read: int = 0
    games: int = 0
    columns: list[str] = field(default_factory=list)
    rules_label: str = ""

    @property
    def mismatches(self) -> pl.DataFrame:
        return self.findings.filter(~pl.col("kind").is_in(NOT_A_MISMATCH))

    @property
    def ok(self) -> bool:
        return self.mismatches.height == 0

    @property
    def summary(self) -> pl.DataFrame:
        """Findings counted per field and kind, most frequent first."""
        return (
            self.findings.group_by("kind", "field")
            .agg(pl.len().alias("count"), pl.col("game_id").n_unique().alias("games"))
            .sort(["count", "kind", "field"], descending=[True, False, False])
        )

    def headline(self) -> str:
        """'843 rows, 101 games: 12 mismatches in 4 games (15 notes)'."""
        mismatches = self.mismatches
        text = (
            f"{self.rows_read} rows, {self.games} games: "
            + (f"{mismatches.height} mismatches in {mismatches['game_id'].n_unique()} games" if mismatches.height
               else "everything agrees")
        )
        notes = self.findings.height - mismatches.height
        return text + (f" ({notes} notes)" if notes else "")

    @property
    def fields_compared(self) -> list[str]:
        """The recorded fields that the input carried and that were compared."""
        names = self.columns
        return [f for f, (recorded, _, _) in _VALUE_FIELDS.items() if recorded in names] + [
            f"{f}_{s}" for f in ("delta", "final", "game_points") for s in SEATS if f"recorded_{f}_{s}" in names
        ]


def check(
    data: pl.LazyFrame | pl.DataFrame | str | Path | list[str | Path],
    rules: Rules | str | Path | None = None,
    *,
    partition_rows: int | None = None,
    memory_limit: str | int | None = None,
    keep_scored: bool = True,
    progress: Callable[[int, int, int], None] | None = None,
    scheduler: str | None = None,
    client=None,
    workers: int | None = None,
    scratch: str | Path | None = None,
) -> CheckResult:
    """Score hand records and compare everything recorded with what the rules give (see the module doc).

    Works partition by partition like :func:`analyzer.score` (``partition_rows``, ``memory_limit``);
    ``keep_scored=False`` keeps only the findings and counts, so memory stays flat on any input.
    ``scheduler``, ``client`` or ``workers`` check the partitions on a Dask cluster (:mod:`analyzer.cluster`;
    the scored tables are not kept there).
    """
    if scheduler is not None or client is not None or workers is not None:
        from analyzer.cluster import check_on_cluster

        return check_on_cluster(data, rules, scheduler=scheduler, client=client, workers=workers,
                                partition_rows=_partition_rows(partition_rows, memory_limit), scratch=scratch)
    ruleset = load_rules(rules)
    work = plan_input(data, partition_rows, memory_limit)
    checked = []
    try:
        for number, part in enumerate(work, start=1):
            checked.append(check_partition(part.frame, rules, keep_scored))
            if progress is not None:
                progress(sum(c.rows for c in checked), work.rows, number)
    finally:
        work.close()
    return combine_checks(checked, ruleset, keep_scored)


@dataclass
class PartCheck:
    """The findings of one partition of whole games, its counts, and (when kept) its scored tables."""

    findings: pl.DataFrame
    rows: int
    games: int
    columns: list[str]
    rulesets: list[Rules]
    scored: PartResult | None


def check_partition(raw: pl.LazyFrame, rules: Rules | str | Path | None = None, keep_scored: bool = False) -> PartCheck:
    """Score and check the rows of whole games (one partition): the work of one partition or cluster task."""
    parts = score_parts(raw, rules)
    result = assemble_part(parts, statistics=keep_scored)  # the players' sums only when the tables are kept
    rejects = finish_rejects([result.rejects])
    findings = [f for p in parts for f in _part_findings(p, result.games)]
    findings.append(_reject_findings(rejects))
    report = pl.concat([f.select(list(FINDING_SCHEMA)).cast(FINDING_SCHEMA) for f in findings], how="vertical")
    rows = result.hands.height + rejects.select(pl.struct("file", "row").n_unique()).item()
    games = pl.concat([result.hands["game_id"], rejects["game_id"]]).n_unique()
    return PartCheck(report, rows, games, result.hands.columns, result.rulesets, result if keep_scored else None)


def combine_checks(checked: list[PartCheck], rules: Rules, keep_scored: bool = False) -> CheckResult:
    """One :class:`CheckResult` from the checks of the partitions."""
    report = pl.concat([c.findings for c in checked], how="vertical")
    scored = combine_results([c.scored for c in checked], rules) if keep_scored else None
    columns = next((c.columns for c in checked if c.columns), [])
    return CheckResult(
        findings=report.sort("game_id", "hand_no", "field", "seat", nulls_last=True), scored=scored,
        rows_read=sum(c.rows for c in checked), games=sum(c.games for c in checked), columns=columns,
        rules_label=rules_label(unique_rulesets([r for c in checked for r in c.rulesets]), rules),
    )


def _part_findings(part: ScoredPart, games: pl.DataFrame) -> list[pl.DataFrame]:
    hands = part.scored.with_columns(
        pl.col("_hand").rank("dense").over("game_id").cast(pl.Int64).alias("hand_no"),
        pl.col("_file").alias("source_file"),
        pl.col("_row").alias("source_row"),
    )
    names = hands.collect_schema().names()
    frames = [
        *_value_findings(hands, names),
        *_delta_findings(hands, names),
        _table_findings(hands, names),
        _round_findings(hands, part.rules),
        _problem_findings(hands),
        *_money_findings(hands, names, part.rules),
        *_plausibility_findings(hands, names, part.rules),
        *_game_end_findings(hands, names, games),
        _game_end_rule_findings(hands, part.rules),
    ]
    return pl.collect_all([f for f in frames if f is not None])


def _finding(
    lf: pl.LazyFrame, condition: pl.Expr, field: str | pl.Expr, kind: str | pl.Expr, recorded: pl.Expr,
    computed: pl.Expr, explanation: pl.Expr | str, seat: pl.Expr | int | None = None,
) -> pl.LazyFrame:
    """Rows of ``lf`` where ``condition`` holds, as findings."""
    return lf.filter(condition.fill_null(False)).select(
        "game_id",
        "round",
        "honba",
        "hand_no",
        pl.lit(seat, pl.Int64).alias("seat") if not isinstance(seat, pl.Expr) else seat.alias("seat"),
        (pl.lit(field) if isinstance(field, str) else field).alias("field"),
        (pl.lit(kind) if isinstance(kind, str) else kind).alias("kind"),
        recorded.cast(pl.String).alias("recorded"),
        computed.cast(pl.String).alias("computed"),
        (pl.lit(explanation) if isinstance(explanation, str) else explanation).alias("explanation"),
        "source_file",
        "source_row",
    )


def _int(name: str) -> pl.Expr:
    return pl.col(name).cast(pl.Float64, strict=False).round().cast(pl.Int64)


def _yaku_names(column: str) -> pl.Expr:
    return pl.col(column).list.eval(pl.element().struct.field("name").cast(pl.String)).list.sort()


def _yaku_difference() -> pl.Expr:
    """'computed adds X, Y; record has Z' from the computed yaku and ``recorded_yaku``."""
    computed, recorded = _yaku_names("yaku"), pl.col("recorded_yaku").cast(pl.List(pl.String)).list.sort()
    extra = computed.list.set_difference(recorded).list.join(", ")
    missing = recorded.list.set_difference(computed).list.join(", ")
    return pl.concat_str(
        pl.when(extra != "").then(pl.lit("computed adds ") + extra),
        pl.when(missing != "").then(pl.lit("record has ") + missing),
        separator="; ",
        ignore_nulls=True,
    ).replace("", "same yaku (dora or han values differ)")


def _fu_items() -> pl.Expr:
    item = (pl.element().struct.field("reason").cast(pl.String) + pl.lit(" ")
            + pl.element().struct.field("fu").cast(pl.String))
    return pl.lit("computed: ") + pl.col("fu_detail").list.eval(item).list.join(", ")


# field -> (recorded column, computed column, how it is explained)
_VALUE_FIELDS: dict[str, tuple[str, str, str]] = {
    "han": ("recorded_han", "han", "yaku"),
    "fu": ("recorded_fu", "fu", "fu"),
    "yakuman": ("recorded_yakuman", "yakuman", "yaku"),
    "points": ("recorded_points", "points", "value"),
    "limit": ("recorded_limit", "limit", "value"),
    "yaku": ("recorded_yaku", "yaku", "yaku"),
    "dora": ("recorded_dora", "dora_count", "indicators"),
    "ura_dora": ("recorded_ura_dora", "ura_dora", "indicators"),
    "aka_dora": ("recorded_aka_dora", "aka_dora", "red fives"),
    "given_han": ("given_han", "han", "yaku"),
    "given_fu": ("given_fu", "fu", "fu"),
    "given_yakuman": ("given_yakuman", "yakuman", "yaku"),
}


def _value_findings(hands: pl.LazyFrame, names: list[str]) -> list[pl.LazyFrame]:
    out = []
    has_tiles = "yaku" in names
    for field, (recorded_col, computed_col, why) in _VALUE_FIELDS.items():
        if recorded_col not in names or computed_col not in names:
            continue
        if field == "yaku":
            recorded = pl.col(recorded_col).cast(pl.List(pl.String)).list.sort()
            computed = _yaku_names("yaku")
            differs = recorded.is_not_null() & pl.col("yaku").is_not_null() & (recorded != computed)
            recorded, computed = recorded.list.join(", "), computed.list.join(", ")
        elif field == "limit":
            recorded, computed = pl.col(recorded_col), pl.col(computed_col)
            differs = pl.col("recorded_points").is_not_null() & recorded.ne_missing(computed) if (
                "recorded_points" in names
            ) else recorded.is_not_null() & (recorded != computed)
        else:
            recorded, computed = _int(recorded_col), pl.col(computed_col)
            differs = recorded.is_not_null() & computed.is_not_null() & (recorded != computed)
            if field in ("han", "fu", "given_han", "given_fu"):
                # a yakuman hand's han/fu are not what it is paid by
                differs = differs & (pl.col("yakuman").fill_null(0) == 0)
        explanation = {
            "yaku": _yaku_difference() if has_tiles and "recorded_yaku" in names else pl.lit("tiles give other yaku"),
            "fu": _fu_items() if "fu_detail" in names else pl.lit("other fu"),
            "value": format_text("computed from {} han {} fu, {} yakuman", "han", "fu", pl.col("yakuman").fill_null(0)),
            "indicators": format_text("indicators dora {} ura {}", _text_or_dash("dora"), _text_or_dash("ura"))
            if "dora" in names and "ura" in names else pl.lit("other dora count"),
            "red fives": pl.lit("red fives (0) in the hand and melds"),
        }[why]
        out.append(_finding(hands, WIN & differs, field, "value", recorded, computed, explanation))
    return out


def _text_or_dash(name: str) -> pl.Expr:
    return pl.col(name).cast(pl.String).fill_null("-")


def _delta_findings(hands: pl.LazyFrame, names: list[str]) -> list[pl.LazyFrame]:
    out = []
    for s in SEATS:
        recorded_col = f"recorded_delta_{s}"
        if recorded_col not in names:
            continue
        recorded, computed = _int(recorded_col), pl.col(DELTA_COLUMNS[s])
        explanation = format_text(
            "{} by seat {}: hand {} points, honba {}, sticks {}",
            "result", pl.col("_winner").cast(pl.String).fill_null("-"), pl.col("points").fill_null(0),
            "replayed_honba", "kyotaku",
        )
        out.append(_finding(hands, recorded.is_not_null() & (recorded != computed), f"delta_{s}", "payment",
                            recorded, computed, explanation, seat=s))
    return out


def _table_findings(hands: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    honba = _finding(
        hands, pl.col("_first") & (pl.col("honba") != pl.col("replayed_honba")), "honba", "table",
        pl.col("honba"), pl.col("replayed_honba"), "the honba the previous hands leave on the table",
    )
    if "recorded_kyotaku" not in names:
        return honba
    sticks = _finding(
        hands, pl.col("_first") & (_int("recorded_kyotaku") != pl.col("kyotaku")), "kyotaku", "table",
        _int("recorded_kyotaku"), pl.col("kyotaku"), "riichi sticks left by the previous hands",
    )
    return pl.concat([honba, sticks])


def _round_findings(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """The dealer repeats or passes as each hand's outcome requires: the next hand's round follows.

    The dealer stays after a paid win of the dealer, after an exhaustive draw or nagashi with the dealer
    tenpai, after an abortive draw and after a chombo (the hand is replayed); otherwise the deal passes.
    """
    stays = dealer_stays()
    # windows over the hand's rows first (a multiple ron has several), then one row per hand
    first = hands.with_columns(stays.alias("_stays")).filter(pl.col("_first")).sort("_seq").with_columns(
        next_round(pl.col("_round_idx"), pl.col("_stays"), rules.players).alias("_expected_round"),
    )
    nxt = first.with_columns(
        pl.col("_round_idx").shift(-1).over("game_id", order_by="_seq").alias("_next_round"),
    )
    why = format_text(
        "after {} in {} the dealer {}", "result", "round",
        pl.when(pl.col("_stays")).then(pl.lit("stays")).otherwise(pl.lit("passes")),
    )
    return _finding(
        nxt, pl.col("_next_round").is_not_null() & (pl.col("_next_round") != pl.col("_expected_round")),
        "round", "table", round_name(pl.col("_next_round")), round_name(pl.col("_expected_round")), why,
    ).with_columns(pl.col("hand_no") + 1)  # the finding belongs to the next hand, whose round is wrong


def _problem_findings(hands: pl.LazyFrame) -> pl.LazyFrame:
    codes = pl.DataFrame(
        {
            "_code": list(PROBLEM_FINDINGS),
            "_field": [v[0] for v in PROBLEM_FINDINGS.values()],
            "_kind": [v[1] for v in PROBLEM_FINDINGS.values()],
            "_why": [v[2] for v in PROBLEM_FINDINGS.values()],
        }
    ).lazy()
    exploded = (
        hands.with_columns(pl.col("problems").alias("_code"))
        .explode("_code")
        .join(codes, on="_code", how="inner")
    )
    return _finding(
        exploded, pl.lit(True), pl.col("_field"), pl.col("_kind"), pl.col("_code"), pl.lit(None, pl.String),
        pl.col("_why"),
    )


def _money_findings(hands: pl.LazyFrame, names: list[str], rules: Rules) -> list[pl.LazyFrame]:
    """Recorded score changes of a hand add up to the sticks taken from the table minus those put on it."""
    recorded = [f"recorded_delta_{s}" for s in rules.seats]
    if not all(c in names for c in recorded):
        return []
    per_hand = hands.group_by("_hand").agg(
        pl.sum_horizontal(_int(c).fill_null(0) for c in recorded).sum().alias("_recorded_sum"),
        pl.all_horizontal(_int(c).is_not_null() for c in recorded).all().alias("_complete"),
        ((pl.col("kyotaku") - pl.col("_kyotaku_after")) * rules.riichi_deposit).first().alias("_expected_sum"),
    )
    first = hands.filter(pl.col("_first")).join(per_hand, on="_hand", how="inner")
    return [
        _finding(
            first, pl.col("_complete") & (pl.col("_recorded_sum") != pl.col("_expected_sum")), "delta_sum", "money",
            pl.col("_recorded_sum"), pl.col("_expected_sum"),
            format_text("the recorded changes should add up to the sticks taken ({} on the table, {} left)",
                      "kyotaku", "_kyotaku_after"),
        )
    ]


def _plausibility_findings(hands: pl.LazyFrame, names: list[str], rules: Rules) -> list[pl.LazyFrame]:
    """A recorded han/fu pair some hand can have, and recorded points that follow from it."""
    if "recorded_han" not in names or "recorded_fu" not in names:
        return []
    han, fu = _int("recorded_han"), _int("recorded_fu")
    yakuman = _int("recorded_yakuman").fill_null(0) if "recorded_yakuman" in names else pl.lit(0)
    ron = pl.col("result") == "ron"
    possible_fu = fu.is_in([20, 25, *range(30, 120, 10)])
    impossible = (
        pl.when(han < 1).then(pl.lit("a winning hand has at least 1 han"))
        .when(fu.is_not_null() & ~possible_fu).then(pl.lit("fu is 20, 25 or a multiple of 10 up to 110"))
        .when((fu == 25) & (han < 2)).then(pl.lit("25 fu is chiitoitsu, at least 2 han"))
        .when((fu == 20) & ron).then(pl.lit("20 fu only for a closed tsumo (pinfu); a ron has 30"))
        .when((fu == 20) & (han < 2)).then(pl.lit("20 fu is pinfu tsumo, at least 2 han"))
    )
    out = [
        _finding(hands, WIN & (yakuman == 0) & han.is_not_null() & impossible.is_not_null(), "han_fu",
                 "plausibility", format_text("{} han {} fu", han, fu), pl.lit(None, pl.String), impossible)
    ]
    if "recorded_points" in names:
        value = hand_points(base_points(han, fu, yakuman, rules), pl.col("_winner") == pl.col("dealer"),
                            pl.col("result") == "tsumo", rules)
        out.append(
            _finding(hands, WIN & _int("recorded_points").is_not_null() & (han.is_not_null() | (yakuman > 0))
                     & impossible.is_null() & (value != _int("recorded_points")), "points_from_han_fu",
                     "plausibility", _int("recorded_points"), value,
                     format_text("the record's own {} han {} fu {} yakuman pay this", han, fu, yakuman))
        )
    return out


def _game_end_findings(hands: pl.LazyFrame, names: list[str], games: pl.DataFrame) -> list[pl.LazyFrame]:
    out = []
    for recorded_prefix, computed_col, tolerance in (("recorded_final_", "final_score", 0.5),
                                                     ("recorded_game_points_", "game_points", 0.05)):
        if f"{recorded_prefix}0" not in names:
            continue
        last = hands.filter(pl.col(f"{recorded_prefix}0").is_not_null()).sort("_seq").group_by("game_id").agg(
            pl.all().last()
        )
        per_seat = pl.concat(
            [
                last.with_columns(
                    pl.lit(s, pl.Int64).alias("seat"),
                    pl.col(f"{recorded_prefix}{s}").cast(pl.Float64, strict=False).alias("_recorded"),
                )
                for s in SEATS
            ]
        ).join(games.lazy().select("game_id", "seat", "final_score", "game_points", "place", "rules"),
               on=["game_id", "seat"], how="left")
        field = "final_score" if computed_col == "final_score" else "game_points"
        explanation = (
            format_text("place {} with {} (leftover sticks included)", "place", "final_score")
            if field == "final_score"
            else format_text("place {} with {} under {} (uma, oka, rounding)", "place", "final_score", "rules")
        )
        recorded, computed = pl.col("_recorded"), pl.col(computed_col).cast(pl.Float64)
        out.append(
            _finding(per_seat, recorded.is_not_null() & ((recorded - computed).abs() > tolerance),
                     field, "game_end", _number_text(recorded), _number_text(computed), explanation,
                     seat=pl.col("seat"))
        )
    return out


def _game_end_rule_findings(hands: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """A game that goes on after the first hand its rules end it with, or that ends in the last round (or
    later) where they let it go on."""
    ends = hand_ends(hands, rules).with_columns(
        (pl.col("_must_end").cast(pl.Int64).cum_sum().over("game_id") == 1).alias("_first_end")
    )
    goes_on = _finding(
        ends, pl.col("_must_end") & pl.col("_first_end") & ~pl.col("_is_last"), "end", "game_end",
        pl.lit("goes on"), pl.lit("ends"), pl.lit("the game should end after this hand: ") + pl.col("_end_reason"),
    )
    # A record that stops before the last round, or a fragment, is an unfinished game (``complete`` is false in
    # the games table), not a disagreement; from the last round on, where it stops is the rules' question.
    last_round = last_round_expr(rules, hands.collect_schema().names())
    stops = _finding(
        ends, pl.col("_is_last") & ~pl.col("_must_end") & ~pl.col("_may_stop") & (pl.col("_round_idx") >= last_round)
        & ~pl.col("_partial_game"), "end", "game_end",
        pl.lit("ends"), pl.lit("goes on"),
        pl.lit("the game ends after this hand, but ") + pl.col("_goes_on_reason"),
    )
    return pl.concat([goes_on, stops])


def _number_text(x: pl.Expr) -> pl.Expr:
    """44.0 -> '44', 10.7 -> '10.7': recorded and computed numbers read alike."""
    return pl.when(x == x.round()).then(x.cast(pl.Int64).cast(pl.String)).otherwise(x.round(2).cast(pl.String))


def _reject_findings(rejects: pl.DataFrame) -> pl.DataFrame:
    copy = pl.col("reason").str.starts_with(COPY_REASON_START)
    return rejects.select(
        "game_id",
        pl.lit(None, pl.String).alias("round"),
        pl.lit(None, pl.Int64).alias("honba"),
        pl.lit(None, pl.Int64).alias("hand_no"),
        pl.lit(None, pl.Int64).alias("seat"),
        pl.when(copy).then(pl.lit(DUPLICATE_ROW)).otherwise(pl.col("column")).alias("field"),
        pl.lit("reject").alias("kind"),
        pl.col("value").alias("recorded"),
        pl.lit(None, pl.String).alias("computed"),
        pl.col("reason").alias("explanation"),
        pl.col("file").alias("source_file"),
        pl.col("row").alias("source_row"),
    )


REPORT_FORMATS = ("csv", "parquet", "html")


def write_report(result: CheckResult, path: str | Path) -> Path:
    """The findings as ``.csv`` or ``.parquet`` (one row each), or an ``.html`` page with the summary too."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in REPORT_FORMATS:
        raise InputError(f"report {path}: use a .csv, .parquet or .html file name")
    if fmt != "html":
        return write_table(result.findings, path, fmt)
    page = html_page(
        "analyzer check",
        f"{result.headline()}. Rules: {result.rules_label}.",
        [("Summary", result.summary), ("Findings", result.findings)],
    )
    return write_atomic(path, lambda temp: Path(temp).write_text(page, encoding="utf-8"))
