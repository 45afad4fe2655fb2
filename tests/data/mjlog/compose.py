"""Writes the hand-made mjlog games of this folder (run: python tests/data/mjlog/compose.py).

Each game is written out tag by tag below, the play of every hand with its tiles, so that the replay of the
importer leads to the recorded results; the tile ids are handed out per kind (ids 16, 52 and 88 are the red
fives, never used here). The numbers are worked by hand in the comments:

* ``commented_chankan.mjlog``: what archives put before the root element (a byte order mark, the XML
  declaration, a comment naming the log id ``log=2017060214gm-00a9-0000-40a46a1c``, a processing instruction,
  blank lines), then one hand: seat 1 pons 3m and later adds the fourth 3m (kakan), which seat 2 robs
  (chankan, 1 han 40 fu with the penchan wait: 1,300).
* ``triple_yakuman.mjlog``: the East-1 dealer (seat 0) tsumos 1z on the shanpon 11z/22z of 555z666z777z:
  daisangen, tsuuiisou and suuankou, three yakuman, 48,000 from each seat; every other seat ends at -23,000
  and the game ends (bust). Game points (Tenhou: places 2-4 by seat, -23 - 30 + uma): -43, -63, -73, first
  +179.
* ``private_lobby.mjlog``: a private lobby (``GO lobby="10011"``) starting at 30,000 with its own settlement.
  E1 seat 1 tsumo 2 han 30 fu (500/1000), E2 the dealer seat 1 rons seat 3 for daisangen (48,000): seat 3
  ends at -18,500, the game ends. Final 29,000 / 80,000 / 29,500 / -18,500; Tenhou's uma would give
  -11.0 / +70.0 / +9.5 / -68.5, the log records -1.0 / +100.0 / +19.5 / -118.5 (+30/+10/+10/-50 by place:
  the per-place uma 50/20/0/-70).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SUITS = "mpsz"
RED_IDS = {16, 52, 88}


def kind(tile: str) -> int:
    """'3m' -> 2, '1z' -> 27; a red five '0p' is a 5p."""
    return SUITS.index(tile[1]) * 9 + (int(tile[0]) or 5) - 1


def tiles(text: str) -> list[str]:
    """'123m55z' -> ['1m', '2m', '3m', '5z', '5z']."""
    out, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


class Hand:
    """One hand's tags; tile ids handed out per kind, each seat's ids kept to discard them again."""

    def __init__(self, seed: tuple[int, int, int], scores: list[int], hands: list[str], dora: str,
                 chips: list[int] | None = None):
        self.free = {k: [4 * k + i for i in range(4) if 4 * k + i not in RED_IDS] for k in range(34)}
        self.held: list[dict[int, list[int]]] = [{} for _ in range(4)]
        self.melds: list[dict[int, list[int]]] = [{} for _ in range(4)]
        self.scores = list(scores)
        self.chips = chips  # a chip lobby: each seat's chips, written after the points in sc=
        haipai = [[self.hold(s, t) for t in tiles(h)] for s, h in enumerate(hands)]
        assert all(len(h) == 13 for h in haipai)
        self.dora = self.take(dora)
        ten = ",".join(str(x // 100) for x in scores)
        ten += f'" chip="{",".join(map(str, chips))}' if chips is not None else ""
        self.tags = [f'<INIT seed="{seed[0]},{seed[1]},{seed[2]},0,0,{self.dora}" ten="{ten}" oya="{seed[0] % 4}" '
                     + " ".join(f'hai{s}="{",".join(map(str, h))}"' for s, h in enumerate(haipai)) + "/>"]
        self.last = -1

    def take(self, tile: str) -> int:
        if tile[0] == "0":  # the red five of the suit
            return sorted(RED_IDS)[SUITS.index(tile[1])]
        return self.free[kind(tile)].pop(0)

    def hold(self, seat: int, tile: str) -> int:
        tid = self.take(tile)
        self.held[seat].setdefault(kind(tile), []).append(tid)
        return tid

    def draw(self, seat: int, tile: str) -> None:
        self.last = self.hold(seat, tile)
        self.tags.append(f"<{'TUVW'[seat]}{self.last}/>")

    def discard(self, seat: int, tile: str) -> None:
        self.last = self.held[seat][kind(tile)].pop()
        self.tags.append(f"<{'DEFG'[seat]}{self.last}/>")

    def turn(self, seat: int, drawn: str, discarded: str | None = None) -> None:
        self.draw(seat, drawn)
        self.discard(seat, discarded or drawn)

    def pon(self, seat: int, frm: int) -> None:
        """Seat pons the tile just discarded by ``frm`` with two of its own."""
        called = self.last
        k = called // 4
        own = [self.held[seat][k].pop(), self.held[seat][k].pop()]
        ids = sorted([called, *own])
        unused = ({4 * k + i for i in range(4)} - set(ids)).pop() % 4
        m = ((3 * k + ids.index(called)) << 9) | (unused << 5) | 0x08 | ((frm - seat) % 4)
        self.melds[seat][k] = ids + [m, frm]
        self.tags.append(f'<N who="{seat}" m="{m}"/>')

    def kakan(self, seat: int, tile: str) -> None:
        """Seat adds ``tile`` (just drawn) to its pon of that kind."""
        k = kind(tile)
        *_, m, frm = self.melds[seat][k]
        added = self.held[seat][k].pop()
        self.last = added
        m = (m & ~0x08) | 0x10 | ((added % 4) << 5)
        self.tags.append(f'<N who="{seat}" m="{m}"/>')

    def sc(self, deltas: list[int], chip_deltas: list[int] | None = None) -> str:
        out = ",".join(f"{self.scores[s] // 100},{deltas[s] // 100}" for s in range(4))
        self.scores = [self.scores[s] + deltas[s] for s in range(4)]
        if self.chips is not None:
            chip_deltas = chip_deltas or [0] * 4
            out += "," + ",".join(f"{self.chips[s]},{chip_deltas[s]}" for s in range(4))
            self.chips = [self.chips[s] + chip_deltas[s] for s in range(4)]
        return out

    def agari(self, who: int, frm: int, ten: str, yaku: str, deltas: list[int], owari: str = "",
              chips: str = "", chip_deltas: list[int] | None = None, ratio: str = "") -> None:
        concealed = sorted(i for ids in self.held[who].values() for i in ids)
        if who != frm:
            concealed = sorted(concealed + [self.last])
        kind_attr = "yakuman" if yaku.startswith("yakuman:") else "yaku"
        end = (f' owari="{owari}"' if owari else "") + (f' ratio="{ratio}"' if ratio else "")
        chip = f' chip="{chips}"' if chips else ""
        self.tags.append(f'<AGARI ba="0,0" hai="{",".join(map(str, concealed))}" machi="{self.last}" ten="{ten}" '
                         f'{kind_attr}="{yaku.removeprefix("yakuman:")}"{chip} doraHai="{self.dora}" who="{who}" '
                         f'fromWho="{frm}" sc="{self.sc(deltas, chip_deltas)}"{end}/>')


def game(hands: list[Hand], go: str = 'type="169" lobby="0"', prolog: str = "") -> str:
    """The whole log: the lobby's GO tag (``go``: its attributes), the players, the hands."""
    head = [f"{prolog}<mjloggm ver=\"2.3\"><SHUFFLE seed=\"\" ref=\"\"/><GO {go}/>",
            '<UN n0="Aoi" n1="Ben" n2="Chie" n3="Dan" dan="11,12,13,14" rate="1600.00,1700.00,1800.00,1900.00" '
            'sx="M,F,F,M"/>', '<TAIKYOKU oya="0"/>']
    return "".join(head + [t for h in hands for t in h.tags]) + "</mjloggm>\n"


