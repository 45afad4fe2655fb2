"""mjai JSON lines to the shared game model (see :mod:`analyzer.formats.model`).

mjai is the event protocol of gimite's mjai server, also the log format of Mortal, akochan and mjai-reviewer
(``mjai-reviewer --mjai-out``, Tenhou converters): one JSON object per line, each an event with a ``type``.
A file holds one whole game, ``start_game`` to ``end_game``; seats are the ids 0-3 (seat 0 deals first).

Read here:

* ``start_game``: ``names``; ``aka_flag`` (red fives; without it, whether any red five appears in the log);
  ``kyoku_first`` (akochan: 0 hanchan, 4 east-only) or ``gametype`` (gimite: ``tonpu`` / ``tonnan``).
* ``start_kyoku``: ``bakaze`` E/S/W/N, ``kyoku`` 1-4, ``honba``, ``kyotaku``, ``oya`` (must be seat kyoku-1),
  ``scores``, ``dora_marker``, ``tehais``. Tenhou archives converted by gimite's mjai carry no ``scores`` and
  no ``kyotaku``: they are then carried from the previous hand (25,000 each at the start) and counted from
  the accepted riichi sticks.
* play: ``tsumo``, ``dahai`` (``tsumogiri``; without it, whether the tile is the one just drawn), ``chi``/``pon``/``daiminkan`` (actor, target, pai, consumed), ``kakan``
  (pai = the added tile, consumed = the pon), ``ankan`` (consumed), ``dora``, ``reach`` (the next ``dahai``
  of the actor is the riichi discard), ``reach_accepted`` (the stick is paid). A riichi discard that ends
  the hand in a ``ryukyoku`` (four riichi) counts as accepted even without ``reach_accepted``, as in Tenhou;
  a ronned one does not.
* ``hora``: ``actor``, ``target`` (== actor for tsumo), ``deltas`` (as Tenhou: honba and sticks collected
  included, riichi deposits excluded), ``ura_markers`` (Mortal) or ``uradora_markers`` (gimite), ``pao``;
  when the event lists its ``yakus`` (gimite's mjai) also ``fan``, ``fu``, ``hora_points``, ``pai`` and
  ``hora_tehais`` (checked against the replay); the limit (mangan...) is read off ``hora_points``: 2,000 base
  points (a quarter of a non-dealer's, a sixth of a dealer's points) is mangan, 3,000 haneman, 4,000
  baiman, 6,000 sanbaiman, multiples of 8,000 yakuman. Consecutive ``hora`` events are a multiple ron.
* ``ryukyoku``: ``deltas``, ``reason`` when given (gimite names: fanpai, nagashimangan, kyushukyuhai,
  suchareach, sanchaho, sukaikan, sufonrenta), ``tenpais`` (list of booleans). Without a reason the kind
  comes from the play (:mod:`.aborts`): a draw after the whole wall (70 draws) is exhaustive -- nagashi mangan
  when a seat that discarded only terminals and honours, none of them called, gains more than noten money
  (3,000) -- and an earlier one the abortive draw the play shows (four winds, four kans, four riichi, nine
  terminals, triple ron); one the play does not decide is a problem for the file, never guessed.
* ``end_game``: ``scores`` when given become the recorded final scores.

A ``hora`` or ``ryukyoku`` without ``deltas`` takes them from its ``scores`` (after the hand) when present.
Three-player games: ``names``, ``tehais``, ``scores`` and ``deltas`` have three entries (seat 3 is the empty
one; ``tehais`` says it when ``start_game`` names nobody); a north set aside is ``nukidora`` (Mortal) or ``kita``
(riichienv), its replacement the next ``tsumo``.

analyzer's own export (:mod:`analyzer.formats.mjai.write`) adds what a record keeps beyond the protocol: in
``start_game`` an ``analyzer`` object (the game's id, rules spec, platform, room, lobby, ranks, game points;
:mod:`.mjai_extension`), on ``hora`` ``limit`` and ``dora_markers``, on ``ryukyoku`` the abort's ``reason``.

A hidden tile (``?``, a log from one player's view) cannot be replayed: the file is a problem, like a
truncated line or a game without ``end_game``.
"""

from __future__ import annotations

