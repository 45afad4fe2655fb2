"""Mahjong Soul's raw game records (the server's own record, as its downloaders decode it to JSON) into the game
model: :func:`parse_majsoul`, which reads tensoul's tenhou.net/6 JSON too, and :func:`looks_like_majsoul_raw`.

Shapes read (every one of them tested in ``tests/formats/majsoul/test_majsoul_raw.py``):

* ``{"head": …, "data": …}``: the record a game's page gives (``fetchGameRecord``), ``data`` the decoded
  ``.lq.GameDetailRecords`` — ``{"name": ".lq.GameDetailRecords", "data": {…}}`` or its content — holding
  ``actions`` (since 2021: ``{"type": 1, "result": {"name": ".lq.RecordNewRound", "data": …}}``; other
  types are the players' inputs) or the older ``records`` (a list of ``{"name", "data"}``); or ``data`` a list
  of ``{"name", "data"}`` itself;
* a bare list of ``{"name", "data"}`` round actions, without a head (riichienv's excerpts: ``NewRound``,
  ``DealTile``, …), or a list of rounds, each such a list, or ``{"rounds": […]}`` (riichienv's ``GameLog``);
* tensoul's tenhou.net/6 JSON (``{"log": […]}``), read as ``import tenhou`` reads it (:mod:`.tenhou_json`).

The record as the game's server sends it (the ``fetchGameRecord`` response: protobuf bytes, or hex or base64
text of them) is decoded into the same structure by :mod:`.protobuf` (the optional extra ``majsoul-protobuf``)
and read by :func:`read_majsoul_record`; other binary data is refused, saying which form to give.

The head (``.lq.RecordGame``): ``uuid`` the record id (the game id), ``start_time`` (Unix seconds: the
``played_at`` column), ``config.meta`` the room (``mode_id`` ranked, ``room_id`` friendly, ``contest_uid``
tournament; :mod:`.majsoul_rooms`), ``config.mode.mode`` the length and player count and ``mode.detail_rule`` a
custom room's rules, ``accounts`` (``seat``, ``nickname``, ``account_id``, ``level`` / ``level3`` the rank
before the game in four / three players: ``{"id": 10401}`` is 雀豪★1), ``result.players`` (``seat``,
``part_point_1`` the final score, ``total_point`` the game points ×1000, uma included, ``grading_score`` the
rank points the game gave). A seat without an account is the game's bot, named ``AI`` as tensoul names it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from analyzer.formats.files import decode_json
from analyzer.formats.majsoul.tensoul import length_from_play, read_north_bisection
from analyzer.formats.majsoul.raw_play import action_name, read_rounds
from analyzer.formats.majsoul.rooms import Room, apply_room_rules, level_name, room_from_mode_id
from analyzer.formats.model import Game, LogError
from analyzer.formats.tenhou.tenhou6_read import parse_json

BOT = "AI"
REFUSED_BINARY = ("a binary (protobuf) Mahjong Soul record: not read here: not the game's fetchGameRecord response "
                  "(a frame header or an .lq.Wrapper; bytes, hex or base64 text); give that response as the game "
                  "sends it, the record as decoded JSON ({\"head\": …, \"data\": …}, as the game's downloaders "
                  "write it) or tensoul's tenhou.net/6 JSON")


@dataclass(frozen=True)
class RawRecord:
    """A Mahjong Soul raw record as :func:`raw_record` read it: its JSON, head (None without one) and round actions
    (``(name, data)`` each, the first a ``NewRound``)."""

    obj: object
    head: dict | None
    actions: list[tuple[str, dict]]


def raw_record(text_or_obj) -> RawRecord | None:
    """A log (its text, or its JSON already parsed) as a Mahjong Soul raw record in a shape :func:`parse_majsoul`
    reads (not tensoul's JSON, which the Tenhou reader reads), None when it is none: what telling the format
    reads, kept for :func:`parse_majsoul` (which would read it again)."""
    obj = text_or_obj
    if isinstance(obj, (str, bytes)):
        try:
            obj = decode_json(obj)
        except ValueError:
            return None
    try:
        head, actions = _actions(obj)
    except LogError:
        return None
    return RawRecord(obj, head, actions) if actions else None


def looks_like_majsoul_raw(text_or_obj) -> bool:
    """Whether a log (its text, or its JSON already parsed) is a Mahjong Soul raw record (:func:`raw_record`)."""
    return raw_record(text_or_obj) is not None


def parse_majsoul(text: str, file: str, record: RawRecord | None = None) -> Game:
    """A Mahjong Soul game, raw or converted by tensoul, into the game model (raises ``LogError``); ``record``:
    what :func:`raw_record` read of ``text``, not read again."""
    text = text.lstrip("\ufeff")
    if record is not None:
        obj = record.obj
    else:
        try:
            obj = decode_json(text)
        except json.JSONDecodeError as exc:
            if text[:1] in "{[":
                raise LogError(f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
            raise LogError(REFUSED_BINARY) from None
    if isinstance(obj, dict) and isinstance(obj.get("log"), list):
        game = parse_json(text, file)  # tensoul's tenhou.net/6 JSON
        if game.platform != "majsoul":
            raise LogError("a Tenhou log, not a Mahjong Soul game (no record id, no Mahjong Soul room): import it "
                           "with `analyzer import tenhou`")
        return game
    if record is not None:
        return _game_of(record.head, record.actions, file)
    return read_majsoul_record(obj, file)


def read_majsoul_record(obj, file: str) -> Game:
    """A raw record already parsed (its JSON, or the protobuf record decoded to the same structure by
    :func:`analyzer.formats.majsoul.protobuf.record_from_protobuf`) into the game model (raises ``LogError``)."""
    head, actions = _actions(obj)
    if not actions:
        raise LogError("not a Mahjong Soul record (expected {\"head\", \"data\"}, a list of round actions or "
                       "tensoul's JSON)")
    return _game_of(head, actions, file)


def _game_of(head: dict | None, actions: list[tuple[str, dict]], file: str) -> Game:
    try:
        kyokus = read_rounds(actions)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        raise LogError(f"malformed round action ({type(exc).__name__}: {str(exc)[:200]})") from None
    players = kyokus[0].players
    if any(k.players != players for k in kyokus):
        raise LogError("hands of one record deal to different numbers of players")
    game = Game(file=file, ref=None, names=[BOT] * players + [""] * (4 - players), players=players, kyokus=kyokus)
    _read_head(game, head if isinstance(head, dict) else {})
    return game


def _actions(obj) -> tuple[dict | None, list[tuple[str, dict]]]:
    """The head (None without one) and the round actions of any shape read (see the module docstring)."""
    head = None
    if isinstance(obj, dict) and "head" in obj and "data" in obj:
        head, obj = obj["head"], obj["data"]
        if isinstance(obj, dict) and isinstance(obj.get("data"), dict) and "GameDetailRecords" in str(obj.get("name")):
            obj = obj["data"]
        if isinstance(obj, str):
            raise LogError(REFUSED_BINARY)
    if isinstance(obj, dict) and isinstance(obj.get("actions"), list):
        obj = [a.get("result") for a in obj["actions"] if isinstance(a, dict) and a.get("type") == 1]
    elif isinstance(obj, dict) and isinstance(obj.get("records"), list):
        obj = obj["records"]
    elif isinstance(obj, dict) and isinstance(obj.get("rounds"), list):
        obj = obj["rounds"]
    if not isinstance(obj, list):
        return head, []
    if obj and all(isinstance(r, list) for r in obj):  # a list of rounds
        obj = [a for r in obj for a in r]
    actions = []
    for a in obj:  # {"name": …, "data": {…}} each
        data = a.get("data") if a.__class__ is dict else None
        name = a.get("name") if data.__class__ is dict else None
        if name.__class__ is not str:
            return head, []
        actions.append((action_name(name), data))
    if not actions or actions[0][0] != "NewRound":
        return head, []
    return head, actions


def _get(obj, *path):
    for key in path:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def _whole(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _read_head(game: Game, head: dict) -> None:
    """Who played, when, where and with what result, from the record's head (see the module docstring)."""
    n = game.players
    uuid = head.get("uuid")
    game.ref = uuid if isinstance(uuid, str) else None
    start = _whole(head.get("start_time"))
    game.started_at = datetime.fromtimestamp(start, timezone.utc) if start and 0 < start < 2**33 else None
    ranks: list = [None] * 4
    for account in head.get("accounts") or []:
        seat = _whole(_get(account, "seat")) or 0
        if not 0 <= seat < n:
            raise LogError(f"an account sits at seat {seat}, which does not play")
        nickname = str(account.get("nickname") or "").strip()[:64] or BOT
        account_id = _whole(account.get("account_id"))
        game.names[seat] = f"{nickname}#{account_id}" if account_id and account_id > 0 else nickname
        ranks[seat] = level_name(_whole(_get(account, "level3" if n == 3 else "level", "id")))
    game.ranks = ranks if any(ranks) else None
    _read_result(game, _get(head, "result", "players"))
    meta, mode = _get(head, "config", "meta") or {}, _get(head, "config", "mode") or {}
    players_of_mode, length = None, None
    if _whole(mode.get("mode")):
        players_of_mode = 3 if mode["mode"] >= 10 else 4
        length = {1: "tonpuu", 2: "hanchan"}.get(mode["mode"] % 10)
    if players_of_mode is not None and players_of_mode != n:
        raise LogError(f"the head's mode {mode['mode']} is a {players_of_mode}-player game, the rounds deal to {n}")
    room = room_from_mode_id(_whole(meta.get("mode_id")))
    if room is None and _whole(meta.get("room_id")):
        room, game.lobby = Room("friendly", "友人戦", n, length), meta["room_id"]
    elif room is None and _whole(meta.get("contest_uid")):
        room, game.lobby = Room("tournament", "大会戦", n, length), meta["contest_uid"]
    elif room is None:
        said = f"mode id {meta['mode_id']}" if _whole(meta.get("mode_id")) else None
        room = Room("unknown", None, n, length, said)
    game.game_length = length or room.length
    apply_room_rules(game, room, mode.get("detail_rule"))
    named = Room(room.kind, room.name, n, game.game_length)
    game.room = named.display + ("赤" if game.aka else "") if room.name else None  # as tensoul would name it
    game.game_length = game.game_length or length_from_play(game)
    if n == 3:  # a tsumo that paid more than its shares: north-bisection, its points what was paid
        read_north_bisection(game)


def _read_result(game: Game, players) -> None:
    """Final scores, game points (``total_point`` / 1000) and rank-point changes by seat."""
    if not isinstance(players, list) or len(players) != game.players:
        return
    finals, points, grading = [0] * 4, [0.0] * 4, [None] * 4
    for p in players:
        seat = _whole(_get(p, "seat"))
        final, total = _whole(_get(p, "part_point_1")), _get(p, "total_point")
        if seat is None or not 0 <= seat < game.players or final is None or not isinstance(total, (int, float)):
            raise LogError(f"the head's result names a seat or a score that is not one: {str(p)[:120]}")
        finals[seat], points[seat] = final, round(total / 1000, 1)
        grading[seat] = _whole(p.get("grading_score"))
    game.final_scores, game.final_points = finals, points
    game.rank_points = grading if any(g is not None for g in grading) else None