def commented_chankan() -> str:
    h = Hand((0, 0, 0), [25000] * 4, ["3m1p1p9p9p1s1s9s9s2z2z4z4z", "33m456p456s789s11z", "12m456m678p88p234s",
                                      "1m5m9m2p3p7p2s6s8s5z6z7z7z"], "2z")
    h.turn(0, "8m", "3m")
    h.pon(1, 0)  # seat 1 pons seat 0's 3m and discards a 1z
    h.discard(1, "1z")
    h.turn(2, "5z")
    h.turn(3, "6z")
    h.turn(0, "8m")
    h.draw(1, "3m")
    h.kakan(1, "3m")  # robbed: seat 2 waits on 3m (12m)
    h.agari(2, 1, "40,1300,0", "3,1", [0, -1300, 1300, 0])
    prolog = ('\ufeff<?xml version="1.0" encoding="UTF-8"?>\n\n'
              "<!-- /0/?log=2017060214gm-00a9-0000-40a46a1c&tw=0 downloaded for a test -->\n"
              "<?analyzer note?>\n\n")
    return game([h], prolog=prolog) + "<!-- the end -->\n"


def triple_yakuman() -> str:
    h = Hand((0, 0, 0), [25000] * 4, ["555z666z777z11z2z9m", "1m2m3m4m5m6m7m8m9m1p2p3p4p",
                                      "1s2s3s4s5s6s7s8s9s5p6p7p8p", "2m3m4m6m7m8m2s3s4s6s7s8s3z"], "3z")
    h.turn(0, "2z", "9m")  # tenpai on 1z/2z
    h.turn(1, "9p")
    h.turn(2, "9s")
    h.turn(3, "1p")
    h.draw(0, "1z")
    # dealer yakuman tsumo 16,000 all, three of them: 48,000 from each seat, 144,000
    h.agari(0, 0, "60,144000,5", "yakuman:39,40,42", [144000, -48000, -48000, -48000],
            owari="1690,179.0,-230,-43.0,-230,-63.0,-230,-73.0")
    return game([h])


