"""A Tenhou -> mjai converter for the tests only: writes a game of the shared model as mjai JSON lines.

Two styles of what the log carries:

* ``mortal``: what Mortal and mjai-reviewer write -- ``start_game`` with ``kyoku_first``/``aka_flag``,
  ``hora`` with ``deltas`` and ``ura_markers``, ``ryukyoku`` with ``deltas`` only, a bare ``end_game``; like
  mjai-reviewer's converter, ``reach_accepted`` is written when the next player draws or calls, so a riichi
  discard that ends the hand (four riichi) has none.
* ``gimite``: what gimite's mjai writes from Tenhou logs -- ``hora`` with ``pai``, ``hora_tehais`` (without the
  winning tile), ``uradora_markers``, ``yakus``, ``fan``, ``fu``, ``hora_points``, ``pao``, ``scores``;
  ``ryukyoku`` with ``reason`` (exhaustive and nagashi; aborts without one: the import reads their kind off
  the play) and ``tenpais``; ``end_game`` with the final scores; ``start_kyoku`` without ``scores`` (gimite's server leaves
  them out), ``reach_accepted`` with ``deltas``/``scores``; no ``kyoku_first``/``aka_flag``.

The model holds yaku names without their han: each ordinary yaku is written with fan 1 (the importer reads
only yakuman, dora, ura, aka and dragon counts from the per-yaku fan; the hand's fan is written in ``fan``).
"""

from __future__ import annotations

import json

from analyzer.formats.model import Game
from analyzer.formats.replay import replay
from analyzer.formats.tile_text import RED, kind

_HONOURS = "ESWNPFC"
_GIMITE = {
    "menzen_tsumo": "menzenchin_tsumoho", "riichi": "reach", "ippatsu": "ippatsu", "chankan": "chankan",
    "rinshan": "rinshankaiho", "haitei": "haiteiraoyue", "houtei": "hoteiraoyui", "pinfu": "pinfu",
    "tanyao": "tanyaochu", "iipeikou": "ipeko", "seat_wind": "jikaze", "round_wind": "bakaze",
    "haku": "sangenpai", "hatsu": "sangenpai", "chun": "sangenpai", "double_riichi": "double_reach",
    "chiitoitsu": "chitoitsu", "chanta": "honchantaiyao", "ittsu": "ikkitsukan", "sanshoku": "sanshokudojun",
    "sanshoku_doukou": "sanshokudoko", "sankantsu": "sankantsu", "toitoi": "toitoiho", "sanankou": "sananko",
    "shousangen": "shosangen", "honroutou": "honroto", "ryanpeikou": "ryanpeko", "junchan": "junchantaiyao",
    "honitsu": "honiso", "chinitsu": "chiniso", "renhou": "renho", "tenhou": "tenho", "chiihou": "chiho",
    "daisangen": "daisangen", "suuankou": "suanko", "suuankou_tanki": "suanko", "tsuuiisou": "tsuiso",
    "ryuuiisou": "ryuiso", "chinroutou": "chinroto", "chuuren": "churenpoton", "junsei_chuuren": "churenpoton",
    "kokushi": "kokushimuso", "kokushi_13": "kokushimuso", "daisuushii": "daisushi", "shousuushii": "shosushi",
    "suukantsu": "sukantsu",
}  # fmt: skip


def mjai_tile(t: int) -> str:
    k = kind(t)
    if k >= 27:
        return _HONOURS[k - 27]
    return f"{k % 9 + 1}{'mps'[k // 9]}{'r' if t >= RED else ''}"


def _ts(tiles) -> list[str]:
    return [mjai_tile(t) for t in tiles]


def _without(tiles: list[int], tile: int) -> list[int]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


