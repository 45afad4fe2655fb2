"""Each game under its own `rules` column (as imported logs carry), unless a ruleset is given."""

import polars as pl
import pytest

from analyzer import score
from conftest import game

# Baba rons Chiba for 3 han 40 fu (5200), Aoki ends last on 25000 - 0: the uma decides the game points.
ROWS = [{"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 3, "fu": 40}]


def _two_games(spec_a: str, spec_b: str) -> pl.DataFrame:
    return pl.concat([
        game(ROWS, game_id="a").with_columns(pl.lit(spec_a).alias("rules")),
        game(ROWS, game_id="b").with_columns(pl.lit(spec_b).alias("rules")),
    ])


def _baba_points(result) -> dict[str, float]:
    rows = result.games.filter(pl.col("player") == "Baba").select("game_id", "game_points").rows()
    return dict(rows)


def test_each_game_uses_its_own_rules():
    result = score(_two_games("tenhou;game_points_rounding=exact", "tenhou;uma=[10,5,-5,-10];game_points_rounding=exact"))
    # 30200: (30200 - 30000)/1000 + uma + oka 20
    assert _baba_points(result) == pytest.approx({"a": 0.2 + 20 + 20, "b": 0.2 + 10 + 20})
    assert dict(result.games.select("game_id", "rules").unique().rows()) == {
        "a": "tenhou;game_points_rounding=exact",
        "b": "tenhou;uma=[10,5,-5,-10];game_points_rounding=exact",
    }
    assert result.rules_label.startswith("per game: ")
    assert result.hands.height == 2 and result.rejects.height == 0


def test_given_rules_override_the_column():
    result = score(_two_games("ema", "tenhou;uma=[10,5,-5,-10]"), "tenhou;game_points_rounding=exact")
    assert _baba_points(result) == pytest.approx({"a": 40.2, "b": 40.2})
    assert result.rules_label == "tenhou;game_points_rounding=exact"


def test_a_game_with_an_unknown_ruleset_is_rejected_with_the_reason():
    result = score(_two_games("tenhou", "no-such-preset"))
    assert result.hands["game_id"].to_list() == ["a"]
    reject = result.rejects.row(0, named=True)
    assert (reject["game_id"], reject["column"], reject["value"]) == ("b", "rules", "no-such-preset")
    assert "unknown ruleset" in reject["reason"]


def test_empty_rules_cells_use_the_default():
    result = score(_two_games("", "ema"))
    assert dict(result.games.select("game_id", "rules").unique().rows()) == {"a": "tenhou", "b": "ema"}


def test_uma_in_a_spec_compact_or_as_a_list():
    from analyzer.core.rules import RulesError, from_spec

    assert from_spec("tenhou;uma=10/5/-5/-10").uma == from_spec("tenhou;uma=[10,5,-5,-10]").uma == (10, 5, -5, -10)
    for bad in ("tenhou;uma=10/5", "tenhou;uma=ten"):
        with pytest.raises(RulesError):
            from_spec(bad)