def private_lobby() -> str:
    start = [30000] * 4
    e1 = Hand((0, 0, 0), start, ["1m1m9m9m1p1p9p9p1s1s9s9s5z", "23m345p567p222s88s",
                                 "2m3m4m6m7m8m2p3p4p6p7p8p6z", "4m5m6m7m8m3s4s5s6s7s8s1z2z"], "4z")
    for n, tile in enumerate(["7z", "6z", "5z", "7z", "3z"]):  # a go-round first: no chiihou
        e1.turn(n % 4, tile)
    e1.draw(1, "4m")  # 234m345p567p222s88s: menzen tsumo and tanyao, 30 fu (closed 222s): 500/1000
    e1.agari(1, 1, "30,2000,0", "0,1,8,1", [-1000, 2000, -500, -500])
    e2 = Hand((1, 0, 0), e1.scores, ["1m1m9m9m1p1p9p9p1s1s9s9s5z", "555z666z77z234m88m",
                                     "2p3p4p6p7p8p2s3s4s6s7s8s6z", "3p3p5p5p7p7p1z1z2z2z3z3z7z"], "9s")
    e2.turn(1, "9p")
    e2.turn(2, "1s")
    e2.draw(3, "4z")
    e2.discard(3, "7z")  # seat 1 waits on 7z/8m: daisangen, a dealer's yakuman, 48,000
    e2.agari(1, 3, "50,48000,5", "yakuman:39", [0, 48000, 0, -48000],
             owari="290,-1.0,800,100.0,295,19.5,-185,-118.5")
    return game([e1, e2], go='type="9" lobby="10011"')


TANYAO_WAIT = ["1m1m9m9m1p1p9p9p1s1s9s9s5z", "23m345p567p222s88s", "2m3m4m6m7m8m2p3p4p6p7p8p6z",
               "4m5m6m7m8m3s4s5s6s7s8s1z2z"]  # seat 1 waits on 1m/4m: tanyao with 4m, 40 fu (closed 222s)
