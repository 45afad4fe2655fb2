"""Writes the hand-made mjai games of this folder (run: python tests/data/mjai/compose.py).

The hands are written out event by event below; the hora events of ``gimite_examples.mjson`` are the
published examples of gimite's mjai protocol (the ron of seat 2 on 9m with ura 6m, the pinfu tsumo of seat 1
on 8p), placed in a game whose scores, sticks and counters lead to their deltas. Only the two exhaustive
draws need a whole wall (70 draws): their live wall is shuffled with a fixed seed after the hands and the
tiles kept out of play (e.g. the riichi player's winning tiles) are set aside, and every player discards
what they draw.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ALL = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")


def wall_136() -> Counter:
    c = Counter({t: 4 for t in ALL})
    for s in "mps":  # one red five per suit
        c[f"5{s}"] -= 1
        c[f"5{s}r"] = 1
    return c


def check_counts(tiles: list[str]) -> None:
    have, used = wall_136(), Counter(tiles)
    over = {t: n for t, n in used.items() if n > have[t]}
    assert not over, over


def exhaustive(oya: int, hands: dict[int, list[str]], dora: str, keep_out: list[str], seed: int,
               riichi_seat: int | None) -> tuple[list[list[str]], list[dict]]:
    """Haipai and the 70 draws/discards of a hand where everyone discards what they draw; ``riichi_seat``
    declares riichi on its second discard."""
    pool = wall_136()
    for h in hands.values():
        pool.subtract(h)
    pool.subtract([dora, *keep_out])
    rest = [t for t, n in sorted(pool.items()) for _ in range(n)]
    random.Random(seed).shuffle(rest)
    tehais = [hands.get(s) or sorted(rest.pop() for _ in range(13)) for s in range(4)]
    assert len(rest) >= 70
    events, seat, turns = [], oya, [0] * 4
    for _ in range(70):
        t = rest.pop()
        events.append({"type": "tsumo", "actor": seat, "pai": t})
        turns[seat] += 1
        if seat == riichi_seat and turns[seat] == 2:
            events.append({"type": "reach", "actor": seat})
            events.append({"type": "dahai", "actor": seat, "pai": t, "tsumogiri": True})
            events.append({"type": "reach_accepted", "actor": seat})
        else:
            events.append({"type": "dahai", "actor": seat, "pai": t, "tsumogiri": True})
        seat = (seat + 1) % 4
    check_counts([t for h in tehais for t in h] + [e["pai"] for e in events if e["type"] == "tsumo"] + [dora])
    return tehais, events


def draw_discard(seat: int, tile: str, discard: str | None = None, reach: bool = False) -> list[dict]:
    out = [{"type": "tsumo", "actor": seat, "pai": tile}]
    if reach:
        out.append({"type": "reach", "actor": seat})
    out.append({"type": "dahai", "actor": seat, "pai": discard or tile, "tsumogiri": discard is None})
    return out


def write(name: str, events: list[dict]) -> None:
    hand: list[str] = []
    for e in events:  # no tile more than four times (one red five) in any hand
        if e["type"] == "start_kyoku":
            check_counts(hand)
            hand = [t for h in e["tehais"] for t in h] + [e["dora_marker"]]
        hand += [e["pai"]] if e["type"] == "tsumo" else [e["dora_marker"]] if e["type"] == "dora" else []
        hand += e.get("uradora_markers", []) + e.get("ura_markers", []) if e["type"] == "hora" else []
    check_counts(hand)
    (HERE / name).write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), encoding="utf-8")


def gimite_examples() -> list[dict]:
    ev: list[dict] = [{"type": "start_game", "gametype": "tonpu", "names": ["D", "A", "C", "B"]}]
    # E1-0: seat 1 riichi, waiting on N alone (the other three N are out of play); exhaustive draw, seat 1 tenpai
    hand1 = ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "N"]
    tehais, play = exhaustive(0, {1: hand1}, "1p", ["N", "N", "N"], seed=7, riichi_seat=1)
    for e in play:  # gimite's reach_accepted carries deltas and scores
        if e["type"] == "reach_accepted":
            e |= {"deltas": [0, -1000, 0, 0], "scores": [25000, 24000, 25000, 25000]}
    ev += [{"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "dora_marker": "1p", "tehais": tehais}, *play,
           {"type": "ryukyoku", "reason": "fanpai", "tenpais": [False, True, False, False],
            "tehais": [["?"] * 13, hand1, ["?"] * 13, ["?"] * 13],
            "deltas": [-1000, 3000, -1000, -1000], "scores": [24000, 27000, 24000, 24000]},
           {"type": "end_kyoku"}]
    # E2-1 (1 stick): the published ron -- seat 2 riichi (second discard), ron on seat 3's 9m in the third go-round
    h2 = ["5m", "5mr", "7m", "8m", "1p", "1p", "1p", "3p", "4p", "5pr", "8s", "8s", "8s"]
    h1 = ["1m", "2m", "3m", "2p", "2p", "6p", "7p", "1s", "2s", "3s", "E", "E", "S"]
    h3 = ["2m", "3m", "4m", "6m", "6m", "9p", "9p", "4s", "5s", "6s", "W", "W", "F"]
    h0 = ["4m", "4m", "6m", "9m", "2p", "3p", "7p", "6s", "7s", "9s", "S", "F", "C"]
    ev.append({"type": "start_kyoku", "bakaze": "E", "kyoku": 2, "honba": 1, "kyotaku": 1, "oya": 1,
               "dora_marker": "N", "tehais": [h0, h1, h2, h3]})
    ev += draw_discard(1, "1m") + draw_discard(2, "E") + draw_discard(3, "S") + draw_discard(0, "W")
    ev += draw_discard(1, "C") + draw_discard(2, "N", reach=True)
    ev.append({"type": "reach_accepted", "actor": 2, "deltas": [0, 0, -1000, 0], "scores": [24000, 27000, 23000, 24000]})
    ev += draw_discard(3, "P") + draw_discard(0, "1s") + draw_discard(1, "9s") + draw_discard(2, "2s")
    ev += draw_discard(3, "9m")
    ev += [{"type": "hora", "actor": 2, "target": 3, "pai": "9m", "uradora_markers": ["6m"],
            "hora_tehais": h2, "yakus": [["uradora", 1], ["akadora", 2], ["reach", 1]], "fu": 50, "fan": 4,
            "hora_points": 8000, "deltas": [0, 0, 10300, -8300], "scores": [24000, 27000, 33300, 15700]},
           {"type": "end_kyoku"}]
    # E3-0: the published tsumo -- seat 1 riichi (second discard), tsumo 8p in the fourth go-round
    t1 = ["1m", "2m", "3m", "5mr", "6m", "7m", "6p", "7p", "7p", "8p", "9p", "4s", "4s"]
    t2 = ["1m", "1m", "9m", "9m", "1p", "2p", "3s", "3s", "7s", "8s", "E", "W", "P"]
    t3 = ["2m", "4m", "8m", "2p", "3p", "5p", "1s", "1s", "2s", "9s", "S", "N", "C"]
    t0 = ["3m", "4m", "6m", "8m", "4p", "5p", "6s", "6s", "7s", "9s", "E", "F", "F"]
    ev.append({"type": "start_kyoku", "bakaze": "E", "kyoku": 3, "honba": 0, "kyotaku": 0, "oya": 2,
               "dora_marker": "S", "tehais": [t0, t1, t2, t3]})
    ev += draw_discard(2, "N") + draw_discard(3, "E") + draw_discard(0, "C") + draw_discard(1, "P")
    ev += draw_discard(2, "1s") + draw_discard(3, "W") + draw_discard(0, "2s") + draw_discard(1, "N", reach=True)
    ev.append({"type": "reach_accepted", "actor": 1, "deltas": [0, -1000, 0, 0], "scores": [24000, 26000, 33300, 15700]})
    ev += draw_discard(2, "S") + draw_discard(3, "9s") + draw_discard(0, "1p") + draw_discard(1, "W")
    ev += draw_discard(2, "2s") + draw_discard(3, "C") + draw_discard(0, "3s")
    ev += [{"type": "tsumo", "actor": 1, "pai": "8p"},
           {"type": "hora", "actor": 1, "target": 1, "pai": "8p", "uradora_markers": ["3p"], "hora_tehais": t1,
            "yakus": [["akadora", 1], ["reach", 1], ["menzenchin_tsumoho", 1], ["pinfu", 1]], "fu": 20, "fan": 4,
            "hora_points": 5200, "deltas": [-1300, 6200, -2600, -1300], "scores": [22700, 32200, 30700, 14400]},
           {"type": "end_kyoku"}]
    # E4-0: the dealer shows nine terminals and honours on its first draw
    n3 = ["1m", "9m", "1p", "9p", "1s", "E", "S", "P", "C", "3m", "5p", "6s", "7s"]
    n0, n1, n2 = (["2m", "3m", "4m", "6m", "7m", "2p", "3p", "4p", "6p", "7p", "2s", "3s", "4s"],
                  ["5m", "6m", "7m", "8m", "3p", "4p", "8p", "8p", "5s", "6s", "8s", "8s", "W"],
                  ["2m", "4m", "5m", "6p", "7p", "9p", "1s", "2s", "3s", "4s", "N", "N", "F"])
    ev += [{"type": "start_kyoku", "bakaze": "E", "kyoku": 4, "honba": 0, "kyotaku": 0, "oya": 3,
            "dora_marker": "9s", "tehais": [n0, n1, n2, n3]},
           {"type": "tsumo", "actor": 3, "pai": "N"},
           {"type": "ryukyoku", "actor": 3, "reason": "kyushukyuhai", "tenpais": [False] * 4,
            "tehais": [["?"] * 13, ["?"] * 13, ["?"] * 13, n3 + ["N"]], "deltas": [0, 0, 0, 0],
            "scores": [22700, 32200, 30700, 14400]},
           {"type": "end_kyoku"}]
    # E4-1: seat 1 pons white and chis 3m from seat 0, ankans 9s and wins on the replacement tile (2s, tanki)
    c1 = ["2m", "4m", "6p", "7p", "8p", "9s", "9s", "9s", "2s", "1s", "N", "P", "P"]
    c0 = ["1m", "3m", "5m", "6m", "1p", "3p", "5p", "2s", "4s", "6s", "P", "S", "S"]
    c2 = ["7m", "8m", "9m", "2p", "4p", "9p", "3s", "5s", "7s", "8s", "E", "E", "F"]
    c3 = ["1m", "4m", "6m", "1p", "2p", "4p", "9p", "3s", "6s", "W", "W", "C", "C"]
    ev += [{"type": "start_kyoku", "bakaze": "E", "kyoku": 4, "honba": 1, "kyotaku": 0, "oya": 3,
            "dora_marker": "W", "tehais": [c0, c1, c2, c3]}]
    ev += draw_discard(3, "8m") + draw_discard(0, "7s", "P")
    ev += [{"type": "pon", "actor": 1, "target": 0, "pai": "P", "consumed": ["P", "P"]},
           {"type": "dahai", "actor": 1, "pai": "1s", "tsumogiri": False}]
    ev += draw_discard(2, "F") + draw_discard(3, "1s") + draw_discard(0, "8p", "3m")
    ev += [{"type": "chi", "actor": 1, "target": 0, "pai": "3m", "consumed": ["2m", "4m"]},
           {"type": "dahai", "actor": 1, "pai": "N", "tsumogiri": False}]
    ev += draw_discard(2, "1p") + draw_discard(3, "7p") + draw_discard(0, "9m")
    ev += [{"type": "tsumo", "actor": 1, "pai": "9s"},
           {"type": "ankan", "actor": 1, "consumed": ["9s", "9s", "9s", "9s"]},
           {"type": "dora", "dora_marker": "1p"},
           {"type": "tsumo", "actor": 1, "pai": "2s"},
           {"type": "hora", "actor": 1, "target": 1, "pai": "2s", "uradora_markers": [],
            "hora_tehais": ["6p", "7p", "8p", "2s", "2s"], "yakus": [["sangenpai", 1], ["rinshankaiho", 1]],
            "fu": 60, "fan": 2, "hora_points": 4000, "deltas": [-1100, 4300, -1100, -2100],
            "scores": [21600, 36500, 29600, 12300]},
           {"type": "end_kyoku"},
           {"type": "end_game", "scores": [21600, 36500, 29600, 12300]}]
    return ev


def mortal_style() -> list[dict]:
    ev: list[dict] = [{"type": "start_game", "names": ["Aoi", "Ben", "Chie", "Dan"], "kyoku_first": 4,
                       "aka_flag": True}]
    # E1-0: four winds -- everyone discards East on the first go-round; ryukyoku without a reason
    w = [["E", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "S", "S", "C"],
         ["E", "4m", "5m", "6m", "1p", "2p", "3p", "2s", "3s", "4s", "W", "W", "P"],
         ["E", "7m", "8m", "9m", "7p", "8p", "9p", "5s", "6s", "1s", "N", "N", "F"],
         ["E", "2m", "2m", "3m", "3p", "3p", "4p", "6s", "6s", "9s", "P", "F", "C"]]
    ev.append({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
               "scores": [25000] * 4, "dora_marker": "1s", "tehais": w})
    for s, t in zip(range(4), ["7m", "8m", "9m", "1p"]):
        ev += draw_discard(s, t, "E")
    ev += [{"type": "ryukyoku", "deltas": [0, 0, 0, 0]}, {"type": "end_kyoku"}]
    # E1-1: exhaustive draw, only the dealer is tenpai (waiting on 7z alone, the other three out of play)
    hand0 = ["2m", "3m", "4m", "6m", "7m", "8m", "3p", "4p", "5p", "5s", "6s", "7s", "C"]
    tehais, play = exhaustive(0, {0: hand0}, "3m", ["C", "C", "C"], seed=11, riichi_seat=None)
    ev += [{"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 1, "kyotaku": 0, "oya": 0,
            "scores": [25000] * 4, "dora_marker": "3m", "tehais": tehais}, *play,
           {"type": "ryukyoku", "deltas": [3000, -1000, -1000, -1000]}, {"type": "end_kyoku"}]
    # E1-2: double ron on seat 3's 5p -- the dealer (pinfu tanyao) and seat 1 (riichi, kanchan, ura 1)
    d0 = ["2m", "3m", "4m", "6m", "7m", "8m", "3p", "4p", "5s", "6s", "7s", "6s", "6s"]
    d1 = ["4m", "5m", "6m", "7m", "8m", "9m", "4p", "6p", "8s", "8s", "8s", "2s", "2s"]
    d2 = ["1m", "1m", "9m", "1p", "1p", "9p", "9p", "1s", "9s", "E", "S", "W", "N"]
    d3 = ["2m", "5m", "9m", "2p", "7p", "8p", "3s", "4s", "P", "F", "C", "E", "S"]
    ev.append({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 2, "kyotaku": 0, "oya": 0,
               "scores": [28000, 24000, 24000, 24000], "dora_marker": "N", "tehais": [d0, d1, d2, d3]})
    ev += draw_discard(0, "W") + draw_discard(1, "P") + draw_discard(2, "F") + draw_discard(3, "C")
    ev += draw_discard(0, "N") + draw_discard(1, "1s", reach=True)
    ev += [{"type": "reach_accepted", "actor": 1}] + draw_discard(2, "C")
    ev += draw_discard(3, "9s") + draw_discard(0, "1p") + draw_discard(1, "9p") + draw_discard(2, "W")
    ev += draw_discard(3, "5p")
    ev += [{"type": "hora", "actor": 0, "target": 3, "deltas": [4500, 0, 0, -3500], "ura_markers": []},
           {"type": "hora", "actor": 1, "target": 3, "deltas": [0, 2600, 0, -2600], "ura_markers": ["7m"]},
           {"type": "end_kyoku"}]
    # E1-3: seat 2 pons 7p from seat 1, later adds the fourth 7p (kakan); the dealer robs it (chankan)
    k0 = ["2m", "3m", "4m", "5m", "6m", "7m", "6p", "8p", "3s", "4s", "5s", "9s", "9s"]
    k1 = ["7p", "1m", "1m", "9m", "1p", "2p", "2s", "2s", "E", "S", "W", "N", "P"]
    k2 = ["7p", "7p", "2m", "3m", "4m", "3p", "4p", "5p", "6s", "7s", "8s", "F", "C"]
    k3 = ["8m", "8m", "9m", "1p", "9p", "1s", "3s", "6s", "7s", "E", "S", "F", "F"]
    ev.append({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 3, "kyotaku": 0, "oya": 0,
               "scores": [32500, 25600, 24000, 17900], "dora_marker": "2p", "tehais": [k0, k1, k2, k3]})
    ev += draw_discard(0, "N") + draw_discard(1, "W", "7p")
    ev += [{"type": "pon", "actor": 2, "target": 1, "pai": "7p", "consumed": ["7p", "7p"]},
           {"type": "dahai", "actor": 2, "pai": "F", "tsumogiri": False}]
    ev += draw_discard(3, "1m") + draw_discard(0, "P") + draw_discard(1, "1s") + draw_discard(2, "7p", "C")
    ev[-1]["tsumogiri"] = False
    ev += draw_discard(3, "9s") + draw_discard(0, "S") + draw_discard(1, "3m")
    ev += [{"type": "tsumo", "actor": 2, "pai": "8m"},
           {"type": "kakan", "actor": 2, "pai": "7p", "consumed": ["7p", "7p", "7p"]},
           {"type": "hora", "actor": 0, "target": 2, "deltas": [2900, 0, -2900, 0], "ura_markers": []},
           {"type": "end_kyoku"}, {"type": "end_game"}]
    return ev


if __name__ == "__main__":
    write("gimite_examples.mjson", gimite_examples())
    write("mortal_style.json", mortal_style())
