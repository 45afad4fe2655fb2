"""Writes the Mahjong Soul games of ``tests/data/majsoul`` as the server's raw records (run: python
tests/data/majsoul_raw/compose.py), and the sample records of ``sample_logs/majsoul``.

Each game is the one ``tests/data/majsoul/compose.py`` works out hand by hand (there as tensoul writes it); here
its play is written action by action as Mahjong Soul's record holds it, in the shapes its readers take:
smly/RiichiEnv's ``MjSoulReplay`` (``riichienv-core/src/replay/mjsoul_replay.rs``, Apache-2.0: the fields of
``NewRound``, ``DealTile``, ``DiscardTile``, ``ChiPengGang``, ``AnGangAddGang``, ``BaBei``, ``Hule`` with
``hules[].fans[{id, val}]``, ``NoTile``, ``LiuJu``) and Equim-chan/tensoul's ``convert.js`` (the head:
``uuid``, ``config.meta.mode_id`` / ``room_id``, ``config.mode.mode`` and ``detail_rule.dora_count``,
``accounts[].level.id``, ``result.players[].part_point_1`` / ``total_point``; the dealer's 14th tile in
``tiles<ju>``; ``moqie``; a pon's called tile the one from another seat). Fan ids and level ids are those of
tensoul's ``data.json``. The server's own sums: ``delta_scores`` of a win are what was paid — a ron on a
riichi-declaring tile does not pay the declarer's stick (which tensoul adds: ``parsehule``'s ``rp``).

* ``ranked_east.json``: the Gold Room east-only game (mode id 8), ``{"head", "data"}`` with ``data`` the
  ``.lq.GameDetailRecords`` wrapper holding ``actions``;
* ``ranked_south.json``: the Jade Room hanchan (mode id 12), ``data`` holding the older ``records`` list;
* ``ranked_sanma.json``: the three-player Gold Room east-only game (mode id 21), with a north set aside;
* ``friendly_south.json``: the hanchan in a friendly room (``room_id``) with ``detail_rule.dora_count`` 0
  (every red five written as a plain five: the game has no red-five han);
* ``riichi_ron.json`` and ``riichi_ron_tensoul.json``: the east game with seat 0 declaring riichi on the tile
  seat 1 rons in E4-0, raw and as tensoul converts it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.formats.hand_shape import is_tenpai  # noqa: E402
from analyzer.formats.majsoul.rooms import FAN_NAMES  # noqa: E402
from analyzer.formats.replay import replay  # noqa: E402
from analyzer.formats.tenhou.tenhou6_read import parse_json  # noqa: E402
from analyzer.formats.tile_text import tile_str  # noqa: E402
from analyzer.formats.tenhou.yaku_names import yaku_name  # noqa: E402
from tests.data.majsoul.compose import east_game, sanma_game, south_game  # noqa: E402

FAN_IDS = {name: fid for fid, name in FAN_NAMES.items() if fid != 34} | {"kita": 34}
LEVELS = {"初心": 1, "雀士": 2, "雀傑": 3, "雀豪": 4, "雀聖": 5}


def level_id(rank: str, players: int) -> int:
    """``雀豪★1`` -> 10401 (three players: 20401)."""
    name, star = rank.split("★")
    return (10000 if players == 4 else 20000) + 100 * LEVELS[name] + int(star)


def fans(yaku: list[str]) -> tuple[list[dict], bool]:
    """tensoul's yaku strings (``立直(1飜)``, ``抜きドラ(1飜)``) as Mahjong Soul's fans, and whether a yakuman."""
    out, yiman = [], False
    for text in yaku:
        name, _, value = text.partition("(")
        value = value.rstrip(")")
        canonical = "kita" if name == "抜きドラ" else {"ドラ": "dora", "赤ドラ": "aka", "裏ドラ": "ura"}.get(name)
        canonical = canonical or yaku_name(name)
        yiman = yiman or value == "役満"
        out.append({"id": FAN_IDS[canonical], "val": 1 if value == "役満" else int(value.removesuffix("飜"))})
    return out, yiman


def actions(tensoul: dict) -> list[tuple[str, dict]]:
    """The round actions of a tensoul game, from its play as the importer reads it back in order."""
    game = parse_json(json.dumps(tensoul, ensure_ascii=False), "compose")
    n = game.players
    out: list[tuple[str, dict]] = []
    for k, raw in zip(game.kyokus, tensoul["log"]):
        events = list(k.events)
        dealer_first = events.pop(0)  # the dealer's 14th tile, dealt
        tiles = {f"tiles{s}": [tile_str(t) for t in k.haipai[s]] for s in range(n)}
        tiles[f"tiles{k.dealer}"].append(tile_str(dealer_first[2]))
        out.append(("RecordNewRound", {"chang": k.kyoku // 4, "ju": k.kyoku % 4, "ben": k.honba,
                                       "liqibang": k.kyotaku, "scores": k.scores[:n], **tiles,
                                       "doras": [tile_str(t) for t in k.dora], "left_tile_count": 69}))
        riichi_on_last = False
        for ev in events:
            if ev[0] == "draw":
                out.append(("RecordDealTile", {"seat": ev[1], "tile": tile_str(ev[2])}))
            elif ev[0] == "discard":
                _, s, t, declared, tsumogiri = ev
                out.append(("RecordDiscardTile", {"seat": s, "tile": tile_str(t), "moqie": tsumogiri,
                                                  "is_liqi": declared, "is_wliqi": False}))
                riichi_on_last = declared
            elif ev[0] == "call" and ev[2] in ("chi", "pon", "minkan"):
                _, s, mk, call_tiles, called, frm = ev
                own = list(call_tiles)
                own.remove(called)
                out.append(("RecordChiPengGang", {"seat": s, "type": {"chi": 0, "pon": 1, "minkan": 2}[mk],
                                                  "tiles": [tile_str(t) for t in [*own, called]],
                                                  "froms": [s] * len(own) + [frm]}))
            elif ev[0] == "call":
                out.append(("RecordAnGangAddGang", {"seat": ev[1], "type": 3 if ev[2] == "ankan" else 2,
                                                    "tiles": tile_str(ev[4])}))
            elif ev[0] == "kita":
                out.append(("RecordBaBei", {"seat": ev[1], "moqie": False}))
        out.append(_result(k, raw[16], riichi_on_last, n))
    return out


def _result(k, res: list, riichi_on_last: bool, n: int) -> tuple[str, dict]:
    if res[0] != "和了":
        rp = replay(k)
        tenpai = [{"tingpai": is_tenpai(rp.concealed[s], rp.melds[s])} for s in range(n)]
        deltas = res[1][:n] if len(res) > 1 else [0] * n
        scores = [{"old_scores": k.scores[:n], "delta_scores": deltas}] if any(deltas) else []
        return "RecordNoTile", {"liujumanguan": False, "players": tenpai, "scores": scores}
    hules, total = [], [0] * n
    for deltas, info in zip(res[1::2], res[2::2]):
        who, frm = info[0], info[1]
        zimo = who == frm
        yaku, yiman = fans(info[4:])
        han = sum(f["val"] for f in yaku) if not yiman else sum(f["val"] for f in yaku)
        fu = int(info[3].split("符")[0]) if "符" in info[3] else 0
        honba = 100 * k.honba
        hule = {"seat": who, "zimo": zimo, "count": han, "fu": fu, "fans": yaku, "yiman": yiman,
                "qinjia": who == k.dealer, "doras": [tile_str(t) for t in k.dora], "point_rong": 0,
                "point_zimo_qin": 0, "point_zimo_xian": 0}
        if zimo:
            payer = next(s for s in range(n) if s != who and s != k.dealer)
            hule["point_zimo_xian"] = -deltas[payer] - honba
            if who != k.dealer:
                hule["point_zimo_qin"] = -deltas[k.dealer] - honba
        else:
            hule["point_rong"] = -deltas[frm] - (n - 1) * honba
        events = [e for e in k.events if e[0] in ("draw", "discard")]
        hule["hu_tile"] = tile_str(events[-1][2])
        if any(e[0] == "reach" and e[1] == who for e in k.events) and info[4:] and "裏ドラ" in "".join(info[4:]):
            hule["li_doras"] = [tile_str(t) for t in (k.outcomes[0].ura_indicators or [])]
        hules.append(hule)
        server = list(deltas[:n])
        if riichi_on_last and not zimo:  # the declarer's stick never placed: tensoul's deltas count it
            server[who] -= 1000
        total = [a + b for a, b in zip(total, server)]
    return "RecordHule", {"hules": hules, "delta_scores": total}


def record(tensoul: dict, mode_id: int | None, mode: int, accounts: list[tuple[str, int]], start: int,
           grading: list[int], shape: str = "actions", meta: dict | None = None,
           detail_rule: dict | None = None) -> dict:
    """A raw record ``{"head", "data"}`` of a tensoul game; ``shape`` ``actions`` (since 2021) or ``records``."""
    n = 3 if mode >= 10 else 4
    sc = tensoul["sc"]
    head = {
        "uuid": tensoul["ref"], "start_time": start, "end_time": start + 1800,
        "config": {"category": 2 if mode_id else 1, "meta": meta or {"mode_id": mode_id},
                   "mode": {"mode": mode, **({"detail_rule": detail_rule} if detail_rule else {})}},
        "accounts": [{"account_id": aid, "seat": s, "nickname": name,
                      "level" if n == 4 else "level3": {"id": level_id(tensoul["dan"][s], n), "score": tensoul["rate"][s]}}
                     for s, (name, aid) in enumerate(accounts)],
        "result": {"players": [{"seat": s, "total_point": round(sc[2 * s + 1] * 1000), "part_point_1": sc[2 * s],
                                "part_point_2": 0, "grading_score": grading[s], "gold": 0}
                               for s in sorted(range(n), key=lambda s: -sc[2 * s])]},
    }
    wrapped = [{"name": f".lq.{name}", "data": data} for name, data in actions(tensoul)]
    if shape == "records":
        body = {"records": wrapped}
    else:
        body = {"version": 210715, "actions": [{"passed": 0, "type": 1, "result": w} for w in wrapped]}
    return {"head": head, "data": {"name": ".lq.GameDetailRecords", "data": body}}


def write(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def without_red_fives(obj):
    """Every red five written as a plain five (a room without red fives deals none)."""
    return json.loads(json.dumps(obj, ensure_ascii=False).replace('"0m"', '"5m"').replace('"0p"', '"5p"')
                      .replace('"0s"', '"5s"'))


EAST_ACCOUNTS = [("Aoi", 111001), ("Ren", 111002), ("Yui", 111003), ("Sora", 111004)]
SOUTH_ACCOUNTS = [("Sakura", 101234), ("Sakura", 202345), ("Kenji", 303456), ("Mio", 404567)]
SANMA_ACCOUNTS = [("Hana", 121001), ("Taro", 121002), ("Yuki", 121003)]

# Each seat's rank-point change (``grading_score``), worked by hand from Mahjong Soul's formula and tables
# (analyzer.ratings.majsoul_points, docs/ratings.md): ceil((final - start)/1000 + uma) + the room's points, less
# the level's loss for last place. (Earlier versions of this file wrote invented values.)
GRADING = {
    # Gold Room East (4p, 40/20/0/0; East losses): finals 26500, 31000, 11300, 31200 -> places 3, 2, 4, 1
    #   Aoi  3rd: ceil(1.5 - 5) = ceil(-3.5) = -3                       -> -3
    #   Ren  2nd: ceil(6.0 + 5) = 11, + 20                              -> 31
    #   Yui  4th: ceil(-13.7 - 15) = ceil(-28.7) = -28, - 30 (雀士★3)    -> -58
    #   Sora 1st: ceil(6.2 + 15) = ceil(21.2) = 22, + 40                -> 62
    "east": [-3, 31, -58, 62],
    # Jade Room South (4p, 110/55/0/0; South losses): finals 27600, 30400, 18500, 23500 -> places 2, 1, 4, 3
    #   ceil(2.6 + 5) = 8, + 55 -> 63; ceil(5.4 + 15) = 21, + 110 -> 131;
    #   ceil(-6.5 - 15) = ceil(-21.5) = -21, - 210 (雀聖★1) -> -231; ceil(-1.5 - 5) = ceil(-6.5) = -6 -> -6
    "south": [63, 131, -231, -6],
    # three-player Gold Room East (start 35000, uma 15/0/-15, 55/0/0; three-player East losses):
    #   finals 30100, 40400, 34500 -> places 3, 1, 2
    #   ceil(-4.9 - 15) = ceil(-19.9) = -19, - 60 (雀傑★3) -> -79; ceil(5.4 + 15) = 21, + 55 -> 76;
    #   ceil(-0.5 + 0) = 0 -> 0
    "sanma": [-79, 76, 0],
}


def games() -> dict[str, dict]:
    east, south, sanma, riichi = east_game(), south_game(), sanma_game(), east_game(riichi_ron=True)
    friendly = without_red_fives(record(south, None, 2, SOUTH_ACCOUNTS, 1697290897, [0, 0, 0, 0], shape="records",
                                        meta={"room_id": 123456},
                                        detail_rule={"dora_count": 0, "init_point": 25000, "fandian": 30000}))
    friendly["head"]["uuid"] = "231014-0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
    return {
        "ranked_east.json": record(east, 8, 1, EAST_ACCOUNTS, 1693052045, GRADING["east"]),
        "ranked_south.json": record(south, 12, 2, SOUTH_ACCOUNTS, 1697290897, GRADING["south"], shape="records"),
        "ranked_sanma.json": record(sanma, 21, 11, SANMA_ACCOUNTS, 1709291151, GRADING["sanma"]),
        "friendly_south.json": friendly,
        "riichi_ron.json": record(riichi, 8, 1, EAST_ACCOUNTS, 1693052045, GRADING["east"]),
    }


if __name__ == "__main__":
    for name, obj in games().items():
        write(HERE / name, obj)
    write(HERE / "riichi_ron_tensoul.json", east_game(riichi_ron=True))
    samples = ROOT / "sample_logs" / "majsoul"
    write(samples / "ranked_south_4p.json", games()["ranked_south.json"])
    write(samples / "ranked_east_3p.json", games()["ranked_sanma.json"])