DAISANGEN = ["1m1m9m9m1p1p9p9p1s1s9s9s5z", "555z666z77z234m88m", "2p3p4p6p7p8p2s3s4s6s7s8s6z",
             "3p3p5p5p7p7p1z1z2z2z3z3z7z"]  # seat 1 waits on 7z/8m: daisangen


def go_round(hand: Hand, seats=range(4)) -> None:
    """A turn of each seat drawing and discarding an honour: no first-turn yaku after it."""
    for seat, tile in zip(seats, ["7z", "6z", "5z", "7z"]):
        hand.turn(seat, tile)


def jansou_lobby() -> str:
    h = Hand((0, 0, 0), [1000] * 4, TANYAO_WAIT, "4z")
    go_round(h)
    h.turn(0, "4m")  # seat 1 rons: tanyao 1 han 40 fu, 1,300; the dealer ends at -300 (bust)
    h.agari(1, 0, "40,1300,0", "8,1", [-1300, 1300, 0, 0], owari="-3,-1.3,23,1.3,10,0.0,10,0.0", ratio="0,1")
    return game([h], go='type="2113" lobby="0"')


def chip_lobby() -> str:
    e1 = Hand((0, 0, 0), [25000] * 4, [TANYAO_WAIT[0], "23m340p567p222s88s", *TANYAO_WAIT[2:]], "4z", [0] * 4)
    go_round(e1)
    e1.draw(1, "4m")  # menzen tsumo, tanyao, a red five: 3 han 30 fu, 1000/2000, and a chip from each seat
    e1.agari(1, 1, "30,4000,0", "0,1,8,1,54,1", [-2000, 4000, -1000, -1000], chips="54,1",
             chip_deltas=[-1, 3, -1, -1])
    e2 = Hand((1, 0, 0), e1.scores, DAISANGEN, "9s", e1.chips)
    e2.turn(1, "9p")
    e2.turn(2, "1s")
    e2.draw(3, "4z")
    e2.discard(3, "7z")  # the dealer's daisangen: 48,000, seat 3 ends at -24,000
    e2.agari(1, 3, "50,48000,5", "yakuman:39", [0, 48000, 0, -48000],
             owari="230,-17.0,770,97.0,240,4.0,-240,-84.0,-1,0,3,0,-1,0,-1,0", ratio="2000,10")
    return game([e1, e2], go='type="553" lobby="0"')


CUSTOM_RULES = "0FE0BF0B,0000001F,,,30000,30000,30000," + "," * 14 + ",".join(["5,-5,-15"] * 5) + ",,,,"


def custom_rules() -> str:
    start = [30000] * 4
    e1 = Hand((0, 0, 0), start, TANYAO_WAIT, "4z")
    go_round(e1, range(3))
    e1.turn(3, "7z", "4m")  # seat 1 rons: 1,300
    e1.agari(1, 3, "40,1300,0", "8,1", [0, 1300, 0, -1300])
    e2 = Hand((1, 0, 0), e1.scores, DAISANGEN, "9s")
    e2.turn(1, "9p")
    e2.turn(2, "1s")
    e2.draw(3, "4z")
    e2.discard(3, "7z")  # the dealer's daisangen: 48,000, seat 3 ends at -19,300
    e2.agari(1, 3, "50,48000,5", "yakuman:39", [0, 48000, 0, -48000],
             owari="300,0.0,793,64.3,300,0.0,-193,-64.3")
    return game([e1, e2], go=f'type="257" lobby="1" title="" rule=",,0101,0,0,0,0" ranking="" csrule="{CUSTOM_RULES}"')


if __name__ == "__main__":
    for name, text in [("commented_chankan.mjlog", commented_chankan()), ("triple_yakuman.mjlog", triple_yakuman()),
                       ("private_lobby.mjlog", private_lobby()), ("jansou_lobby.mjlog", jansou_lobby()),
                       ("chip_lobby.mjlog", chip_lobby()), ("custom_rules.mjlog", custom_rules())]:
        (HERE / name).write_text(text, encoding="utf-8")
