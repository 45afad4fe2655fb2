"""Tenhou JSON (tenhou.net/6 viewer format) to the shared game model (see :mod:`analyzer.formats.model`).

Mahjong Soul games converted by tensoul are in the same format; what is theirs (record id, room, ranks,
accounts, yaku names, double yakuman) is read by :mod:`.majsoul`.

Accepts a whole game as one JSON object, or JSON lines each holding some kyoku of the same game (the mjx
layout: one kyoku per line). Draws, discards and calls are kept per seat in the format;
:mod:`.tenhou_json_play` puts them back in play order.

Three-player (sanma) games, as tenhou.net/6 JSON writes them. Sources: Equim-chan/tensoul ``convert.js``
(Mahjong Soul to tenhou.net/6, written to Tenhou's layout: "tenhou doesn't mark its kita based on when they were
drawn") and its Python port ssttkkl/tensoul-py (``parser.py``, ``model.py``, ``downloader.py``):

* ``name`` has four entries with the fourth ``""`` (tensoul), or three (tensoul-py); ``sc`` has eight values
  with seat 3's ``0, 0`` (tensoul), or six (tensoul-py);
* each kyoku's scores have four entries with seat 3's ``0``; seat 3's haipai, draws and discards are empty
  lists (17 entries in all; tensoul), or left out (14 entries; tensoul-py); round numbers count four hands a
  wind as with four players (E3 is 2, S1 is 4), the dealer is ``kyoku % 4``;
* a north set aside (kita, nukidora) is the string ``"f44"`` in that seat's discards, never a tsumogiri mark;
  its replacement tile is the seat's next draw (we count it among the 55 draws, as a rinshan draw, like the
  mjlog reader);
* calls name the seat they took from by the four-seat position of their letter, seat 3 being the empty one
  (tensoul's ``relativeseating`` is ``(seat0 - seat1 + 4 - 1) % 4``): the four-player reading holds;
* result deltas have four entries with seat 3's ``0``; a tsumo value string names each payer's share as with
  four players (``"700-1300点"``, a dealer's ``"2000点∀"``): the tsumo's total is non-dealer share + dealer share
  (dealer: twice the share), the share of the missing seat is not paid (tsumo-zon; tensoul computes the deltas
  with ``nplayers - 2`` non-dealer payers);
* ``rule.disp`` starts with ``三`` (tensoul ``RUNES.sanma``; Tenhou's lobby names such as ``三鳳南喰赤``);
* Mahjong Soul's separate yaku for the norths, ``抜きドラ`` (English ``Kita``; tensoul ``data.json`` fan 34),
  is counted in ``recorded_dora``, where Tenhou's mjlog counts them (its dora yaku includes them).

What the JSON does not carry and the mjlog does: the fu of a limit hand (the value string says ``満貫``), and the
number of norths the winner set aside as recorded with the win (the ``kita`` column comes from the replay).
A file written by ``analyzer export tenhou6`` (:mod:`analyzer.formats.tenhou.tenhou6_write`) keeps what Tenhou's
keys have no place for in an ``analyzer`` object (the game's id, rules spec, a special lobby's type, ranks, the fu
of limit hands: :mod:`.mjai_extension`), read back here; each result's text is kept (``Outcome.recorded_text``) so
that an export writes it back as it was.
"""

from __future__ import annotations

import json
import re

from analyzer.formats.files import decode_json
from analyzer.formats.majsoul.tensoul import (
    DOUBLE_YAKUMAN, apply_tensoul_room, is_majsoul, length_from_play, read_majsoul_fields, read_north_bisection,
)
from analyzer.formats.mjai.extension import EXTENSION, read_extension, read_limit_fu
from analyzer.formats.model import Game, Kyoku, LogError, Note, Outcome
from analyzer.formats.tenhou.csrule import csrule_fields
from analyzer.formats.tenhou.tenhou6_play import json_tile, play_order
from analyzer.formats.tenhou.yaku_names import yaku_name

# Tenhou's words, then tensoul's (convert.js RUNES: Japanese, romaji, English) for the same results and limits
_ABORTS = {"九種九牌", "四家立直", "三家和了", "四槓散了", "四風連打", "四開槓", "三家和", "Kyuushu Kyuuhai",
           "Nine Terminal Abortion", "Suufon Renda", "Four Wind Abortion", "Suucha Riichi", "Four Riichi Abortion",
           "Suukaikan", "Four Kan Abortion", "Sanchahou", "Three Ron Abortion"}  # fmt: skip
