"""The play statistics of the players table (docs/statistics.md#play-statistics) on the shared real logs (three-
player games included), against a plain reading: each hand's events one at a time (:mod:`tests.play.plain_play`)
and its hand records row by row, every statistic counted by its definition; any split of the games into parts
gives the same table; games without events leave them null (and count chasing riichi by turns)."""

from __future__ import annotations

from collections import Counter, defaultdict

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import analyzer
from analyzer.jobs.outputs import assemble_part, finish_players, merge_partials
from analyzer.players.publish import PLAYER_COLUMNS_OUT
from analyzer.scoring.parts import raw_input, score_parts
from tests.conftest import SHARED_HINT, SHARED_LOGS
from tests.play.plain_play import LAST_ROUND, plain_facts
from tests.play.shared_events import real_events  # noqa: F401  (a fixture)

# the play statistics (null without events), and chasing riichi (by turns without events)
PLAY = PLAYER_COLUMNS_OUT[PLAYER_COLUMNS_OUT.index("riichi_first_rate"):]
CHASING = "chasing_riichi_rate"
UNPAID = {"head_bump", "triple_ron_abort"}


@pytest.fixture(scope="module")
def records() -> pl.DataFrame:
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"no shared logs at {SHARED_LOGS}: {SHARED_HINT}")
    rows, _ = analyzer.read_tenhou([str(SHARED_LOGS)])
    return rows


def part_tables(records: pl.DataFrame, events: pl.DataFrame | None, games: list[str] | None = None):
    """One partition of the games ``games`` (all: None), scored and assembled with their events."""
    if games is not None:
        records = records.filter(pl.col("game_id").is_in(games))
        events = None if events is None else events.filter(pl.col("game_id").is_in(games))
    return assemble_part(score_parts(raw_input(records)), events=events)


@pytest.fixture(scope="module")
def whole(records, real_events):
    return part_tables(records, real_events)


def ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _recorded(row: dict, recorded: str, scored: str) -> int:
    value = row.get(recorded)
    return (row.get(scored) or 0) if value is None else value


def _ippatsu(row: dict) -> bool:
    if row.get("recorded_yaku") is not None:
        return "ippatsu" in row["recorded_yaku"]
    return any(y["name"] == "ippatsu" for y in row.get("yaku") or [])


