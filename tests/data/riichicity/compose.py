"""How the Riichi City records of this folder are written (the games are in ``games.py``; run: python
tests/data/riichicity/games.py).

No public Riichi City record has a licence that allows copying one, so these games are made for this project:
each hand is played out below, its value worked by hand in the comments, and written as the platform's API
returns a game (the fields of ``analyzer/formats/riichicity/read.py``'s docstring: the deal events, turns with
``in_card`` 0 after a call, ``move_cards_pos``, call offers, riichi broadcasts, the kan dora indicators so far,
``win_info`` and ``user_profit`` with ``point_profit`` and ``li_zhi_profit``, the game's end with ``point_num``
and ``score`` in tenths). The players not named in a hand get random tiles (seeded) and discard what they draw;
the tiles the hand's winner or a tenpai player waits on are kept out of their draws. An exhaustive draw plays the
whole wall (70 draws, 55 with three players). The wall (``handCardEncode``) is the tiles dealt and drawn, the
indicators and the rest of the set; ``handCardsSHA256`` its SHA-256.

* ``east_4p.json``: a ranked four-player East game (25,000), five hands: E1-0 a ron after a pon and a chi (haku,
  a red five), E2-0 a tsumo after a closed kan and a tsumogiri riichi, E3-0 an exhaustive draw with a riichi and
  noten payments (the dealer tenpai), E3-1 a ron after a pon and an added kan (honba and the stick), E4-0 a riichi
  ron on a red five (4 han 30 fu: kiriage mangan), which ends the game with someone at 30,000;
* ``sanma_east.json``: a ranked three-player East game (35,000), four hands: E1-0 the dealer sets a north aside,
  declares riichi and wins by tsumo (tsumo loss), E1-1 a ron after a pon (honba 200), E2-0 an exhaustive draw
  (noten payments 2,000), E3-1 a riichi pinfu ron, which ends the game with someone at 40,000.

:func:`record_of` writes any game of the model this way (the benchmark turns the Mahjong Soul test games into
Riichi City records with it).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.formats.model import Game, Kyoku, Outcome, wall_draws  # noqa: E402
from analyzer.formats.replay import replay  # noqa: E402
from analyzer.formats.riichicity.codes import TILES  # noqa: E402
from analyzer.formats.riichicity.yaku import FANG_NAMES  # noqa: E402
from analyzer.formats.tile_text import RED, tile_str  # noqa: E402

CODES = {t: code for code, t in TILES.items()}  # our tile -> Riichi City's code
FANG_IDS = {name: fid for fid, name in sorted(FANG_NAMES.items(), reverse=True)}  # the first id of each name
CHI_ACTIONS = {0: 2, 1: 3, 2: 4}  # the called tile lowest, in the middle, highest
USERS = [812100047, 613632115, 614791416, 812927032]


def tiles(text: str) -> list[int]:
    """``234m0p67p`` -> our tiles (``0`` a red five)."""
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
            continue
        base = "mpsz".index(ch) * 9
        out += [RED + base + 4 if d == 0 else base + d - 1 for d in digits]
        digits = []
    assert not digits, text
    return out


def full_set(players: int) -> Counter:
    """The set: three red fives (four players), two (three players: no 2m-8m, no red 5m)."""
    kinds = [k for k in range(34) if players == 4 or not 1 <= k <= 7]
    full = Counter({k: 4 for k in kinds})
    for red in ((4, 13, 22) if players == 4 else (13, 22)):
        full[red] -= 1
        full[RED + red] = 1
    return full


class Play:
    """One hand played step by step into the model's events (see the module docstring)."""

    def __init__(self, players: int, kyoku: int, honba: int, kyotaku: int, scores: list[int], dora: str,
                 hands: dict[int, str], first: str | None = None, ura: str = "", protect: str = "", seed: int = 0):
        self.n, self.rng = players, random.Random(seed)
        self.pool = full_set(players)
        self.protected = {t % RED for t in tiles(protect)}
        self.dora, self.ura = tiles(dora), tiles(ura)
        for t in [*self.dora, *self.ura, *(t for h in hands.values() for t in tiles(h))] + tiles(first or ""):
            self._take(t)
        dealer = kyoku % 4
        self.hands = [tiles(hands[s]) if s in hands else [self._random() for _ in range(13)] for s in range(players)]
        self.k = Kyoku(kyoku=kyoku, honba=honba, kyotaku=kyotaku, scores=scores + [0] * (4 - players),
                       haipai=[list(h) for h in self.hands] + [[]] * (4 - players), dora=list(self.dora),
                       players=players)
        self.next, self.drawn, self.draws = dealer, None, 0
        if first:
            self.pool[tiles(first)[0]] += 1  # kept from the hands dealt above, drawn now
        self.draw(dealer, first)

    def _take(self, t: int) -> None:
        assert self.pool[t] > 0, f"no {tile_str(t)} left"
        self.pool[t] -= 1

    def _random(self) -> int:
        choices = sorted(t for t, c in self.pool.items() if c > 0 and t % RED not in self.protected)
        t = self.rng.choice(choices)
        self._take(t)
        return t

    def draw(self, s: int, tile: str | None = None, rinshan: bool = False) -> None:
        assert rinshan or s == self.next, f"seat {s} draws, seat {self.next} is next"
        t = tiles(tile)[0] if tile else self._random()
        if tile:
            self._take(t)
        self.hands[s].append(t)
        self.k.events.append(("draw", s, t, rinshan))
        self.drawn, self.draws = (s, t), self.draws + 1

    def discard(self, s: int, tile: str | None = None, riichi: bool = False) -> None:
        t = self.drawn[1] if tile is None else tiles(tile)[0]
        giri = self.drawn == (s, t)
        self.hands[s].remove(t)
        self.k.events.append(("discard", s, t, riichi, giri))
        if riichi:
            self.k.events.append(("reach", s))
        self.next, self.drawn, self.last = (s + 1) % self.n, None, (s, t)

    def turn(self, s: int | None = None, draw: str | None = None, discard: str | None = None,
             riichi: bool = False) -> None:
        s = self.next if s is None else s
        self.draw(s, draw)
        self.discard(s, discard, riichi)

    def fill(self, until: int) -> None:
        """Turns of whoever is next (a random draw let go) until seat ``until`` is next."""
        while self.next != until:
            self.turn()

    def exhaust(self) -> None:
        while self.draws < wall_draws(self.n):
            self.turn()

    def call(self, s: int, kind: str, own: str) -> None:
        frm, t = self.last
        mine = tiles(own)
        for x in mine:
            self.hands[s].remove(x)
        self.k.events.append(("call", s, kind, mine + [t], t, frm))
        self.drawn = None

    def ankan(self, s: int, four: str) -> None:
        quad = tiles(four)
        for x in quad:
            self.hands[s].remove(x)
        self.k.events.append(("call", s, "ankan", quad, quad[-1], s))

    def kakan(self, s: int, tile: str) -> None:
        t = tiles(tile)[0]
        self.hands[s].remove(t)
        pon = next(e[3] for e in self.k.events if e[0] == "call" and e[1] == s and e[2] == "pon")
        self.k.events.append(("call", s, "kakan", [*pon, t], t, s))

    def kita(self, s: int) -> None:
        self.hands[s].remove(30)
        self.k.events.append(("kita", s, 30))

    def kan_dora(self, indicator: str) -> None:
        t = tiles(indicator)[0]
        self._take(t)
        self.k.events.append(("dora", t))

    def win(self, result: str, winner: int, han: int, fu: int, points: int, yaku: list[tuple[str, int]],
            deltas: dict[int, int], dora: int = 0, aka: int = 0, ura: int = 0, kita: int = 0,
            limit: str | None = None) -> Kyoku:
        o = Outcome(result=result, deltas=[deltas.get(s, 0) for s in range(4)], winner=winner,
                    loser=self.last[0] if result == "ron" else None, fu=fu, han=han, points=points,
                    dora=dora + kita, aka=aka, ura=ura, kita=kita, ura_indicators=self.ura or None,
                    yaku=[y for y, _ in yaku], yaku_han=[h for _, h in yaku], limit=limit)
        self.k.outcomes = [o]
        return self.k

    def drawn_out(self, tenpai: list[int], deltas: dict[int, int]) -> Kyoku:
        self.k.outcomes = [Outcome(result="draw", deltas=[deltas.get(s, 0) for s in range(4)], tenpai=tenpai)]
        return self.k


