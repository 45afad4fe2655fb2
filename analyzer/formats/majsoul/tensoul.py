"""Mahjong Soul games written as tenhou.net/6 JSON: how such a log is told from a Tenhou one, and what of it
is Mahjong Soul's own (:func:`read_majsoul_fields`, called by :mod:`.tenhou_json`).

Writers: Equim-chan/tensoul (``convert.js``, its tables in ``data.json``), its Python ports ssttkkl/tensoul-py and
unStatiK/tensoul-py-ng (the one MahjongPantheon reads; it adds ``playerMapping``). What they write:

* ``ref``: Mahjong Soul's record id, ``YYMMDD-`` and a UUID (``231014-84c11a6f-b3f7-4363-966e-25f37886cfbf``;
  a replay link adds ``_a<digits>``, the viewer's account, which is not part of the id). The game's id.
* ``rule.disp``: the room (read by :mod:`.majsoul_rooms` in any spelling: a ranked room always plays open
  tanyao and red fives, whatever letters the name has), ``[3|三]`` for three players (tensoul writes ``3``, its Python ports ``三``), the
  ranked room (``銅の間`` Bronze, ``銀の間`` Silver, ``金の間`` Gold, ``玉の間`` Jade, ``王座の間`` Throne,
  ``交流の間`` casual, ``乱闘の間``), or ``友人戦`` (friendly) / ``大会戦`` (tournament); then ``東喰`` or ``南喰``
  (east-only or hanchan; three-player games before tensoul's fix of 2024-11 have neither) and ``赤``. tensoul's
  English mode writes ``Gold Room South``, ``Friendly``, ``Tournament`` (and the misspelt ``Tounament``).
* ``lobby``: tensoul writes 0 (it puts a friendly room's or a tournament's number in ``title[0]`` after ``: ``),
  tensoul-py-ng that number.
* ``dan``: Mahjong Soul's rank names (``初心★3``, ``雀士★2``, ``雀傑★1``, ``雀豪★3``, ``雀聖★2``, ``魂天``, ``魂天Lv5``):
  not Tenhou's dan scale, kept as text (``platform_rank_*``); ``rate`` holds the points within the rank, not a
  rating: left out.
* ``sc``: final score and Mahjong Soul's game points, (final - 25000)/1000 + uma 15/5/-5/-15, no oka (the
  ``majsoul`` preset; three players ``majsoul_sanma``).
* yaku names from ``data.json`` (``name_jp``): Tenhou's but for ``役牌:自風牌`` (seat wind), ``役牌:場風牌`` (round
  wind), ``ダブル立直`` (double riichi) and ``国士無双十三面待ち`` (13-sided kokushi), mapped in
  :mod:`.yaku_names`; every yakuman is written ``(役満)``, the double ones (``大四喜``, ``四暗刻単騎``,
  ``純正九蓮宝燈``, ``国士無双十三面待ち``) included: counted twice.
* three players: a friendly room may pay tsumo by north-bisection (tensoul's ``TSUMOLOSSOFF``): the value
  string names the tsumo-loss shares, the deltas what was paid (:func:`read_north_bisection`).
* ``playerMapping`` (tensoul-py-ng): per seat ``{"nickname", "account_id"}``; bots get negative ids. A seat
  with a real account is named ``nickname#account_id``: the same nickname on two accounts is two players, one
  account under the same nickname is one player across games. A mapping from nickname to id is read too.
"""

from __future__ import annotations

import re

from analyzer.formats.majsoul.rooms import apply_room_rules, is_room_name, room_from_name
from analyzer.formats.model import Game

# YYMMDD, then a UUID (8-4-4-4-12 hex digits); a replay link's "_a<account>" is the viewer, not the game
RECORD_ID = re.compile(r"(\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:_a\d+)?")
ROOM_WORDS = (
    "銅の間", "銀の間", "金の間", "玉の間", "王座の間", "交流の間", "乱闘の間", "友人戦", "大会戦",
    "Bronze Room", "Silver Room", "Gold Room", "Jade Room", "Throne Room", "Casual Match", "Melee Room",
    "Friendly", "Tournament", "Tounament",
)  # fmt: skip
DOUBLE_YAKUMAN = {"daisuushii", "suuankou_tanki", "junsei_chuuren", "kokushi_13"}
_TITLE_NUMBER = re.compile(r":\s*(\d{1,18})\s*$")


def record_id(ref) -> str | None:
    """The Mahjong Soul record id ``ref`` is (a replay link's ``_a…`` left out), else None."""
    m = RECORD_ID.fullmatch(ref.strip()) if isinstance(ref, str) else None
    return m[1] if m else None


