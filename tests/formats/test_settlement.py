"""The settlement a log's recorded result shows (:mod:`analyzer.formats.settlement`): the uma read back
from the recorded final scores and game points, worked by hand below; a game whose points fit no rule we know
is scored as the server settled it, with one note.

``tests/data/mjlog/private_lobby.mjlog`` is the case of the issue in small: a private lobby (``GO
lobby="10011"``) starting at 30,000, seat 3 busted, the log's points +30/+10/+10/-50 away from Tenhou's uma.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.api import check, score
from analyzer.formats.model import Game
from analyzer.formats.settlement import logged_settlement
from analyzer.formats.read import read_tenhou
from analyzer.core.rules import from_spec, preset

LOBBY = Path(__file__).resolve().parents[1] / "data" / "mjlog" / "private_lobby.mjlog"
NAMES = ["Aoi", "Ben", "Chie", "Dan"]
SAMPLE_FINALS = [34500, 24300, 26000, 15200]  # places 1, 3, 2, 4


def _game(finals, points, players=4) -> Game:
    game = Game(file="g.mjlog", ref=None, names=NAMES[:players] + [""] * (4 - players), players=players)
    game.final_scores, game.final_points = list(finals) + [0] * (4 - players), list(points) + [0.0] * (4 - players)
    return game


# (finals, recorded points, base preset, start, spec written, words of the note or None)
CASES = [
    # Tenhou's uma, whole numbers: 2nd 26-30+10 = 6, 3rd 24-30-10 = -16, 4th 15-30-20 = -35, 1st +45
    (SAMPLE_FINALS, [45, -16, 6, -35], "tenhou", 25000, "", None),
    # the 2009 east-only lobbies' 10/5/-5/-10: 2nd 26-30+5, 3rd 24-30-5, 4th 15-30-10, 1st +35
    (SAMPLE_FINALS, [35, -11, 1, -25], "tenhou", 25000, ";uma=10/5/-5/-10", None),
    # tenths at 30,000 start (no oka) with Tenhou's uma: 50+20, -0.5+10, -1-10, -48.5-20
    ([29000, 80000, 29500, -18500], [-11.0, 70.0, 9.5, -68.5], "tenhou", 30000, ";game_points_rounding=tenth", None),
    # the private lobby: +30/+10/+10/-50 on top, the per-place uma 50/20/0/-70
    ([29000, 80000, 29500, -18500], [-1.0, 100.0, 19.5, -118.5], "tenhou", 30000,
     ";game_points_rounding=tenth;uma=50/20/0/-70", ["uma 50/20/0/-70 by place", "+30/+10/+10/-50",
                                                      "bust bonus (Dan ended below zero)"]),
    # ten points more than the table holds: first's uma 60, said
    ([29000, 80000, 29500, -18500], [-1.0, 110.0, 19.5, -118.5], "tenhou", 30000,
     ";game_points_rounding=tenth;uma=60/20/0/-70", ["add up to +10, not 0"]),
    # whole numbers whose first is not minus the others' sum: exact points, 55 - 4.5 - 20 = 30.5, 6 + 4 = 10,
    # -16 + 5.7 = -10.3, -35 + 14.8 = -20.2
    (SAMPLE_FINALS, [55, -16, 6, -35], "tenhou", 25000, ";game_points_rounding=exact;uma=30.5/10/-10.3/-20.2",
     ["add up to +10, not 0"]),
    # three players (start 35,000, return 40,000, oka 15): 2nd 35-40+0 = -5, 3rd 25-40-20 = -35, 1st +40
    ([45000, 35000, 25000], [40, -5, -35], "tenhou_sanma", 35000, "", None),
    ([45000, 35000, 25000], [50, -5, -45], "tenhou_sanma", 35000, ";uma=30/0/-30", ["uma 30/0/-30 by place"]),
    # equal scores: places by seat (seat 3 second: 40-30+10; seat 1 third: 20-30-10; seat 2 fourth: 20-30-20)
    ([40000, 20000, 20000, 40000], [30, -20, -30, 20], "tenhou", 25000, "", None),
]


@pytest.mark.parametrize("finals, points, base, start, spec, note", CASES)
def test_the_settlement_read_back_from_the_recorded_result(finals, points, base, start, spec, note):
    players = len(finals)
    settled = logged_settlement(_game(finals, points, players), preset(base), start)
    assert settled.spec == spec
    if note is None:
        assert settled.note is None
    else:
        assert settled.note is not None and all(words in settled.note for words in note), settled.note


def test_a_game_without_a_recorded_result_has_nothing_to_say():
    game = Game(file="g.mjlog", ref=None, names=NAMES)
    assert logged_settlement(game, preset("tenhou"), 25000).spec == ""


@settings(max_examples=60, deadline=None)
@given(
    shares=st.lists(st.integers(-300, 900), min_size=4, max_size=4),
    uma=st.lists(st.integers(-600, 600), min_size=3, max_size=3),
    tenths=st.booleans(),
)
def test_any_per_place_uma_comes_back(shares, uma, tenths):
    """Recorded points made from an uma (in tenths, summing to zero) come back as that uma, whatever the scores
    (ties by seat): under tenths as the difference of each place, under Tenhou's whole numbers for places
    2-4 with first place minus their sum."""
    finals = [100 * s for s in shares[:3]]
    finals.append(100_000 - sum(finals))  # four players start at 25,000
    order = sorted(range(4), key=lambda s: (-finals[s], s))
    by_place = [u / 10 if tenths else float(u) for u in uma]
    by_place = [round(-sum(by_place), 1) + 0.0, *by_place]
    points = [0.0] * 4
    for place, seat in enumerate(order):
        if tenths:
            points[seat] = round((finals[seat] - 30000) / 1000 + by_place[place] + (20 if place == 0 else 0), 1)
        elif place:
            thousands = (1 if finals[seat] >= 0 else -1) * ((abs(finals[seat]) + 500) // 1000)
            points[seat] = thousands - 30 + by_place[place]
    if not tenths:
        points[order[0]] = -sum(points)
    settled = logged_settlement(_game(finals, points), preset("tenhou"), 25000)
    if tenths and all(p == round(p) for p in points):
        return  # whole numbers after all: read under Tenhou's rounding, another case
    spec = settled.spec.removeprefix(";game_points_rounding=tenth")
    found = tuple(float(u) for u in spec.removeprefix(";uma=").split("/")) if spec else (20.0, 10.0, -10.0, -20.0)
    assert found == pytest.approx(tuple(by_place), abs=1e-9)


def test_the_private_lobby_is_scored_as_the_server_settled_it():
    hands, problems = read_tenhou([LOBBY])
    assert problems == []
    assert set(hands["rules"]) == {"tenhou;start_points=30000;game_points_rounding=tenth;uma=50/20/0/-70"}
    assert from_spec(hands["rules"][0]).uma == (50, 20, 0, -70)
    assert hands["settlement"].to_list()[:-1] == [None]  # the game's last row says it, once
    result = check(hands, None)
    assert result.ok, result.mismatches
    note = result.notes.filter(pl.col("recorded") == "settlement")
    assert note.height == 1 and note["field"][0] == "game_points" and "50/20/0/-70" in note["explanation"][0]
    assert "settlement 1" in result.notes_text()
    # the standings and statistics use the server's points
    games = score(hands, None).games.sort("seat")
    assert games["game_points"].to_list() == [-1.0, 100.0, 19.5, -118.5]
