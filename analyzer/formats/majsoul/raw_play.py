"""Mahjong Soul's round actions into the game model's hands (:func:`read_rounds`): the server's own record of
play, in order, one action a step, as its downloaders decode it (``{"name": "RecordDealTile", "data": …}``).

Field meanings follow the public readers of these records: smly/RiichiEnv (``mjsoul_replay.rs``, Apache-2.0)
and Equim-chan/tensoul (``convert.js``):

* ``RecordNewRound``: ``chang`` (the round wind, 0 East) and ``ju`` (the dealer's seat), ``ben`` (honba),
  ``liqibang`` (riichi sticks on the table), ``scores`` (3 or 4: the player count), ``tiles0..3`` the hands
  dealt, the dealer's with 14 tiles (its last tile is its first draw, as tensoul reads it), ``doras`` (older
  records: ``dora``) the indicators;
* ``RecordDealTile`` (``seat``, ``tile``; ``doras`` when a kan revealed one), ``RecordDiscardTile`` (``seat``,
  ``tile``, ``moqie`` the tile just drawn, ``is_liqi`` / ``is_wliqi`` a riichi / double riichi declared),
  ``RecordChiPengGang`` (``type`` 0 chi, 1 pon, 2 open kan; ``tiles`` and ``froms``: whose each tile was, the
  called one the discarder's), ``RecordAnGangAddGang`` (``type`` 3 closed kan, 2 added kan; ``tiles`` one
  tile), ``RecordBaBei`` (three players: a north set aside, its replacement drawn next);
* ``RecordHule``: ``hules`` (``seat``, ``zimo``, ``hu_tile``, ``count`` han, ``fu``, ``fans`` ``{id, val}``,
  ``yiman``, ``point_rong``, ``point_zimo_qin`` / ``point_zimo_xian`` what the dealer / a non-dealer pays,
  ``doras``, ``li_doras`` ura indicators) and ``delta_scores``, each seat's change as the server paid it
  (honba and the sticks on the table in, the riichi deposits of the hand out, which the scores lost when the
  stick was placed); ``RecordNoTile`` (``players[].tingpai`` tenpai, ``scores[].delta_scores`` the noten
  payments or a nagashi mangan's, ``liujumanguan``); ``RecordLiuJu`` an abortive draw (``type`` 1 nine
  terminals, 2 four winds, 3 four riichi, 4 four kans, 5 triple ron).

A riichi stick is placed unless the declaring tile is won on (the next action is a ron). Names are read with or
without the ``.lq.`` and ``Record`` prefixes (riichienv writes ``NewRound``).

A north set aside can be won on (three players): the server writes that win ``zimo`` although the winner is not
the seat that drew (riichienv's ``event_handler.rs`` of ``state_3p``: "mjsoul marks it as zimo=true, but the
winner is not the current player"), read here as a ron of the seat that set the north aside. When that north is
set aside right after a riichi declaration (the declarer's discard, the next seat's draw, its north), the stick
the draw placed is settled as the server's sums show it: where the winner's payments leave it out (the sum of
``delta_scores`` is one stick short of the sticks on the table), it is not placed, as for a ron on the
declaring tile (the declarer pays nothing); without the server's sums, the same.
"""

from __future__ import annotations

import functools

from analyzer.formats.majsoul.tensoul import DOUBLE_YAKUMAN
from analyzer.formats.majsoul.rooms import FAN_NAMES, FAN_UNKNOWN
from analyzer.formats.model import Kyoku, LogError, Outcome
from analyzer.formats.tile_text import NORTH, RED, kind

_SUITS = {"m": 0, "p": 9, "s": 18, "z": 27}
TILES = {f"{n}{s}": base + n - 1 for s, base in _SUITS.items() for n in range(1, 10 if s != "z" else 8)}
TILES |= {"0m": RED + 4, "0p": RED + 13, "0s": RED + 22}
CALLS = {0: "chi", 1: "pon", 2: "minkan"}
# RecordLiuJu's type -> the abort's kind in mjlog's words
LIUJU_KINDS = {1: "yao9", 2: "kaze4", 3: "reach4", 4: "kan4", 5: "ron3"}
WINDS, DRAGONS = range(27, 31), range(31, 34)
DAISANGEN, DAISUUSHII = 37, 50  # the yakuman a seat that fed the last set pays for (sekinin barai)


