"""Build sample_logs/tenhou/sample_tonpuu.json: a short hand-made tonpuu (ron, riichi tsumo, draw, mangan ron)."""
import json
import random
from pathlib import Path
from collections import Counter

def kyoku(header, scores, dora, ura, haipai, plan, result, exclude, dealer):
    """plan: list of (seat, draw_tile_or_None, discard) in play order; None draw = filler from the pool."""
    used = Counter()
    for h in haipai: used.update(h)
    used.update(dora); used.update(ura)
    for _, t, _ in plan:
        if t is not None: used[t] += 1
    def norm(t): return {51: 15, 52: 25, 53: 35}.get(t, t)
    pool = []
    for suit in (1, 2, 3, 4):
        for n in range(1, 10 if suit < 4 else 8):
            code = suit * 10 + n
            pool += [code] * 4 if n != 5 or suit == 4 else [code] * 3 + [50 + suit]  # one red five per suit
    for t in used.elements():
        pool.remove(t)  # fails if the hand-written tiles use more than the wall holds
    rng = random.Random(header[0])
    rng.shuffle(pool)
    pool = [t for t in pool if t not in exclude]
    takes = [[], [], [], []]; discards = [[], [], [], []]
    for seat, t, d in plan:
        if t is None: t = pool.pop()
        takes[seat].append(t); discards[seat].append(d)
    assert all(v <= 4 for v in Counter(norm(t) for h in haipai for t in h).values())
    log = [header, scores, dora, ura]
    for s in range(4):
        log += [sorted(haipai[s]), takes[s], [x for x in discards[s] if x is not None]]
    log.append(result)
    return log

def rounds(dealer, n, special):
    """n go-arounds from the dealer; special maps (seat, turn) -> (draw, discard)."""
    plan = []
    for i in range(n):
        for j in range(4):
            s = (dealer + j) % 4
            plan.append((s, *special.get((s, i), (None, 60))))
    return plan

logs = []
# E1: seat 1 (tanyao, 5p tanki) rons the dealer's 5p on the second go-around: 40 fu 1 han 1300.
hp = [[11, 11, 19, 21, 29, 31, 33, 39, 42, 43, 44, 45, 46],
      [12, 13, 14, 15, 16, 17, 22, 23, 24, 36, 37, 38, 25],
      [11, 14, 17, 22, 26, 29, 32, 35, 38, 41, 45, 47, 47],
      [12, 15, 18, 21, 24, 27, 31, 34, 39, 42, 44, 46, 19]]
plan = rounds(0, 1, {}) + [(0, 25, 60)]
logs.append(kyoku([0, 0, 0], [25000] * 4, [41], [], hp, plan,
                  ["和了", [-1300, 1300, 0, 0], [1, 0, 1, "40符1飜1300点", "断幺九(1飜)"]], {25}, 0))
# E2: seat 2 riichi on its second discard, tsumo chun (tanki) on its fourth draw: 30 fu 2 han 500-1000.
hp = [[11, 13, 17, 19, 21, 27, 29, 32, 39, 41, 42, 43, 46],
      [12, 15, 18, 22, 25, 28, 31, 35, 39, 41, 44, 45, 46],
      [11, 12, 13, 24, 25, 26, 37, 38, 39, 32, 33, 34, 47],
      [14, 16, 19, 23, 26, 29, 33, 36, 38, 42, 43, 44, 45]]
plan = rounds(1, 3, {(2, 1): (None, "r60")}) + [(1, None, 60), (2, 47, None)]
logs.append(kyoku([1, 0, 0], [23700, 26300, 25000, 25000], [43], [18], hp, plan,
                  ["和了", [-500, -1000, 3000, -500], [2, 2, 2, "30符2飜500-1000点", "立直(1飜)", "門前清自摸和(1飜)", "裏ドラ(0飜)"]],
                  {47}, 1))
# E3: exhaustive draw, only seat 0 tenpai (9s tanki): noten payments 3000.
hp = [[12, 13, 14, 15, 16, 17, 23, 24, 25, 26, 27, 28, 39],
      [11, 11, 19, 21, 29, 31, 33, 41, 42, 43, 44, 45, 46],
      [11, 19, 22, 29, 31, 34, 37, 41, 42, 43, 45, 46, 47],
      [12, 16, 19, 21, 25, 28, 32, 35, 38, 41, 44, 46, 47]]
plan = rounds(2, 18, {})[:70]
logs.append(kyoku([2, 0, 0], [23200, 25300, 27000, 24500], [33], [], hp, plan,
                  ["流局", [3000, -1000, -1000, -1000]], {39}, 2))
# E4-1: seat 0 (pinfu tanyao, three red fives) rons the dealer's 7s: mangan 8000 + 300.
hp = [[12, 13, 14, 14, 51, 16, 23, 24, 52, 38, 38, 53, 36],
      [11, 11, 19, 21, 29, 31, 33, 41, 42, 43, 44, 45, 46],
      [11, 19, 22, 29, 31, 34, 17, 41, 42, 43, 45, 46, 47],
      [12, 17, 19, 21, 27, 28, 32, 33, 39, 41, 44, 46, 47]]
plan = rounds(3, 1, {}) + [(3, 37, 60)]
logs.append(kyoku([3, 1, 0], [26200, 24300, 26000, 23500], [41], [], hp, plan,
                  ["和了", [8300, 0, 0, -8300], [0, 3, 0, "満貫8000点", "平和(1飜)", "断幺九(1飜)", "赤ドラ(3飜)"]],
                  {34, 37}, 3))
game = {"title": ["analyzer sample", "hand-made, not a real game"], "name": ["Aoi", "Ben", "Chie", "Dan"],
        "rule": {"disp": "般東喰赤", "aka": 1}, "log": logs,
        "sc": [34500, 45.0, 24300, -16.0, 26000, 6.0, 15200, -35.0]}
text = json.dumps(game, ensure_ascii=False, separators=(",", ":"))
open(Path(__file__).resolve().parents[1] / "sample_logs" / "tenhou" / "sample_tonpuu.json", "w", encoding="utf-8").write(text + "\n")
