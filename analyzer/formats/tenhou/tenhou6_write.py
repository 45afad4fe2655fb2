"""A game of the shared model as tenhou.net/6 JSON (:func:`game_to_tenhou6`): the format of Tenhou's viewer
(``https://tenhou.net/6/#json=...``), read back by :mod:`analyzer.formats.tenhou.tenhou6_read`, whose docstring
describes the layout; this is its inverse.

``log`` holds per hand ``[[kyoku, honba, sticks], scores, dora indicators, ura indicators]``, per seat its
starting hand (in the model's order: as the log lists it; the mjlog reader sorts it as Tenhou does, by tile,
a red five after the other fives), its draws (tile codes
11-47, red fives 51-53; chi/pon/open kan strings ``c121314``, ``p151515``, ``151515m15``) and its discards (``60``
the tile just drawn, ``r`` before a riichi discard, ``0`` in place of the discard after an open kan, closed and
added kan strings ``151515a51``, ``k45454545``, ``f44`` a north set aside), then the result: ``["和了", deltas,
[who, from, pao, value, yaku...], ...]`` with Tenhou's value strings (``30符4飜7700点``, ``満貫2000-4000点``,
``役満16000点∀``) and yaku (``立直(1飜)``, ``自風 東(1飜)``, ``大三元(役満)``), ``["流局", deltas]``,
``["全員聴牌"]``, ``["全員不聴"]``, ``["流し満貫", deltas]``, an abortive draw by its kind: ``["九種九牌"]``,
``["四家立直"]``, ``["三家和了"]``, ``["四槓散了"]``, ``["四風連打"]`` (the reader's words; an abort of no known kind
cannot be written: :class:`LogError` naming the game). A result read from tenhou.net/6 JSON is written
back as it was written (Tenhou's English names too); one from another format is written in Tenhou's Japanese.
Three players: seat 3's lists are empty, its score and deltas 0, its name ``""`` (tensoul's layout). A hand
whose play is not in turn order (a seat drawing out of turn) cannot be written: :class:`LogError`.

Beyond Tenhou's keys (``title``, ``name``, ``rule`` with ``disp`` and ``aka``, ``lobby``, ``dan``, ``rate``,
``sc``, ``ref`` = the game's id): ``analyzer``, what a record keeps that the format has no place for (the rules
spec, a special lobby's type, ranks: :func:`analyzer.formats.mjai.write.game_fields`), read back on import.
"""

from __future__ import annotations

from analyzer.formats.mjai.write import game_fields
from analyzer.formats.identity import game_id
from analyzer.formats.model import YAKUMAN_HAN, Game, Kyoku, LogError, Outcome
from analyzer.formats.tile_text import RED, kind
from analyzer.formats.tenhou.yaku_names import JA_NAMES

EXTENSION = "analyzer"
_LIMIT_JA = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
_ABORT_JA = {"yao9": "九種九牌", "reach4": "四家立直", "ron3": "三家和了", "kan4": "四槓散了", "kaze4": "四風連打"}
_WINDS_JA = "東南西北"
_YAKU_JA: dict[str, str] = {}
for _ja, _name in JA_NAMES.items():
    _YAKU_JA.setdefault(_name, _ja)


