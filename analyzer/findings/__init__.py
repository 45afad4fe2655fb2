"""Findings: where what a record says differs from what the rules give.

:func:`analyzer.check` scores hand records exactly as :func:`analyzer.score` does (the check job,
:mod:`analyzer.jobs.check`) and, for each partition, :func:`part_findings` gives one *finding* per
disagreement, with these columns:

=============== =========================================================================================
game_id, round, where: the game, the hand's round and recorded honba, ``hand_no`` (1 = the game's first
honba, hand_no  hand in replay order); ``seat`` and ``player`` (the name at that seat on the row) for
seat, player    per-seat fields, both null otherwise
field           what differs: ``han``, ``fu``, ``yakuman``, ``points``, ``limit``, ``yaku``, ``dora``,
                ``ura_dora``, ``aka_dora``, ``delta_0``..``delta_3``, ``honba``, ``kyotaku``, ``round``,
                ``delta_sum``, ``han_fu``, ``final_score``, ``game_points``, ``end`` (where the game ends), a problem
                code's field, ``duplicate_row`` (a row that exactly repeats an earlier row of its game, or a
                game's later record with the same plays: counted once), ``other_version`` (a game's later record
                with other plays: not scored), or the column of a rejected row
kind            ``value`` (the hand's worth), ``payment`` (score changes), ``table`` (honba, sticks, dealer
                rotation), ``plausibility`` (a han/fu or winner combination no hand can have), ``money``
                (recorded changes do not balance), ``game_end`` (final scores, game points, a game that goes on
                after its rules end it or ends before they let it), ``tiles`` (the
                tiles cannot be scored), ``reject`` (the row could not be scored at all), ``note`` (worth
                knowing, not a disagreement: a game fragment replayed from its first row, a settlement the
                importer read from a game's recorded points, a special lobby's rules)
recorded        the recorded value as text; ``computed`` the value analyzer computes
explanation     a short reason: the yaku or fu items that differ, the payment behind a delta, …
source_file,    where the row came from: the input file and row
source_row
log_file,       where an imported row was recorded: the log file and the hand in it (``log_row``, from 1),
log_row         null for score sheets (the columns of :mod:`analyzer.formats.columns`)
=============== =========================================================================================

Everything is column work on the scored frames. The check job lists findings most serious kind first
(:data:`KIND_ORDER`: money, payment, value, game_end, table, plausibility, tiles, reject, then note), each
kind by game, hand, field and seat.
"""

from __future__ import annotations

import polars as pl

from analyzer.findings.base import FINDING_SCHEMA, KIND_ORDER, NOT_A_MISMATCH, severity
from analyzer.findings.game_end import (
    game_end_findings, game_end_rule_findings, lobby_rules_findings, settlement_findings,
)
from analyzer.findings.rejects import reject_findings
from analyzer.findings.table import money_findings, problem_findings, round_findings, table_findings
from analyzer.findings.values import VALUE_FIELDS, delta_findings, plausibility_findings, value_findings
from analyzer.scoring.parts import ScoredPart
from analyzer.core.schema import log_columns

__all__ = ["FINDING_SCHEMA", "KIND_ORDER", "NOT_A_MISMATCH", "VALUE_FIELDS", "part_findings", "reject_findings",
           "severity"]


def part_findings(part: ScoredPart, games: pl.DataFrame) -> list[pl.DataFrame]:
    """The findings of one scored ruleset part, given its partition's games table."""
    hands = part.scored.with_columns(
        pl.col("_hand").rank("dense").over("game_id").cast(pl.Int64).alias("hand_no"),
        pl.col("_file").alias("source_file"),
        pl.col("_row").alias("source_row"),
        *log_columns(part.scored.collect_schema().names()),
    )
    names = hands.collect_schema().names()
    frames = [
        *value_findings(hands, names),
        *delta_findings(hands, names),
        table_findings(hands, names),
        round_findings(hands, part.rules),
        problem_findings(hands),
        *money_findings(hands, names, part.rules),
        *plausibility_findings(hands, names, part.rules),
        *game_end_findings(hands, names, games),
        *settlement_findings(hands, names),
        *lobby_rules_findings(hands, names),
        game_end_rule_findings(hands, part.rules),
    ]
    return pl.collect_all([f for f in frames if f is not None])
