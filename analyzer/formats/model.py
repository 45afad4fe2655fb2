"""The game model every log format is read into, and the errors of an import.

Both Tenhou formats and mjai are first turned into the same small model (:class:`Game` holding
:class:`Kyoku` objects, each with a list of play events and the recorded outcomes); everything derived from
play (situation flags, the winning hand, riichi sticks, nagashi, tenpai) is computed from it once for every
format (:mod:`.replay`). Tiles are ints (:mod:`.tile_text`).

Events (tuples, in play order):

* ``("draw", seat, tile, rinshan)``
* ``("discard", seat, tile, riichi_declared, tsumogiri)``: tsumogiri when the tile discarded is the one the seat
  just drew (mjlog: the same tile id; tenhou.net/6: code 60; mjai: ``tsumogiri``)
* ``("call", seat, kind, tiles, called_tile, from_seat)`` with kind chi|pon|minkan|kakan|ankan; for kakan
  ``tiles`` is the whole quad and ``called_tile`` the added tile; for ankan ``from_seat`` is the caller. The
  tiles are in the order the log writes them, the called (or added) tile last: tenhou.net/6 JSON's order
  (which the mjlog reader gives from the tile ids), mjai's ``consumed`` then ``pai``; an ankan's in the log's
  order (tenhou.net/6: ``151515a51``, the tile after the letter last)
* ``("kita", seat, tile)``: three players, a north tile set aside (nukidora)
* ``("reach", seat)``: the riichi stick was accepted (Tenhou REACH step 2)
* ``("dora", indicator)``: a new kan dora indicator
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

YAKUMAN_HAN = 100  # the han a yakuman entry of Outcome.yaku_han counts as (gimite's mjai writes fan 100)
WALL_DRAWS = 70  # live-wall plus rinshan draws in a four-player hand (136 - 14 dead - 52 dealt)
WALL_DRAWS_3P = 55  # three players: 108 tiles (no 2m-8m) - 14 dead - 39 dealt; kita replacements count as rinshan


def wall_draws(players: int) -> int:
    return WALL_DRAWS if players == 4 else WALL_DRAWS_3P


class LogError(Exception):
    """A problem that stops one file from importing; the message becomes the :class:`ImportProblem` reason."""


@dataclass(frozen=True)
class ImportProblem:
    """A file (or a game inside it) that did not import, or imported with a caveat.

    ``file`` is the path as found; ``reason`` says what is wrong. ``game_id`` is set when the problem concerns
    one game whose rows were still imported (``imported=True``), e.g. an unknown yaku name kept as
    ``unknown:NAME``. ``same_as`` names the earlier file of a game met again: a copy (the same content, or the
    same id and plays written otherwise) is skipped with ``imported=True`` (nothing is lost), another version
    (the same Tenhou log id, other plays) with ``imported=False``. ``hand`` is the hand of the file a caveat is about (from 1, as ``log_row``), when it
    is about one.
    """

    file: str
    reason: str
    game_id: str | None = None
    imported: bool = False
    same_as: str | None = None
    hand: int | None = None

    @property
    def where(self) -> str:
        """The file, and the game and hand when known: ``logs/g.mjlog (game 2019…-4f2a8622, hand 3)``."""
        known = [f"game {self.game_id}"] if self.game_id else []
        known += [f"hand {self.hand}"] if self.hand is not None else []
        return self.file + (f" ({', '.join(known)})" if known else "")


def files_failed(problems: list[ImportProblem]) -> int:
    """Files (or games) not read: read errors and other versions of a game."""
    return sum(1 for p in problems if not p.imported)


def copies_skipped(problems: list[ImportProblem]) -> int:
    """Copies of a game met before, skipped (nothing lost)."""
    return sum(1 for p in problems if p.same_as is not None and p.imported)


class Note(NamedTuple):
    """A caveat about a game that imported anyway: what to know, and the hand of the log it is about (counted
    from 1, as ``log_row``), None when it is about the whole game."""

    text: str
    hand: int | None = None


@dataclass
class Outcome:
    """One recorded outcome row (before derivation)."""

    result: str  # ron | tsumo | draw | nagashi | abort
    deltas: list[int]  # as recorded by Tenhou: honba and sticks collected included, riichi deposits excluded
    winner: int | None = None
    loser: int | None = None
    pao: int | None = None
    fu: int | None = None
    han: int | None = None
    points: int | None = None
    limit: str | None = None
    yaku: list[str] = field(default_factory=list)
    yakuman: int = 0
    dora: int = 0
    ura: int = 0
    aka: int = 0
    dora_indicators: list[int] | None = None
    ura_indicators: list[int] | None = None
    hand: list[int] | None = None  # recorded concealed tiles incl. the winning tile (mjlog)
    win_tile: int | None = None  # recorded winning tile (mjlog)
    melds: list[tuple[str, list[int]]] | None = None  # recorded melds of the winner (mjlog)
    tenpai: list[int] | None = None  # recorded tenpai seats (mjlog RYUUKYOKU hai0..3)
    all_tenpai: bool | None = None  # JSON 全員聴牌 / 全員不聴
    has_value: bool = True  # False when the log omits the value (a shortened result)
    kita: int = 0  # three players: north tiles the winner set aside (nukidora), as recorded with the win
    # per entry of ``yaku`` its han as recorded; a yakuman entry YAKUMAN_HAN times the yakuman it counts as
    yaku_han: list[int] = field(default_factory=list)
    abort: str | None = None  # an abortive draw's kind in mjlog's words (yao9 reach4 ron3 kan4 kaze4), when known
    # a tenhou.net/6 result as written ([value, *yaku] of a win, the word of a draw), so an export gives it back
    recorded_text: list[str] | None = None

    def add_recorded_yaku(self, name: str, han: int) -> None:
        """Record one yaku of the log: dora, ura and aka go to their counts, the rest to ``yaku``."""
        if name == "dora":
            self.dora += han
        elif name == "ura":
            self.ura += han
        elif name == "aka":
            self.aka += han
        else:
            self.yaku.append(name)
            self.yaku_han.append(han)

    def add_yakuman(self, name: str, times: int = 1) -> None:
        """Record one yakuman of the log, counting ``times`` (a double yakuman where the platform pays it twice)."""
        self.yaku.append(name)
        self.yaku_han.append(YAKUMAN_HAN * times)
        self.yakuman += times


@dataclass
class Kyoku:
    kyoku: int  # 0-3 East, 4-7 South, ...
    honba: int
    kyotaku: int
    scores: list[int]
    haipai: list[list[int]]
    dora: list[int]  # indicators at the start
    events: list[tuple] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    players: int = 4

    @property
    def dealer(self) -> int:
        return self.kyoku % 4

    @property
    def round(self) -> str:
        return f"{'ESWN'[(self.kyoku // 4) % 4]}{self.kyoku % 4 + 1}"


@dataclass
class Game:
    file: str
    ref: str | None
    names: list[str]
    aka: bool = True
    kuitan: bool = True
    game_length: str | None = None
    lobby: int | None = None
    kyokus: list[Kyoku] = field(default_factory=list)
    final_scores: list[int] | None = None
    final_points: list[float] | None = None
    players: int = 4  # 3: a three-player (sanma) game, seat 3 empty
    notes: list[Note] = field(default_factory=list)  # non-fatal caveats (imported anyway)
    dan: list | None = None  # per seat as recorded (mjlog index text, JSON name); read by identity.dan_index
    rate: list | None = None  # per seat as recorded (text or number); read by identity.rate
    digest: str | None = None  # hash of the log's content (identity.content_digest), set by the reader
    platform: str = "tenhou"  # "majsoul": a Mahjong Soul game (tenhou.net/6 JSON by tensoul, see .majsoul)
    room: str | None = None  # the room the log names (Mahjong Soul: rule.disp)
    ranks: list | None = None  # per seat, a platform's own rank as text (Mahjong Soul: 雀士★2), not Tenhou's dan
    tsumo_loss: str | None = None  # three players: "split" when the log's tsumo payments show north-bisection
    lobby_type: int | None = None  # mjlog GO type: its bits above 0xFF name special lobbies (see .lobby)
    custom_rules: str | None = None  # mjlog GO csrule: a lobby's custom rules as written (see .lobby)
    final_chips: list[int] | None = None  # a chip (祝儀) lobby: the chips each seat ended with (mjlog owari)
    ratio: str | None = None  # mjlog owari's ratio= (the chip or gold rate of special lobbies), as written
    started_at: datetime | None = None  # when the game started, where the log says it (Mahjong Soul's head)
    rank_points: list | None = None  # per seat, the platform's rank-point change (Mahjong Soul grading_score)
    rule_options: dict = field(default_factory=dict)  # options its room gives (see .majsoul_rooms), for the spec
    rules: str | None = None  # a rules spec the log itself names (analyzer's mjai export), used as it is
