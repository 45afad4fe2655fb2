"""One partition's sheet rows scored: read, each game's ruleset, the tables checked, the games settled."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.game.games import GAME_LABELS
from analyzer.io.wide import WIDE_FIRST
from analyzer.scoring.rejects import REJECT, rejects_of
from analyzer.core.rules import Rules
from analyzer.tournament.sheets.read import read_sheet
from analyzer.tournament.sheets.settle import settle_games
from analyzer.tournament.sheets.tables import game_rules, table_problems


@dataclass
class SheetPart:
    """The sheet rows of one partition (whole games), scored.

    ``rows``: every row, typed, with its reject bits, ``_seat`` and the game's ``_rules_spec``; ``games``: the
    games table rows of the settled games; ``rulesets``: the rulesets used (by spec in ``by_spec``);
    ``labels``: the game labels (``session``, ``table``) the input has."""

    rows: pl.DataFrame
    games: pl.DataFrame
    by_spec: dict[str, Rules]
    labels: list[str] = field(default_factory=list)

    @property
    def rulesets(self) -> list[Rules]:
        seen: dict[str, Rules] = {}
        for ruleset in self.by_spec.values():
            seen.setdefault(ruleset.name, ruleset)
        return list(seen.values())

    @property
    def scored_rows(self) -> int:
        """The rows scored, a wide sheet's rows (games) counted once, not once per seat (as the rejects are)."""
        first = pl.col(WIDE_FIRST).fill_null(True) if WIDE_FIRST in self.rows.columns else pl.lit(True)
        return self.rows.select(((pl.col(REJECT) == 0) & first).sum()).item()

    @property
    def other_seats(self) -> int:
        """The rows that are a wide sheet's seats after the first of their row: with the rows counted (scored or
        rejected), the rows this part read in the long form (what the plan counts, for the progress)."""
        if WIDE_FIRST not in self.rows.columns:
            return 0
        return self.rows.select((~pl.col(WIDE_FIRST).fill_null(True)).sum()).item()

    def rejects(self) -> pl.DataFrame:
        """The rejected rows, one line per reason, with the keys of input order (``_pos``, ``_bit``)."""
        return rejects_of(self.rows.lazy(), keep_order=True).collect()


def score_sheet(rows: pl.LazyFrame | pl.DataFrame, rules: Rules | str | Path | None = None,
                hand_games: pl.Series | None = None) -> SheetPart:
    """Score the rows of a game-level sheet (whole games): ``rules`` for every game, or each game's own
    ``rules`` column (else the default preset); ``hand_games``: the game ids that have hand records beside
    (their sheet rows are rejected)."""
    rows = rows.lazy().collect()
    labels = [c for c in GAME_LABELS if c in rows.columns]
    typed = read_sheet(rows)
    typed, by_spec = game_rules(typed, rules)
    typed = table_problems(typed, hand_games if hand_games is not None else pl.Series("game_id", [], pl.String))
    return SheetPart(typed, settle_games(typed, by_spec, labels), by_spec, labels)
