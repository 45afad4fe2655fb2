"""Reject reasons that depend on the ruleset: the player count, kita, and hands aotenjou cannot price.

:func:`validate` (rules-free) reads every row; once a game's ruleset is known these stages add reject bits:

* ``seat_checks`` (before the tiles are scored) adds ``_kita`` (the ``kita`` column as a number, 0 when absent)
  and, for ``players = 3``: seat 3 must be empty (no ``player_3``, no winner, loser, liable player, riichi or
  tenpai at seat 3, no round E4 / S4 / …); for ``players = 4`` a row with north tiles set aside (``kita``) or
  a ``players`` column of 3 is refused (three-player records need a three-player ruleset). The reject bit
  of a missing ``player_3`` that :func:`analyzer.scoring.validate.validate` sets is cleared for three players; under a
  four-player ruleset, in a game with no ``player_3`` on any row, it becomes the reason that the game has three
  players and the ruleset four (naming a three-player preset).
* ``value_checks`` (after the tiles): under ``limits = "aotenjou"`` a win needs fu (also at 5+ han and for
  yakuman: every hand is priced from fu), and a hand worth more than ``AOTENJOU_MAX_BASE`` base points
  (2^56, about 7.2 x 10^16) is refused: its payments and the running scores would leave Int64.
"""

from __future__ import annotations

import polars as pl

from analyzer.scoring.rejects import REJECT, add_bits, reason, when
from analyzer.game.per_game import rules_name_expr
from analyzer.scoring.points import AOTENJOU_MAX_BASE, aotenjou_han
from analyzer.core.rules import Rules, preset_names
from analyzer.core.text import one_of
from analyzer.scoring.validate import R_PLAYER, parse_int

R_SEAT3_PLAYER = reason("player_3", pl.col("player_3"), "a three-player ruleset: seat 3 must be empty")
R_SEAT3_ROUND = reason("round", pl.col("round"), "three players: rounds are E1-E3, S1-S3, W1-W3 or N1-N3")
R_SEAT3_REF = {
    c: reason(c, pl.col(c), "three players: seat 3 is empty (seats 0-2 only)") for c in ("winner", "loser", "pao")
}
R_SEAT3_LIST = {
    c: reason(c, pl.col(c).list.join(","), "three players: seat 3 is empty (seats 0-2 only)")
    for c in ("riichi", "tenpai")
}
R_PLAYERS_COLUMN = reason(
    "players", pl.col("players"),
    pl.format("the game has this many players but its ruleset {} is for {}", "_rules_name", "_rules_players"),
)
R_THREE_PLAYER_GAME = reason(
    "player_3", pl.col("player_3"),
    pl.format("the game has three players (no player_3 on any of its rows) but the ruleset {} is for four players: "
              "use a three-player ruleset such as {}", "_rules_name", "_sanma_preset"),
)
R_KITA = reason("kita", pl.col("kita"), "kita (north tiles set aside) must be a whole number from 0 to 4")
R_KITA_4P = reason("kita", pl.col("kita"), "kita (north tiles set aside) exist only in three-player games")
R_AOTENJOU_FU = reason("fu", pl.col("_raw_fu"), "aotenjou prices every hand from its fu: fu is required")
R_AOTENJOU_SIZE = reason(
    "han", pl.format("{} han {} fu {} yakuman", "han", "fu", pl.col("yakuman").fill_null(0)),
    "aotenjou: worth more than 2^56 base points, beyond what 64-bit scores can add up",
)
MAX_KITA = 4


def seat_checks(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    names = lf.collect_schema().names()
    kita_text = pl.col("kita").cast(pl.String).str.strip_chars().replace("", None) if "kita" in names else None
    kita = parse_int(kita_text) if kita_text is not None else pl.lit(None, pl.Int64)
    lf = lf.with_columns(kita.fill_null(0).alias("_kita"))
    terms = []
    if kita_text is not None:
        terms.append(when(kita_text.is_not_null() & ~kita.is_between(0, MAX_KITA).fill_null(False), R_KITA))
    if "players" in names:
        players = parse_int(pl.col("players").cast(pl.String).str.strip_chars())
        lf = lf.with_columns(rules_name_expr(rules, names).alias("_rules_name"), pl.lit(rules.players).alias("_rules_players"))
        terms.append(when(players.is_not_null() & (players != rules.players), R_PLAYERS_COLUMN))
    if rules.players == 4:
        if kita_text is not None:
            terms.append(when(kita > 0, R_KITA_4P))
        if "player_3" in names:  # seat 3 empty on every row of the game: a three-player game, say so
            twin = f"{rules.name.split(';')[0]}_sanma"
            three = (pl.col("player_3").is_null() | (pl.col("player_3") == "")).all().over("game_id")
            missing = pl.lit(R_PLAYER["player_3"], pl.Int64)
            lf = lf.with_columns(
                rules_name_expr(rules, names).alias("_rules_name"),
                pl.lit(twin if twin in preset_names() else "tenhou_sanma").alias("_sanma_preset"),
                pl.when(three).then(pl.col(REJECT).and_(~missing).or_(R_THREE_PLAYER_GAME)).otherwise(pl.col(REJECT))
                .alias(REJECT),
            )
        return lf.with_columns(add_bits(terms))
    seat3 = 1 << 3
    terms += [
        when(pl.col("player_3").is_not_null() & (pl.col("player_3") != ""), R_SEAT3_PLAYER),
        when(pl.col("_round_idx") % 4 == 3, R_SEAT3_ROUND),
        *[when(pl.col(f"_{c}") == 3, bit) for c, bit in R_SEAT3_REF.items()],
        *[when(pl.col(f"_{c}_mask").and_(seat3) != 0, bit) for c, bit in R_SEAT3_LIST.items()],
    ]
    # a missing player_3 is what three players look like: validate's reason does not apply
    cleared = pl.col(REJECT).and_(~pl.lit(R_PLAYER["player_3"], pl.Int64))
    return lf.with_columns(cleared.alias(REJECT)).with_columns(add_bits(terms))


def value_checks(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    if rules.limits != "aotenjou":
        return lf
    win = one_of(pl.col("result"), ["ron", "tsumo"])
    fu = pl.col("fu").cast(pl.Int64)
    exponent = aotenjou_han(pl.col("han"), pl.col("yakuman")) + 2
    headroom = AOTENJOU_MAX_BASE.bit_length() - 1  # 56: fu x 2^exponent <= 2^56
    limit = pl.lit(pl.Series([2**k for k in range(headroom + 1)], dtype=pl.Int64)).gather(
        (headroom - exponent).clip(0, headroom)
    )
    too_big = (exponent > headroom) | (fu > limit)
    return lf.with_columns(add_bits([
        when(win & fu.is_null(), R_AOTENJOU_FU),
        when(win & fu.is_not_null() & too_big, R_AOTENJOU_SIZE),
    ]))