def is_majsoul(ref, disp: str) -> bool:
    """A Mahjong Soul game: its ``ref`` is a record id, or its ``rule.disp`` names a Mahjong Soul room."""
    return record_id(ref) is not None or any(word in disp for word in ROOM_WORDS) or is_room_name(disp)


def apply_tensoul_room(log: dict, game: Game) -> None:
    """The rules of a tensoul log's game from its room's name (:mod:`.majsoul_rooms`), once its hands and
    result are read: a ranked room's whatever letters the name has, a friendly room's red fives as the log's
    ``rule`` says them."""
    rule = log.get("rule") or {}
    aka = game.aka if "aka" in rule or any(k.startswith("aka5") for k in rule) else None
    apply_room_rules(game, room_from_name(str(rule.get("disp", ""))), None, aka)


def read_majsoul_fields(log: dict, game: Game) -> None:
    """What of a tensoul log is Mahjong Soul's: the room, the lobby, the ranks, the players' accounts."""
    disp = str((log.get("rule") or {}).get("disp", ""))
    game.platform = "majsoul"
    game.room = disp or None
    lobby = log.get("lobby")
    title = log.get("title")
    if not (isinstance(lobby, int) and not isinstance(lobby, bool) and lobby > 0):
        lobby = None
        if isinstance(title, list) and title and isinstance(title[0], str):
            m = _TITLE_NUMBER.search(title[0])
            lobby = int(m[1]) if m else None
    game.lobby = lobby
    dan = log.get("dan")
    if isinstance(dan, list):
        game.ranks = [(str(d).strip()[:40] or None) if d is not None else None for d in dan[:4]]
    game.dan = game.rate = None  # Mahjong Soul's ranks and rank points are not Tenhou's dan and R
    accounts = _accounts(log.get("playerMapping"), game.names)
    game.names = [f"{n}#{a}" if a is not None and n.strip() else n for n, a in zip(game.names, accounts)]


def _accounts(mapping, names: list[str]) -> list[int | None]:
    """Per seat the account id ``playerMapping`` gives: a list in seat order of ``{"nickname", "account_id"}``
    (or ``[nickname, id]``; entries whose nicknames are the seats' in another order go to the seat of that
    name), or a mapping from nickname to id. None for a bot (id 0 or below) or a seat it does not name."""
    ids: list = [None] * len(names)
    if isinstance(mapping, dict):
        ids = [mapping.get(n) for n in names]
    elif isinstance(mapping, list):
        pairs = [(e.get("nickname"), e.get("account_id", e.get("accountId"))) if isinstance(e, dict)
                 else tuple(e) if isinstance(e, list) and len(e) == 2 else (None, None) for e in mapping[: len(names)]]
        nicknames = [n for n, _ in pairs]
        if all(isinstance(n, str) for n in nicknames) and nicknames != names[: len(pairs)] \
                and sorted(nicknames) == sorted(names[: len(pairs)]):
            free = list(range(len(pairs)))
            for nickname, account in pairs:  # the same nickname twice: in the mapping's order
                seat = next(s for s in free if names[s] == nickname)
                free.remove(seat)
                ids[seat] = account
        else:
            ids[: len(pairs)] = [a for _, a in pairs]
    return [a if isinstance(a, int) and not isinstance(a, bool) and 0 < a < 10**18 else None for a in ids]


def read_north_bisection(game: Game) -> None:
    """Three players: a non-dealer's tsumo that paid more than the two shares its value names is north-bisection
    (a friendly room's or a tournament's option; tensoul writes the shares of tsumo loss, ``500-1000点``, and the
    deltas the room paid): the game is ``tsumo_loss=split`` and each such tsumo's points are what was paid."""
    tsumos = []
    for k in game.kyokus:
        sticks = 1000 * (k.kyotaku + sum(e[0] == "reach" for e in k.events))
        tsumos += [(o, o.deltas[o.winner] - 200 * k.honba - sticks) for o in k.outcomes
                   if o.result == "tsumo" and o.winner != k.dealer and o.points is not None and o.pao is None]
    if game.players == 3 and any(paid > o.points for o, paid in tsumos):
        game.tsumo_loss = "split"
        for o, paid in tsumos:
            o.points = paid


def length_from_play(game: Game) -> str | None:
    """The length of a game whose room does not say it (tensoul's three-player rooms before 2024-11): a game
    that ends in the East round with nobody below zero is east-only (a hanchan cannot end there), else a
    hanchan."""
    if not game.kyokus:
        return None
    in_east = game.kyokus[-1].kyoku < 4
    bust = game.final_scores is not None and min(game.final_scores[: game.players]) < 0
    return "tonpuu" if in_east and not bust else "hanchan"