def to_mjai(game: Game, style: str = "mortal") -> str:
    gimite = style == "gimite"
    lines: list[dict] = []
    start = {"type": "start_game", "names": list(game.names)}
    if not gimite:
        if game.game_length is not None:
            start["kyoku_first"] = 0 if game.game_length == "hanchan" else 4
        start["aka_flag"] = game.aka
    lines.append(start)
    for k in game.kyokus:
        rp = replay(k)
        head = {"type": "start_kyoku", "bakaze": "ESWN"[k.kyoku // 4], "kyoku": k.kyoku % 4 + 1,
                "honba": k.honba, "kyotaku": k.kyotaku, "oya": k.dealer, "scores": list(k.scores),
                "dora_marker": mjai_tile(k.dora[0]), "tehais": [_ts(h) for h in k.haipai]}
        if gimite:
            del head["scores"]
        lines.append(head)
        scores = list(k.scores)
        extra_dora = list(k.dora[1:])  # Tenhou JSON lists kan indicators at the start: reveal after the kan
        kan_pending = False
        deferred_reach: int | None = None
        last_draw: dict[int, int] = {}
        for ev in k.events:
            typ = ev[0]
            if typ in ("draw", "call") and deferred_reach is not None:
                lines.append({"type": "reach_accepted", "actor": deferred_reach})
                deferred_reach = None
            if typ == "draw":
                _, s, t, _ = ev
                lines.append({"type": "tsumo", "actor": s, "pai": mjai_tile(t)})
                last_draw[s] = t
                if kan_pending and extra_dora:
                    lines.append({"type": "dora", "dora_marker": mjai_tile(extra_dora.pop(0))})
                kan_pending = False
            elif typ == "discard":
                _, s, t, riichi, _ = ev
                if riichi:
                    lines.append({"type": "reach", "actor": s})
                lines.append({"type": "dahai", "actor": s, "pai": mjai_tile(t), "tsumogiri": last_draw.get(s) == t})
                last_draw.pop(s, None)
            elif typ == "call":
                _, s, mk, tiles, called, frm = ev
                if mk in ("chi", "pon", "minkan"):
                    lines.append({"type": "daiminkan" if mk == "minkan" else mk, "actor": s, "target": frm,
                                  "pai": mjai_tile(called), "consumed": _ts(_without(tiles, called))})
                elif mk == "kakan":
                    lines.append({"type": "kakan", "actor": s, "pai": mjai_tile(called),
                                  "consumed": _ts(_without(tiles, called))})
                else:
                    lines.append({"type": "ankan", "actor": s, "consumed": _ts(tiles)})
                kan_pending = mk in ("minkan", "kakan", "ankan")
            elif typ == "reach":
                scores[ev[1]] -= 1000
                if gimite:
                    deltas = [0, 0, 0, 0]
                    deltas[ev[1]] = -1000
                    lines.append({"type": "reach_accepted", "actor": ev[1], "deltas": deltas, "scores": list(scores)})
                else:
                    deferred_reach = ev[1]
            elif typ == "dora":
                lines.append({"type": "dora", "dora_marker": mjai_tile(ev[1])})
        for t in extra_dora:  # not revealed after a kan of the play (a robbed kan): just before the result
            lines.append({"type": "dora", "dora_marker": mjai_tile(t)})
        if deferred_reach is not None and k.outcomes[0].result not in ("ron", "tsumo"):
            pass  # like mjai-reviewer: the hand ended before anyone drew, no reach_accepted
        elif deferred_reach is not None:
            lines.append({"type": "reach_accepted", "actor": deferred_reach})
        for o in k.outcomes:
            scores = [scores[s] + o.deltas[s] for s in range(4)]
            if o.result in ("ron", "tsumo"):
                w = o.winner
                hora = {"type": "hora", "actor": w, "target": w if o.loser is None else o.loser,
                        "deltas": list(o.deltas)}
                ura = _ts(o.ura_indicators) if o.ura_indicators and w in rp.riichi else []
                if gimite:
                    hora |= {"pai": mjai_tile(rp.win_tiles[w]), "hora_tehais": _ts(rp.concealed[w]),
                             "uradora_markers": ura, "scores": list(scores)}
                    if o.has_value:
                        hora |= _value(o)
                    if o.pao is not None:
                        hora["pao"] = o.pao
                else:
                    hora["ura_markers"] = ura
                lines.append(hora)
            else:
                ryu = {"type": "ryukyoku", "deltas": list(o.deltas)}
                if gimite:
                    if o.result != "abort":
                        ryu["reason"] = "fanpai" if o.result == "draw" else "nagashimangan"
                    if o.tenpai is not None and o.result != "abort":
                        ryu["tenpais"] = [s in o.tenpai for s in range(4)]
                    ryu["scores"] = list(scores)
                lines.append(ryu)
        lines.append({"type": "end_kyoku"})
    end = {"type": "end_game"}
    if gimite and game.final_scores is not None:
        end["scores"] = list(game.final_scores)
    lines.append(end)
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def _value(o) -> dict:
    yakus = []
    for name in o.yaku:
        yakus.append([_GIMITE[name], 100 if o.yakuman else 1])
    for name, n in (("dora", o.dora), ("uradora", o.ura), ("akadora", o.aka)):
        if n:
            yakus.append([name, n])
    fan = o.han if o.han is not None else 100 * o.yakuman
    return {"yakus": yakus, "fan": fan, "fu": o.fu, "hora_points": o.points}