@functools.lru_cache(maxsize=256)
def action_name(name) -> str:
    """``.lq.RecordDealTile`` / ``RecordDealTile`` / ``DealTile`` -> ``DealTile``."""
    text = str(name).removeprefix(".lq.")
    for prefix in ("Record", "Action"):
        if text.startswith(prefix) and text[len(prefix):][:1].isupper():
            return text[len(prefix):]
    return text


def raw_tile(text) -> int:
    t = TILES.get(text) if text.__class__ is str else None
    if t is None:
        raise LogError(f"bad tile {str(text)[:40]!r}")
    return t


def _int(data: dict, key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise LogError(f"{key} is {value!r}, not a whole number")
    return value


def read_rounds(actions: list[tuple[str, dict]]) -> list[Kyoku]:
    """The hands of a game from its round actions in order (see the module docstring)."""
    hands: list[Kyoku] = []
    play: _Play | None = None
    for name, data in actions:
        if not isinstance(data, dict):
            raise LogError(f"round action {name!r} has no data")
        if name == "NewRound":
            if play is not None and not play.kyoku.outcomes:
                raise LogError(f"hand {len(hands)} ({play.kyoku.round}) has no result before the next hand")
            play = _Play(data)
            hands.append(play.kyoku)
            continue
        if play is None:
            raise LogError(f"{name} before the first NewRound")
        if play.kyoku.outcomes:
            raise LogError(f"hand {len(hands)} ({play.kyoku.round}): {name} after its result")
        try:
            play.step(name, data)
        except LogError as exc:
            raise LogError(f"hand {len(hands)} ({play.kyoku.round}): {exc}") from None
    if not hands:
        raise LogError("no RecordNewRound: not a Mahjong Soul game record")
    return hands


class _Play:
    """One hand being read: the events so far, each seat's concealed tiles (a closed kan takes the tiles the
    hand holds, red five included), the riichi whose stick is not yet placed, the seat that acted last."""

    def __init__(self, data: dict):
        scores = data.get("scores")
        if not isinstance(scores, list) or len(scores) not in (3, 4):
            raise LogError(f"NewRound scores {scores!r}: expected 3 or 4 scores")
        self.players = n = len(scores)
        chang, ju = _int(data, "chang", 0), _int(data, "ju", 0)
        if not (0 <= chang <= 3 and 0 <= ju < n):
            raise LogError(f"NewRound chang {chang}, ju {ju}: not a round")
        honba = data.get("ben", data.get("honba", 0))
        dealt = [[raw_tile(t) for t in data.get(f"tiles{s}") or []] for s in range(4)]
        if any(len(dealt[s]) != (14 if s == ju else 13) for s in range(n)) or any(dealt[n:]):
            raise LogError("NewRound: the dealer is dealt 14 tiles and the others 13")
        doras = data.get("doras") or ([data["dora"]] if data.get("dora") else [])
        first = dealt[ju].pop()  # the dealer's 14th tile is its first draw
        self.kyoku = Kyoku(kyoku=4 * chang + ju, honba=_int({"ben": honba}, "ben"), kyotaku=_int(data, "liqibang", 0),
                           scores=[_int({"s": x}, "s") for x in scores] + [0] * (4 - n), haipai=dealt,
                           dora=[raw_tile(t) for t in doras], players=n)
        self.hands = [list(h) for h in dealt]
        self.hands[ju].append(first)
        self.events: list[tuple] = self.kyoku.events
        self.events.append(("draw", ju, first, False))
        self.doras = len(self.kyoku.dora)
        self.riichi: int | None = None  # a declaration whose stick is placed by the next action but a ron
        self.sticks = 0  # riichi sticks placed in this hand
        self.rinshan = False
        self.actor: int | None = None  # who discarded, added to a kan or set a north aside last (a ron's loser)
        self.discarded = False  # the last action was a discard: a call may take it
        self.kita_by: int | None = None  # the last action was a north set aside by this seat (a win may take it)
        self.fresh_stick: int | None = None  # the seat whose stick the last draw placed (its declaration just made)
        self.honour_sets = [[0, 0] for _ in range(4)]  # per seat: wind and dragon sets called or closed
        self.liable: dict[int, dict[int, int]] = {}  # winner -> {yakuman fan id: the seat that fed its last set}

    def _seat(self, data: dict) -> int:
        seat = data.get("seat", 0)  # a decoder may leave out a field at its default (seat 0)
        if seat.__class__ is not int or not 0 <= seat < self.players:
            raise LogError(f"seat {seat!r} does not play")
        return seat

    def _place_stick(self) -> None:
        if self.riichi is not None:
            self.events.append(("reach", self.riichi))
            self.sticks += 1
            self.riichi = None

    def _unplace_stick(self, seat: int) -> None:
        """The stick of ``seat``'s declaration taken back: the server did not place it (see the module docstring)."""
        at = max(i for i, e in enumerate(self.events) if e[0] == "reach" and e[1] == seat)
        del self.events[at]
        self.sticks -= 1

    def _new_doras(self, data: dict) -> None:
        doras = data.get("doras")
        if isinstance(doras, list) and len(doras) > self.doras:
            self.events.extend(("dora", raw_tile(t)) for t in doras[self.doras :])
            self.doras = len(doras)

    def _take(self, seat: int, tile: int, what: str) -> None:
        try:
            self.hands[seat].remove(tile)
        except ValueError:
            raise LogError(f"seat {seat} {what} a tile it does not hold") from None

    def step(self, name: str, data: dict) -> None:
        # draws and discards are nearly every action: their path is kept short
        if name == "Hule":
            self._hule(data)
            return
        declarer, fresh = self.riichi, self.fresh_stick
        self.kita_by = self.fresh_stick = None
        if declarer is not None:
            self._place_stick()
        callable_discard, self.discarded = self.discarded, False
        if name == "DealTile":
            self.fresh_stick = declarer  # the stick this draw places, in question while its north may be won on
            s, tile = self._seat(data), data.get("tile")
            t = TILES.get(tile, -1) if tile.__class__ is str else -1
            if t < 0:
                raw_tile(data.get("tile"))  # raises, naming the tile
            if "doras" in data:
                self._new_doras(data)
            self.hands[s].append(t)
            self.events.append(("draw", s, t, self.rinshan))
            self.rinshan = False
        elif name == "DiscardTile":
            s, tile = self._seat(data), data.get("tile")
            t = TILES.get(tile, -1) if tile.__class__ is str else -1
            if t < 0:
                raw_tile(data.get("tile"))  # raises, naming the tile
            hand = self.hands[s]
            if t in hand:
                hand.remove(t)
            else:
                self._take(s, t, "discards")
            declared = bool(data.get("is_liqi") or data.get("is_wliqi"))
            self.events.append(("discard", s, t, declared, bool(data.get("moqie"))))
            self.riichi = s if declared else None
            self.actor, self.discarded = s, True
            if "doras" in data:
                self._new_doras(data)
        elif name == "ChiPengGang":
            if not callable_discard:
                raise LogError("a call where no discard was just made")
            self._call(data)
        elif name == "AnGangAddGang":
            self._kan(data)
        elif name == "BaBei":
            s = self._seat(data)
            if self.players != 3:
                raise LogError("a north set aside (BaBei) in a four-player game")
            self._take(s, NORTH, "sets aside")
            self.events.append(("kita", s, NORTH))
            self.rinshan, self.actor, self.kita_by = True, s, s
            self.fresh_stick = fresh  # a north right after the draw that placed a stick: see _hule
            self._new_doras(data)
        elif name == "NoTile":
            self._no_tile(data)
        elif name == "LiuJu":
            self.kyoku.outcomes = [Outcome(result="abort", deltas=[0, 0, 0, 0], abort=LIUJU_KINDS.get(data.get("type")))]
        elif name.lower() == "dora":  # riichienv's separate new-dora action
            marker = data.get("dora_marker")
            self.events.append(("dora", raw_tile(marker)))
            self.doras += 1
        else:
            raise LogError(f"round action {name!r} is not read here (a special room's mode?)")

    def _call(self, data: dict) -> None:
        s = self._seat(data)
        mk = CALLS.get(data.get("type"))
        tiles = [raw_tile(t) for t in data.get("tiles") or []]
        froms = data.get("froms") or []
        if mk is None or len(tiles) != (4 if mk == "minkan" else 3):
            raise LogError(f"ChiPengGang type {data.get('type')!r} with tiles {data.get('tiles')!r}")
        at = next((i for i, f in enumerate(froms) if f != s), len(tiles) - 1)
        called = tiles[at]
        for i, t in enumerate(tiles):
            if i != at:
                self._take(s, t, f"{mk}s with")
        self.events.append(("call", s, mk, tiles, called, self.actor))
        self.rinshan = mk == "minkan"
        if mk != "chi":
            self._count_set(s, called, self.actor)

    def _count_set(self, seat: int, tile: int, feeder: int | None) -> None:
        """tensoul's ``countpao``: the fourth wind set or third dragon set fed by a discard makes its feeder
        liable for daisuushii or daisangen."""
        k = kind(tile)
        which, full, fan = (0, 4, DAISUUSHII) if k in WINDS else (1, 3, DAISANGEN) if k in DRAGONS else (None, 0, 0)
        if which is None:
            return
        self.honour_sets[seat][which] += 1
        if self.honour_sets[seat][which] == full and feeder is not None:
            self.liable.setdefault(seat, {})[fan] = feeder
    def _kan(self, data: dict) -> None:
        s, given = self._seat(data), raw_tile(data.get("tiles"))
        if data.get("type") == 3:
            tiles = [t for t in self.hands[s] if kind(t) == kind(given)]
            if len(tiles) != 4:
                raise LogError(f"seat {s} declares a closed kan of {len(tiles)} tiles")
            for t in tiles:
                self._take(s, t, "ankans")
            self.events.append(("call", s, "ankan", tiles, given if given in tiles else tiles[-1], s))
            self._count_set(s, given, None)
        elif data.get("type") == 2:
            added = given if given in self.hands[s] else next((t for t in self.hands[s] if kind(t) == kind(given)), given)
            self._take(s, added, "adds to a kan")
            pon = next((e[3] for e in reversed(self.events)
                        if e[0] == "call" and e[1] == s and e[2] == "pon" and kind(e[3][0]) == kind(added)), None)
            if pon is None:
                raise LogError(f"seat {s} adds to a kan without a pon")
            self.events.append(("call", s, "kakan", [*pon, added], added, s))
        else:
            raise LogError(f"AnGangAddGang type {data.get('type')!r}")
        self.rinshan, self.actor = True, s
        self._new_doras(data)

    def _no_tile(self, data: dict) -> None:
        deltas = [0, 0, 0, 0]
        for entry in data.get("scores") or []:
            for i, d in enumerate((entry or {}).get("delta_scores") or []):
                deltas[i] += _int({"d": d}, "d")
        players = data.get("players")
        tenpai = ([s for s, p in enumerate(players) if isinstance(p, dict) and p.get("tingpai")]
                  if isinstance(players, list) and players else None)
        result = "nagashi" if data.get("liujumanguan") else "draw"
        self.kyoku.outcomes = [Outcome(result=result, deltas=deltas, tenpai=tenpai)]

    def _hule(self, data: dict) -> None:
        hules = data.get("hules")
        if not isinstance(hules, list) or not hules or not all(isinstance(h, dict) for h in hules):
            raise LogError("Hule without hules")
        # a win on a north set aside is written zimo by the server: a ron of the seat that set it aside
        on_kita = self.kita_by is not None and self._seat(hules[0]) != self.kita_by
        ron = not hules[0].get("zimo") or on_kita
        if not (ron and self.riichi is not None and self.riichi == self.actor):
            self._place_stick()
        self.riichi = None  # a ron on the declaring tile: its stick is never placed
        outcomes = [self._outcome(h, ron) for h in hules]
        total = data.get("delta_scores")
        summed = isinstance(total, list) and len(total) in (3, 4)
        if summed:
            total = [_int({"d": d}, "d") for d in total] + [0] * (4 - len(total))
        if on_kita and self.fresh_stick is not None and (
                not summed or sum(total) == 1000 * (self.kyoku.kyotaku + self.sticks - 1)):
            self._unplace_stick(self.fresh_stick)  # the server left that stick out (see the module docstring)
        if summed:
            # the server pays in one sum: each winner's own payments, the rest (honba, sticks) to the winner
            # nearest the discarder in turn order, as the rows put them
            head = min(outcomes, key=lambda o: (o.winner - (o.loser if o.loser is not None else o.winner)) % 4)
            rest = [t - sum(o.deltas[i] for o in outcomes) for i, t in enumerate(total)]
            head.deltas = [d + r for d, r in zip(head.deltas, rest)]
        else:  # an excerpt without the server's sums: honba and sticks to the first winner
            first = outcomes[0]
            w = first.winner
            honba = 100 * self.kyoku.honba
            for s in range(self.players):
                if s != w and (first.loser is None or s == first.loser):
                    pay = honba * (self.players - 1 if first.loser is not None else 1)
                    first.deltas[s] -= pay
                    first.deltas[w] += pay
            first.deltas[w] += 1000 * (self.kyoku.kyotaku + self.sticks)
        self.kyoku.outcomes = outcomes

    def _outcome(self, h: dict, ron: bool) -> Outcome:
        w = self._seat(h)
        n, dealer = self.players, self.kyoku.dealer
        o = Outcome(result="ron" if ron else "tsumo", deltas=[0, 0, 0, 0], winner=w,
                    loser=self.actor if ron else None, win_tile=raw_tile(h.get("hu_tile")))
        if ron and (o.loser is None or o.loser == w):
            raise LogError(f"a ron by seat {w} with no discard to win on")
        doras, ura = h.get("doras"), h.get("li_doras") or h.get("ura_dora_indicators")
        o.dora_indicators = [raw_tile(t) for t in doras] if isinstance(doras, list) and doras else None
        o.ura_indicators = [raw_tile(t) for t in ura] if isinstance(ura, list) and ura else None
        count, fu, yiman = _int(h, "count", 0), _int(h, "fu", 0), bool(h.get("yiman"))
        for fan in h.get("fans") or []:
            fid, val = (fan.get("id"), fan.get("val", 0)) if isinstance(fan, dict) else (None, 0)
            name = FAN_NAMES.get(fid) or f"unknown:{FAN_UNKNOWN.get(fid, fid)}"
            val = val if isinstance(val, int) and not isinstance(val, bool) else 0
            if yiman:
                o.yakuman += val if val in (1, 2) else 2 if name in DOUBLE_YAKUMAN else 1
                o.yaku.append(name)
                o.pao = self.liable.get(w, {}).get(fid, o.pao)
            else:
                o.add_recorded_yaku(name, val)
        o.fu = fu or None
        o.han = None if yiman else count
        o.limit = _limit(count, fu, yiman)
        if ron:
            o.points = _int(h, "point_rong")
            o.deltas[w], o.deltas[o.loser] = o.points, -o.points
        else:
            qin, xian = _int(h, "point_zimo_qin", 0), _int(h, "point_zimo_xian")
            o.points = (n - 1) * xian if w == dealer else qin + (n - 2) * xian
            for s in range(n):
                if s != w:
                    pay = qin if s == dealer else xian
                    o.deltas[s] -= pay
                    o.deltas[w] += pay
        return o


def _limit(han: int, fu: int, yakuman: bool) -> str | None:
    """The limit a hand's han and fu reach (kazoe yakuman is a yakuman limit; no kiriage, as Mahjong Soul)."""
    if yakuman or han >= 13:
        return "yakuman"
    for least, name in ((11, "sanbaiman"), (8, "baiman"), (6, "haneman")):
        if han >= least:
            return name
    return "mangan" if han >= 5 or (han == 4 and fu >= 40) or (han == 3 and fu >= 70) else None