_ABORT_KINDS = {"九種九牌": "yao9", "Kyuushu Kyuuhai": "yao9", "Nine Terminal Abortion": "yao9",
                "四家立直": "reach4", "Suucha Riichi": "reach4", "Four Riichi Abortion": "reach4",
                "三家和了": "ron3", "三家和": "ron3", "Sanchahou": "ron3", "Three Ron Abortion": "ron3",
                "四槓散了": "kan4", "四開槓": "kan4", "Suukaikan": "kan4", "Four Kan Abortion": "kan4",
                "四風連打": "kaze4", "Suufon Renda": "kaze4", "Four Wind Abortion": "kaze4"}  # fmt: skip
_DRAWS = {"流局", "全員聴牌", "全員不聴", "Ryuukyoku", "Exhaustive Draw"}
_NAGASHI = {"流し満貫", "Nagashi Mangan", "Mangan at Draw"}
_LIMIT_WORDS = [("数え役満", "yakuman"), ("三倍満", "sanbaiman"), ("倍満", "baiman"), ("跳満", "haneman"),
                ("満貫", "mangan"), ("切り上げ満貫", "mangan"), ("役満", "yakuman"), ("Kazoe Yakuman", "yakuman"),
                ("Counted Yakuman", "yakuman"), ("Sanbaiman", "sanbaiman"), ("Baiman", "baiman"),
                ("Haneman", "haneman"), ("Kiriage Mangan", "mangan"), ("Rounded Mangan", "mangan"),
                ("Mangan", "mangan"), ("Yakuman", "yakuman")]  # fmt: skip
_VALUE = re.compile(r"^(?:(?P<fu>\d+)(?:符|Fu))?(?:(?P<han>\d+)(?:飜|Han))?(?P<a>\d+)(?:-(?P<b>\d+))?点(?P<all>∀)?$")
_YAKU = re.compile(r"^(?P<name>.*?)\((?:(?P<han>-?\d+)飜|(?P<ykm>役満))\)$")
_NUKIDORA = {"抜きドラ", "Kita"}  # Mahjong Soul's yaku for the norths set aside (tensoul data.json fan 34)


def parse_json(text: str, file: str) -> Game:
    return game_of_objects(json_objects(text), file)


def json_objects(text: str) -> list[dict]:
    """The log's JSON objects: one for a whole game, or one per line (some kyoku each)."""
    text = text.lstrip("\ufeff")
    try:
        objs = [decode_json(text)]
    except json.JSONDecodeError:
        objs = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    objs.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise LogError(f"line {n}: not valid JSON ({exc.msg})") from None
    if not objs or not all(isinstance(o, dict) and isinstance(o.get("log"), list) for o in objs):
        raise LogError("not a Tenhou JSON log (expected objects with a 'log' list)")
    return objs


