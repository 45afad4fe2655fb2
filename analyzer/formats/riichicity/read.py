"""Riichi City (麻雀一番街) game records into the game model: :func:`parse_riichicity`, :func:`looks_like_riichicity`
and :func:`record_id`. All of the record's decoding is here, so that it can be turned into a columnar reader.

The record is the JSON the platform's API returns for a game: ``{"code", "data", "message"}`` with the game in
``data``, or the game itself. Field meanings follow the issue that asked for this reader and the public readers
of these records: cht33/RiichiCity-to-Tenhou-Log-Parser (``convert.py``: tile codes, event and action types,
``move_cards_pos``), 0num4/paifu-playground (``PaifuTypesPydantic.py``, ``riichicity/Types/commonConsts.py``:
every field's type, ``EMjGameEndType``, ``EMjActionType``, ``EMjReplayEventType``) and slqy123/riichicitymax
(``consts.py``: the tile codes). The game:

* ``keyValue`` the record id (the game id), ``playerCount`` 3 or 4, ``round`` (1 East, 2 South), ``initPoints``
  and the room's flags (:mod:`.rooms`); ``nowTime`` is when the record was fetched (every record fetched together
  has the same), so ``played_at`` is the first event's ``startTime`` (milliseconds), ``nowTime`` without one;
* ``handRecord``, one entry a hand: ``changCi`` (the hand number), ``quanFeng`` (the round wind's tile),
  ``benChangNum`` (honba), ``players`` (``userId``, ``nickname``, ``points``, ``position``: the seat, seat 0 the
  first hand's dealer), ``handCardEncode`` (the wall as tile text, ``0`` a red five) and ``handCardsSHA256`` (its
  SHA-256: a wall that does not match it is said in a note), ``handEventRecord`` (``eventType``, ``userId``,
  ``startTime``, ``data``: a JSON string; the events read are decoded in one JSON text a hand).

Events: 1 a deal (one per player: ``hand_cards``, the dealer's 14 tiles, its last its first draw; ``dealer_pos``,
``bao_pai_card`` the dora indicator, ``ben_chang_num``, ``li_zhi_bang_num`` the sticks on the table,
``user_info_list[].hand_points``); 2 a turn (``in_card`` the tile drawn, 0 after a call: no draw); 4 an action
(``action`` 2/3/4 chi, 5 pon, 6 open kan, 8 closed kan, 9 added kan, 13 a north set aside, all with ``card`` and
``group_cards`` the caller's own tiles; 11 a discard, ``is_li_zhi`` a riichi declared, ``move_cards_pos[0]`` the
place of the tile discarded in the hand, the last place the tile just drawn; 7 ron, 10 tsumo); 5 the hand's
end (``end_type`` 0 ron, 1 tsumo, 7 exhaustive draw, 2 four winds, 3 four kans, 4 four riichi, 5 triple ron,
6 nine terminals, 1002 / 1004 three players' winds / riichi; ``win_info[]`` with ``fang_info`` (yaku ids,
:mod:`.yaku`), ``all_fang_num``, ``all_fu``, ``all_point``, ``user_cards``, ``li_bao_card`` the ura indicators,
an exhaustive draw's tenpai players; ``user_profit[]``); 6 the game's end (``user_data[]``: ``point_num`` the
final score, ``score`` the game points in tenths); 7 the kan dora indicators so far (``cards``). Events 3 (a
call offered), 8, 9, 10 and 11 (riichi, furiten, pause and waits shown) say nothing the model keeps.

Payments: ``point_profit`` is what a seat was paid in the hand with the riichi sticks it collected (a winner's
own among them), ``li_zhi_profit`` the sticks it collected less the stick it put out. A riichi stick is placed
unless the declaring tile is won on. ``recorded_delta_*`` is therefore ``point_profit`` less the seat's stick;
for a seat that collects no sticks ``point_profit + li_zhi_profit`` (the stick as the record puts it out), so
that ``check`` finds a record whose sticks are not the play's; the sticks the collecting seat took are checked
here (a note when they are not the play's).
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timezone
from typing import Callable

import orjson

from analyzer.formats.files import decode_json, long_numbers
from analyzer.formats.model import Game, Kyoku, LogError, Note
from analyzer.formats.riichicity.rooms import (
    apply_record_rules, final_chips, kan_pay_note, open_riichi_note, yakitori_note,
)
from analyzer.formats.riichicity.codes import (
    ACTION, ANKAN, CHI, DEAL, DISCARD, DRAW, GAME_END, HAND_END, KAKAN, KAN_DORA, MINKAN, NUKI, OPEN_RIICHI_TYPES, PON,
    READ, RON, TILES, TSUMO, WINDS, whole_number,
)
from analyzer.formats.riichicity.results import hand_outcomes
from analyzer.formats.riichicity.yaku import OPEN_RIICHI
from analyzer.formats.tile_text import NORTH, RED

RECORD_ID = re.compile(r"[0-9a-v]{20}")  # keyValue: an xid (20 characters of base-32 hex)
NOT_A_RECORD = "not a Riichi City record (expected the game's JSON: keyValue, playerCount, handRecord, …)"


def record_id(ref) -> str | None:
    """The Riichi City record id ``ref`` is (``cd1aa9uai08a0i7csbjg``), else None."""
    return ref if isinstance(ref, str) and RECORD_ID.fullmatch(ref) else None


def _game_object(obj) -> dict | None:
    if isinstance(obj, dict) and isinstance(obj.get("data"), dict) and "handRecord" not in obj:
        obj = obj["data"]  # the API's {"code", "data", "message"}
    return obj if isinstance(obj, dict) and isinstance(obj.get("handRecord"), list) else None


def looks_like_riichicity(text_or_obj) -> bool:
    """Whether a log (its text, or its JSON parsed) is a Riichi City record: the text names its hands' and
    events' keys (a scan, not a parse)."""
    if isinstance(text_or_obj, str):
        return '"handEventRecord"' in text_or_obj and '"handRecord"' in text_or_obj
    if isinstance(text_or_obj, bytes):
        return b'"handEventRecord"' in text_or_obj and b'"handRecord"' in text_or_obj
    return _game_object(text_or_obj) is not None


