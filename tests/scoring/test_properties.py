"""Invariants over random games: money is conserved in every hand; final scores add up."""

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import preset, score
from conftest import game

NAMES = ["Aoki", "Baba", "Chiba", "Doi"]
RULESETS = [preset(n) for n in ("tenhou", "ema", "wrc", "majsoul", "mleague")]


@st.composite
def outcome(draw):
    kind = draw(st.sampled_from(["ron", "ron", "tsumo", "draw", "nagashi", "abort", "chombo", "double"]))
    riichi = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=3))
    seats = draw(st.permutations(NAMES))
    value = draw(
        st.one_of(
            st.tuples(st.integers(1, 4), st.sampled_from([30, 40, 50, 60, 70])).map(lambda t: {"han": t[0], "fu": t[1]}),
            st.integers(5, 13).map(lambda h: {"han": h}),
            st.integers(1, 2).map(lambda y: {"yakuman": y}),
        )
    )
    if kind == "ron":
        return [{"result": "ron", "winner": seats[0], "loser": seats[1], "riichi": ",".join(riichi), **value}]
    if kind == "double":
        return [
            {"result": "ron", "winner": seats[0], "loser": seats[2], "riichi": ",".join(riichi), **value},
            {"result": "ron", "winner": seats[1], "loser": seats[2], "riichi": ",".join(riichi), "han": 2, "fu": 30},
        ]
    if kind == "tsumo":
        pao = {"pao": seats[1]} if "yakuman" in value and draw(st.booleans()) else {}
        return [{"result": "tsumo", "winner": seats[0], "riichi": ",".join(riichi), **value, **pao}]
    if kind in ("draw", "nagashi"):
        tenpai = sorted(set(riichi) | set(draw(st.lists(st.sampled_from(NAMES), unique=True))))
        extra = {"winner": seats[0]} if kind == "nagashi" else {}
        return [{"result": kind, "riichi": ",".join(riichi), "tenpai": ",".join(tenpai), **extra}]
    if kind == "chombo":
        return [{"result": "chombo", "loser": seats[0]}]
    return [{"result": "abort", "riichi": ",".join(riichi)}]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands=st.lists(outcome(), min_size=1, max_size=10), rules=st.sampled_from(RULESETS))
def test_money_is_conserved_and_final_scores_add_up(hands, rules):
    # Rounds advance one per hand: the replay does not need a realistic flow for these invariants.
    rows = []
    for i, hand in enumerate(hands):
        for row in hand:
            rows.append({"round": f"{'ES'[i // 8 % 2]}{i % 4 + 1}", "honba": i // 4, **row})
    # Keep each hand in its own (round, honba) slot so that the rows of a multiple ron stay together.
    result = score(game(rows), rules)
    assert result.rows_rejected == 0
    hands_df = result.hands.with_columns(pl.sum_horizontal(f"delta_{s}" for s in range(4)).alias("net"))
    deposit = rules.riichi_deposit
    # Per hand: the deltas sum to minus the sticks put out plus the sticks collected.
    per_hand = (
        hands_df.with_columns(
            (pl.col("kyotaku") + pl.col("riichi").list.len().fill_null(0).cast(pl.Int64)).alias("_table")
        )
        .group_by("round", "honba", maintain_order=True)
        .agg(pl.col("net").sum(), pl.col("result").first(), pl.col("riichi").first(), pl.col("kyotaku").first(),
             pl.col("problems").first())
    )
    for row in per_hand.iter_rows(named=True):
        put_out = 0 if row["result"] == "chombo" else len(row["riichi"] or [])
        won = row["result"] in ("ron", "tsumo") and "triple_ron_abort" not in row["problems"]
        collected = row["kyotaku"] + put_out if won else 0
        assert row["net"] == (collected - put_out) * deposit, row
    # Final scores: 4 x start minus the sticks nobody claimed.
    leftover = result.games["leftover_sticks"].sum()
    last = result.hands.tail(1)
    on_table = 0 if last["result"][0] in ("ron", "tsumo") else last["kyotaku"][0] + (
        0 if last["result"][0] == "chombo" else last["riichi"].list.len().fill_null(0)[0]
    )
    assert result.games["final_score"].sum() == 4 * rules.start_points - on_table * deposit + leftover
    assert leftover in (0, on_table * deposit) or rules.tie_rule == "split"
    # the games table comes in place order, ties by seat (under either tie rule), without a sort
    assert result.games.equals(result.games.sort("game_id", "place", "seat", maintain_order=True))
