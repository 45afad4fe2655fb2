"""Per-player statistics, counted by hand on small games, and the same from partial sums of any split."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.game.games import game_results
from analyzer.scoring.parts import raw_input, score_parts
from analyzer.players import combine_partials, finalize_players, player_partials
from analyzer.players import NEEDS
from conftest import PLAYERS, game

# Doi deals into Aoki and Chiba at once (one deal-in, two wins), then Baba wins a 1-han 30-fu tsumo,
# then Chiba has a chombo.
ROWS = [
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Chiba", "loser": "Doi", "riichi": "Chiba", "han": 2, "fu": 40},
    {"round": "E1", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Doi", "riichi": "Chiba", "han": 1, "fu": 30},
    {"round": "E1", "honba": 1, "result": "tsumo", "winner": "Baba", "han": 1, "fu": 30},
    {"round": "E2", "honba": 0, "result": "chombo", "loser": "Chiba"},
]


@pytest.fixture(scope="module")
def players():
    result = analyzer.score(game(ROWS), analyzer.preset("tenhou"))
    return {row["player"]: row for row in result.players.to_dicts()}


def test_a_double_ron_is_two_wins_and_one_deal_in(players):
    # Aoki (dealer) 1 han 30 fu ron: 1500; Chiba 2 han 40 fu ron: 2600
    assert players["Doi"]["deal_ins"] == 1
    assert players["Doi"]["avg_deal_in_cost"] == 1500 + 2600
    assert players["Aoki"]["wins"] == players["Chiba"]["wins"] == 1
    assert players["Aoki"]["avg_win_value"] == 1500 and players["Chiba"]["avg_win_value"] == 2600


def test_hands_riichi_tsumo_and_chombo_counts(players):
    # three hands: the double ron, the tsumo, and no hand for the chombo re-deal
    assert {p: row["hands"] for p, row in players.items()} == dict.fromkeys(["Aoki", "Baba", "Chiba", "Doi"], 2)
    assert players["Chiba"]["riichi"] == 1 and players["Chiba"]["riichi_rate"] == 0.5
    assert players["Baba"]["tsumo_wins"] == 1 and players["Baba"]["win_rate"] == 0.5
    assert players["Chiba"]["chombo"] == 1
    assert players["Doi"]["deal_in_rate"] == 0.5


def test_points_received_and_paid_balance(players):
    received = sum(row["points_received"] for row in players.values())
    paid = sum(row["points_paid"] for row in players.values())
    assert received == paid  # no stick is left on the table at the end here


def test_partials_of_any_split_of_the_games_give_the_same_players():
    games = [game(ROWS, game_id=f"g{i}", players=names) for i, names in enumerate(
        [("Aoki", "Baba", "Chiba", "Doi"), ("Doi", "Chiba", "Baba", "Aoki"), ("Eto", "Aoki", "Fujii", "Baba")]
    )]
    whole = analyzer.score(pl.concat(games), "tenhou", ratings="none").players  # the statistics alone
    parts = []
    for frame in games:  # one game per part, each scored on its own
        part = score_parts(raw_input(frame), "tenhou")[0]
        parts.append(player_partials(part.scored, game_results(part.scored, part.rules)).collect())
    assert_frame_equal(finalize_players(combine_partials([p.lazy() for p in parts])).collect(), whole)


def _reference_sums(hands: pl.LazyFrame) -> pl.DataFrame:
    """The per-player sums the plain way: every statistic as one boolean or amount per seat and row, hand facts
    as windows over the hand id, four group-bys by player. Slow and obvious; the product counts seat masks."""
    from analyzer.players import AMOUNT_SUMS, COUNT_SUMS, LIMIT_BUCKETS
    from analyzer.players.facts import flag_input, int_input, seat_inputs
    from analyzer.players.seats import at_seat
    from analyzer.players.sums import chasing_riichi
    from analyzer.core.schema import DELTA_COLUMNS, PLAYER_COLUMNS, SEATS

    names = hands.collect_schema().names()
    inputs = seat_inputs(names)
    bit = lambda mask, seat: pl.col(mask).and_(pl.lit(1, pl.Int64) * 2 ** seat) != 0  # noqa: E731
    opened = [flag_input(f"open_{s}", names) for s in SEATS]
    paid_ron = pl.col("_paid") & (pl.col("result") == "ron")
    winner_open, winner_riichi = at_seat(opened, pl.col("_winner")), bit("_hand_riichi", pl.col("_winner"))
    in_hand = lambda condition: condition.fill_null(False).any().over("_hand")  # noqa: E731
    facts = hands.with_columns(
        *[o.alias(f"_open_{s}") for s, o in enumerate(opened)],
        *[int_input(f"riichi_turn_{s}", names).alias(f"_riichi_turn_{s}") for s in SEATS],
        *[int_input(f"calls_{s}", names).alias(f"_calls_{s}") for s in SEATS],
        *[(flag_input(f"tenpai_{s}", names).fill_null(bit("_tenpai_mask", s)) if f"tenpai_{s}" in names
           else bit("_tenpai_mask", s)).alias(f"_tenpai_{s}") for s in SEATS],
        int_input("turn", names).alias("_turn"),
        in_hand(paid_ron).alias("_dealt_in"),
        pl.when(paid_ron).then(pl.col("points")).otherwise(0).fill_null(0).sum().over("_hand").alias("_deal_in_cost"),
        in_hand(paid_ron & winner_riichi).alias("_into_riichi"),
        in_hand(paid_ron & winner_open).alias("_into_open"),
        in_hand(paid_ron & ~winner_riichi & ~winner_open).alias("_into_dama"),
        in_hand(paid_ron & winner_open.is_null()).alias("_into_unknown"),
        in_hand(pl.col("_paid") & (pl.col("_winner") == pl.col("dealer"))).alias("_dealer_won"),
        *[in_hand(pl.col("_paid") & (pl.col("_winner") == s)).alias(f"_won_{s}") for s in SEATS],
    )

    def seat_sums(s: int) -> dict[str, pl.Expr]:
        hand = pl.col("_first") & (pl.col("result") != "chombo")
        win = (pl.col("_paid") & (pl.col("_winner") == s)).fill_null(False)
        in_riichi, riichi, opened = bit("_hand_riichi", s), hand & bit("_hand_riichi", s), pl.col(f"_open_{s}")
        deal_in = hand & pl.col("_dealt_in") & (pl.col("_loser") == s).fill_null(False)
        exhaustive = pl.col("result").is_in(["draw", "nagashi"])
        draw, won, turn = hand & exhaustive, pl.col(f"_won_{s}"), pl.col("_turn")
        dealer_hand = hand & (pl.col("dealer") == s)
        chasing, chasing_known = chasing_riichi(s)
        delta = pl.col(DELTA_COLUMNS[s])
        others_tsumo = (pl.col("_paid") & (pl.col("result") == "tsumo") & (pl.col("_winner") != s)).fill_null(False)
        value = lambda c, amount: pl.when(c.fill_null(False)).then(amount).otherwise(0).fill_null(0)  # noqa: E731
        flags = {
            "hands": hand, "dealer_hands": dealer_hand,
            "dealer_keeps": dealer_hand & (pl.col("_dealer_won") | (exhaustive & pl.col(f"_tenpai_{s}").fill_null(False))
                                           | (pl.col("result") == "abort")),
            "wins": win, "tsumo_wins": win & (pl.col("result") == "tsumo"), "riichi_wins": win & in_riichi,
            "open_wins": win & opened, "dama_wins": win & ~in_riichi & ~opened, "deal_ins": deal_in,
            "riichi": riichi, "riichi_win": riichi & won, "riichi_deal_in": riichi & deal_in,
            "riichi_draw": riichi & exhaustive, "riichi_other_win": riichi & pl.col("_is_win") & ~won & ~deal_in,
            "draws": draw, "draw_tenpai": draw & pl.col(f"_tenpai_{s}").fill_null(False),
            "opened_hands": hand & opened, "_open_known_hands": hand & opened.is_not_null(),
            "_riichi_turn_known": riichi & pl.col(f"_riichi_turn_{s}").is_not_null(),
            "_chasing_riichi": riichi & chasing_known & chasing, "_chasing_known": riichi & chasing_known,
            "_win_turn_known": win & turn.is_not_null(), "_deal_in_turn_known": deal_in & turn.is_not_null(),
            "deal_ins_in_riichi": deal_in & in_riichi, "deal_ins_while_open": deal_in & opened,
            "deal_ins_to_riichi": deal_in & pl.col("_into_riichi"), "deal_ins_to_open": deal_in & pl.col("_into_open"),
            "deal_ins_to_dama": deal_in & pl.col("_into_dama") & ~pl.col("_into_unknown"),
            **{b: win & (pl.col("limit").is_null() if n is None else pl.col("limit").is_in(n))
               for b, n in LIMIT_BUCKETS.items()},
            "yakuman": win & pl.col("limit").str.contains("yakuman"),
            "nagashi": (pl.col("result") == "nagashi") & (pl.col("_winner") == s),
            "chombo": (pl.col("result") == "chombo") & (pl.col("_loser") == s),
        }
        amounts = {
            "points_received": delta.clip(lower_bound=0), "points_paid": -delta.clip(upper_bound=0),
            "tsumo_paid": value(others_tsumo, -delta.clip(upper_bound=0)),
            "_calls_sum": value(hand & opened, pl.col(f"_calls_{s}")),
            "_riichi_turn_sum": value(riichi, pl.col(f"_riichi_turn_{s}")),
            "_win_turn_sum": value(win, turn), "_deal_in_turn_sum": value(deal_in, turn),
            "_win_value_sum": value(win, pl.col("points")),
            "_riichi_win_value_sum": value(win & in_riichi, pl.col("points")),
            "_open_win_value_sum": value(win & opened, pl.col("points")),
            "_dama_win_value_sum": value(win & ~in_riichi & ~opened, pl.col("points")),
            "_deal_in_cost_sum": value(deal_in, pl.col("_deal_in_cost")),
        }
        return {**{k: v.fill_null(False).cast(pl.Int64) for k, v in flags.items()}, **amounts}

    columns = [*COUNT_SUMS, *AMOUNT_SUMS]
    per_seat = [facts.select(pl.col(PLAYER_COLUMNS[s]).alias("player"), *[seat_sums(s)[c].alias(c) for c in columns])
                for s in SEATS]
    sums = pl.concat(per_seat).group_by("player").agg(pl.all().sum())
    missing = {c for need, cols in NEEDS.items() if need not in inputs for c in cols}
    # renchan: hands of one dealership (a game and round), minus one, for the dealer on its first row
    dealership = pl.struct("game_id", "_round_idx")
    counted = (pl.col("_first") & (pl.col("result") != "chombo")).cast(pl.Int64)
    renchan = facts.with_row_index("_i").with_columns(
        (counted.sum().over(dealership) - 1).alias("renchan"),
        at_seat([pl.col(c) for c in PLAYER_COLUMNS], pl.col("dealer")).first().over(dealership).alias("player"),
        (pl.col("_i") == pl.col("_i").min().over(dealership)).alias("_head"),
    ).filter(pl.col("_head") & (pl.col("renchan") >= 0)).group_by("player").agg(pl.col("renchan").max().alias("max_renchan"))
    return sums.join(renchan, on="player", how="left").select(
        "player", *[pl.lit(0, pl.Int64).alias(c) if c in missing else pl.col(c).cast(pl.Int64) for c in columns],
        "max_renchan",
    ).collect()


def _with_seat_inputs(frame: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Generated games with random per-seat inputs, some empty or unreadable: every statistic has its input."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = frame.height

    def text(values, empty: float = 0.1) -> pl.Series:
        return pl.Series([None if e else str(v) for v, e in zip(values, rng.random(n) < empty)], dtype=pl.String)

    return frame.with_columns(
        *[text(rng.choice(["true", "false", "1", "0", "?"], n)).alias(f"open_{s}") for s in range(4)],
        *[text(rng.integers(1, 18, n)).alias(f"riichi_turn_{s}") for s in range(4)],
        *[text(rng.integers(0, 4, n)).alias(f"calls_{s}") for s in range(4)],
        text(rng.integers(1, 19, n)).alias("turn"),
        *[text(rng.choice(["yes", "no"], n), 0.5).alias(f"tenpai_{s}") for s in range(4)],
    )


def _one_table(games: int) -> pl.DataFrame:
    """``games`` games in a row with one seating (five hands each: every outcome kind, a dealer keep)."""
    def hands(i: int) -> list[dict]:
        at = [PLAYERS[(i + k) % 4] for k in range(4)]
        return [
            {"round": "E1", "honba": 0, "result": "ron", "winner": at[1], "loser": at[0], "han": 1 + i % 5, "fu": 30},
            {"round": "E2", "honba": 0, "result": "tsumo", "winner": at[2], "han": 2, "fu": 40, "riichi": at[2]},
            {"round": "E3", "honba": 0, "result": "draw", "tenpai": f"{PLAYERS[2]},{at[3]}"},
            {"round": "E3", "honba": 1, "result": "ron", "winner": at[3], "loser": at[1], "han": 3, "fu": 30},
            {"round": "E4", "honba": 0, "result": "tsumo", "winner": PLAYERS[3], "han": 1, "fu": 30},
        ]
    return pl.concat([game(hands(i), game_id=f"t{i:03d}") for i in range(games)], how="diagonal_relaxed")


@pytest.mark.parametrize(
    "source", ["stats_game", "generated", "generated_with_inputs", "changing_seating", "long_game", "one_table"]
)
def test_seat_mask_sums_equal_the_plain_per_seat_sums(source):
    from analyzer.players.best import part_bounds
    from analyzer.players.facts import hand_facts, seat_inputs
    from analyzer.players.sums import per_seat_sums, seat_rows
    from benchmarks.gamegen import generate

    if source == "stats_game":
        frame = pl.read_csv("tests/data/stats_game.csv", infer_schema=False)
    elif source == "long_game":  # 40 aborted hands in each round: more hands than a run's field counts
        rounds = [f"{w}{n}" for w in "ES" for n in range(1, 5)]
        frame = game([row for i, r in enumerate(rounds) for row in [
            *[{"round": r, "honba": k, "result": "abort"} for k in range(40)],
            {"round": r, "honba": 40, "result": "tsumo", "winner": PLAYERS[(i + 1) % 4], "han": 1, "fu": 30}]])
    elif source == "one_table":  # 300 rows at one table: runs span games, cut at RUN_ROWS rows
        frame = _one_table(60)
    else:
        frame = generate(6_000, seed=3, players=40)  # few players: each plays many games
        if source == "generated_with_inputs":
            frame = _with_seat_inputs(frame, seed=5)
        if source == "changing_seating":  # a seat's name changes inside some games: each row counts for its own
            frame = frame.with_columns(pl.when(pl.int_range(pl.len()) % 7 == 3).then(pl.lit("P_stand_in"))
                                       .otherwise(pl.col("player_2")).alias("player_2"))
    parts = score_parts(raw_input(frame), "tenhou")
    scored = pl.concat([p.scored for p in parts], how="diagonal_relaxed")
    bounds = part_bounds(scored)
    inputs = seat_inputs(scored.collect_schema().names())
    rows, summed = seat_rows(hand_facts(scored, bounds.longest), inputs, bounds)
    fast = per_seat_sums(rows, summed).collect().sort("player")
    plain = _reference_sums(scored).sort("player")
    assert_frame_equal(fast.select(plain.columns), plain)
    assert (plain.select(pl.exclude("player", "max_renchan").sum()).row(0) != (0,) * (plain.width - 2))


@pytest.mark.parametrize("source", ["generated", "long_rounds"])
def test_best_and_worst_hands_pick_the_first_place_of_equal_values(source):
    from analyzer.players.best import best_hands, game_ids_by_number, part_bounds
    from analyzer.players.facts import hand_facts, seat_inputs
    from analyzer.players.merge import arg_max
    from analyzer.players.seats import at_seat
    from analyzer.players.sums import per_seat_sums, seat_rows
    from analyzer.core.schema import PLAYER_COLUMNS
    from benchmarks.gamegen import generate

    if source == "generated":
        frame = generate(6_000, seed=4, players=40)
    else:  # every wind (round names sort E, N, S, W), high honba, equal values in many places
        rounds = [f"{w}{n}" for w in "ESWN" for n in range(1, 5)]
        frame = pl.concat([game([row for i, r in enumerate(rounds) for row in [
            *[{"round": r, "honba": k, "result": "abort"} for k in range(h)],
            {"round": r, "honba": h, "result": "ron", "winner": PLAYERS[(i + 1) % 4], "loser": PLAYERS[i % 4],
             "han": 3, "fu": 30}]], game_id=f"g{h}") for h in (99, 5)])
    parts = score_parts(raw_input(frame), "tenhou")
    scored = pl.concat([p.scored for p in parts], how="diagonal_relaxed").collect()
    bounds = part_bounds(scored.lazy())
    per_seat, summed = seat_rows(hand_facts(scored.lazy(), bounds.longest), seat_inputs(scored.columns), bounds)
    best = best_hands(per_seat_sums(per_seat, summed).collect(), game_ids_by_number(scored.lazy()), bounds.game_bits)
    players = [pl.col(c) for c in PLAYER_COLUMNS]
    where = ["game_id", "round", "honba"]
    paid_ron = pl.col("_paid") & (pl.col("result") == "ron")
    values = {  # every win and every deal-in with its player (the plain way)
        "best_win": scored.filter(pl.col("_paid")).select(
            at_seat(players, pl.col("_winner")).alias("player"), pl.col("points").alias("value"), *where),
        "worst_deal_in": scored.with_columns(
            pl.when(paid_ron).then(pl.col("points")).otherwise(0).sum().over("_hand").alias("value"),
            paid_ron.any().over("_hand").alias("dealt_in"),
        ).filter(pl.col("_first") & pl.col("dealt_in") & (pl.col("result") != "chombo")).select(
            at_seat(players, pl.col("_loser")).alias("player"), "value", *where),
    }
    for prefix, rows in values.items():
        key = f"{prefix}_points"
        plain = rows.select("player", pl.col("value").alias(key), *[pl.col(c).alias(f"{prefix}_{c.split('_')[0]}")
                                                                    for c in where])
        plain = plain.group_by("player").agg(pl.col(key).max(),
                                             *[arg_max(f"{prefix}_{c}", key) for c in ("game", "round", "honba")])
        fast = best.filter(pl.col(key).is_not_null()).select(plain.columns).sort("player")
        assert_frame_equal(fast, plain.sort("player"))


def test_merged_best_hands_are_the_per_player_sort_of_the_partial_rows():
    """Merging partial rows picks each player's best win and worst deal-in as a per-player sort does: the largest
    value, then the first game id, round and honba; a player whose values are all null keeps the first place."""
    from analyzer.players import BEST, MERGE, PARTIAL_COLUMNS
    from analyzer.players.merge import arg_max

    rows = []
    for i in range(60):
        value = None if i % 7 == 0 else [8000, 12000, 8000][i % 3]
        rows.append({"player": f"p{i % 5}", "best_win_points": value, "best_win_game": f"g{(i * 7) % 4}",
                     "best_win_round": ["E1", "S2", "E1"][i % 3], "best_win_honba": i % 2,
                     "worst_deal_in_points": None if i % 5 == 4 else 1000 * (i % 4),
                     "worst_deal_in_game": f"g{i % 3}", "worst_deal_in_round": "E2", "worst_deal_in_honba": i % 3})
    rows.append({"player": "nulls", "best_win_points": None, "best_win_game": "g2", "best_win_round": "S1",
                 "best_win_honba": 0, "worst_deal_in_points": None, "worst_deal_in_game": "g1",
                 "worst_deal_in_round": "E1", "worst_deal_in_honba": 1})
    given = pl.DataFrame(rows)
    partials = given.with_columns(
        *[pl.lit(0, pl.Int64).alias(c) for c in PARTIAL_COLUMNS if c not in given.columns and c != "_yaku"],
        pl.lit([], pl.List(pl.Struct({"yaku": pl.String, "count": pl.Int64}))).alias("_yaku"),
    ).select(PARTIAL_COLUMNS)
    merged = combine_partials(partials.lazy()).collect().sort("player")
    carried = [c for c, how in MERGE.items() if how.startswith("arg_max:")]
    plain = partials.group_by("player").agg(
        *[pl.col(key).max() for key in BEST.values()],
        *[arg_max(c, MERGE[c].split(":", 1)[1]) for c in carried],
    ).sort("player")
    assert_frame_equal(merged.select(plain.columns), plain)
