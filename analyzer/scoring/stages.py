"""The scoring chain as a declared list of stages: each a ``LazyFrame -> LazyFrame`` function with the columns
it needs and the columns it adds.

Two lists, one on each side of the step where rejected rows leave and the rest are put in replay order
(:mod:`analyzer.scoring.parts`):

* :data:`CHECK_STAGES` run on every validated row (rejected ones too, so their reasons are complete);
* :data:`HAND_STAGES` run on the rows without reject reasons, in replay order, and turn them into scored hands.

``tests/scoring/test_stages.py`` runs every stage on real rows and compares its schema change with its declaration;
``docs/architecture.md``'s stage table is generated from these lists (:func:`stage_table`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from analyzer.game.problems import flag_problems
from analyzer.game.replay import derive_table_state, order_hands, running_scores
from analyzer.core.rules import Rules
from analyzer.core.schema import DELTA_COLUMNS, SCORE_COLUMNS, SITUATION_FLAGS
from analyzer.scoring.checks import seat_checks, value_checks
from analyzer.scoring.payments import deltas, hand_value
from analyzer.scoring.tiles_stage import TILE_OUTPUTS, apply_tiles, scores_tiles


@dataclass(frozen=True)
class Stage:
    """One step of the scoring chain.

    ``needs``: the columns it cannot run without; ``adds``: the output columns it adds, ``internal``: the
    ``_``-prefixed working columns it adds for later stages, ``drops``: working columns it removes (the
    columns a stage reads only when present are not in ``needs``);
    ``applies``: whether it changes anything for rows with these columns (None: always).
    """

    name: str
    run: Callable[[pl.LazyFrame, Rules], pl.LazyFrame]
    doc: str
    needs: tuple[str, ...]
    adds: tuple[str, ...] = ()
    internal: tuple[str, ...] = ()
    drops: tuple[str, ...] = ()
    applies: Callable[[list[str]], bool] | None = None

    def __call__(self, lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
        return self.run(lf, rules)


def _replay_order(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    return order_hands(lf, rules, presorted=True)


CHECK_STAGES: list[Stage] = [
    Stage(
        "seat_checks", seat_checks,
        "the player count of the ruleset: an empty seat 3 for three players, kita, no three-player rows under four",
        needs=("game_id", "_reject"),
        internal=("_kita", "_rules_name", "_sanma_preset"),
    ),
    Stage(
        "apply_tiles", apply_tiles,
        "hands given as tiles: han, fu and yakuman from the tiles, with the yaku and fu items that give them",
        needs=("result", "han", "fu", "yakuman", "_round_idx", "dealer", "_winner", "_riichi_mask", "_reject"),
        adds=("ura", *SITUATION_FLAGS, "given_han", "given_fu", "given_yakuman", *TILE_OUTPUTS),
        internal=("_is_tsumo", "_is_riichi", "_seat_wind", "_round_wind", "_winner_is_dealer", "_tile_problem",
                  "_tile_problems"),
        applies=scores_tiles,
    ),
    Stage(
        "value_checks", value_checks,
        "hands the ruleset cannot price (aotenjou: fu required, at most 2^56 base points)",
        needs=(),
    ),
]

HAND_STAGES: list[Stage] = [
    Stage(
        "hand_value", hand_value,
        "base points and the limit from han, fu and yakuman; what the hand is worth to its winner",
        needs=("result", "han", "fu", "yakuman", "dealer", "_winner"),
        adds=("base_points", "limit", "points"),
    ),
    Stage(
        "replay_order", _replay_order,
        "hands in replay order: chombo first, then the hands of a round and honba in input order, a hand's rows "
        "together, multiple ron winners by seat distance",
        needs=("honba", "result", "_round_idx", "_loser", "_riichi_mask", "_game", "_chombo_later", "_hand_pos",
               "_win_distance"),
        internal=("_seq", "_game_start", "_game_end", "_first", "_hand", "_last", "_nearest", "_rows_in_hand",
                  "_hand_riichi", "_paid", "_triple_ron_aborted", "_head_bumped", "_is_win"),
        drops=("_chombo_later", "_hand_pos", "_win_distance"),
    ),
    Stage(
        "table_state", derive_table_state,
        "the honba and riichi sticks each hand starts with, replayed from the outcomes before it",
        needs=("honba", "result", "_round_idx", "dealer", "_winner", "_game_start", "_first", "_last",
               "_hand_riichi", "_paid", "_is_win"),
        adds=("replayed_honba", "kyotaku"),
        internal=("_dealer_won", "_sticks_put", "_partial_game", "_kyotaku_after"),
    ),
    Stage(
        "deltas", deltas,
        "each seat's score change: hand payments, honba, sticks, noten payments, chombo and nagashi",
        needs=("result", "yakuman", "dealer", "_winner", "_loser", "_pao", "_tenpai_mask", "base_points", "_first",
               "_nearest", "_hand_riichi", "_paid", "_sticks_put", "replayed_honba", "kyotaku"),
        adds=tuple(DELTA_COLUMNS),
        internal=("_honba_paid",),
    ),
    Stage(
        "running_scores", running_scores,
        "each seat's score after the hand, from the ruleset's start score",
        needs=("_game_start", *DELTA_COLUMNS),
        adds=tuple(SCORE_COLUMNS),
    ),
    Stage(
        "problems", flag_problems,
        "problem codes: what is doubtful in a row that is still scored (analyzer.game.problems)",
        needs=("honba", "player_0", "player_1", "player_2", "player_3", "result", "han", "fu", "yakuman", "_winner",
               "_loser", "_pao", "_tenpai_mask", "_game_start", "_first", "_last", "_hand_riichi",
               "_triple_ron_aborted", "_head_bumped", "replayed_honba", "_partial_game"),
        adds=("problems",),
    ),
]


def run_stages(lf: pl.LazyFrame, stages: list[Stage], rules: Rules) -> pl.LazyFrame:
    """``lf`` through ``stages`` in order."""
    for stage in stages:
        lf = lf.pipe(stage, rules)
    return lf


def score_hands(valid: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Scored hand rows (internal columns kept) from validated rows without reject reasons, in replay order
    (:func:`analyzer.game.replay.sort_for_replay`)."""
    return run_stages(valid, HAND_STAGES, rules)


def stage_table() -> str:
    """The stages as a Markdown table (docs/architecture.md)."""
    lines = ["| stage | what it does | needs | adds |", "|---|---|---|---|"]
    for group, stages in (("every validated row", CHECK_STAGES), ("rows without reject reasons", HAND_STAGES)):
        lines.append(f"| *{group}* | | | |")
        for stage in stages:
            adds = ", ".join(f"`{c}`" for c in stage.adds) or (
                "(working columns only)" if stage.internal else "(reject reasons only)")
            lines.append(f"| `{stage.name}` | {stage.doc} | {', '.join(f'`{c}`' for c in stage.needs)} | {adds} |")
    return "\n".join(lines)
