"""A game of the shared model as mjai events (:func:`game_to_mjai`): the protocol of gimite's mjai server that
Mortal, akochan, mjai-reviewer and riichienv read, one JSON object per line.

Written as Mortal writes it: ``start_game``; per hand ``start_kyoku`` (bakaze, kyoku, honba, kyotaku, oya,
dora_marker, scores, tehais), the play (``tsumo``, ``dahai`` with ``tsumogiri``, ``chi``/``pon``/``daiminkan``/
``kakan``/``ankan`` with ``consumed``, ``reach``, ``reach_accepted``, ``dora``, three players' ``nukidora``),
``hora`` (deltas, ura_markers) or ``ryukyoku`` (deltas), ``end_kyoku``; ``end_game``. A three-player game has
three seats in every list (names, scores, tehais, deltas).

And what a record carries beyond Mortal's minimum, so that ``import mjai`` gives the same hand records back:

* ``hora``: gimite's ``pai``, ``fan`` (a yakuman 100 a time), ``fu``, ``yakus`` (``[name, han]``, gimite's names
  where gimite has the yaku, ours otherwise, then ``dora``/``akadora``/``uradora``), ``hora_points``, ``pao``;
  ours: ``limit`` (mangan ... yakuman as recorded) and ``dora_markers`` (the indicators the win was valued
  with, as the log recorded them);
* ``ryukyoku``: gimite's ``reason`` (``fanpai`` an exhaustive draw, ``nagashimangan``, ``kyushukyuhai``,
  ``suchareach``, ``sanchaho``, ``sukaikan``, ``sufonrenta``) and ``tenpais`` when the log says who was tenpai;
* ``end_game``: ``scores``, the final scores;
* ``start_game``: ``kyoku_first`` and ``aka_flag`` (Mortal), and :data:`EXTENSION` -- the game's id, its rules
  spec, room, platform, lobby, ranks, final game points (see :func:`game_fields`).
"""

from __future__ import annotations

import json

from analyzer.formats.identity import game_id
from analyzer.formats.mjai.results import GIMITE_YAKU as IMPORTED_GIMITE_YAKU, RYUKYOKU_ABORTS
from analyzer.formats.model import YAKUMAN_HAN, Game, Kyoku, Outcome
from analyzer.formats.rules_spec import rules_spec
from analyzer.formats.tile_text import RED, kind

_HONOURS = "ESWNPFC"
# ours -> gimite's (lib/mjai/hora.rb): the import's table turned round (one name each way); the rest are written
# as ours, and dora, ura and aka go on the hora as counts, not yaku
GIMITE_YAKU = {ours: gimite for gimite, ours in IMPORTED_GIMITE_YAKU.items() if ours not in ("dora", "ura", "aka")}
ABORT_REASONS = {mjlog: gimite for gimite, mjlog in RYUKYOKU_ABORTS.items()}  # mjlog's abort names -> gimite's
EXTENSION = "analyzer"  # the start_game key holding what only analyzer reads back


def mjai_tile(t: int) -> str:
    """The shared model's tile as mjai writes it: ``1m``..``9s``, ``5mr`` a red five, ``E S W N P F C``."""
    k = kind(t)
    if k >= 27:
        return _HONOURS[k - 27]
    return f"{k % 9 + 1}{'mps'[k // 9]}{'r' if t >= RED else ''}"


_MJAI_TILES = {t: mjai_tile(t) for t in (*range(34), *(RED + k for k in (4, 13, 22)))}


def _ts(tiles) -> list[str]:
    return [_MJAI_TILES[t] for t in tiles]


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def events_text(events: list[dict]) -> str:
    """mjai events as JSON lines, each line what ``json.dumps(event, ensure_ascii=False, separators=(",", ":"))``
    gives. ``tsumo`` and ``dahai`` (most of a game, their values tiles and seats) are formatted directly: a
    call of the encoder per event costs more than the conversion itself."""
    out = []
    for e in events:
        t = e["type"]
        if t == "tsumo" and len(e) == 3:
            out.append(f'{{"type":"tsumo","actor":{e["actor"]},"pai":"{e["pai"]}"}}')
        elif t == "dahai" and len(e) == 4:
            giri = "true" if e["tsumogiri"] else "false"
            out.append(f'{{"type":"dahai","actor":{e["actor"]},"pai":"{e["pai"]}","tsumogiri":{giri}}}')
        else:
            out.append(_encode(e))
    out.append("")
    return "\n".join(out)


def _without(tiles: list[int], tile: int) -> list[str]:
    """A call's other tiles in the log's order (the model keeps the called tile last)."""
    if tiles[-1] == tile:
        return _ts(tiles[:-1])
    rest = list(tiles)
    rest.remove(tile)
    return _ts(rest)


def game_fields(game: Game) -> dict:
    """What of a game beyond its play a record keeps: id, rules spec, room, platform, lobby, ranks, when it started
    (``started_at``, where the log says it) and the final result (written in ``start_game``'s :data:`EXTENSION`,
    read back by ``import mjai``). Empty values left out, but ``game_points``: null says the log had none
    (tenhou.net/6's ``sc`` would otherwise give zeros)."""
    fields = {
        "game_id": game_id(game.ref, game.file, game.digest or ""),
        "rules": rules_spec(game) if game.kyokus else None,
        "platform": game.platform, "room": game.room, "lobby": game.lobby, "lobby_type": game.lobby_type,
        "custom_rules": game.custom_rules, "open_tanyao": game.kuitan, "tsumo_loss": game.tsumo_loss,
        "dan": game.dan, "rate": game.rate, "ranks": game.ranks, "game_points": game.final_points,
        "chips": game.final_chips, "ratio": game.ratio,
        "started_at": game.started_at.isoformat() if game.started_at is not None else None,
    }  # fmt: skip
    return {k: v for k, v in fields.items() if v is not None or k == "game_points"}


