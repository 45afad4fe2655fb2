"""Writes the Mahjong Soul games of this folder as tensoul writes them (run: python tests/data/majsoul/compose.py).

tenhou.net/6 JSON in the layout of Equim-chan/tensoul (``convert.js``: key order, ``ref`` = Mahjong Soul's record
id, ``rule.disp`` = the room, ``dan`` = Mahjong Soul's rank names, ``rate`` = the rank's points, ``sc`` = final
score and Mahjong Soul's game points, each win's deltas computed from its value as ``parsehule`` does, the
yaku under Mahjong Soul's names) and of its Pantheon fork unStatiK/tensoul-py-ng (``playerMapping``; ``三``
for three players and no 東/南 in a three-player room).

Every hand is written out below with its value worked by hand (scores from the start, ``(final - start)/1000 +
uma`` 15/5/-5/-15, three players 15/0/-15); the players not named in a hand get random tiles (seeded) and
discard what they draw, and the tiles that would let the winner or a tenpai player win are kept out of their
draws. An exhaustive draw plays the whole wall (70 draws, 55 with three players).

* ``majsoul_east.json``: Gold Room, east-only (``金の間東喰赤``), six hands ending in E4 with someone at 30,000;
* ``majsoul_south.json``: Jade Room hanchan (``玉の間南喰赤``) from Pantheon's copy, ``playerMapping`` giving the
  two seats named ``Sakura`` two accounts; nobody has 30,000 after S4, so the game goes into West, where the
  dealer is tenpai at an exhaustive draw while another player has 30,400 (the game goes on: the dealer keeps
  the deal), and ends at the next hand, which passes the deal;
* ``majsoul_sanma.json``: three players, Gold Room (``三金の間赤``: the room does not say east-only), a north set
  aside before a riichi ron, ending after E3 with someone at 40,000.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from analyzer.formats.hand_shape import is_complete, is_tenpai
from analyzer.formats.tenhou.tenhou6_play import json_tile

HERE = Path(__file__).resolve().parent
RED_OF = {51: 15, 52: 25, 53: 35}  # a red five and its plain five
NORTH = 44


def tiles(text: str) -> list[int]:
    """``234m0p67p`` -> tenhou.net/6 codes (``0`` is the red five: 51-53)."""
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
            continue
        suit = "mpsz".index(ch) + 1
        out += [50 + suit if d == 0 else 10 * suit + d for d in digits]
        digits = []
    assert not digits, text
    return out


def tile(text: str) -> int:
    [code] = tiles(text)
    return code


def full_set(players: int) -> Counter:
    c = Counter()
    for suit in (1, 2, 3):
        for n in range(1, 10):
            if not (players == 3 and suit == 1 and 2 <= n <= 8):  # three players: no 2m-8m
                c[10 * suit + n] = 4
    for n in range(1, 8):
        c[40 + n] = 4
    for red in (51, 52, 53) if players == 4 else (52, 53):  # Mahjong Soul: one red five a suit (3P: 0p, 0s)
        c[RED_OF[red]] -= 1
        c[red] = 1
    return c


def plain(code: int) -> int:
    return RED_OF.get(code, code)


@dataclass
class Turn:
    seat: int
    draw: int | None = None  # None: a random tile
    discard: int | None = None  # None: the tile just drawn (tsumogiri); ignored on the last turn of a tsumo
    riichi: bool = False
    kita: bool = False  # three players: set a north aside after the draw, then draw its replacement
    pon_from: int | None = None  # instead of drawing: pon the last discard (of this seat)


def rotation(dealer: int, players: int, count: int, plan: dict[int, Turn] | None = None) -> list[Turn]:
    """``count`` turns in seat order from the dealer, each a random draw discarded, but the turns in ``plan``."""
    plan = plan or {}
    return [plan.get(i, Turn((dealer + i) % players)) for i in range(count)]


def _is_tenpai(hand: list[int]) -> bool:
    return is_tenpai([json_tile(t) for t in hand], [])


class Table:
    def __init__(self, players: int, start: int):
        self.players, self.start = players, start
        self.scores = [start] * players + [0] * (4 - players)
        self.sticks = 0
        self.log: list[list] = []

    def kyoku(self, round_idx: int, honba: int, dora: str, hands: dict[int, str], turns: list[Turn], result: tuple,
              ura: str = "", keep_out: str = "", seed: int = 0, noten: tuple[int, ...] = ()) -> None:
        """One hand: ``hands`` the seats dealt known tiles (the others random), ``turns`` the play, ``result``
        ``("ron", winner, loser, points, value, yaku)``, ``("tsumo", winner, (non-dealer, dealer share), value,
        yaku)`` or ``("draw", tenpai seats)``; ``keep_out`` tiles nobody draws at random (the waits), ``noten``
        the random seats that must not be tenpai (for a draw)."""
        n, dealer = self.players, round_idx % 4
        dora_codes, ura_codes = tiles(dora), tiles(ura)
        for attempt in range(100):
            pool = full_set(n)
            fixed = [t for h in hands.values() for t in tiles(h)] + dora_codes + ura_codes
            fixed += [t.draw for t in turns if t.draw is not None]
            pool.subtract(fixed)
            assert all(v >= 0 for v in pool.values()), f"more than four of a tile: {-pool}"
            for t in tiles(keep_out):
                pool[t] = 0
            rest = sorted(pool.elements())
            random.Random(seed * 100 + attempt).shuffle(rest)
            haipai = {s: tiles(hands[s]) if s in hands else [rest.pop() for _ in range(13)] for s in range(n)}
            if not any(_is_tenpai(haipai[s]) for s in noten):
                break
        else:
            raise AssertionError("no noten deal found")
        assert all(len(h) == 13 for h in haipai.values()), {s: len(h) for s, h in haipai.items()}
        draws: list[list] = [[] for _ in range(4)]
        discards: list[list] = [[] for _ in range(4)]
        held = {s: list(h) for s, h in haipai.items()}
        last_discard: int | None = None
        riichi: list[int] = []
        for i, turn in enumerate(turns):
            s = turn.seat
            if turn.pon_from is not None:  # a pon takes the discard just made, then the play goes on from the caller
                assert i > 0 and turn.pon_from == turns[i - 1].seat != s, f"turn {i}: pon from {turn.pon_from}"
            else:
                assert s == (dealer if i == 0 else (turns[i - 1].seat + 1) % n), f"turn {i}: seat {s} out of turn"
            if turn.pon_from is not None:
                called = last_discard
                for _ in range(2):
                    held[s].remove(next(t for t in held[s] if plain(t) == plain(called)))
                rel = (turn.pon_from - s) % 4  # 3: from the left (kamicha), 2: across, 1: from the right
                code = str(called)
                parts = [code, code, code]
                parts[{3: 0, 2: 1, 1: 2}[rel]] = "p" + code
                draws[s].append("".join(parts))
                drawn = None
            else:
                drawn = turn.draw if turn.draw is not None else rest.pop()
                draws[s].append(drawn)
                held[s].append(drawn)
                if turn.kita:
                    held[s].remove(NORTH)
                    discards[s].append("f44")
                    drawn = rest.pop()
                    draws[s].append(drawn)
                    held[s].append(drawn)
            if i == len(turns) - 1 and result[0] == "tsumo":
                break
            out = drawn if turn.discard is None else turn.discard
            held[s].remove(out)
            code = 60 if turn.discard is None else out
            discards[s].append(f"r{code}" if turn.riichi else code)
            if turn.riichi:
                riichi.append(s)
            last_discard = out
        first = [plain(d) if d != 60 else None for d in (discards[(dealer + k) % n][0] for k in range(n))]
        assert not (n == 4 and len(set(first)) == 1 and first[0] is not None and first[0] in range(41, 45)), \
            "four winds discarded in the first go-around (an abortive draw)"
        deltas = self._deltas(result, dealer, honba, riichi)
        head = ["和了"] if result[0] in ("ron", "tsumo") else ["流局"]
        if result[0] == "ron":
            _, winner, loser, _, value, yaku = result
            assert last_discard is not None and turns[-1].seat == loser
            assert _complete(held[winner] + [last_discard]), "the winner's hand is not complete"
            res = [*head, deltas, [winner, loser, winner, value, *yaku]]
        elif result[0] == "tsumo":
            _, winner, _, value, yaku = result
            assert turns[-1].seat == winner and _complete(held[winner]), "the winner's hand is not complete"
            res = [*head, deltas, [winner, winner, winner, value, *yaku]]
        else:
            assert len(turns) == (70 if n == 4 else 55) and all(_is_tenpai(held[s]) for s in result[1])
            res = [*head, deltas]
        shown_ura = ura_codes if result[0] != "draw" else []
        entry = [[round_idx, honba, self.sticks], list(self.scores), dora_codes, shown_ura]
        for s in range(4):
            entry += [haipai[s], draws[s], discards[s]] if s < n else [[], [], []]
        self.log.append([*entry, res])
        for s in range(4):
            self.scores[s] += deltas[s] - 1000 * riichi.count(s)
        if result[0] == "ron" and turns[-1].riichi:
            # a ron on the riichi-declaring tile: the server never places that stick (the declarer keeps it, the
            # winner does not get it); the deltas above are tensoul's, which count it
            self.scores[result[2]] += 1000
            self.scores[result[1]] -= 1000
        self.sticks = 0 if result[0] in ("ron", "tsumo") else self.sticks + len(riichi)
        assert sum(self.scores) + 1000 * self.sticks == n * self.start

    def _deltas(self, result: tuple, dealer: int, honba: int, riichi: list[int]) -> list[int]:
        """Score changes as tensoul's ``parsehule`` computes them (sticks to the winner, the deposits not in)."""
        n, deltas = self.players, [0, 0, 0, 0]
        sticks = 1000 * (self.sticks + len(riichi))
        if result[0] == "ron":
            _, winner, loser, points, _, _ = result
            deltas[winner] += points + (n - 1) * 100 * honba + sticks
            deltas[loser] -= points + (n - 1) * 100 * honba
        elif result[0] == "tsumo":
            _, winner, (child, parent), _, _ = result
            for s in range(n):
                if s != winner:
                    pay = (parent if s == dealer else child) + 100 * honba
                    deltas[s] -= pay
                    deltas[winner] += pay
            deltas[winner] += sticks
        else:
            tenpai = result[1]
            total = 3000 if n == 4 else 2000
            if 0 < len(tenpai) < n:
                for s in range(n):
                    deltas[s] = total // len(tenpai) if s in tenpai else -total // (n - len(tenpai))
        return deltas

    def game(self, ref: str, disp: str, names: list[str], dan: list[str], rate: list[int], uma: list[int],
             aka: dict, title: str, **extra) -> dict:
        n = self.players
        assert self.sticks == 0  # no stick left on the table for first place
        order = sorted(range(n), key=lambda s: (-self.scores[s], s))  # ties by seat
        points = [0.0] * 4
        for place, s in enumerate(order):
            points[s] = round((self.scores[s] - self.start) / 1000 + uma[place], 1)
        sc = [x for s in range(4) for x in (self.scores[s], points[s] if s < n else 0)]
        return {"ver": "2.3", "ref": ref, "log": self.log, "ratingc": f"PF{n}", "rule": {"disp": disp, **aka},
                "lobby": 0, "dan": dan, "rate": rate, "sx": ["C"] * 4, "sc": sc, "name": names,
                "title": [disp, title], **extra}