from analyzer.formats.mjai.lines import four_ints, numbered_events, seat_of, tile, tile_list
from analyzer.formats.mjai.aborts import ryukyoku_kind
from analyzer.formats.mjai.results import (
    RYUKYOKU_ABORTS,
    RYUKYOKU_REASONS,
    accept_last_riichi,
    dora_before_robbed_kan,
    hora_value,
)
from analyzer.formats.mjai.extension import EXTENSION, read_extension
from analyzer.formats.model import Game, Kyoku, LogError, Outcome
from analyzer.formats.tile_text import NORTH, RED

_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
_START_SCORE = 25_000
_START_SCORE_3P = 35_000


def parse_mjai(text: str, file: str) -> Game:
    """One mjai game (JSON lines) into the shared model; raises ``LogError`` with the problem's reason."""
    parser = _Parser(file)
    for n, ev in numbered_events(text.lstrip("\ufeff")):
        try:
            parser.event(ev)
        except LogError as exc:
            raise type(exc)(f"line {n}: {exc}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise LogError(f"line {n}: malformed {ev.get('type')} event ({type(exc).__name__}: {exc})") from None
    return parser.finish()


def read_start_game(ev: dict, game: Game) -> tuple[bool, bool | None]:
    """Set ``game``'s fields from a ``start_game`` event; (whether it names the players, its ``aka_flag`` or
    None)."""
    named, aka_flag = False, None
    names = ev.get("names")
    if names is not None:
        if not isinstance(names, list) or len(names) not in (3, 4):
            raise LogError(f"bad names {names!r}")
        named = True
        game.players = len(names)
        game.names = ["" if n is None else str(n) for n in names] + [""] * (4 - len(names))
    aka = ev.get("aka_flag")
    if isinstance(aka, bool):
        aka_flag = aka
    first = ev.get("kyoku_first")
    gametype = ev.get("gametype")
    if first == 0 or gametype == "tonnan":
        game.game_length = "hanchan"
    elif first == 4 or gametype == "tonpu":
        game.game_length = "tonpuu"
    if ev.get(EXTENSION) is not None:
        read_extension(ev[EXTENSION], game)
    return named, aka_flag


class _Parser:
    def __init__(self, file: str):
        self.game = Game(file=file, ref=None, names=["", "", "", ""])
        self.aka_flag: bool | None = None
        self.red_seen = False
        self.started = self.ended = False
        self.k: Kyoku | None = None
        self.closed = True  # the current hand saw end_kyoku (or there is none yet)
        self.scores = [_START_SCORE] * 4  # running scores, for logs whose start_kyoku has none
        self.sticks = 0
        self.pending_riichi: set[int] = set()
        self.rinshan = [False] * 4
        self.last_draw: list[int | None] = [None] * 4
        self.named = False  # start_game names the players (and so says how many play)

    def _tile(self, code) -> int:
        t = tile(code)
        self.red_seen |= t >= RED
        return t

    def _tiles(self, codes, n: int | None = None) -> list[int]:
        ts = tile_list(codes, n)
        self.red_seen |= any(t >= RED for t in ts)
        return ts

    def event(self, ev: dict) -> None:
        typ = ev["type"]
        if self.ended and typ != "none":
            raise LogError(f"{typ} after end_game (one file must hold one game)")
        if typ == "start_game":
            self._start_game(ev)
            return
        if typ == "none":
            return
        if not self.started:
            raise LogError(f"{typ} before start_game")
        if typ == "start_kyoku":
            self._start_kyoku(ev)
        elif typ == "end_game":
            if self.k is not None and not self.closed and not self.k.outcomes:
                raise LogError(f"end_game inside hand {len(self.game.kyokus)} ({self.k.round}), which has no result")
            if ev.get("scores") is not None:
                self.game.final_scores = four_ints(ev["scores"], "end_game scores", self.game.players)
            self.ended = True
        elif typ == "error":
            raise LogError(f"the log records an error: {ev.get('message', '')}")
        else:
            if self.k is None or self.closed:
                raise LogError(f"{typ} outside a hand (before start_kyoku or after end_kyoku)")
            if typ == "end_kyoku":
                if not self.k.outcomes:
                    raise LogError(f"end_kyoku of hand {len(self.game.kyokus)} ({self.k.round}) without a result")
                self.closed = True
            elif typ in ("hora", "ryukyoku"):
                if self.k.outcomes and (typ == "ryukyoku" or self.k.outcomes[0].result not in ("ron",)):
                    raise LogError(f"{typ} after the hand already ended")
                (self._hora if typ == "hora" else self._ryukyoku)(ev)
            elif self.k.outcomes:
                raise LogError(f"{typ} after the hand's result")
            else:
                self._play(typ, ev)

    def _start_game(self, ev: dict) -> None:
        if self.started:
            raise LogError("a second start_game (one file must hold one game)")
        self.started = True
        self.named, self.aka_flag = read_start_game(ev, self.game)
        if self.game.players == 3:
            self.scores = [_START_SCORE_3P] * 3 + [0]

    def _start_kyoku(self, ev: dict) -> None:
        if self.k is not None and not self.closed:
            if not self.k.outcomes:
                raise LogError(f"hand {len(self.game.kyokus)} ({self.k.round}) has no result")
            self.closed = True  # end_kyoku is optional
        wind = _WINDS.get(ev.get("bakaze"))
        number = ev.get("kyoku")
        if wind is None or number not in (1, 2, 3, 4):
            raise LogError(f"bad bakaze/kyoku {ev.get('bakaze')!r}/{number!r}")
        oya = seat_of(ev, "oya")
        if oya != number - 1:
            raise LogError(f"dealer {oya} is not seat {number - 1} of kyoku {number}")
        tehais = ev.get("tehais")
        n = self.game.players
        if not self.game.kyokus and isinstance(tehais, list) and len(tehais) == 3 and not self.named:
            n = self.game.players = 3  # a three-player game whose start_game names nobody
            self.scores = [_START_SCORE_3P] * 3 + [0]
        if not isinstance(tehais, list) or len(tehais) != n:
            raise LogError(f"bad tehais (expected {n} starting hands: a {n}-player game)")
        if ev.get("scores") is not None:
            self.scores = four_ints(ev["scores"], "scores", n)
        kyotaku = ev.get("kyotaku", self.sticks)
        honba = ev.get("honba")
        if not isinstance(honba, int) or not isinstance(kyotaku, int):
            raise LogError("bad honba/kyotaku")
        self.sticks = kyotaku
        self.k = Kyoku(
            kyoku=wind * 4 + number - 1,
            honba=honba,
            kyotaku=kyotaku,
            scores=list(self.scores),
            haipai=[self._tiles(h, 13) for h in tehais] + [[]] * (4 - n),
            dora=[self._tile(ev.get("dora_marker"))],
            players=n,
        )
        self.game.kyokus.append(self.k)
        self.closed = False
        self.pending_riichi = set()
        self.rinshan = [False] * 4
        self.last_draw: list[int | None] = [None] * 4

    def _play(self, typ: str, ev: dict) -> None:
        k = self.k
        if typ == "tsumo":
            s = seat_of(ev, "actor")
            self.last_draw[s] = self._tile(ev.get("pai"))
            k.events.append(("draw", s, self.last_draw[s], self.rinshan[s]))
            self.rinshan[s] = False
        elif typ == "dahai":
            s = seat_of(ev, "actor")
            t = self._tile(ev.get("pai"))
            giri = ev.get("tsumogiri")  # older logs (gimite's) leave it out: the tile just drawn is the best guess
            giri = giri if isinstance(giri, bool) else t == self.last_draw[s]
            k.events.append(("discard", s, t, s in self.pending_riichi, giri))
            self.last_draw[s] = None
            self.pending_riichi.discard(s)
        elif typ in ("chi", "pon", "daiminkan"):
            s, target = seat_of(ev, "actor"), seat_of(ev, "target")
            called = self._tile(ev.get("pai"))
            consumed = self._tiles(ev.get("consumed"), 3 if typ == "daiminkan" else 2)
            meld = "minkan" if typ == "daiminkan" else typ
            k.events.append(("call", s, meld, consumed + [called], called, target))
            self.rinshan[s] = meld == "minkan"
        elif typ == "kakan":
            s = seat_of(ev, "actor")
            added = self._tile(ev.get("pai"))
            k.events.append(("call", s, "kakan", self._tiles(ev.get("consumed"), 3) + [added], added, s))
            self.rinshan[s] = True
        elif typ == "ankan":
            s = seat_of(ev, "actor")
            consumed = self._tiles(ev.get("consumed"), 4)
            k.events.append(("call", s, "ankan", consumed, consumed[-1], s))
            self.rinshan[s] = True
        elif typ == "dora":
            k.events.append(("dora", self._tile(ev.get("dora_marker"))))
        elif typ in ("nukidora", "kita"):  # Mortal's and riichienv's names of a north set aside (three players)
            s = seat_of(ev, "actor")
            if k.players != 3 or self._tile(ev.get("pai", "N")) != NORTH:
                raise LogError(f"{typ}: a north set aside outside a three-player game, or not a north")
            k.events.append(("kita", s, NORTH))
            self.rinshan[s] = True
            self.last_draw[s] = None
        elif typ == "reach":
            self.pending_riichi.add(seat_of(ev, "actor"))
        elif typ == "reach_accepted":
            s = seat_of(ev, "actor")
            k.events.append(("reach", s))
            self.sticks += 1
            if ev.get("scores") is not None:
                self.scores = four_ints(ev["scores"], "scores", self.game.players)
            else:
                self.scores[s] -= 1000
        else:
            raise LogError(f"unknown event type {typ!r}")

    def _deltas(self, ev: dict) -> list[int]:
        if ev.get("deltas") is not None:
            deltas = four_ints(ev["deltas"], "deltas", self.game.players)
            after = four_ints(ev["scores"], "scores", self.game.players) if ev.get("scores") is not None else None
            self.scores = after or [self.scores[s] + deltas[s] for s in range(4)]
            return deltas
        if ev.get("scores") is not None:
            after = four_ints(ev["scores"], "scores", self.game.players)
            deltas = [after[s] - self.scores[s] for s in range(4)]
            self.scores = after
            return deltas
        raise LogError(f"{ev['type']} without deltas or scores")

    def _hora(self, ev: dict) -> None:
        k = self.k
        w, target = seat_of(ev, "actor"), seat_of(ev, "target")
        tsumo = w == target
        if self.k.outcomes and (tsumo or self.k.outcomes[0].loser != target):
            raise LogError("a further hora that is not a multiple ron on the same discard")
        if not tsumo:
            dora_before_robbed_kan(k)
        ura = ev.get("ura_markers", ev.get("uradora_markers"))
        pao = ev.get("pao")
        o = Outcome(
            result="tsumo" if tsumo else "ron",
            deltas=self._deltas(ev),
            winner=w,
            loser=None if tsumo else target,
            pao=None if pao is None or pao == w else seat_of(ev, "pao"),
            ura_indicators=self._tiles(ura) if ura else None,
            has_value="yakus" in ev,
        )
        if ev.get("pai") is not None:
            o.win_tile = self._tile(ev["pai"])
        if ev.get("hora_tehais") is not None:
            hand = self._tiles(ev["hora_tehais"])
            if len(hand) % 3 == 1:  # gimite's Tenhou converter leaves the winning tile out
                if o.win_tile is None:
                    raise LogError("hora_tehais without the winning tile and no pai")
                hand.append(o.win_tile)
            o.hand = hand
        if o.has_value:
            hora_value(ev, o, w, k)
        if isinstance(ev.get("limit"), str) or (o.has_value and "limit" in ev and ev["limit"] is None):
            o.limit = ev["limit"]  # analyzer's export: the limit as recorded
        if ev.get("dora_markers") is not None:
            o.dora_indicators = self._tiles(ev["dora_markers"])
        if self.sticks and not k.outcomes:
            self.sticks = 0
        k.outcomes.append(o)

    def _ryukyoku(self, ev: dict) -> None:
        k = self.k
        reason = ev.get("reason")
        if reason is not None and reason not in RYUKYOKU_REASONS:
            raise LogError(f"unknown ryukyoku reason {reason!r}")
        deltas = self._deltas(ev)
        accept_last_riichi(k)
        if reason is not None:
            result, abort = RYUKYOKU_REASONS[reason], RYUKYOKU_ABORTS.get(reason)
        else:  # other tools name no kind: the play decides it, or the file is refused
            result, abort = ryukyoku_kind(k, deltas)
        o = Outcome(result=result, deltas=deltas, abort=abort)
        tenpais = ev.get("tenpais")
        if result in ("draw", "nagashi") and isinstance(tenpais, list) and len(tenpais) == k.players:
            o.tenpai = [s for s in range(k.players) if tenpais[s]]
        k.outcomes.append(o)

    def finish(self) -> Game:
        if not self.started:
            raise LogError("no start_game")
        if not self.game.kyokus:
            raise LogError("no hands (start_kyoku) in the log")
        if not self.ended:
            raise LogError("the log ends before end_game (truncated?)")
        if self.aka_flag is False and self.red_seen:
            raise LogError("red fives in a game whose start_game says aka_flag false")
        self.game.aka = self.aka_flag if self.aka_flag is not None else self.red_seen
        return self.game
