"""Test-only converter: an mjlog (read by our own mjlog reader) written as tenhou.net/6 JSON, four or three
players, in the layout documented in :mod:`analyzer.formats.tenhou.tenhou6_read` (Tenhou's, as tensoul writes it):

* per seat haipai, draws (tiles; pon/chi/open-kan strings with the letter at the four-seat position of the seat
  called from: ``p`` first from the left seat, in the middle from the seat across, last from the right seat)
  and discards (tiles, ``60`` for the tile just drawn, ``r`` before a riichi discard, ``0`` after an open kan,
  added and closed kan strings, ``"f44"`` for a north set aside);
* with three players seat 3 has empty lists, a score of 0 and a delta of 0, ``name`` ends with ``""`` and
  ``sc`` with ``0, 0``;
* win results ``[deltas, [who, from, pao, value, "yaku(N飜)"...]]`` with the value string of each payer's share
  (``"700-1300点"``, a dealer's ``"2000点∀"``, a limit ``"満貫2000-4000点"`` without fu), yaku in Japanese from the
  mjlog's own yaku ids and han (ura 0 left out, as Tenhou's JSON does); exhaustive draws ``["流局", deltas]``.

Abortive draws and nagashi mangan are not written (the logs converted here have none).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from analyzer.formats.model import Game, Outcome
from analyzer.formats.parse import parse_file
from analyzer.formats.tile_text import RED
from analyzer.formats.tenhou.yaku_names import JA_NAMES, TENHOU_YAKU_IDS

_LIMIT_JA = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
_WINDS = "東南西北"
_JA_BY_NAME = {}
for _ja, _name in JA_NAMES.items():
    _JA_BY_NAME.setdefault(_name, _ja)


def _yaku_ja(yaku_id: int) -> str:
    if 10 <= yaku_id <= 13:
        return f"自風 {_WINDS[yaku_id - 10]}"
    if 14 <= yaku_id <= 17:
        return f"場風 {_WINDS[yaku_id - 14]}"
    return _JA_BY_NAME[TENHOU_YAKU_IDS[yaku_id]]


def code(tile: int) -> int:
    """Tenhou JSON tile code: 11-19 m, 21-29 p, 31-39 s, 41-47 honours, 51-53 red fives."""
    if tile >= RED:
        return 51 + (tile - RED) // 9
    return 41 + tile - 27 if tile >= 27 else (tile // 9 + 1) * 10 + tile % 9 + 1


def _plain(text: str) -> int:
    """A tile code without its red: 51 -> 15."""
    c = int(text)
    return (c % 10) * 10 + 5 if c >= 51 else c


def _call_string(letter: str, tiles: list[int], called: int, caller: int, frm: int) -> str:
    others = list(tiles)
    others.remove(called)
    parts = [str(code(t)) for t in others]
    slot = {3: 0, 2: 1, 1: len(parts)}[(frm - caller) % 4]  # left seat, seat across, right seat
    if letter == "m" and slot == len(parts) == 3:
        slot = 3
    parts.insert(slot, f"{letter}{code(called)}")
    return "".join(parts)


def _value(o: Outcome, k, players: int) -> str:
    if o.result == "ron":
        points = f"{o.points}点"
    else:
        payers = [s for s in range(players) if s != o.winner]
        share = {s: -o.deltas[s] - 100 * k.honba for s in payers}
        if o.winner == k.dealer:
            points = f"{share[payers[0]]}点∀"
        else:
            non_dealer = next(s for s in payers if s != k.dealer)
            points = f"{share[non_dealer]}-{share[k.dealer]}点"
    if o.limit is None:
        return f"{o.fu}符{o.han}飜{points}"
    word = "数え役満" if o.limit == "yakuman" and not o.yakuman else _LIMIT_JA[o.limit]
    return word + points


def _agari_yaku(mjlog_text: str) -> list[tuple[list[tuple[int, int]], list[int]]]:
    """Per AGARI tag in order: its (yaku id, han) pairs and its yakuman ids."""
    out = []
    for tag in re.findall(r"<AGARI [^>]*>", mjlog_text):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        pairs = [int(x) for x in attrs.get("yaku", "").split(",") if x]
        yakuman = [int(x) for x in attrs.get("yakuman", "").split(",") if x]
        out.append((list(zip(pairs[::2], pairs[1::2])), yakuman))
    return out


def mjlog_to_tenhou_json(path: Path, room: str = "鳳") -> dict:
    """The mjlog at ``path`` as one tenhou.net/6 JSON object (a whole game)."""
    game: Game = parse_file(path)
    yaku = iter(_agari_yaku(path.read_text(encoding="utf-8")))
    players = game.players
    log = []
    for k in game.kyokus:
        takes: list[list] = [[] for _ in range(4)]
        discards: list[list] = [[] for _ in range(4)]
        last_draw: list[int | None] = [None] * 4
        dora = list(k.dora)
        for ev in k.events:
            kind, s = ev[0], ev[1]
            if kind == "draw":
                takes[s].append(code(ev[2]))
                last_draw[s] = ev[2]
            elif kind == "discard":
                tile = 60 if last_draw[s] == ev[2] else code(ev[2])
                discards[s].append(f"r{tile}" if ev[3] else tile)
                last_draw[s] = None
            elif kind == "call":
                _, _, mk, tiles, called, frm = ev
                last_draw[s] = None
                if mk in ("chi", "pon", "minkan"):
                    takes[s].append(_call_string({"chi": "c", "pon": "p", "minkan": "m"}[mk], tiles, called, s, frm))
                    if mk == "minkan":
                        discards[s].append(0)
                elif mk == "ankan":
                    rest = [code(t) for t in tiles[1:]]
                    discards[s].append("".join(map(str, rest)) + f"a{code(tiles[0])}")
                else:  # kakan: the pon's string with 'k' and the added tile in the place of 'p'
                    pon = next(x for x in takes[s] if isinstance(x, str) and "p" in x
                               and _plain(x[x.index("p") + 1 : x.index("p") + 3]) == code(called % RED))
                    discards[s].append(pon.replace("p", f"k{code(called)}"))
            elif kind == "kita":
                discards[s].append("f44")
                last_draw[s] = None
            elif kind == "dora":
                dora.append(ev[1])
        o = k.outcomes[0]
        if o.result in ("ron", "tsumo"):
            result: list = ["和了"]
            ura: list[int] = []
            for o in k.outcomes:
                pairs, yakuman = next(yaku)
                if o.ura_indicators:
                    ura = [code(t) for t in o.ura_indicators]
                names = [f"{_yaku_ja(y)}(役満)" for y in yakuman] or [
                    f"{_yaku_ja(y)}({h}飜)" for y, h in pairs if not (y == 53 and h == 0)]
                loser = o.winner if o.loser is None else o.loser
                pao = o.winner if o.pao is None else o.pao
                result += [list(o.deltas), [o.winner, loser, pao, _value(o, k, players), *names]]
        elif o.result == "draw":
            ura = []
            tenpai = o.tenpai or []
            if not any(o.deltas):
                result = ["全員聴牌" if len(tenpai) == players else "全員不聴"]
            else:
                result = ["流局", list(o.deltas)]
        else:
            raise ValueError(f"{o.result} is not written by this converter")
        raw = [[k.kyoku, k.honba, k.kyotaku], list(k.scores), [code(t) for t in dora], ura]
        for s in range(4):
            raw += [[code(t) for t in k.haipai[s]], takes[s], discards[s]]
        log.append(raw + [result])
    disp = ("三" if players == 3 else "") + room + ("南" if game.game_length == "hanchan" else "東") \
        + ("喰" if game.kuitan else "") + ("赤" if game.aka else "")
    out = {
        "title": ["", ""],
        "name": list(game.names),
        "rule": {"disp": disp, "aka53": int(game.aka), "aka52": int(game.aka), "aka51": int(game.aka)},
        "lobby": game.lobby or 0,
        "log": log,
    }
    if game.final_scores is not None:
        out["sc"] = [v for s in range(4) for v in (game.final_scores[s], game.final_points[s])]
    return out


def as_three_seats(game: dict) -> dict:
    """The same three-player game with seat 3 left out, as tensoul-py writes it: three names, six ``sc`` values,
    14 entries a kyoku (scores and deltas keep their four entries)."""
    out = dict(game, name=game["name"][:3], log=[raw[:13] + raw[16:] for raw in game["log"]])
    if "sc" in game:
        out["sc"] = game["sc"][:6]
    return out


if __name__ == "__main__":
    import sys

    print(json.dumps(mjlog_to_tenhou_json(Path(sys.argv[1])), ensure_ascii=False))