def plain_statistics(hands: pl.DataFrame, games: pl.DataFrame, events: pl.DataFrame) -> dict[str, dict]:
    """Each player's play statistics, by their definitions, from the hands table, the games table and the events."""
    facts = plain_facts(events)
    by_hand: dict[tuple, list[dict]] = defaultdict(list)
    for row in hands.to_dicts():  # the hands table is in replay order: a hand's first row first
        by_hand[(row["game_id"], row["log_row"])].append(row)
    c: dict[str, Counter] = defaultdict(Counter)
    for (gid, log_row), rows in by_hand.items():
        first = rows[0]
        if first["result"] == "chombo":
            continue
        paid = [r for r in rows if r["result"] in ("ron", "tsumo") and not set(r["problems"]) & UNPAID]
        tsumo = [r for r in paid if r["result"] == "tsumo"]
        for s in range(4):
            f = facts.get((gid, log_row, s))
            if f is None:
                continue
            n = c[first[f"player_{s}"]]
            n["hands"] += 1
            riichi = f.get("riichi_accepted") is True
            win = [r for r in paid if int(r["winner"]) == s]
            deal_in = [r["points"] for r in paid if r["result"] == "ron" and int(r["loser"]) == s]
            n["start_shanten"] += f["start_shanten"]
            if riichi:
                n["riichi"] += 1
                n["first"] += f["riichi_first"]
                n["chasing"] += not f["riichi_first"]
                n["chased"] += f["riichi_chased"]
                n["waits"] += f["riichi_waits"]
                n["multi"] += f["riichi_waits"] >= 2
                n["left"] += f["riichi_wait_left"]
                n["good"] += f["riichi_wait_left"] >= 6
                n["furiten"] += f["riichi_furiten"]
                if "score_change" in f:
                    n["balance"] += f["score_change"]
                    n["balance_hands"] += 1
            elif "riichi_seq" in f and deal_in:
                n["declaration_deal_ins"] += 1
            if win:
                w = win[0]
                n["wins"] += 1
                n["dora"] += sum(_recorded(w, f"recorded_{k}", scored) for k, scored in
                                 (("dora", "dora_count"), ("aka_dora", "aka_dora"), ("ura_dora", "ura_dora")))
                for t in (3900, 7700, 11600):
                    n[f"win_{t}"] += w["points"] >= t
                kind = "riichi" if riichi else "open" if f["calls"] else "dama"
                if w["turn"] is not None:
                    n[f"{kind}_turn"] += w["turn"]
                    n[f"{kind}_turns"] += 1
                if riichi:
                    n["riichi_wins"] += 1
                    n["ippatsu"] += _ippatsu(w)
                    n["ura"] += _recorded(w, "recorded_ura_dora", "ura_dora") > 0
            if deal_in:
                n["deal_ins"] += 1
                n["deal_in_shanten"] += f["deal_in_shanten"]
                n["deal_in_tenpai"] += f["deal_in_shanten"] == 0
                for t in (3900, 7700, 11600):
                    n[f"deal_in_{t}"] += sum(deal_in) >= t
            if tsumo and int(tsumo[0]["winner"]) != s:
                n["tsumo_hits"] += 1
                if first["dealer"] == s:
                    n["dealer_hits"] += 1
                    n["dealer_mangan_hits"] += tsumo[0]["points"] >= 8000
            if f.get("first_call_turn") is not None:
                n["opened"] += 1
                n["first_call_turn"] += f["first_call_turn"]
            n["calls"] += f["calls"]
            n["cancels"] += f["ippatsu_cancels"]
            n["kan_hands"] += f["kans"] > 0
    event_games = set(events["game_id"])
    for gid, seats in games.filter(pl.col("game_id").is_in(event_games)).group_by("game_id"):
        players = seats.height
        kind = seats["kind"][0]
        last = LAST_ROUND.get(("east" if kind.endswith("east-only") else "hanchan", players))
        rounds = sorted((row, hand[0]) for (g, row), hand in by_hand.items()
                        if g == gid[0] and hand[0]["round"] == last and hand[0]["result"] != "chombo")
        for seat_row in seats.to_dicts():
            n = c[seat_row["player"]]
            n["games"] += 1
            n[f"seat_games_{seat_row['seat']}"] += 1
            n[f"seat_places_{seat_row['seat']}"] += seat_row["place"]
            entered = facts.get((gid[0], rounds[0][0], seat_row["seat"]), {}).get("start_place") if rounds else None
            if entered is None:
                continue
            place = seat_row["place"]
            n["all_last"] += 1
            n["entered_first"] += entered == 1
            n["kept_first"] += entered == 1 and place == 1
            n["entered_lower"] += entered >= 2
            n["comebacks"] += entered >= 2 and place == 1
            n["entered_last"] += entered == players
            n["avoided_last"] += entered == players and place < players
    out = {}
    for player, n in c.items():
        riichi = n["riichi"]
        out[player] = {
            "riichi_first_rate": ratio(n["first"], riichi), "chasing_riichi_rate": ratio(n["chasing"], riichi),
            "riichi_chased_rate": ratio(n["chased"], riichi), "ippatsu_rate": ratio(n["ippatsu"], n["riichi_wins"]),
            "ura_rate": ratio(n["ura"], n["riichi_wins"]), "riichi_balance": ratio(n["balance"], n["balance_hands"]),
            "riichi_declaration_deal_ins": n["declaration_deal_ins"],
            "riichi_declaration_deal_in_rate": ratio(n["declaration_deal_ins"], n["declaration_deal_ins"] + riichi),
            "avg_riichi_waits": ratio(n["waits"], riichi), "riichi_multi_wait_rate": ratio(n["multi"], riichi),
            "avg_riichi_wait_left": ratio(n["left"], riichi), "riichi_good_shape_rate": ratio(n["good"], riichi),
            "riichi_furiten_rate": ratio(n["furiten"], riichi),
            "avg_deal_in_shanten": ratio(n["deal_in_shanten"], n["deal_ins"]),
            "deal_in_tenpai_rate": ratio(n["deal_in_tenpai"], n["deal_ins"]),
            **{f"deal_in_{t}_rate": ratio(n[f"deal_in_{t}"], n["deal_ins"]) for t in (3900, 7700, 11600)},
            **{f"win_{t}_rate": ratio(n[f"win_{t}"], n["wins"]) for t in (3900, 7700, 11600)},
            "avg_start_shanten": ratio(n["start_shanten"], n["hands"]),
            "tsumo_hits": n["tsumo_hits"], "tsumo_hit_rate": ratio(n["tsumo_hits"], n["hands"]),
            "dealer_tsumo_hit_mangan_rate": ratio(n["dealer_mangan_hits"], n["dealer_hits"]),
            "avg_first_call_turn": ratio(n["first_call_turn"], n["opened"]),
            "ippatsu_cancel_rate": ratio(n["cancels"], n["calls"]), "kan_rate": ratio(n["kan_hands"], n["hands"]),
            "all_last_games": n["all_last"], "all_last_keep_first_rate": ratio(n["kept_first"], n["entered_first"]),
            "all_last_comeback_rate": ratio(n["comebacks"], n["entered_lower"]),
            "all_last_avoid_last_rate": ratio(n["avoided_last"], n["entered_last"]),
            **{f"avg_place_seat_{s}": ratio(n[f"seat_places_{s}"], n[f"seat_games_{s}"]) for s in range(4)},
            **{f"avg_win_turn_{k}": ratio(n[f"{k}_turn"], n[f"{k}_turns"]) for k in ("riichi", "open", "dama")},
            "avg_dora_per_win": ratio(n["dora"], n["wins"]),
        }
    return out


