"""Games whose rulesets differ only in game length and uma are scored as one part (analyzer.game.per_game), with the
same results as each ruleset scored on its own."""

from __future__ import annotations

import polars as pl
import pytest
from conftest import SHARED_HINT, SHARED_LOGS

from analyzer.api import check
from analyzer.game.per_game import scoring_key
from analyzer.api import score
from analyzer.scoring.parts import raw_input, score_parts
from analyzer.core.rules import from_spec

EAST = "tenhou;game_length=east"
EAST_UMA = "tenhou;game_length=east;uma=10/5/-5/-10"
LOGS = SHARED_LOGS


def _east_round(game_id: str, spec: str) -> list[dict]:
    """E1-E4, a 1 han 30 fu ron (1,000) on the dealer each hand by the next seat, and in E4 a mangan (8,000) by
    seat 1 on the dealer: nobody keeps the deal and seat 1 ends with 33,000 (above Tenhou's 30,000 return,
    so no West extension): an East-only game is over after E4 and a hanchan is not."""
    return [
        {"game_id": game_id, "round": f"E{n + 1}", "honba": "0", "player_0": "A", "player_1": "B", "player_2": "C",
         "player_3": "D", "result": "ron", "winner": str(n + 1 if n < 3 else 1), "loser": str(n), "han": "1" if n < 3 else "5", "fu": "30",
         "rules": spec}
        for n in range(4)
    ]


@pytest.fixture
def mixed() -> pl.DataFrame:
    rows = _east_round("g1", "tenhou") + _east_round("g2", EAST) + _east_round("g3", EAST_UMA)
    return pl.DataFrame(rows)


def test_rulesets_that_differ_in_game_options_only_share_a_part(mixed):
    parts = score_parts(raw_input(mixed))
    assert len(parts) == 1
    assert sorted(r.name for r in parts[0].members) == ["tenhou", EAST, EAST_UMA]


def test_a_different_hand_rule_keeps_its_own_part(mixed):
    other = mixed.with_columns(pl.when(pl.col("game_id") == "g3").then(pl.lit("tenhou;aka_dora=false"))
                               .otherwise(pl.col("rules")).alias("rules"))
    assert len(score_parts(raw_input(other))) == 2
    assert scoring_key(from_spec(EAST_UMA)) == scoring_key(from_spec("tenhou"))
    assert scoring_key(from_spec("tenhou;aka_dora=false")) != scoring_key(from_spec("tenhou"))


def test_each_game_ends_and_pays_by_its_own_rules(mixed):
    games = score(mixed).games.sort("game_id", "seat")
    by_game = {g: frame for (g,), frame in games.group_by("game_id", maintain_order=True)}
    # A pays E1; B wins E1, pays E2, wins E4 (8,000); C wins E2, pays E3; D wins E3, pays E4
    assert by_game["g1"]["final_score"].to_list() == [24000, 33000, 25000, 18000]
    assert by_game["g1"]["rules"].unique().to_list() == ["tenhou"]
    assert by_game["g2"]["rules"].unique().to_list() == [EAST]
    # a hanchan that stops after E4 is unfinished; the East-only games are complete
    assert by_game["g1"]["complete"].unique().to_list() == [False]
    assert by_game["g2"]["complete"].unique().to_list() == [True]
    assert by_game["g3"]["complete"].unique().to_list() == [True]
    # places: B, C, A, D; Tenhou's uma 20/10/-10/-20 against the older 10/5/-5/-10
    assert by_game["g2"].sort("place")["uma"].to_list() == [20.0, 10.0, -10.0, -20.0]
    assert by_game["g3"].sort("place")["uma"].to_list() == [10.0, 5.0, -5.0, -10.0]
    assert by_game["g3"].sort("place")["seat"].to_list() == [1, 2, 0, 3]


def test_check_names_the_game_end_by_the_games_own_length(mixed):
    result = check(mixed)
    assert result.rules_label == f"per game: tenhou, {EAST}, {EAST_UMA}"
    ends = result.findings.filter(pl.col("kind") == "game_end")
    assert "g2" not in ends["game_id"].to_list() and "g3" not in ends["game_id"].to_list()


def _same_as_alone(hands: pl.DataFrame) -> None:
    together = score(hands)
    for spec in hands["rules"].unique().to_list():
        alone = score(hands.filter(pl.col("rules") == spec), rules=spec)
        ids = alone.games["game_id"].unique().implode()
        got = together.games.filter(pl.col("game_id").is_in(ids))
        assert got.drop("rules").equals(alone.games.drop("rules")), spec
        assert (got["rules"] == from_spec(spec).name).all()
        got_hands = together.hands.filter(pl.col("game_id").is_in(ids))
        assert got_hands.drop("source_row").equals(alone.hands.drop("source_row")), spec  # rows of a filtered frame


def test_mixed_part_equals_each_ruleset_alone(mixed):
    _same_as_alone(mixed)


@pytest.mark.skipif(not LOGS.is_dir(), reason=f"shared Tenhou logs not found at {LOGS} ({SHARED_HINT})")
def test_real_logs_mixed_part_equals_each_ruleset_alone():
    from analyzer.formats.read import read_tenhou

    hands, _ = read_tenhou([LOGS], workers=1)
    assert {EAST, "tenhou"} <= set(hands["rules"].unique().to_list())
    _same_as_alone(hands)