def _wall(k: Kyoku, game: Game) -> str:
    """The wall as tile text: the tiles dealt and drawn, the indicators, then the rest of the set."""
    used = [t for h in k.haipai for t in h] + [e[2] for e in k.events if e[0] == "draw"]
    used += k.dora + [e[1] for e in k.events if e[0] == "dora"]
    used += next((o.ura_indicators for o in k.outcomes if o.ura_indicators), [])
    rest = full_set(game.players)
    rest.subtract(Counter(used))
    rest = sorted(t for t, c in rest.items() for _ in range(max(c, 0)))
    random.Random(k.kyoku * 100 + k.honba).shuffle(rest)
    return "".join(tile_str(t) for t in used + rest)


def _fangs(o: Outcome) -> list[dict]:
    hans = o.yaku_han if len(o.yaku_han) == len(o.yaku) else [1] * len(o.yaku)
    out = [{"fang_type": FANG_IDS.get(name, 999), "fang_num": 13 * (han // 100) if han >= 100 else han}
           for name, han in zip(o.yaku, hans)]
    counts = ((50, o.dora - o.kita), (49, o.aka), (51, o.ura), (55, o.kita))
    return out + [{"fang_type": fid, "fang_num": num} for fid, num in counts if num]


class _Events:
    """A hand's events as the record writes them."""

    def __init__(self):
        self.out: list[dict] = []

    def add(self, typ: int, user: int, data: dict) -> None:
        self.out.append({"data": json.dumps(data, separators=(",", ":")), "eventPos": len(self.out),
                         "eventType": typ, "handId": "", "startTime": 1700000000000 + 1000 * len(self.out),
                         "userId": user})


def _hand(k: Kyoku, game: Game, users: list[int], number: int, last: bool) -> dict:
    n, dealer = game.players, k.dealer
    rp = replay(k)
    first = k.events[0]
    assert first[0] == "draw" and first[1] == dealer
    common = {"dealer_pos": dealer, "dices": [3, 4], "bao_pai_card": CODES[k.dora[0]], "ting_list": [],
              "quan_feng": 0x31 + 16 * (k.kyoku // 4), "chang_ci": dealer + 1, "ben_chang_num": k.honba,
              "li_zhi_bang_num": k.kyotaku,
              "user_info_list": [{"user_id": users[s], "hand_points": k.scores[s], "luck_score": 0,
                                  "is_exist_shao_ji": False} for s in range(n)]}
    ev = _Events()
    held = [list(h) for h in k.haipai]
    held[dealer].append(first[2])
    for s in range(n):
        ev.add(1, users[s], {"hand_cards": [CODES[t] for t in held[s]], **common})
    ev.add(2, users[dealer], {"in_card": 0, "is_gang_incard": False})
    drawn, kan_dora, last_discard = (dealer, first[2]), [], None
    for e in k.events[1:]:
        typ, s = e[0], e[1]
        if typ == "draw":
            held[s].append(e[2])
            drawn = (s, e[2])
            ev.add(2, users[s], {"in_card": CODES[e[2]], "is_gang_incard": e[3]})
        elif typ == "discard":
            t, giri = e[2], e[4]
            place = len(held[s]) if giri else (held[s][:-1] if drawn and drawn[0] == s else held[s]).index(t) + 1
            held[s].remove(t) if not giri else held[s].pop()
            ev.add(4, users[s], {"action": 11, "card": CODES[t], "move_cards_pos": [place, max(place - 1, 1)],
                                 "user_id": users[s], "hand_cards": None, "group_cards": None, "is_li_zhi": e[3],
                                 "li_zhi_operate": 0, "li_zhi_type": 1 if e[3] else 0})
            if e[3]:
                ev.add(8, users[s], {"user_id": users[s], "is_auto_gang": False})
            drawn, last_discard = None, e
        elif typ == "call":
            kind, quad, called = e[2], e[3], e[4]
            own = list(quad)
            own.remove(called)
            for x in {"ankan": quad, "kakan": [called]}.get(kind, own):
                held[s].remove(x)
            if kind in ("chi", "pon", "minkan"):
                ev.add(3, users[s], {"out_card": CODES[called], "action_list": [5, 7], "oper_fixed_time": 5,
                                     "oper_var_time": 20})
            action = {"pon": 5, "minkan": 6, "ankan": 8, "kakan": 9}.get(kind)
            if kind == "chi":
                action = CHI_ACTIONS[sorted(quad, key=lambda x: x % RED).index(called)]
            ev.add(4, users[s], {"action": action, "card": CODES[called], "move_cards_pos": [1, 2],
                                 "user_id": users[s], "hand_cards": None,
                                 "group_cards": [CODES[x] for x in own] if kind != "kakan" else None,
                                 "is_li_zhi": False, "li_zhi_operate": 0, "li_zhi_type": 0})
            if kind in ("chi", "pon"):
                ev.add(2, users[s], {"in_card": 0, "is_gang_incard": False})
            drawn = None
        elif typ == "kita":
            held[s].remove(e[2])
            ev.add(4, users[s], {"action": 13, "card": CODES[e[2]], "move_cards_pos": None, "user_id": users[s],
                                 "hand_cards": None, "group_cards": None, "is_li_zhi": False, "li_zhi_operate": 0,
                                 "li_zhi_type": 0})
        elif typ == "dora":
            kan_dora.append(CODES[s])
            ev.add(7, 0, {"cards": list(kan_dora)})
    accepted = [sum(1 for e in k.events if e[0] == "reach" and e[1] == s) for s in range(4)]
    wins = [o for o in k.outcomes if o.result in ("ron", "tsumo")]
    profit = [sum(o.deltas[s] for o in k.outcomes) for s in range(4)]
    taker = min(wins, key=lambda o: (o.winner - (o.loser if o.loser is not None else o.winner)) % n).winner if (
        wins) else None
    sticks = [(1000 * (k.kyotaku + sum(accepted)) if s == taker else 0) - 1000 * accepted[s] for s in range(4)]
    infos = []
    for o in wins:
        w = o.winner
        hand = rp.concealed[w]
        ev.add(4, users[w], {"action": 7 if o.result == "ron" else 10, "card": CODES[rp.win_tiles[w]],
                             "move_cards_pos": None, "user_id": users[w], "hand_cards": [CODES[t] for t in hand],
                             "group_cards": None, "is_li_zhi": False, "li_zhi_operate": 0, "li_zhi_type": 0})
        infos.append({"fang_info": _fangs(o), "all_fang_num": o.han if o.han is not None else 13 * o.yakuman,
                      "all_fu": o.fu or 0, "all_point": o.points, "user_cards": [CODES[t] for t in hand],
                      "li_bao_card": [CODES[t] for t in o.ura_indicators] if o.ura_indicators and w in rp.riichi
                      else None, "user_id": users[w], "ting_card_list": None, "bash_points": 0, "luck_score": 0})
    first_out = k.outcomes[0]
    if not wins:
        for s in first_out.tenpai or []:
            infos.append({"fang_info": None, "all_fang_num": 0, "all_fu": 0, "all_point": 0,
                          "user_cards": [CODES[t] for t in rp.concealed[s]], "li_bao_card": None,
                          "user_id": users[s], "ting_card_list": [], "bash_points": 0, "luck_score": 0})
    end_type = {"ron": 0, "tsumo": 1, "draw": 7}.get(first_out.result)
    if first_out.result == "abort":
        end_type = {"kaze4": 2, "kan4": 3, "reach4": 4, "ron3": 5, "yao9": 6}[first_out.abort]
    ev.add(5, 0, {"end_type": end_type, "win_info": infos, "zhong_liu_info": [],
                  "user_profit": [{"user_id": users[s], "point_profit": profit[s], "li_zhi_profit": sticks[s],
                                   "is_bao_pai": any(o.pao == s for o in wins)} for s in range(n)]})
    if last:
        ev.add(6, 0, {"user_data": [{"user_id": users[s], "point_num": game.final_scores[s],
                                     "score": round(game.final_points[s] * 10), "coin": 0, "is_shao_ji": False,
                                     "shao_ji_score": 0, "luck_score": 0} for s in range(n)]})
    wall = _wall(k, game)
    return {"benChangNum": k.honba, "changCi": dealer + 1, "handCardEncode": wall,
            "handCardsSHA256": hashlib.sha256(wall.encode()).hexdigest(), "handEventRecord": ev.out,
            "handID": f"{game.ref}_{number}", "handPos": number, "paiShan": [],
            "players": [{"nickname": game.names[s], "points": k.scores[s], "position": s, "userId": users[s]}
                        for s in range(n)],
            "quanFeng": 0x31 + 16 * (k.kyoku // 4)}


def record_of(game: Game, key: str, round_type: int = 1, init_points: int | None = None,
              users: list[int] = USERS, play: int = 1001, envelope: bool = True) -> dict:
    """``game`` as the platform's API returns it (``{"code", "data", "message"}``, or the game alone)."""
    game.ref = key
    hands = [_hand(k, game, users, i, i == len(game.kyokus)) for i, k in enumerate(game.kyokus, 1)]
    top = {"fangFu": 0, "gamePlay": play, "handRecord": hands,
           "initPoints": init_points or game.kyokus[0].scores[0], "isCollect": False, "isGangPay": False,
           "isGeMu": False, "isKaiLiZhi": False, "isLuck": False, "isNotEffect": False, "isNotShowHand": False,
           "isObserve": False, "isShaoJi": False, "isWithUser": True, "keyValue": key, "matchStage": 0,
           "matchType": 0, "northOperateType": 0, "nowTime": 1700003600, "period": 0,
           "playerCount": game.players, "remark": "", "roomId": key[:-1] + "0", "round": round_type,
           "stageNum": 0, "stageType": 4}
    return {"code": 0, "data": top, "message": "ok"} if envelope else top