def test_every_statistic_is_that_of_a_plain_reading(whole, real_events):
    players = finish_players(merge_partials([whole.partials]))
    expected = plain_statistics(whole.hands, whole.games, real_events)
    assert set(players["player"]) == set(expected)
    seen = Counter()
    for row in players.to_dicts():
        want = expected[row["player"]]
        for column in (*PLAY, CHASING):
            assert row[column] == pytest.approx(want[column]), (row["player"], column)
            seen[column] += want[column] not in (None, 0)
    assert set(seen) == {*PLAY, CHASING} and min(seen.values()) >= 1, seen  # every statistic met at least once
    three = whole.games.filter(pl.col("kind").str.starts_with("3-player"))["player"]
    of_three = players.filter(pl.col("player").is_in(three.implode()))
    assert three.len() and of_three["avg_start_shanten"].null_count() == 0


def test_any_split_of_the_games_gives_the_same_players(records, real_events, whole):
    ids = sorted(set(records["game_id"]))
    for parts in (2, 5):
        partials = [part_tables(records, real_events, ids[i::parts]).partials for i in range(parts)]
        merged = merge_partials([merge_partials(partials[:2]), *partials[2:]])  # merged partials merge again
        assert_frame_equal(finish_players(merged), finish_players(merge_partials([whole.partials])))


def test_games_without_events_leave_the_play_statistics_null(records, real_events):
    ids = sorted(set(records["game_id"]))
    plain = finish_players(merge_partials([part_tables(records, None).partials]))
    assert plain.select(pl.col(c).is_not_null().any() for c in PLAY).row(0) == (False,) * len(PLAY)
    assert plain[CHASING].null_count() < plain.height  # by turns
    empty = part_tables(records, real_events.clear())
    assert_frame_equal(finish_players(merge_partials([empty.partials])), plain)
    # half the games with events: their play statistics are those of that half alone, and the chasing riichi
    # of the other half is counted by turns
    half, other = ids[::2], ids[1::2]
    mixed = part_tables(records, real_events.filter(pl.col("game_id").is_in(half)))
    alone = finish_players(merge_partials([part_tables(records, real_events, half).partials]))
    both = finish_players(merge_partials([mixed.partials]))
    assert_frame_equal(both.filter(pl.col("player").is_in(alone["player"].implode())).select("player", *PLAY)
                       .sort("player"), alone.select("player", *PLAY).sort("player"))
    by_turns = part_tables(records, None, other).partials
    by_events = part_tables(records, real_events, half).partials
    for column in ("_chasing_riichi", "_chasing_known"):
        total = pl.concat([by_turns, by_events]).group_by("player").agg(pl.col(column).sum()).sort("player")
        assert_frame_equal(mixed.partials.select("player", column).sort("player"), total, check_dtypes=False)


def test_a_score_sheet_has_no_play_statistics():
    players = analyzer.score(pl.read_csv("tests/data/stats_game.csv", infer_schema=False), "tenhou",
                             ratings="none").players
    assert players.select(PLAY).null_count().row(0) == (players.height,) * len(PLAY)
    assert players[CHASING].null_count() < players.height  # turns known: the turn rule