def _complete(hand: list[int]) -> bool:
    return is_complete([json_tile(t) % 100 for t in hand])


def write(name: str, game: dict) -> None:
    (HERE / name).write_text(json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


AKA4 = {"aka53": 1, "aka52": 1, "aka51": 1}
UMA4 = [15, 5, -5, -15]


def east_game(riichi_ron: bool = False) -> dict:
    """The Gold Room east-only game; ``riichi_ron``: in E4-0 seat 0 declares riichi on the 2s that seat 1 rons
    (the copy of ``majsoul_east_riichi_ron.json``: tensoul gives seat 1 the stick the server never placed)."""
    t = Table(4, 25000)
    # E1-0: the dealer (seat 0) holds 111z 234m 567p 234s and 9p, waiting on 9p alone; seat 2 lets 9p go on its
    # second turn. Double east (seat and round wind, each 1 han), 20 + 10 closed ron + 8 closed honour triplet
    # + 2 single wait = 40 fu: a dealer's 2 han 40 fu ron, 640 x 6 = 3900.
    t.kyoku(0, 0, "9s", {0: "234m5679p234s111z"}, rotation(0, 4, 7, {6: Turn(2, draw=tile("9p"))}),
            ("ron", 0, 2, 3900, "40符2飜3900点", ["役牌:自風牌(1飜)", "役牌:場風牌(1飜)"]), keep_out="9p", seed=1)
    # E1-1: seat 1 (123m 456m 678p 34s 88s) declares riichi on its second discard and draws 2s on its fourth
    # turn (no ippatsu): menzen tsumo, riichi, pinfu (ura indicator north: east, none held) = 3 han 20 fu, 700 /
    # 1300, one honba 100 from each, its own stick back: +4000, the dealer -1400, the others -800.
    t.kyoku(0, 1, "9s", {1: "123m456m678p34s88s"},
            rotation(0, 4, 14, {5: Turn(1, riichi=True), 13: Turn(1, draw=tile("2s"))}),
            ("tsumo", 1, (700, 1300), "20符3飜700-1300点", ["門前清自摸和(1飜)", "立直(1飜)", "平和(1飜)", "裏ドラ(0飜)"]),
            ura="4z", keep_out="25s0s", seed=2)
    # E2-0: exhaustive draw, only the dealer (seat 1: 123456p 789s 99m 35s, waiting on 4s) tenpai: +3000.
    t.kyoku(1, 0, "1z", {1: "123456p789s99m35s"}, rotation(1, 4, 70), ("draw", [1]), keep_out="4s", seed=3,
            noten=(0, 2, 3))
    # E2-1: seat 3 (234m 0p67p 345s 67s 22p) rons seat 2's 8s: tanyao, pinfu, dora 2m (indicator 1m), the red 5p
    # = 4 han 30 fu, 1920 x 4 = 7700 (no kiriage), one honba 300.
    t.kyoku(1, 1, "1m", {3: "234m067p345s67s22p"}, rotation(1, 4, 6, {5: Turn(2, draw=tile("8s"))}),
            ("ron", 3, 2, 7700, "30符4飜7700点", ["断幺九(1飜)", "平和(1飜)", "ドラ(1飜)", "赤ドラ(1飜)"]), keep_out="58s0s",
            seed=4)
    # E3-0: seat 0 (777z 123p 456s 78m 33s) rons seat 1's 9m: chun, 20 + 10 + 8 = 38 -> 40 fu, 1 han: 1300.
    t.kyoku(2, 0, "1z", {0: "777z123p456s78m33s"}, rotation(2, 4, 8, {7: Turn(1, draw=tile("9m"))}),
            ("ron", 0, 1, 1300, "40符1飜1300点", ["役牌 中(1飜)"]), keep_out="69m", seed=5)
    # E4-0: seat 1 (123m 456p 789p 13s 55m) riichi on its second discard, rons seat 0's 2s two go-rounds later:
    # riichi alone, 20 + 10 + 2 (kanchan) = 32 -> 40 fu: 1300, its stick back. The deal passes with seat 3 at
    # 31,200 and seat 1 at 31,000: the game ends.
    t.kyoku(3, 0, "6z", {1: "123m456p789p13s55m"},
            rotation(3, 4, 14, {6: Turn(1, riichi=True), 13: Turn(0, draw=tile("2s"), riichi=riichi_ron)}),
            ("ron", 1, 0, 1300, "40符1飜1300点", ["立直(1飜)", "裏ドラ(0飜)"]), ura="5z", keep_out="2s", seed=6)
    assert t.scores == [26500, 31000, 11300, 31200], t.scores
    ref = "230826-5e1b3c7a-2f4d-4b8e-9a61-0c3d7e9f2a" + ("15" if riichi_ron else "14")
    game = t.game(ref, "金の間東喰赤", ["Aoi", "Ren", "Yui", "Sora"],
                  ["雀士★2", "雀傑★1", "雀士★3", "雀傑★2"], [640, 1250, 900, 1400], UMA4, AKA4, "2023/8/26 21:14:05")
    assert game["sc"] == [26500, -3.5, 31000, 11.0, 11300, -28.7, 31200, 21.2]  # 1.5 - 5, 6 + 5, -13.7 - 15, 6.2 + 15
    return game


def south_game() -> dict:
    t = Table(4, 25000)
    # E1-0: seat 1 draws haku and lets it go, seat 2 pons it (from its left: "p454545") and lets 1z go, then rons
    # seat 3's 9p alone: haku, 20 + 4 (open honour pon) + 2 (single wait) = 26 -> 30 fu, 1 han: 1000.
    t.kyoku(0, 0, "9s", {2: "234m4569p678s155z"},
            [Turn(0), Turn(1, draw=tile("5z")), Turn(2, pon_from=1, discard=tile("1z")), Turn(3), Turn(0), Turn(1),
             Turn(2), Turn(3, draw=tile("9p"))],
            ("ron", 2, 3, 1000, "30符1飜1000点", ["役牌 白(1飜)"]), keep_out="9p5z", seed=11)
    # E2-0: exhaustive draw, nobody tenpai.
    t.kyoku(1, 0, "5p", {}, rotation(1, 4, 70), ("draw", []), seed=12, noten=(0, 1, 2, 3))
    # E3-1: exhaustive draw, the dealer (seat 2, waiting on 4s) and seat 0 (234m 678m 345p 7789s, on 7s) tenpai.
    t.kyoku(2, 1, "1z", {2: "123456p789s99m35s", 0: "234678m345p7789s"}, rotation(2, 4, 70), ("draw", [0, 2]),
            keep_out="47s", seed=13, noten=(1, 3))
    # E3-2: seat 3 (234m 46m 567p 345s 66s) riichi, rons the dealer's 5m: riichi, tanyao, 20 + 10 + 2 (kanchan)
    # = 32 -> 40 fu, 2 han: 2600, two honba 600, its stick back.
    t.kyoku(2, 2, "9p", {3: "234m46m567p345s66s"},
            rotation(2, 4, 13, {5: Turn(3, riichi=True), 12: Turn(2, draw=tile("5m"))}),
            ("ron", 3, 2, 2600, "40符2飜2600点", ["立直(1飜)", "断幺九(1飜)", "裏ドラ(0飜)"]), ura="1z", keep_out="5m0m",
            seed=14)
    # E4-0: seat 0 (111z 234p 678s 45m 99s; south seat, east round) draws 6m: menzen tsumo, round wind east,
    # 20 + 2 (tsumo) + 8 = 30 fu, 2 han: 500 / 1000.
    t.kyoku(3, 0, "9m", {0: "111z234p678s45m99s"}, rotation(3, 4, 10, {9: Turn(0, draw=tile("6m"))}),
            ("tsumo", 0, (500, 1000), "30符2飜500-1000点", ["門前清自摸和(1飜)", "役牌:場風牌(1飜)"]), keep_out="36m",
            seed=15)
    # S1-0: exhaustive draw, nobody tenpai.
    t.kyoku(4, 0, "3s", {}, rotation(0, 4, 70), ("draw", []), seed=16, noten=(0, 1, 2, 3))
    # S2-1: seat 2's seven pairs (11m 99p 33s 77s 22z 66z, 8p alone) ron on seat 0's 8p: 25 fu 2 han, 1600, 300.
    t.kyoku(5, 1, "1p", {2: "11m99p33s77s22z66z8p"}, rotation(1, 4, 8, {7: Turn(0, draw=tile("8p"))}),
            ("ron", 2, 0, 1600, "25符2飜1600点", ["七対子(2飜)"]), keep_out="8p", seed=17)
    # S3-0: seat 1 (234m 678m 345p 56s 88p) riichi, rons the dealer's 7s: riichi, tanyao, pinfu, 30 fu: 3900.
    t.kyoku(6, 0, "9m", {1: "234m678m345p56s88p"},
            rotation(2, 4, 13, {7: Turn(1, riichi=True), 12: Turn(2, draw=tile("7s"))}),
            ("ron", 1, 2, 3900, "30符3飜3900点", ["立直(1飜)", "断幺九(1飜)", "平和(1飜)", "裏ドラ(0飜)"]), ura="3z",
            keep_out="47s", seed=18)
    # S4-0: seat 1 (345m 46678p 234s 66s: 46p waits on 5p alone) draws 5p: menzen tsumo, tanyao, 20 + 2 + 2 =
    # 24 -> 30 fu: 500 / 1000. Nobody has 30,000 (28,900 at most): the game goes into West.
    t.kyoku(7, 0, "9s", {1: "345m46678p234s66s"}, rotation(3, 4, 11, {10: Turn(1, draw=tile("5p"))}),
            ("tsumo", 1, (500, 1000), "30符2飜500-1000点", ["門前清自摸和(1飜)", "断幺九(1飜)"]), keep_out="5p0p", seed=19)
    assert t.scores == [26100, 28900, 21300, 23700], t.scores
    # W1-0: exhaustive draw, the dealer (seat 0) and seat 1 tenpai: 1500 each. Seat 1 has 30,400 but the dealer
    # keeps the deal (not as top): the game goes on.
    t.kyoku(8, 0, "2z", {0: "234678m345p7789s", 1: "123456p789s99m35s"}, rotation(0, 4, 70), ("draw", [0, 1]),
            keep_out="47s", seed=20, noten=(2, 3))
    assert t.scores == [27600, 30400, 19800, 22200], t.scores
    # W1-1: seat 3 (123m 789p 456s 23s 99m) rons seat 2's 1s: pinfu, 30 fu 1 han, 1000 + 300. The deal passes
    # with seat 1 at 30,400: the game ends.
    t.kyoku(8, 1, "2z", {3: "123m789p456s23s99m"}, rotation(0, 4, 7, {6: Turn(2, draw=tile("1s"))}),
            ("ron", 3, 2, 1000, "30符1飜1000点", ["平和(1飜)"]), keep_out="147s", seed=21)
    assert t.scores == [27600, 30400, 18500, 23500], t.scores
    mapping = [{"nickname": "Sakura", "account_id": 101234}, {"nickname": "Sakura", "account_id": 202345},
               {"nickname": "Kenji", "account_id": 303456}, {"nickname": "Mio", "account_id": 404567}]
    game = t.game("231014-84c11a6f-b3f7-4363-966e-25f37886cfbf", "玉の間南喰赤", ["Sakura", "Sakura", "Kenji", "Mio"],
                  ["雀豪★1", "雀豪★2", "雀聖★1", "雀豪★3"], [1500, 1700, 2100, 1900], UMA4, AKA4, "2023/10/14 22:41:37",
                  playerMapping=mapping)
    assert game["sc"] == [27600, 7.6, 30400, 20.4, 18500, -21.5, 23500, -6.5]  # 2.6 + 5, 5.4 + 15, -6.5 - 15, -1.5 - 5
    return game


def sanma_game() -> dict:
    t = Table(3, 35000)
    # E1-0: seat 1 (234p 678p 3456s 99s and a north) draws 7s, sets the north aside ("f44"), lets its replacement
    # go, declares riichi on its second discard and rons the dealer's 8s: riichi, pinfu, one north (抜きドラ) =
    # 3 han 30 fu, 3900, its stick back.
    t.kyoku(0, 0, "1z", {1: "234678p3456s99s4z"},
            rotation(0, 3, 10, {1: Turn(1, draw=tile("7s"), kita=True), 4: Turn(1, riichi=True),
                                9: Turn(0, draw=tile("8s"))}),
            ("ron", 1, 0, 3900, "30符3飜3900点", ["立直(1飜)", "平和(1飜)", "抜きドラ(1飜)", "裏ドラ(0飜)"]), ura="5z",
            keep_out="258s0s", seed=31)
    # E2-0: exhaustive draw (55 draws), only the dealer (seat 1, 5s alone) tenpai: +2000, -1000 each.
    t.kyoku(1, 0, "9p", {1: "123p456p789s111z5s"}, rotation(1, 3, 55), ("draw", [1]), keep_out="5s0s", seed=32,
            noten=(0, 2))
    # E2-1: seat 2 (666z 123p 789s 45p 99p) rons seat 0's 6p: hatsu, 40 fu 1 han, 1300, one honba 200.
    t.kyoku(1, 1, "7z", {2: "666z123p789s45p99p"}, rotation(1, 3, 6, {5: Turn(0, draw=tile("6p"))}),
            ("ron", 2, 0, 1300, "40符1飜1300点", ["役牌 發(1飜)"]), keep_out="36p", seed=33)
    # E3-0: seat 0 (234p 567p 678s 33s 46s) draws 5s: menzen tsumo, tanyao, 30 fu: 500 / 1000, the missing
    # seat's share not paid (tsumo loss): +1500. The deal passes with seat 1 at 40,400: the game ends.
    t.kyoku(2, 0, "1z", {0: "234p567p678s33s46s"}, rotation(2, 3, 8, {7: Turn(0, draw=tile("5s"))}),
            ("tsumo", 0, (500, 1000), "30符2飜500-1000点", ["門前清自摸和(1飜)", "断幺九(1飜)"]), keep_out="5s0s", seed=34)
    assert t.scores[:3] == [30100, 40400, 34500], t.scores
    game = t.game("240301-0b9d2e41-7c3a-4f58-b1e6-93a2d5c8f071", "三金の間赤", ["Hana", "Taro", "Yuki", ""],
                  ["雀傑★3", "雀豪★1", "雀傑★2", ""], [1500, 1800, 1300, 0], [15, 0, -15],
                  {"aka53": 1, "aka52": 1, "aka51": 0}, "2024/3/1 20:05:51")
    assert game["sc"] == [30100, -19.9, 40400, 20.4, 34500, -0.5, 0, 0]  # -4.9 - 15, 5.4 + 15, -0.5 + 0
    return game


if __name__ == "__main__":
    write("majsoul_east.json", east_game())
    write("majsoul_south.json", south_game())
    write("majsoul_sanma.json", sanma_game())
    # not here: the raw records' folder (tests/data/majsoul_raw, written by its compose.py) holds this copy