def game_of_objects(objs: list[dict], file: str, play: bool = True) -> Game:
    """The game of a log's objects (:func:`json_objects`); without ``play`` its hands have no events and no
    deals (their tiles are read as columns: :mod:`.tenhou6_columns_read`, which also checks them) and a riichi on
    a hand's last discard is left for those columns to settle."""
    first = objs[0]
    names = first.get("name") or ["", "", "", ""]
    if not isinstance(names, list):
        raise LogError("'name' is not a list")
    rule = first.get("rule") or {}
    custom = csrule_fields(rule) if isinstance(rule, list) else None
    if isinstance(rule, list):  # a private lobby's custom rules, the fields of mjlog's GO csrule (see .csrule)
        rule = {}
    if not isinstance(rule, dict):
        raise LogError(f"'rule' is {type(rule).__name__}, not an object or a lobby's list of custom rules")
    disp = str(rule.get("disp", ""))
    if len(names) not in (3, 4):
        raise LogError(f"expected 4 player names (3 in a three-player game), got {len(names)}")
    for o in objs[1:]:
        if (o.get("name") or names) != names:
            raise LogError("lines of one file name different players (one file must be one game)")
    players = _players(objs)
    if players == 4 and (len(names) == 3 or disp.startswith("三")):
        raise LogError("the log names a three-player game (3 names or a 三 room) but deals four hands")
    if players == 3 and len(names) == 4 and str(names[3]):
        raise LogError(f"a three-player game names a fourth player {names[3]!r}")
    game = Game(file=file, ref=first.get("ref") or None, names=[str(n) for n in names] + [""] * (4 - len(names)),
                players=players, custom_rules=custom)
    if "aka" in rule or any(k.startswith("aka5") for k in rule):
        game.aka = any(rule.get(k) for k in ("aka", "aka51", "aka52", "aka53"))
    elif disp:
        game.aka = "赤" in disp
    if "東" in disp or "南" in disp:  # Japanese room names list 喰 when open tanyao is allowed
        game.kuitan = "喰" in disp
    if "南" in disp or "South" in disp:
        game.game_length = "hanchan"
    elif "東" in disp or "East" in disp:
        game.game_length = "tonpuu"
    game.dan, game.rate = first.get("dan"), first.get("rate")
    lobby = first.get("lobby")
    game.lobby = lobby if isinstance(lobby, int) else None
    if is_majsoul(first.get("ref"), disp):  # a Mahjong Soul game converted by tensoul (see .majsoul)
        read_majsoul_fields(first, game)
    for o in objs:
        for n, raw in enumerate(o["log"]):
            try:
                game.kyokus.append(_kyoku(raw, game.aka, players, double_forms=game.platform == "majsoul", play=play))
            except LogError as exc:
                raise LogError(f"kyoku {len(game.kyokus) + 1}: {exc}") from None
            except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
                raise LogError(f"kyoku {len(game.kyokus) + 1}: malformed ({type(exc).__name__}: {exc})") from None
    read_limit_fu(first.get(EXTENSION), game)
    sc = objs[-1].get("sc")
    if isinstance(sc, list) and (len(sc) == 8 or (players == 3 and len(sc) == 6)):
        sc = list(sc) + [0, 0] * (4 - len(sc) // 2)
        game.final_scores = [int(sc[2 * i]) for i in range(4)]
        game.final_points = [float(sc[2 * i + 1]) for i in range(4)]
    if first.get(EXTENSION) is not None:  # what analyzer's export keeps beyond Tenhou's keys
        read_extension(first[EXTENSION], game)
    if custom is not None:  # the rule list of a lobby's custom rules names no room (rule.disp): said once
        game.game_length = game.game_length or length_from_play(game)
        game.notes.append(Note(f"a lobby's custom rules as the rule list name no room: the game length is read from "
                               f"the play (east-only when it ends in the East round without a bust: "
                               f"{game.game_length or 'not known'} here), red fives count where dealt, open tanyao "
                               "is taken as allowed"))
    if game.platform == "majsoul":
        apply_tensoul_room(first, game)
        game.game_length = game.game_length or length_from_play(game)
        read_north_bisection(game)
    return game


def _players(objs: list[dict]) -> int:
    """3 when the first kyoku deals no fourth hand (empty seat-3 lists, or only three seats written), else 4."""
    for o in objs:
        for raw in o["log"]:
            if isinstance(raw, list) and (len(raw) == 14 or (len(raw) == 17 and raw[13] == [] and raw[14] == []
                                                               and raw[15] == [])):
                return 3
            return 4
    return 4


def _kyoku(raw: list, aka: bool, players: int = 4, double_forms: bool = False, play: bool = True) -> Kyoku:
    """One kyoku; ``double_forms``: a yakuman the log writes once counts twice when it is a double form (Mahjong
    Soul writes each yakuman ``(役満)`` and pays kokushi 13-wait, suuankou tanki, junsei chuuren, daisuushii twice)."""
    if players == 3 and len(raw) == 14:  # seat 3 left out (tensoul-py)
        raw = [*raw[:13], [], [], [], raw[13]]
    if len(raw) != 17:
        raise LogError(f"expected 17 entries, got {len(raw)}")
    (kyoku, honba, sticks), scores, dora, ura = raw[0], raw[1], raw[2], raw[3]
    if players == 4:
        if len(scores) != 4 or any(not raw[4 + 3 * s] for s in range(4)):
            raise LogError("a seat is dealt no hand in a four-player game (a three-player game deals none to "
                           "seat 3 in every hand)")
    else:
        if any(raw[4 + 3 * 3 + i] for i in range(3)) or len(scores) not in (3, 4) or (len(scores) == 4 and scores[3]):
            raise LogError("seat 3 plays in a hand of a three-player game")
        scores = [*scores[:3], 0]
    k = Kyoku(
        kyoku=int(kyoku),
        honba=int(honba),
        kyotaku=int(sticks),
        scores=[int(x) for x in scores],
        haipai=[[json_tile(t) for t in raw[4 + 3 * s]] for s in range(4)] if play else [[], [], [], []],
        dora=[json_tile(t) for t in dora],
        players=players,
    )
    if play and any(len(h) != 13 for h in k.haipai[:players]):
        raise LogError("a starting hand does not have 13 tiles")
    if play:
        k.events = play_order(k, [raw[5 + 3 * s] for s in range(4)], [raw[6 + 3 * s] for s in range(4)])
    k.outcomes = _result(raw[16], [json_tile(t) for t in ura], k, double_forms)
    return k


def _parse_value(text: str, o: Outcome, tsumo: bool, dealer: bool, players: int = 4) -> None:
    """Limit, fu, han and points of a value string; a tsumo's points are the shares the other seats pay (with
    three players the missing seat's share is not paid: tsumo-zon)."""
    for word, limit in _LIMIT_WORDS:
        if text.startswith(word):
            o.limit = limit
            text = text[len(word) :].lstrip()
            break
    m = _VALUE.match(text)
    if not m:
        raise LogError(f"cannot read the hand value {text!r}")
    a = int(m["a"])
    if m["b"]:
        o.points = (players - 2) * a + int(m["b"])
    elif m["all"] or (tsumo and dealer):
        o.points = (players - 1) * a
    else:
        o.points = a
    o.fu = int(m["fu"]) if m["fu"] else None
    if m["han"]:
        o.han = int(m["han"])


def _result(res: list, ura: list[int], k: Kyoku, double_forms: bool = False) -> list[Outcome]:
    if not res or not isinstance(res[0], str):
        raise LogError("missing result")
    kind = res[0]
    # a riichi whose stick is in question is on the hand's last discard: the last event
    riichi_last = k.events[-1][1] if k.events and k.events[-1][0] == "riichi_last" else None
    if kind == "和了":
        outs = []
        for deltas, info in zip(res[1::2], res[2::2]):
            who, frm, pao = int(info[0]), int(info[1]), int(info[2])
            o = Outcome(
                result="tsumo" if who == frm else "ron",
                deltas=_deltas(deltas, k.players),
                winner=who,
                loser=None if who == frm else frm,
                pao=None if pao == who else pao,
                dora_indicators=list(k.dora),
                ura_indicators=list(ura) if ura else None,
            )
            if len(info) < 4:
                o.has_value = False
            else:
                o.recorded_text = [str(x) for x in info[3:]]
                _parse_value(str(info[3]), o, o.result == "tsumo", who == k.dealer, k.players)
                han = 0
                for y in info[4:]:
                    m = _YAKU.match(str(y))
                    if not m:
                        raise LogError(f"cannot read the yaku {y!r}")
                    name = "dora" if m["name"].strip() in _NUKIDORA else yaku_name(m["name"])
                    if name is None:
                        name = f"unknown:{m['name']}"
                    if m["ykm"]:
                        o.add_yakuman(name, 2 if double_forms and name in DOUBLE_YAKUMAN else 1)
                        continue
                    h = int(m["han"])
                    han += h
                    o.add_recorded_yaku(name, h)
                if o.yakuman:
                    o.han = None
                elif o.han is None:
                    o.han = han
            outs.append(o)
        if not outs:
            raise LogError("win without winners")
        _resolve_last_riichi(k, accept=riichi_last is not None and riichi_last != outs[0].loser)
        return outs
    deltas = _deltas(res[1], k.players) if len(res) > 1 and isinstance(res[1], list) else [0, 0, 0, 0]
    _resolve_last_riichi(k, accept=True)
    if kind in _DRAWS:
        o = Outcome(result="draw", deltas=deltas, recorded_text=[kind])
        if kind in ("全員聴牌", "全員不聴"):  # else the noten money (or the hands) say who was tenpai
            o.all_tenpai = kind == "全員聴牌"
        return [o]
    if kind in _NAGASHI:
        return [Outcome(result="nagashi", deltas=deltas, recorded_text=[kind])]
    if kind in _ABORTS:
        return [Outcome(result="abort", deltas=deltas, abort=_ABORT_KINDS.get(kind), recorded_text=[kind])]
    raise LogError(f"unknown result {kind!r}")


def _deltas(values: list, players: int) -> list[int]:
    """A result's score changes; a three-player log may leave out seat 3's 0."""
    deltas = [int(x) for x in values]
    if players == 3 and deltas:
        if len(deltas) == 3:
            deltas.append(0)
        if len(deltas) != 4 or deltas[3]:
            raise LogError("seat 3 gains or loses points in a three-player game")
    return deltas


def _resolve_last_riichi(k: Kyoku, accept: bool) -> None:
    """A riichi on the hand's last discard is accepted unless that discard was ronned."""
    if k.events and k.events[-1][0] == "riichi_last":  # only ever the last event (see tenhou_json_play)
        if accept:
            k.events[-1] = ("reach", k.events[-1][1])
        else:
            k.events.pop()
