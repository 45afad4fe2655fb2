"""Mahjong Soul, three players: a kokushi robs a north set aside right after a riichi declaration
(``analyzer/formats/majsoul/raw_play.py``). The server writes that win ``zimo`` though the winner did not draw (it
was refused before: "tsumo by seat 2 but the last action is not its draw"), and its sums pay the winner nothing of
the declaration's stick: the stick is not placed, the declarer pays nothing, and ``check`` agrees with every
server value (before, read as a ron, it expected the winner to collect the stick: 65,000 where the server paid
64,000). Where the server's sums do pay the stick, it stays placed.

The records are composed, not real games: ``tests/data/majsoul_raw/compose_kita_ron.py`` writes them and works
their numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import analyzer
from analyzer.formats import read_majsoul
from analyzer.formats.majsoul.raw_play import read_rounds
from analyzer.formats.replay import replay

RAW = Path(__file__).resolve().parents[2] / "data" / "majsoul_raw"
LEFT_OUT, COLLECTED = RAW / "kita_ron_riichi.json", RAW / "kita_ron_riichi_collected.json"


def _with_zimo(path: Path, zimo: bool, tmp_path: Path) -> Path:
    """The record with its win written ``zimo`` or not (decoders differ on the flag of a win on a north)."""
    record = json.loads(path.read_text(encoding="utf-8"))
    record["data"]["data"]["actions"][-1]["result"]["data"]["hules"][0]["zimo"] = zimo
    out = tmp_path / f"{path.stem}_{zimo}.json"
    out.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return out


@pytest.mark.parametrize("path, riichi, deltas, finals, points", [
    (LEFT_OUT, [], [0, -64000, 64000], [35000, -29000, 99000], [0.0, -79.0, 79.0]),
    (COLLECTED, ["0"], [-1000, -64000, 65000], [34000, -29000, 100000], [-1.0, -79.0, 80.0]),
])
@pytest.mark.parametrize("zimo", [True, False])
def test_a_kokushi_on_a_north_after_a_riichi_is_settled_as_the_server_pays_it(path, riichi, deltas, finals, points,
                                                                              zimo, tmp_path):
    hands, problems = read_majsoul([_with_zimo(path, zimo, tmp_path)])
    assert all(p.imported for p in problems)
    row = hands.row(0, named=True)
    assert (row["result"], row["winner"], row["loser"], row["win_tile"], row["riichi"]) == ("ron", "2", "1", "4z",
                                                                                            riichi)
    assert (row["recorded_yakuman"], row["chankan"]) == (2, False)  # kokushi with the thirteen-sided wait
    assert [row[f"recorded_delta_{s}"] for s in range(3)] == deltas
    assert [row[f"recorded_final_{s}"] for s in range(3)] == finals
    assert [row[f"recorded_game_points_{s}"] for s in range(3)] == points
    report = analyzer.check(hands)
    assert report.ok, report.findings
    games = analyzer.score(hands).games.sort("seat")
    assert games["final_score"].to_list() == finals and games["game_points"].to_list() == points


def _actions(path: Path) -> list[tuple[str, dict]]:
    body = json.loads(path.read_text(encoding="utf-8"))["data"]["data"]
    return [(a["result"]["name"].removeprefix(".lq.Record"), a["result"]["data"]) for a in body["actions"]]


def test_without_the_server_sums_the_stick_is_not_placed():
    actions = _actions(LEFT_OUT)
    del actions[-1][1]["delta_scores"]
    [k] = read_rounds(actions)
    assert [e for e in k.events if e[0] == "reach"] == []
    assert k.outcomes[0].deltas == [0, -64000, 64000, 0]
    assert replay(k).riichi == [] and replay(k).riichi_turn[0] == 1  # declared on its first discard, not accepted


def test_a_north_won_on_later_in_the_hand_keeps_the_stick():
    """The same win one draw later (seat 2 draws and discards, seat 0 draws, seat 1 sets a north aside): the
    declaration is long placed, the winner collects it."""
    actions = _actions(COLLECTED)
    win = actions.pop()
    north = actions.pop()
    actions += [("DiscardTile", {"seat": 1, "tile": "4z", "moqie": True}),
                ("DealTile", {"seat": 2, "tile": "5p"}), ("DiscardTile", {"seat": 2, "tile": "5p", "moqie": True}),
                ("DealTile", {"seat": 0, "tile": "7s"}), ("DiscardTile", {"seat": 0, "tile": "7s", "moqie": True}),
                ("DealTile", {"seat": 1, "tile": "4z"}), north, win]
    [k] = read_rounds(actions)
    assert [e for e in k.events if e[0] == "reach"] == [("reach", 0)]
    assert k.outcomes[0].deltas == [0, -64000, 65000, 0]