def parse_riichicity(text: str, file: str) -> Game:
    """A Riichi City record into the game model (raises ``LogError``)."""
    long = long_numbers(text)  # then also in the events' data, JSON texts inside this one
    try:
        obj = decode_json(text, long)
    except json.JSONDecodeError as exc:
        raise LogError(f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    top = _game_object(obj)
    if top is None:
        raise LogError(NOT_A_RECORD)
    try:
        return _read_game(top, file, json.loads if long else orjson.loads)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        raise LogError(f"malformed record ({type(exc).__name__}: {str(exc)[:200]})") from None


def _whole(value) -> int | None:
    return value if value.__class__ is int else None


def _events(raw: list, loads: Callable) -> tuple[list[dict], list[dict]]:
    """The events read (:data:`READ`) and their data, decoded at once: their texts joined into one JSON list
    read by ``loads`` (``orjson``'s, or ``json``'s where the record holds
    :func:`~analyzer.formats.files.long_numbers`). A data that is not an object fails where it is read (a
    malformed hand)."""
    wanted = [e for e in raw if e["eventType"] in READ]
    texts = [e["data"] for e in wanted]
    try:
        datas = loads("[" + ",".join(texts) + "]")
    except TypeError:  # data written as objects (a tool that decoded them): each as it is
        datas = [loads(d) if isinstance(d, str) else d for d in texts]
    except json.JSONDecodeError:
        bad = next((i for i, d in enumerate(texts) if not _is_json(d, loads)), None)
        where = f"event {wanted[bad].get('eventPos', bad)}" if bad is not None else "an event"
        raise LogError(f"{where}: its data is not JSON") from None
    if len(datas) != len(wanted):
        raise LogError("an event's data is not one JSON object")
    return wanted, datas


def _is_json(text: str, loads: Callable) -> bool:
    try:
        loads(text)
    except (ValueError, TypeError):
        return False
    return True


def _read_game(top: dict, file: str, loads: Callable) -> Game:
    hands = top["handRecord"]
    n = top.get("playerCount")
    if n not in (3, 4):
        raise LogError(f"playerCount {n!r}: expected 3 or 4")
    if not hands:
        raise LogError("the record has no hand (handRecord is empty)")
    decoded = []
    for number, h in enumerate(hands, 1):
        try:
            decoded.append(_events(h["handEventRecord"], loads))
        except LogError as exc:
            raise LogError(f"hand {number}: {exc}") from None
    first_deal = decoded[0][1][0] if decoded[0][1] else {}
    rotate = _whole(first_deal.get("dealer_pos"))
    if rotate is None:
        raise LogError("the first hand starts with no deal (eventType 1 with dealer_pos)")
    if not 0 <= rotate < n:
        raise LogError(f"the first deal's dealer_pos {rotate} is no position of the {n} players")
    names, seat_of = [""] * 4, {}
    for p in hands[0]["players"]:
        position = whole_number(p, "position")
        if not 0 <= position < n:
            raise LogError(f"a player sits at position {position}, which does not play")
        seat_of[p["userId"]] = seat = (position - rotate) % n
        names[seat] = f"{str(p.get('nickname') or '').strip()[:64]}#{p['userId']}"
    if len(seat_of) != n:
        raise LogError(f"the first hand names {len(seat_of)} players, playerCount is {n}")
    game = Game(file=file, ref=record_id(top.get("keyValue")), names=names, players=n)
    gang_pay = bool(top.get("isGangPay"))
    user_data = None
    for number, (h, (wanted, datas)) in enumerate(zip(hands, decoded), 1):
        try:
            k, said, game_end = _hand(h, wanted, datas, seat_of, n, rotate, number, gang_pay)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
            raise LogError(f"hand {number}: malformed ({type(exc).__name__}: {str(exc)[:160]})") from None
        except LogError as exc:
            raise LogError(f"hand {number}: {exc}") from None
        game.kyokus.append(k)
        game.notes.extend(said)
        user_data = game_end if game_end is not None else user_data
    apply_record_rules(game, top, [h.get("handCardEncode") or "" for h in hands])
    game.started_at = _started(top, hands)
    if user_data is not None:
        _read_result(game, top, user_data, seat_of)
    return game


def _started(top: dict, hands: list[dict]) -> datetime | None:
    first = hands[0]["handEventRecord"][0].get("startTime") if hands[0]["handEventRecord"] else None
    seconds = first / 1000 if _whole(first) and first > 10**11 else _whole(top.get("nowTime"))
    return datetime.fromtimestamp(seconds, timezone.utc) if seconds and 0 < seconds < 2**33 else None


def _read_result(game: Game, top: dict, user_data: list[dict], seat_of: dict) -> None:
    """Final scores (``point_num``) and game points (``score`` in tenths) by seat, chips where the room pays them."""
    finals, points = [0, 0, 0, 0], [0.0, 0.0, 0.0, 0.0]
    seats = set()
    for entry in user_data:
        seat = seat_of.get(entry.get("user_id"))
        if seat is None:
            raise LogError(f"the game's end names user {entry.get('user_id')!r}, who does not play")
        finals[seat], points[seat] = whole_number(entry, "point_num"), whole_number(entry, "score") / 10
        seats.add(seat)
    if len(seats) != game.players:
        raise LogError(f"the game's end gives {len(seats)} results for {game.players} players")
    game.final_scores, game.final_points = finals, points
    game.final_chips = final_chips(top, user_data, seat_of, game.players)
    note = yakitori_note(top, user_data)
    if note is not None:
        game.notes.append(note)


def _hand(h: dict, wanted: list[dict], datas: list[dict], seat_of: dict, n: int, rotate: int, number: int,
          gang_pay: bool) -> tuple[Kyoku, list[Note], list | None]:
    """One hand: its deal, its play in order, its end (see the module docstring)."""
    deals = 0
    while deals < len(wanted) and wanted[deals]["eventType"] == DEAL:
        deals += 1
    if deals != n:
        raise LogError(f"{deals} deals (eventType 1) for {n} players")
    common = datas[0]
    dealt: list[list[int]] = [[], [], [], []]
    scores = [0, 0, 0, 0]
    for e, d in zip(wanted[:deals], datas[:deals]):  # one deal a player, its own hand
        dealt[seat_of[e["userId"]]] = [TILES[c] for c in d["hand_cards"]]
    infos = common.get("user_info_list")
    for info in infos or []:
        scores[seat_of[info["user_id"]]] = whole_number(info, "hand_points")
    if not infos:  # a deal without them: the hand's players' points
        for p in h.get("players") or []:
            scores[seat_of[p["userId"]]] = whole_number(p, "points")
    dealer = (whole_number(common, "dealer_pos") - rotate) % n
    wind = WINDS.get(h.get("quanFeng", common.get("quan_feng")))
    if wind is None or h.get("changCi", dealer + 1) != dealer + 1:
        raise LogError(f"round wind {h.get('quanFeng')!r}, hand {h.get('changCi')!r}: not the dealer's "
                       f"(dealer_pos {common.get('dealer_pos')})")
    if any(len(dealt[s]) != (14 if s == dealer else 13) for s in range(n)):
        raise LogError("the dealer is dealt 14 tiles and the others 13")
    first = dealt[dealer].pop()  # the dealer's 14th tile is its first draw
    k = Kyoku(kyoku=4 * wind + dealer, honba=whole_number(common, "ben_chang_num", h.get("benChangNum", 0)),
              kyotaku=whole_number(common, "li_zhi_bang_num", 0), scores=scores, haipai=dealt,
              dora=[TILES[common["bao_pai_card"]]], players=n)
    where = f"{k.round}-{k.honba}"
    said: list[Note] = []
    wall, digest = h.get("handCardEncode"), h.get("handCardsSHA256")
    if isinstance(wall, str) and isinstance(digest, str) and digest:
        if hashlib.sha256(wall.encode()).hexdigest() != digest.lower():
            said.append(Note(f"{where}: handCardsSHA256 is not the SHA-256 of handCardEncode (the wall as "
                             "recorded): the record's wall may have been edited", number))
    events = k.events
    add, tile_of = events.append, TILES  # locals: the loop below runs for every event
    add(("draw", dealer, first, False))
    held = [len(dealt[s]) for s in range(4)]
    held[dealer] += 1
    drawn_by, drawn = dealer, first  # the seat whose last action was a draw, and its tile
    accepted = [0, 0, 0, 0]
    riichi = None  # a declaration whose stick the next action places (but a ron on it)
    actor = None  # who discarded, added to a kan or set a north aside last: a ron's loser
    rinshan = False
    pons: dict[tuple[int, int], list[int]] = {}
    kan_dora = 0
    wins: dict[int, int] = {}  # winner -> the tile won on, as its ron or tsumo action names it
    end = game_end = None
    open_riichi = False
    play = zip(wanted[deals:], datas[deals:])
    for e, d in play:
        typ = e["eventType"]
        if typ == DRAW:
            card = d.get("in_card")
            if not card:  # a turn with no draw: after a call, or the dealer's first
                continue
            if riichi is not None:
                add(("reach", riichi))
                accepted[riichi], riichi = 1, None
            s, t = seat_of[e["userId"]], tile_of[card]
            add(("draw", s, t, rinshan))
            rinshan = False
            held[s] += 1
            drawn_by, drawn = s, t
        elif typ == ACTION:
            a, s = d["action"], seat_of[e["userId"]]
            if a == DISCARD:  # the commonest action first
                if riichi is not None:
                    add(("reach", riichi))
                    accepted[riichi], riichi = 1, None
                t = tile_of[d["card"]]
                pos = d.get("move_cards_pos")
                giri = drawn_by == s and drawn == t and (not pos or pos[0] == held[s])
                declared = bool(d.get("is_li_zhi"))
                add(("discard", s, t, declared, giri))
                held[s] -= 1
                if declared:
                    riichi = s
                    open_riichi = open_riichi or d.get("li_zhi_type") in OPEN_RIICHI_TYPES
                actor, drawn_by = s, None
                continue
            if a == RON or a == TSUMO:
                wins[s] = d.get("card")
                continue
            if riichi is not None:
                add(("reach", riichi))
                accepted[riichi], riichi = 1, None
            t = tile_of[d["card"]]
            drawn_by = None
            if a in CHI or a == PON or a == MINKAN:
                tiles = [tile_of[c] for c in d["group_cards"]] + [t]
                kind_of = "chi" if a in CHI else "pon" if a == PON else "minkan"
                if len(tiles) != (4 if a == MINKAN else 3):
                    raise LogError(f"a {kind_of} of {len(tiles)} tiles")
                add(("call", s, kind_of, tiles, t, actor))
                held[s] -= len(tiles) - 1
                if a == PON:
                    pons[s, t % RED] = tiles
                rinshan = a == MINKAN
            elif a == ANKAN:
                tiles = [tile_of[c] for c in d.get("group_cards") or []]
                tiles = tiles if len(tiles) == 4 else tiles + [t]
                if len(tiles) != 4 or any(x % RED != t % RED for x in tiles):
                    raise LogError(f"seat {s} declares a closed kan of {len(tiles)} tiles")
                add(("call", s, "ankan", tiles, t, s))
                held[s] -= 4
                rinshan, actor = True, s
            elif a == KAKAN:
                pon = pons.pop((s, t % RED), None)
                if pon is None:
                    raise LogError(f"seat {s} adds to a kan without a pon")
                add(("call", s, "kakan", [*pon, t], t, s))
                held[s] -= 1
                rinshan, actor = True, s
            elif a == NUKI:
                if n != 3 or t != NORTH:
                    raise LogError("a north set aside (action 13) " + ("in a four-player game" if n == 4 else
                                                                        "that is not a north"))
                add(("kita", s, t))
                held[s] -= 1
                rinshan, actor = True, s
            else:
                raise LogError(f"action {a!r} is not read here")
        elif typ == KAN_DORA:
            cards = d.get("cards") or []
            events.extend(("dora", tile_of[c]) for c in cards[kan_dora:])
            kan_dora = max(kan_dora, len(cards))
        elif typ == HAND_END:
            end = d
            break
        else:
            raise LogError("the game's end (eventType 6) before the hand's")
    if end is None:
        raise LogError("the hand has no end (eventType 5)")
    for e, d in play:  # after the hand's end: the game's, in the last hand
        if e["eventType"] != GAME_END:
            raise LogError(f"an event of type {e['eventType']} after the hand's end")
        game_end = d.get("user_data")
    end_type = end.get("end_type")
    if riichi is not None and not (end_type == 0 and actor == riichi):  # a ron on the declaring tile: no stick
        events.append(("reach", riichi))
        accepted[riichi] = 1
    k.outcomes = hand_outcomes(end, k, seat_of, wins, actor, accepted, said, where, number)
    if open_riichi or any(f.get("fang_type") in OPEN_RIICHI for w in end.get("win_info") or []
                          for f in w.get("fang_info") or []):
        said.append(open_riichi_note(where, number))
    if gang_pay and end_type == 1 and _rinshan_after_open_kan(events):
        said.append(kan_pay_note(where, number))
    return k, said, game_end


def _rinshan_after_open_kan(events: list[tuple]) -> bool:
    plays = [e for e in events[-3:] if e[0] != "dora"]
    return len(plays) >= 2 and plays[-1][0] == "draw" and plays[-1][3] and plays[-2][0] == "call" and (
        plays[-2][2] == "minkan")