def game_to_mjai(game: Game) -> list[dict]:
    """The game as mjai events, in order (one JSON object a line in a file: ``json.dumps`` each)."""
    n = game.players
    start: dict = {"type": "start_game", "names": list(game.names[:n])}
    if game.game_length is not None:
        start["kyoku_first"] = 0 if game.game_length == "hanchan" else 4
    start["aka_flag"] = game.aka
    start[EXTENSION] = game_fields(game)
    lines = [start]
    for k in game.kyokus:
        lines += _kyoku(k, n)
    end: dict = {"type": "end_game"}
    if game.final_scores is not None:
        end["scores"] = list(game.final_scores[:n])
    lines.append(end)
    return lines


def _kyoku(k: Kyoku, n: int) -> list[dict]:
    lines: list[dict] = [{
        "type": "start_kyoku", "bakaze": "ESWN"[k.kyoku // 4 % 4], "kyoku": k.kyoku % 4 + 1, "honba": k.honba,
        "kyotaku": k.kyotaku, "oya": k.dealer, "dora_marker": mjai_tile(k.dora[0]), "scores": list(k.scores[:n]),
        "tehais": [_ts(h) for h in k.haipai[:n]],
    }]  # fmt: skip
    # tenhou.net/6 JSON lists a hand's kan indicators with the first: each is revealed after its kan's
    # replacement draw (an ankan's at once), as Mortal logs it; one left (a robbed kan) just before the result
    later_dora = list(k.dora[1:])
    kan_pending = False
    for ev in k.events:
        typ = ev[0]
        if typ == "draw":
            lines.append({"type": "tsumo", "actor": ev[1], "pai": _MJAI_TILES[ev[2]]})
            if kan_pending and later_dora:
                lines.append({"type": "dora", "dora_marker": mjai_tile(later_dora.pop(0))})
            kan_pending = False
        elif typ == "discard":
            _, s, t, riichi, tsumogiri = ev
            if riichi:
                lines.append({"type": "reach", "actor": s})
            lines.append({"type": "dahai", "actor": s, "pai": _MJAI_TILES[t], "tsumogiri": tsumogiri})
        elif typ == "call":
            _, s, mk, tiles, called, frm = ev
            if mk in ("chi", "pon", "minkan"):
                lines.append({"type": "daiminkan" if mk == "minkan" else mk, "actor": s, "target": frm,
                              "pai": mjai_tile(called), "consumed": _without(tiles, called)})
            elif mk == "kakan":
                lines.append({"type": "kakan", "actor": s, "pai": mjai_tile(called),
                              "consumed": _without(tiles, called)})
            else:
                lines.append({"type": "ankan", "actor": s, "consumed": _ts(tiles)})
            kan_pending = mk != "chi" and mk != "pon"
        elif typ == "kita":
            lines.append({"type": "nukidora", "actor": ev[1], "pai": mjai_tile(ev[2])})
        elif typ == "reach":
            lines.append({"type": "reach_accepted", "actor": ev[1]})
        elif typ == "dora":
            lines.append({"type": "dora", "dora_marker": mjai_tile(ev[1])})
    lines += [{"type": "dora", "dora_marker": mjai_tile(t)} for t in later_dora]
    for o in k.outcomes:
        lines.append(_hora(o, k, n) if o.result in ("ron", "tsumo") else _ryukyoku(o, n))
    lines.append({"type": "end_kyoku"})
    return lines


def _hora(o: Outcome, k: Kyoku, n: int) -> dict:
    w = o.winner
    hora: dict = {"type": "hora", "actor": w, "target": w if o.loser is None else o.loser,
                  "deltas": list(o.deltas[:n]), "ura_markers": _ts(o.ura_indicators or [])}
    if o.win_tile is not None:
        hora["pai"] = mjai_tile(o.win_tile)
    if o.pao is not None:
        hora["pao"] = o.pao
    if o.has_value:
        yakus = [[GIMITE_YAKU.get(name, name), han] for name, han in zip(o.yaku, _hans(o))]
        yakus += [[name, count] for name, count in (("dora", o.dora), ("akadora", o.aka), ("uradora", o.ura))
                  if count]
        hora |= {"fan": o.han if o.han is not None else YAKUMAN_HAN * o.yakuman, "fu": o.fu, "yakus": yakus,
                 "hora_points": o.points, "limit": o.limit}
    if o.dora_indicators is not None:
        hora["dora_markers"] = _ts(o.dora_indicators)
    return hora


def _hans(o: Outcome) -> list[int]:
    """Each yaku's han; a model built without them (by hand) gets a yakuman's share or 1."""
    if len(o.yaku_han) == len(o.yaku):
        return o.yaku_han
    return [YAKUMAN_HAN if o.yakuman else 1] * len(o.yaku)


def _ryukyoku(o: Outcome, n: int) -> dict:
    ryu: dict = {"type": "ryukyoku", "deltas": list(o.deltas[:n])}
    reason = {"draw": "fanpai", "nagashi": "nagashimangan"}.get(o.result) or ABORT_REASONS.get(o.abort or "")
    if reason is not None:
        ryu["reason"] = reason
    if o.tenpai is not None:
        ryu["tenpais"] = [s in o.tenpai for s in range(n)]
    elif o.all_tenpai is not None:
        ryu["tenpais"] = [o.all_tenpai] * n
    return ryu
