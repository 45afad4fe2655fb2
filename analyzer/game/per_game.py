"""Rulesets that differ only in per-game options, scored together as one part.

Imported logs mix rulesets that agree on every hand and differ only in where a game ends and what its places
pay: Tenhou's East-only lobbies (``tenhou;game_length=east``) and the older uma of some
(``...;uma=10/5/-5/-10``). Each ruleset scored as a part of its own costs a fixed 0.3-0.4 s of query planning
and set-up whatever its size, so games whose rulesets differ only in :data:`PER_GAME_OPTIONS` are scored as one
part under the group's first ruleset, and each row carries its own game's values in columns:

================ ============================================================================================
_game_rules      the name of the game's own ruleset (the ``rules`` column of the games table, messages)
_last_round      the round index of the game's last round (:func:`analyzer.game.game_end.last_round`)
_game_uma_1..N   the game's uma for places 1..N (:func:`analyzer.game.games` places)
================ ============================================================================================

The stages read a column when the frame has it and the part's ruleset otherwise (:func:`last_round_expr`,
:func:`uma_exprs`, :func:`rules_name_expr`): a part of one ruleset carries none of them.
"""

from __future__ import annotations

import dataclasses

import polars as pl

from analyzer.core.rules import Rules

# Options that decide only where a game ends and what its places pay: nothing about a hand's value or payments.
PER_GAME_OPTIONS = ("game_length", "uma")
GAME_RULES = "_game_rules"
LAST_ROUND = "_last_round"


def uma_column(place: int) -> str:
    return f"_game_uma_{place}"


PER_GAME_COLUMNS = [GAME_RULES, LAST_ROUND, *[uma_column(k) for k in range(1, 5)]]


def scoring_key(rules: Rules) -> tuple:
    """Rulesets with equal keys score every hand alike: all options but the name, the source and the per-game
    options."""
    ignored = {"name", "source", *PER_GAME_OPTIONS}
    return tuple(getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name not in ignored)


def last_round_of(rules: Rules) -> int:
    """The round index of the rules' last round: E4 / S4, or E3 / S3 with three players."""
    return (0 if rules.game_length == "east" else 4) + rules.players - 1


def per_game_columns(spec: pl.Expr, rulesets: dict[str, Rules]) -> list[pl.Expr]:
    """The per-game option columns of rows whose game's ruleset spec is ``spec`` (``rulesets``: spec -> rules;
    all of them share a :func:`scoring_key`)."""
    specs = list(rulesets)
    first = rulesets[specs[0]]

    def column(values: list, dtype: pl.DataType, name: str) -> pl.Expr:
        return spec.replace_strict(specs, values, return_dtype=dtype).alias(name)

    return [
        column([r.name for r in rulesets.values()], pl.String, GAME_RULES),
        column([last_round_of(r) for r in rulesets.values()], pl.Int64, LAST_ROUND),
        *[column([r.uma[k] for r in rulesets.values()], pl.Float64, uma_column(k + 1)) for k in range(len(first.uma))],
    ]


def last_round_expr(rules: Rules, names: list[str]) -> pl.Expr:
    return pl.col(LAST_ROUND) if LAST_ROUND in names else pl.lit(last_round_of(rules), pl.Int64)


def uma_exprs(rules: Rules, names: list[str]) -> list[pl.Expr]:
    """Uma of places 1..N."""
    if uma_column(1) in names:
        return [pl.col(uma_column(k + 1)) for k in range(len(rules.uma))]
    return [pl.lit(u, pl.Float64) for u in rules.uma]


def rules_name_expr(rules: Rules, names: list[str]) -> pl.Expr:
    return pl.col(GAME_RULES) if GAME_RULES in names else pl.lit(rules.name)
