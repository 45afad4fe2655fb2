"""Special Tenhou lobbies (:mod:`analyzer.formats.tenhou.lobby`): a 雀荘 lobby (GO type 0x841), a 祝儀 chip lobby
(0x229) and a lobby with custom rules (``csrule``) import under the settlement their logs record, each with one
note on what of its rules is not reproduced; nothing is refused and ``check`` agrees with every recorded value.

The logs are the hand-made ones of ``tests/data/mjlog`` (``compose.py`` there works their numbers by hand) and
the three shared ones that were refused before (``ratio.xml``, ``sanma.xml``, ``newattr2023.xml``).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from analyzer.api import check, score
from analyzer.formats.tenhou.lobby import lobby_rules
from analyzer.formats.model import Game
from analyzer.formats.settlement import logged_settlement
from analyzer.formats.read import read_tenhou
from analyzer.core.rules import preset

MJLOGS = Path(__file__).resolve().parents[2] / "data" / "mjlog"
CUSTOM = "0FE0BF0B,0000001F,,,30000,30000,30000," + "," * 14 + ",".join(["5,-5,-15"] * 5) + ",,,,"


@pytest.mark.parametrize(
    "log, spec, note, chips",
    [
        # everyone from 1,000; seat 1 rons the dealer for 1,300: -300 / 2,300 / 1,000 / 1,000 is -1.3 / +1.3 / 0 / 0
        ("jansou_lobby", "tenhou;game_length=east;start_points=1000;return_points=1000;uma=0/0/0/0;"
         "game_points_rounding=tenth",
         "a 雀荘 (jansou) lobby (GO type 0x841): game points are the score's change in thousands, no uma, no oka; "
         "not known here: how long its games last, what ratio=0,1 is; otherwise scored under Tenhou's rules", None),
        # a red five pays a chip from each seat (-1/+3/-1/-1), kept apart; Tenhou's points with uma 30/10/-10/-30
        ("chip_lobby", "tenhou;uma=30/10/-10/-30",
         "a 祝儀 (chip) lobby (GO type 0x229, 2 chips a unit): chips are paid apart from the points and not "
         "checked (final chips by seat: -1/+3/-1/-1; ratio=2000,10)", [-1, 3, -1, -1]),
        # 30,000 returned at 30,000, uma 15/5/-5/-15; seats 0 and 2 tie at 30,000 and share (5 - 5)/2 = 0
        ("custom_rules", "tenhou;game_length=east;start_points=30000;return_points=30000;uma=15/5/-5/-15;"
         "tie_rule=split;game_points_rounding=tenth",
         "custom rules (GO csrule): read start_points 30000, return_points 30000, uma 15/5/-5/-15 (every row of its "
         "uma table), tie_rule split; not decoded: field 1 0FE0BF0B, field 2 0000001F, field 7 30000; otherwise "
         "scored under Tenhou's rules", None),
    ],
)
def test_a_special_lobby_imports_with_its_settlement_and_one_note(log, spec, note, chips):
    hands, problems = read_tenhou([MJLOGS / f"{log}.mjlog"])
    gid = hands["game_id"][0]
    assert [(p.reason, p.imported, p.game_id, p.hand) for p in problems] == [(note, True, gid, None)]
    assert set(hands["rules"]) == {spec}
    assert hands["rules_note"].to_list() == [None] * (hands.height - 1) + [note]  # said once, on the last row
    last = hands.row(-1, named=True)
    assert [last[f"recorded_chips_{s}"] for s in range(4)] == (chips or [None] * 4)
    result = check(hands, None, keep_scored=False)
    assert result.ok, result.mismatches
    assert result.notes.select("field", "kind", "recorded", "explanation").rows() == [
        ("rules", "note", "lobby_rules", note)]


def test_tied_places_share_their_uma_in_the_custom_lobby():
    hands, _ = read_tenhou([MJLOGS / "custom_rules.mjlog"])
    games = score(hands, None).games.sort("seat")
    assert games["final_score"].to_list() == [30_000, 79_300, 30_000, -19_300]
    assert games["game_points"].to_list() == [0.0, 64.3, 0.0, -64.3]  # by seat, they would be +5 and -5


def _game(players: int = 4, lobby_type: int = 0x101, custom: str | None = CUSTOM) -> Game:
    return Game(file="g.mjlog", ref=None, names=["A", "B", "C", "D"], players=players, lobby_type=lobby_type,
                custom_rules=custom)


@pytest.mark.parametrize(
    "custom, players, options, undecoded",
    [
        (CUSTOM, 4, {"start_points": 30000, "return_points": 30000, "uma": (15.0, 5.0, -5.0, -15.0),
                     "tie_rule": "split"},
         "field 1 0FE0BF0B, field 2 0000001F, field 7 30000"),
        # an uma table of two rows where five are needed: not decoded, its fields named
        (",,,,25000,30000,," + "," * 14 + "10,-10,-20,5,-5,-15", 4, {"start_points": 25000, "return_points": 30000},
         "field 22 10, field 23 -10, field 24 -20, field 25 5, field 26 -5, field 27 -15"),
        # three players: rows 0-3, places 2 and 3, the place-4 number empty
        (",,,,35000,40000,," + "," * 14 + "0,-15,,0,-15,,0,-15,,0,-15,", 3,
         {"start_points": 35000, "return_points": 40000, "uma": (15.0, 0.0, -15.0), "tie_rule": "split"}, ""),
        # nothing readable: no option, everything said
        ("ABC,,x", 4, {}, "field 1 ABC, field 3 x"),
    ],
)
def test_custom_rules_are_read_where_they_are_known(custom, players, options, undecoded):
    rules = lobby_rules(_game(players, custom=custom))
    assert rules.options == options
    assert rules.note.endswith(f"not decoded: {undecoded or 'nothing else'}; otherwise scored under Tenhou's rules")


@pytest.mark.parametrize(
    "lobby_type, options, note_start",
    [
        (0x09, {}, None),  # a standard lobby: nothing to say
        (0x109, {}, None),  # 暗: how the table looks, nothing scored differs
        (0x841, {"return_points": 1000, "uma": (0.0,) * 4, "game_points_rounding": "tenth"}, "a 雀荘 (jansou) lobby"),
        (0x229, {"uma": (30.0, 10.0, -10.0, -30.0)}, "a 祝儀 (chip) lobby (GO type 0x229, 2 chips"),
        (0x621, {"uma": (30.0, 10.0, -10.0, -30.0)}, "a 祝儀 (chip) lobby (GO type 0x621, 5 chips"),
        (0x409, {}, "GO type 0x409 has lobby bits not known here (0x400)"),  # 祝5 means nothing without chips
        (0x2009, {}, "GO type 0x2009 has lobby bits not known here (0x2000)"),
    ],
)
def test_the_lobby_type_bits(lobby_type, options, note_start):
    game = _game(lobby_type=lobby_type, custom=None)
    rules = lobby_rules(game)
    assert rules.options == options
    assert (rules.note or "").startswith(note_start or "") and (rules.note is None) == (note_start is None)


def _finished(finals: list[int], points: list[float]) -> Game:
    game = _game()
    game.final_scores, game.final_points = finals, points
    return game


def test_a_custom_lobby_whose_result_does_not_share_tied_places_is_read_back_by_seat():
    base = preset("tenhou").replace(return_points=30000, uma=(15.0, 5.0, -5.0, -15.0), tie_rule="split")
    game = _finished([30000, 79300, 30000, -19300], [5.0, 64.3, -5.0, -64.3])  # ties by seat, not shared
    settled = logged_settlement(game, base, 30000)
    assert settled.spec == ";game_points_rounding=tenth;tie_rule=seat"
    assert settled.note is None  # the lobby's own uma, by seat: nothing more to say
    shared = logged_settlement(_finished([30000, 79300, 30000, -19300], [0.0, 64.3, 0.0, -64.3]), base, 30000)
    assert shared.spec == ";game_points_rounding=tenth" and shared.note is None
    whole = logged_settlement(_finished([30000, 62000, 30000, -2000], [0.0, 47.0, 0.0, -47.0]), base, 30000)
    assert whole.spec == ";game_points_rounding=tenth"  # whole numbers that fit exactly: exact


SHARED_SPECIAL = {
    "ratio.xml": "tenhou;game_length=east;start_points=1000;return_points=1000;uma=0/0/0/0;game_points_rounding=tenth",
    "sanma.xml": "tenhou;game_length=east;start_points=1000;return_points=1000;uma=0/0/0/0;game_points_rounding=tenth",
    "newattr2023.xml": "tenhou;game_length=east;start_points=30000;return_points=30000;uma=15/5/-5/-15;"
                       "tie_rule=split;game_points_rounding=tenth",
}


def test_the_shared_special_lobby_logs_import_and_check_clean(shared_logs):
    folder = shared_logs / "mjlog" / "dnovikoff-tenhou"
    hands, problems = read_tenhou([folder / name for name in SHARED_SPECIAL])
    assert all(p.imported for p in problems) and len(problems) == 3  # a note each, nothing refused
    specs = dict(hands.select(pl.col("log_file").str.split("/").list.last(), "rules").unique().iter_rows())
    assert specs == SHARED_SPECIAL
    result = check(hands, None, keep_scored=False)
    assert result.ok, result.mismatches
    assert result.notes["recorded"].to_list() == ["lobby_rules"] * 3


def test_check_on_every_shared_log_finds_only_the_edited_fragments(shared_logs):
    hands, problems = read_tenhou([shared_logs])
    assert not [p for p in problems if not p.imported]  # no file refused
    result = check(hands, None, keep_scored=False)
    files = {Path(f).stem for f in result.mismatches["log_file"]}
    assert files == {"confusing_nakis_1", "confusing_nakis_2"}  # hand-edited mjai-reviewer fragments


@settings(max_examples=200, deadline=None)
@given(
    fields=st.lists(st.one_of(st.just(""), st.integers(-10**12, 10**12).map(str),
                              st.text("0123456789ABCDEF-x", max_size=6)), max_size=45),
    players=st.sampled_from([3, 4]),
    lobby_type=st.integers(0, 0xFFFF),
)
@example(fields=[""] * 21 + ["10000000"] * 3, players=4, lobby_type=0x841)  # an uma whose first would overflow
def test_any_lobby_gives_options_a_ruleset_takes(fields, players, lobby_type):
    """Whatever a log's GO type and csrule hold, the lobby's options make a valid ruleset and its note says
    what was read: a special lobby never stops a file from importing."""
    rules = lobby_rules(_game(players, lobby_type=lobby_type, custom=",".join(fields)))
    preset("tenhou" if players == 4 else "tenhou_sanma").replace(**rules.options)  # raises on a bad value
    assert rules.note and rules.note.count("custom rules (GO csrule)") == 1