def tenhou_code(tile: int) -> int:
    """A tile as tenhou.net/6 writes it: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honours, 51-53 red fives."""
    if tile >= RED:
        return 51 + (tile - RED) // 9
    return 41 + tile - 27 if tile >= 27 else (tile // 9 + 1) * 10 + tile % 9 + 1


def _codes(tiles) -> str:
    return "".join(str(tenhou_code(t)) for t in tiles)


def _call_string(letter: str, tiles: list[int], called: int, caller: int, frm: int) -> str:
    """``c``/``p``/``m`` with the called tile at the place of the seat it came from: first from the seat on the
    left, in the middle from the seat across, last from the right (an open kan from the right: after all three).
    The other tiles in the model's order (the log's; the called tile is kept last)."""
    others = list(tiles)
    others.pop(len(others) - 1 if others[-1] == called else others.index(called))
    parts = [str(tenhou_code(t)) for t in others]
    parts.insert({3: 0, 2: 1, 1: len(parts)}[(frm - caller) % 4], f"{letter}{tenhou_code(called)}")
    return "".join(parts)


def game_to_tenhou6(game: Game) -> dict:
    """The game as one tenhou.net/6 JSON object (``json.dumps(..., ensure_ascii=False)`` it)."""
    names = list(game.names) + [""] * (4 - len(game.names))
    out: dict = {"title": ["", ""], "name": names, "rule": {"disp": _disp(game), "aka": int(game.aka)}}
    if game.lobby is not None:
        out["lobby"] = game.lobby
    if game.dan is not None:
        out["dan"] = list(game.dan)
    if game.rate is not None:
        out["rate"] = list(game.rate)
    out["ref"] = game_id(game.ref, game.file, game.digest or "")
    out["log"] = []
    for n, k in enumerate(game.kyokus, 1):
        try:
            out["log"].append(_kyoku(k, game.players))
        except LogError as exc:
            raise LogError(f"game {out['ref']}: hand {n} ({k.round}-{k.honba}): {exc}") from None
    if game.final_scores is not None:
        points = game.final_points or [0.0] * 4
        out["sc"] = [v for s in range(4) for v in (game.final_scores[s], _number(points[s]))]
    out[EXTENSION] = game_fields(game) | _limit_fu(game)
    return out


def _limit_fu(game: Game) -> dict:
    """The fu of limit hands, which Tenhou's value string leaves out (``満貫8000点``): [hand, win, fu] each."""
    found = [[n, i, o.fu] for n, k in enumerate(game.kyokus) for i, o in enumerate(k.outcomes)
             if o.limit is not None and o.fu is not None]
    return {"limit_fu": found} if found else {}


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def _disp(game: Game) -> str:
    """The room as Tenhou's ``rule.disp`` names it (``鳳南喰赤``), or the room the log named (Mahjong Soul)."""
    if game.room is not None:
        return game.room
    t = game.lobby_type if game.lobby_type is not None else 0xA1  # a log without its lobby type: 鳳
    room = {0: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}[t & 0xA0]
    length = {"hanchan": "南", "tonpuu": "東"}.get(game.game_length or "", "")
    return ("三" if game.players == 3 else "") + room + length + ("喰" if game.kuitan else "") + (
        "赤" if game.aka else "") + ("速" if t & 0x40 else "")


def _kyoku(k: Kyoku, players: int) -> list:
    takes: list[list] = [[] for _ in range(4)]
    discards: list[list] = [[] for _ in range(4)]
    pons: dict[tuple[int, int], str] = {}  # (seat, tile kind) -> the pon's string, which a kakan extends
    dora = list(k.dora)
    next_draw: int | None = k.dealer  # the seat whose draw comes next (None: a caller discards first)
    for ev in k.events:
        typ = ev[0]
        if typ == "draw":
            if next_draw is not None and ev[1] != next_draw:
                raise LogError(f"seat {ev[1]} draws out of turn (seat {next_draw} is next), which tenhou.net/6 "
                               "cannot say: it keeps each seat's draws in a list of its own, read in turn order")
            next_draw = None
            takes[ev[1]].append(tenhou_code(ev[2]))
        elif typ == "discard":
            _, s, t, riichi, tsumogiri = ev
            code = 60 if tsumogiri else tenhou_code(t)
            discards[s].append(f"r{code}" if riichi else code)
            next_draw = (s + 1) % players
        elif typ == "call":
            _, s, mk, tiles, called, frm = ev
            next_draw = s if mk in ("minkan", "kakan", "ankan") else None
            if mk in ("chi", "pon", "minkan"):
                text = _call_string({"chi": "c", "pon": "p", "minkan": "m"}[mk], tiles, called, s, frm)
                takes[s].append(text)
                if mk == "pon":
                    pons[s, kind(called)] = text
                elif mk == "minkan":
                    discards[s].append(0)
            elif mk == "ankan":
                discards[s].append(_codes(tiles[:3]) + "a" + _codes(tiles[3:]))
            else:
                discards[s].append(pons[s, kind(called)].replace("p", f"k{tenhou_code(called)}"))
        elif typ == "kita":
            discards[ev[1]].append(f"f{tenhou_code(ev[2])}")
            next_draw = ev[1]
        elif typ == "dora":
            dora.append(ev[1])
    ura = next((o.ura_indicators for o in k.outcomes if o.ura_indicators), [])
    raw: list = [[k.kyoku, k.honba, k.kyotaku], list(k.scores), [tenhou_code(t) for t in dora],
                 [tenhou_code(t) for t in ura]]
    for s in range(4):
        raw += [[tenhou_code(t) for t in k.haipai[s]], takes[s], discards[s]]
    raw.append(_result(k, players))
    return raw


def _result(k: Kyoku, players: int) -> list:
    first = k.outcomes[0]
    deltas = list(first.deltas) + [0] * (4 - len(first.deltas))
    if first.result in ("ron", "tsumo"):
        result: list = ["和了"]
        for o in k.outcomes:
            loser = o.winner if o.loser is None else o.loser
            info = [o.winner, loser, o.winner if o.pao is None else o.pao]
            if o.recorded_text is not None:
                info += o.recorded_text
            elif o.has_value:
                info += [_value(o, k, players), *_yaku(o, k)]
            result += [list(o.deltas) + [0] * (4 - len(o.deltas)), info]
        return result
    if first.recorded_text is not None:
        word = first.recorded_text[0]
    elif first.result == "abort":
        if first.abort not in _ABORT_JA:  # each kind has its own word: none is written for another
            raise LogError(f"an abortive draw of no known kind ({first.abort!r}): tenhou.net/6 names each kind "
                           f"({', '.join(_ABORT_JA.values())}) and none is invented")
        word = _ABORT_JA[first.abort]
    elif first.result == "nagashi":
        word = "流し満貫"
    elif any(deltas):
        word = "流局"
    else:
        tenpai = first.tenpai if first.tenpai is not None else (range(players) if first.all_tenpai else [])
        word = "全員聴牌" if len(tenpai) == players else "全員不聴"
    return [word, deltas] if any(deltas) or word in ("流局", "流し満貫") else [word]


def _value(o: Outcome, k: Kyoku, players: int) -> str:
    dealer = o.winner == k.dealer
    if o.result == "ron":
        points = f"{o.points}点"
    elif dealer:
        points = f"{o.points // (players - 1)}点∀"
    else:
        # the dealer pays twice a non-dealer's share, less up to 100 of rounding: points = (players) * a - 0|100
        a = -(-o.points // players // 100) * 100
        points = f"{a}-{o.points - (players - 2) * a}点"
    if o.limit is None:
        return f"{o.fu}符{o.han}飜{points}"
    word = "数え役満" if o.limit == "yakuman" and not o.yakuman else _LIMIT_JA[o.limit]
    return word + points


def _yaku(o: Outcome, k: Kyoku) -> list[str]:
    hans = o.yaku_han if len(o.yaku_han) == len(o.yaku) else [YAKUMAN_HAN if o.yakuman else 1] * len(o.yaku)
    out = []
    for name, han in zip(o.yaku, hans):
        if name == "seat_wind":
            ja = f"自風 {_WINDS_JA[(o.winner - k.dealer) % 4]}"
        elif name == "round_wind":
            ja = f"場風 {_WINDS_JA[k.kyoku // 4 % 4]}"
        else:
            ja = _YAKU_JA.get(name, name.removeprefix("unknown:"))
        out.append(f"{ja}(役満)" if han >= YAKUMAN_HAN else f"{ja}({han}飜)")
    out += [f"{ja}({n}飜)" for ja, n in (("ドラ", o.dora), ("赤ドラ", o.aka), ("裏ドラ", o.ura)) if n]
    return out
