"""Writes ``kita_ron_riichi.json`` (run: python tests/data/majsoul_raw/compose_kita_ron.py): a composed
three-player Mahjong Soul record, not a real game, in the raw record's shape of ``compose.py`` here, of the case
a kokushi robs a north set aside right after a riichi declaration.

A friendly room (``room_id`` 246810), East only, everyone starting with 35,000. E1, the only hand:

* seat 0, the dealer, dealt 123456789p 1235s and 9s, declares riichi discarding the 9s (a 5s tanki);
* seat 1 draws a north (4z) and sets it aside at once;
* seat 2, dealt the thirteen terminals and honours (a kokushi waiting on all thirteen), wins on that north.
  The server writes the win ``zimo`` (riichienv's ``state_3p/event_handler.rs``: a win on a north set aside is
  marked zimo though the winner is not the seat that drew): kokushi with the thirteen-sided wait, a double
  yakuman in Mahjong Soul, 64,000 from seat 1 (``point_rong``);
* the server's sums (``delta_scores``) pay seat 2 the 64,000 and nothing more: seat 0's stick is not collected,
  and seat 0 ends with its 35,000 (the stick never placed). Seat 1 ends at 35,000 - 64,000 = -29,000, below zero:
  the game ends (Mahjong Soul's tobi).

Final scores 35,000 / -29,000 / 99,000 (they add up to 105,000: no stick lost). Game points as Mahjong Soul
counts them, (final - 35,000) / 1,000 plus its three-player uma 15/0/-15: seat 2 first +64 + 15 = +79, seat 0
second 0 + 0 = 0, seat 1 third -64 - 15 = -79 (``total_point`` is the game points x 1000). A friendly room has no
rank points (``grading_score`` 0).

``kita_ron_riichi_collected.json`` is the same game with the server paying the stick to the winner (65,000,
seat 0 ending at 34,000, seat 2 at 100,000; points -1, -79, +80): the reader then keeps the stick placed.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def record(collected: bool) -> dict:
    stick = 1000 if collected else 0
    finals = [35000 - stick, -29000, 99000 + stick]
    points = [(finals[0] - 35000) // 1000 + 0, -79, (finals[2] - 35000) // 1000 + 15]
    actions = [
        ("RecordNewRound", {"chang": 0, "ju": 0, "ben": 0, "liqibang": 0, "scores": [35000, 35000, 35000],
                            "tiles0": "1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 5s 9s".split(),
                            "tiles1": "1m 1m 2p 3p 4p 6s 7s 8s 2z 2z 5z 5z 6z".split(),
                            "tiles2": "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z".split(),
                            "doras": ["3z"], "left_tile_count": 54}),
        ("RecordDiscardTile", {"seat": 0, "tile": "9s", "moqie": True, "is_liqi": True, "is_wliqi": False}),
        ("RecordDealTile", {"seat": 1, "tile": "4z", "liqi": {"seat": 0, "score": 34000, "liqibang": 1}}),
        ("RecordBaBei", {"seat": 1, "moqie": True}),
        ("RecordHule", {"hules": [{"seat": 2, "zimo": True, "hu_tile": "4z", "count": 2, "fu": 0, "yiman": True,
                                   "fans": [{"id": 49, "val": 2}], "qinjia": False, "doras": ["3z"],
                                   "point_rong": 64000, "point_zimo_qin": 0, "point_zimo_xian": 0}],
                        "delta_scores": [0, -64000, 64000 + stick]}),
    ]
    order = sorted(range(3), key=lambda s: -finals[s])
    head = {
        "uuid": "240415-" + ("c011ec7e" if collected else "0d1c2b3a") + "-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        "start_time": 1713180000, "end_time": 1713180300,
        "config": {"category": 1, "meta": {"room_id": 246810}, "mode": {"mode": 11}},
        "accounts": [{"account_id": 131001 + s, "seat": s, "nickname": name, "level3": {"id": 20301, "score": 0}}
                     for s, name in enumerate(["Kaede", "Minato", "Sora"])],
        "result": {"players": [{"seat": s, "total_point": points[s] * 1000, "part_point_1": finals[s],
                                "part_point_2": 0, "grading_score": 0, "gold": 0} for s in order]},
    }
    body = {"version": 210715,
            "actions": [{"passed": 0, "type": 1, "result": {"name": f".lq.{name}", "data": data}}
                        for name, data in actions]}
    return {"head": head, "data": {"name": ".lq.GameDetailRecords", "data": body}}


if __name__ == "__main__":
    for name, collected in (("kita_ron_riichi.json", False), ("kita_ron_riichi_collected.json", True)):
        (HERE / name).write_text(json.dumps(record(collected), ensure_ascii=False, separators=(",", ":")) + "\n",
                                 encoding="utf-8")
