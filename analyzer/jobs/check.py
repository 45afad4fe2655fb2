"""The check job: the score job's work on each partition, plus its findings (:mod:`analyzer.findings`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyzer.findings import FINDING_SCHEMA, NOT_A_MISMATCH, VALUE_FIELDS, part_findings, reject_findings, severity
from analyzer.findings.rank_points import rank_point_findings
from analyzer.findings.seating import NOTE_CODES, SeatingSums
from analyzer.findings.sheets import sheet_findings, table_rejects
from analyzer.jobs.score import RunSummary, ScoreJob, ScoreResult, ScoreSummary
from analyzer.jobs.outputs import finish_rejects, rules_label
from analyzer.run.job import PartOutput, RunInfo
from analyzer.run.sink import Sink
from analyzer.core.schema import SEATS

# most serious kind first (analyzer.findings.KIND_ORDER), then by game, hand, field and seat
FINDING_ORDER = ("_severity", "kind", "game_id", "hand_no", "field", "seat")


@dataclass
class CheckResult:
    """The findings of a check, their counts per field and kind, and what was scored.

    ``findings`` come most serious kind first (:data:`analyzer.findings.KIND_ORDER`), the notes last.

    ``scored`` holds every scored table when :func:`analyzer.check` was asked to keep them (the default from
    Python); the counts (``rows_read``, ``games``, ``columns``, ``rules_label``) are there either way.
    """

    findings: pl.DataFrame
    scored: ScoreResult | None
    rows_read: int = 0
    games: int = 0
    columns: list[str] = field(default_factory=list)
    rules_label: str = ""
    run: RunSummary | None = None  # how the run went: partitions, workers, seconds

    @property
    def mismatches(self) -> pl.DataFrame:
        return self.findings.filter(~pl.col("kind").is_in(NOT_A_MISMATCH))

    @property
    def ok(self) -> bool:
        return self.mismatches.height == 0

    @property
    def notes(self) -> pl.DataFrame:
        return self.findings.filter(pl.col("kind").is_in(NOT_A_MISMATCH))

    @property
    def summary(self) -> pl.DataFrame:
        """Findings counted per field and kind: most serious kind first, then most frequent first."""
        return (
            self.findings.group_by("kind", "field")
            .agg(pl.len().alias("count"), pl.col("game_id").n_unique().alias("games"))
            .sort(severity(pl.col("kind")), "kind", pl.col("count"), "field", descending=[False, False, True, False])
        )

    def notes_text(self) -> str:
        """'15 notes: partial_game 15, missed_session 2' (a note's code: its ``recorded``, or for a note that records
        a value, the code of its field, :data:`analyzer.findings.seating.NOTE_CODES`), or '' without notes."""
        notes = self.notes
        if notes.height == 0:
            return ""
        code = pl.col("field").replace_strict(NOTE_CODES, default=None, return_dtype=pl.String)
        counts = (notes.group_by(pl.coalesce(code, "recorded", "field").alias("code")).len()
                  .sort(["len", "code"], descending=[True, False]))
        listed = counts.select(pl.format("{} {}", "code", "len").str.join(", ")).item()
        return f"{_count(notes.height, 'note')}: {listed}"

    def headline(self) -> str:
        """'843 rows, 101 games: 12 mismatches in 4 games (15 notes)'; '1 game', '1 mismatch', '1 note'."""
        mismatches = self.mismatches
        text = (
            f"{_count(self.rows_read, 'row')}, {_count(self.games, 'game')}: "
            + (f"{_count(mismatches.height, 'mismatch')} in "
               f"{_count(mismatches['game_id'].drop_nulls().n_unique(), 'game')}"
               if mismatches.height else "everything agrees")
        )
        notes = self.findings.height - mismatches.height
        return text + (f" ({_count(notes, 'note')})" if notes else "")

    @property
    def fields_compared(self) -> list[str]:
        """The recorded fields that the input carried and that were compared."""
        names = self.columns
        return [f for f, (recorded, _, _) in VALUE_FIELDS.items() if recorded in names] + [
            f"{f}_{s}" for f in ("delta", "final", "game_points", "rank_points") for s in SEATS
            if f"recorded_{f}_{s}" in names
        ]


def _count(n: int, noun: str) -> str:
    """'1 game', '2 games', '3 mismatches'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('ch') else 's'}"


@dataclass
class CheckSummary:
    """What the partitions of a check add up to: the score job's summary and the findings."""

    score: ScoreSummary
    findings: list[pl.DataFrame]
    games: int
    columns: list[str]
    seating: SeatingSums = field(default_factory=SeatingSums)  # a sheet's sessions and teams, across partitions


class CheckJob:
    """Score hand records as :class:`~analyzer.jobs.score.ScoreJob` does and compare everything recorded with
    what the rules give (see :mod:`analyzer.findings`)."""

    def __init__(self, score: ScoreJob) -> None:
        self.score = score
        self.order = score.order
        self.input_kind = score.input_kind

    def run_part(self, rows: pl.LazyFrame) -> PartOutput:
        scored = self.score.score_partition(rows)
        output, tables = self.score.output(scored)
        rejects = finish_rejects([tables.rejects])
        findings = [f for p in scored.parts for f in part_findings(p, tables.games)]
        rank_points = rank_point_findings(output.summary.platform_ranks, scored.parts)  # Mahjong Soul's
        if rank_points is not None:
            findings.append(rank_points)
        rejected = reject_findings(rejects)
        if scored.sheet is not None:  # a game that cannot be settled is a finding of its table, not of each row
            findings += sheet_findings(scored.sheet)
            rejected = rejected.join(table_rejects(scored.sheet), on=["source_file", "source_row", "explanation"],
                                     how="anti", nulls_equal=True)
        findings.append(rejected)
        found = pl.concat([f.select(list(FINDING_SCHEMA)).cast(FINDING_SCHEMA) for f in findings], how="vertical")
        hands = tables.hands if tables.hands is not None else pl.DataFrame(schema={"game_id": pl.String})
        games = pl.concat([hands["game_id"], tables.games["game_id"], rejects["game_id"]]).n_unique()
        summary = CheckSummary(output.summary, [found], games, hands.columns,
                               SeatingSums.of_part(scored.sheet.rows if scored.sheet is not None else None))
        return PartOutput(output.tables, summary, output.rows)

    def combine(self, first: CheckSummary, second: CheckSummary) -> CheckSummary:
        return CheckSummary(
            self.score.combine(first.score, second.score), first.findings + second.findings,
            first.games + second.games, first.columns or second.columns,
            first.seating.combine(second.seating),
        )

    def finish(self, summary: CheckSummary, sink: Sink, info: RunInfo) -> CheckResult:
        run = self.score.finish(summary.score, sink, info)
        findings = (
            pl.concat([*summary.findings, summary.seating.findings()], how="vertical").with_columns(severity(pl.col("kind")).alias("_severity"))
            .sort(*FINDING_ORDER, nulls_last=True, maintain_order=True).drop("_severity")
        )
        return CheckResult(
            # the rows read as score counts them: a wide sheet's rows once, not once per seat (as the progress does)
            findings=findings, scored=None, rows_read=run.rows_read, games=summary.games, columns=summary.columns,
            rules_label=rules_label(run.rulesets, self.score.ruleset), run=run,
        )
