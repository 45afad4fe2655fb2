"""Each seat's facts of a hand from the events table as columns, against a plain reading of the shared real
logs' events one at a time, its shanten and waits from the ``mahjong`` package (test-only)."""

from __future__ import annotations

import polars as pl
import pytest
from mahjong.shanten import Shanten

from analyzer.play.seats import hand_seats
from analyzer.play.state import tile_kinds
from tests.play.shared_events import real_events  # noqa: F401  (a fixture)

ORACLE = Shanten()


def kind(tile: str) -> int:
    return int(tile_kinds([tile])[0])


def oracle_waits(hand: list[int], three: bool) -> list[int]:
    if ORACLE.calculate_shanten(hand) != 0:
        return []
    found = []
    for k in range(34):
        if hand[k] < 4 and not (three and 1 <= k <= 7):
            grown = list(hand)
            grown[k] += 1
            if ORACLE.calculate_shanten(grown) == -1:
                found.append(k)
    return found


def plain_facts(events: pl.DataFrame) -> dict[tuple, dict]:
    """The facts of each hand and seat, reading the events in order."""
    facts: dict[tuple, dict] = {}
    for (gid, log_row), hand_events in events.group_by(["game_id", "log_row"], maintain_order=True):
        rows = hand_events.sort("seq").to_dicts()
        three = sum(e["event"] == "haipai" for e in rows) == 3
        hands: dict[int, list[int]] = {}
        seen = [0] * 34
        discards: dict[int, list[int]] = {}
        accepted: list[tuple[int, int]] = []  # (seat, seq)
        declared: dict[int, int] = {}
        last_out: dict[int, list[int]] = {}  # the seat's hand after its last discard or added kan
        mine: dict[int, dict] = {}
        for e in rows:
            s, name = e["seat"], e["event"]
            if name == "dora":
                seen[kind(e["tile"])] += 1
                continue
            if s is None:
                continue
            h = hands.setdefault(s, [0] * 34)
            f = mine.setdefault(s, {"calls": 0, "kans": 0, "first_call_turn": None})
            if name == "haipai":
                for t in e["tiles"]:
                    h[kind(t)] += 1
                f["start_shanten"] = ORACLE.calculate_shanten(h)
            elif name == "draw":
                h[kind(e["tile"])] += 1
            elif name in ("discard", "kakan", "kita"):
                h[kind(e["tile"])] -= 1
                seen[kind(e["tile"])] += 1
                if name == "discard":
                    discards.setdefault(s, []).append(kind(e["tile"]))
                if name in ("discard", "kakan"):
                    last_out[s] = list(h)
                if name == "discard" and s in declared and "riichi_waits" not in f:
                    wait = oracle_waits(h, three)
                    f["riichi_waits"] = len(wait)
                    f["riichi_wait_left"] = sum(max(0, 4 - h[k] - seen[k]) for k in wait)
                    f["riichi_furiten"] = any(k in discards[s] for k in wait)
                if name == "kakan":
                    f["kans"] += 1
            elif name in ("chi", "pon", "minkan", "ankan"):
                for t in e["tiles"]:
                    h[kind(t)] -= 1
                    seen[kind(t)] += 1
                if name != "ankan":
                    h[kind(e["tile"])] += 1
                    seen[kind(e["tile"])] -= 1
                    f["calls"] += 1
                    if f["first_call_turn"] is None:
                        f["first_call_turn"] = e["turn"]
                if name in ("minkan", "ankan"):
                    f["kans"] += 1
            elif name == "riichi_declared":
                declared[s] = e["seq"]
                f["riichi_first"] = not any(other != s for other, _ in accepted)
            elif name == "riichi_accepted":
                for other, _ in accepted:
                    if other != s:
                        mine[other]["riichi_chased"] = True
                accepted.append((s, e["seq"]))
            elif name == "ron":
                loser = e["from_seat"]
                mine[loser]["deal_in_shanten"] = ORACLE.calculate_shanten(last_out[loser])
        for s, f in mine.items():
            if s in declared:
                f.setdefault("riichi_chased", False)
            facts[(gid, log_row, s)] = f
    return facts


COLUMNS = ["start_shanten", "riichi_first", "riichi_chased", "riichi_waits", "riichi_wait_left", "riichi_furiten",
           "deal_in_shanten", "first_call_turn", "calls", "kans"]


def test_the_facts_are_those_of_a_plain_reading(real_events):
    events = real_events
    games = events["game_id"].unique(maintain_order=True).sort()[:12]
    some = events.filter(pl.col("game_id").is_in(games.implode()))
    table = hand_seats(some)
    plain = plain_facts(some)
    assert table.height == len(plain)
    riichi_seen = deal_ins_seen = 0
    for row in table.to_dicts():
        expected = plain[(row["game_id"], row["log_row"], row["seat"])]
        got = {c: row[c] for c in COLUMNS if row[c] is not None and not (c in ("calls", "kans") and row[c] == 0)}
        want = {c: v for c, v in expected.items() if v is not None and not (c in ("calls", "kans") and v == 0)}
        assert got == want, (row["game_id"], row["log_row"], row["seat"])
        riichi_seen += row["riichi_waits"] is not None
        deal_ins_seen += row["deal_in_shanten"] is not None
    assert riichi_seen > 10 and deal_ins_seen > 10
