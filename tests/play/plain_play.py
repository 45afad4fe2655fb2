"""A plain reading of the events, one event at a time (the tests' reference for :mod:`analyzer.play` and the play
statistics): each hand and seat's facts, shanten and waits from the ``mahjong`` package (test-only)."""

from __future__ import annotations

import polars as pl
from mahjong.shanten import Shanten

from analyzer.play.state import tile_kinds

ORACLE = Shanten()
LAST_ROUND = {("hanchan", 4): "S4", ("east", 4): "E4", ("hanchan", 3): "S3", ("east", 3): "E3"}


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


def _hand_facts(rows: list[dict]) -> dict[int, dict]:
    """The facts of each seat of one hand (its events in ``seq`` order)."""
    three = sum(e["event"] == "haipai" for e in rows) == 3
    hands: dict[int, list[int]] = {}
    seen = [0] * 34
    discards: dict[int, list[int]] = {}
    accepted: dict[int, int] = {}  # seat -> seq of its accepted riichi
    next_discard: dict[int, int] = {}  # seat -> seq of its first discard after its riichi was accepted
    declared: dict[int, int] = {}
    last_state: dict[int, list[int]] = {}  # the seat's hand after its last row
    mine: dict[int, dict] = {}
    change = [0, 0, 0, 0]
    outcome = False
    for e in rows:
        s, name = e["seat"], e["event"]
        if name in ("ron", "tsumo", "exhaustive_draw", "abort") and e["delta_0"] is not None:
            outcome = True
            change = [c + (e[f"delta_{t}"] or 0) for t, c in enumerate(change)]
        if name == "dora":
            seen[kind(e["tile"])] += 1
            continue
        if s is None:
            continue
        h = hands.setdefault(s, [0] * 34)
        f = mine.setdefault(s, {"calls": 0, "kans": 0, "ippatsu_cancels": 0, "first_call_turn": None})
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
                if s in accepted and s not in next_discard:
                    next_discard[s] = e["seq"]
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
                if any(o != s and e["seq"] < next_discard.get(o, 1 << 20) for o in accepted):
                    f["ippatsu_cancels"] += 1
            if name in ("minkan", "ankan"):
                f["kans"] += 1
        elif name == "riichi_declared":
            declared[s] = e["seq"]
            f["riichi_seq"], f["riichi_turn"] = e["seq"], e["turn"]
            f["riichi_accepted"] = False
            f["riichi_first"] = not any(other != s for other in accepted)
        elif name == "riichi_accepted":
            for other in accepted:
                if other != s:
                    mine[other]["riichi_chased"] = True
            accepted[s] = e["seq"]
            f["riichi_accepted"] = True
        elif name == "ron":
            loser = e["from_seat"]
            mine[loser]["deal_in_shanten"] = ORACLE.calculate_shanten(last_state[loser])
        last_state[s] = list(h)
    for s, f in mine.items():
        if s in declared:
            f.setdefault("riichi_chased", False)
        if outcome:
            f["score_change"] = change[s]
    return mine


def plain_facts(events: pl.DataFrame) -> dict[tuple, dict]:
    """The facts of each hand and seat ``(game_id, log_row, seat)``, reading the events in order; the place at
    each hand's start from the recorded changes of the game's earlier hands (ties by seat)."""
    facts: dict[tuple, dict] = {}
    for (gid,), game_events in events.sort("game_id", "log_row", "seq").group_by(["game_id"], maintain_order=True):
        scores = [0, 0, 0, 0]
        known = True
        for (log_row,), hand_events in game_events.group_by(["log_row"], maintain_order=True):
            mine = _hand_facts(hand_events.to_dicts())
            for s, f in mine.items():
                if known:
                    f["start_place"] = 1 + sum(scores[o] > scores[s] or (scores[o] == scores[s] and o < s)
                                               for o in mine if o != s)
                facts[(gid, log_row, s)] = f
            if any("score_change" not in f for f in mine.values()):
                known = False
            scores = [scores[s] + mine[s].get("score_change", 0) if s in mine else 0 for s in range(4)]
    return facts
