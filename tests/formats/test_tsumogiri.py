"""Discards record whether they were the tile just drawn (tsumogiri), in every format: mjlog by tile id,
tenhou.net/6 by code 60, mjai by its ``tsumogiri`` field (guessed from the tile just drawn when a log leaves it
out). Tenhou's own JSON of the same games is the oracle for the mjlog reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.formats.mjai.read import parse_mjai
from analyzer.formats.tenhou.mjlog import parse_mjlog
from analyzer.formats.parse import parse_file

from conftest import SHARED, SHARED_HINT

PAIRS = SHARED / "data" / "pairs" / "mjx-mjlog"
MJX_JSON = SHARED / "data" / "logs" / "tenhou-json" / "mjx"

_MJLOG = ('<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="a" n1="b" n2="c" n3="d"/>'
          '<INIT seed="0,0,0,0,0,1" ten="250,250,250,250" oya="0" hai0="{h0}" hai1="{h1}" hai2="{h2}" hai3="{h3}"/>'
          '{play}<RYUUKYOKU type="yao9" sc="250,0,250,0,250,0,250,0" owari="250,0.0,250,0.0,250,0.0,250,0.0"/>'
          '</mjloggm>')
# seat s holds tile ids s, s+4, ... (copy s of 1m..4p); seat 0 also holds a north (id 120) instead of its 4p
_HANDS = {f"h{s}": ",".join(str(s + 4 * i) for i in range(13)) for s in range(4)}
_HANDS["h0"] = ",".join(str(4 * i) for i in range(12)) + ",120"


def _discards(game) -> list[tuple]:
    return [ev for k in game.kyokus for ev in k.events if ev[0] == "discard"]


@pytest.mark.parametrize(("play", "expected"), [
    ("<T121/><D0/>", [("discard", 0, 0, False, False)]),  # a tile from the hand
    ("<T121/><D120/>", [("discard", 0, 30, False, False)]),  # the same kind from the hand, not the copy drawn
    ("<T121/><D121/>", [("discard", 0, 30, False, True)]),
    ('<T121/><REACH who="0" step="1"/><D121/>', [("discard", 0, 30, True, True)]),
])  # fmt: skip
def test_mjlog_tsumogiri_is_the_tile_id_just_drawn(play, expected):
    game = parse_mjlog(_MJLOG.format(play=play, **_HANDS), "t.mjlog")
    assert _discards(game) == expected


_MJAI = [
    {"type": "start_game", "names": ["a", "b", "c", "d"]},
    {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0, "dora_marker": "1m",
     "scores": [25000] * 4, "tehais": [["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"],
                                        ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N"],
                                        ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"],
                                        ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "P"]]},
    {"type": "tsumo", "actor": 0, "pai": "C"},
]


@pytest.mark.parametrize(("dahai", "expected"), [
    ({"pai": "C", "tsumogiri": True}, True),
    ({"pai": "C", "tsumogiri": False}, False),  # as written, though the tile is the one drawn
    ({"pai": "1m", "tsumogiri": False}, False),
    ({"pai": "C"}, True),  # left out: the tile just drawn
    ({"pai": "1m"}, False),
])  # fmt: skip
def test_mjai_tsumogiri_as_written_else_the_tile_just_drawn(dahai, expected):
    lines = [*_MJAI, {"type": "dahai", "actor": 0, **dahai},
             {"type": "ryukyoku", "reason": "kyushukyuhai", "deltas": [0, 0, 0, 0]},
             {"type": "end_kyoku"}, {"type": "end_game"}]
    game = parse_mjai("\n".join(map(json.dumps, lines)), "t.mjson")
    assert [ev[4] for ev in _discards(game)] == [expected]


def test_mjlog_tsumogiri_equals_tenhous_own_json():
    if not PAIRS.is_dir():
        pytest.skip(f"shared mjlog/JSON pairs not found at {PAIRS} ({SHARED_HINT})")
    mjlogs = sorted(PAIRS.glob("*.mjlog"))
    assert len(mjlogs) == 31
    for mjlog in mjlogs:
        from_xml = _discards(parse_file(mjlog))
        from_json = _discards(parse_file(MJX_JSON / f"{mjlog.stem}.json"))
        assert from_xml == from_json, mjlog.name
        assert any(ev[4] for ev in from_xml) and not all(ev[4] for ev in from_xml)


def test_tenhou6_code_60_is_tsumogiri(shared_logs: Path):
    path = shared_logs / "tenhou-json" / "mjx" / "2010081709gm-00a9-0000-fe3371ad.json"
    raw = json.loads(path.read_text(encoding="utf-8").splitlines()[0])["log"][0]  # mjx: one hand a line
    discards = [ev for ev in parse_file(path).kyokus[0].events if ev[0] == "discard"]
    for s in range(4):
        written = [d for d in raw[6 + 3 * s] if not isinstance(d, str) or d.startswith("r")]
        assert [ev[4] for ev in discards if ev[1] == s] == [d in (60, "r60") for d in written]
