"""A Tenhou lobby's custom rules (``csrule``; ``analyzer/formats/tenhou/csrule.py``): the start and return points
and the uma table read, a table whose rows differ read as a floating uma (``Rules.floating_uma``), every other
field named as not decoded, from an mjlog's ``GO csrule`` and from a tenhou.net/6 JSON log whose ``rule`` is the
list of the same fields (which failed before with ``AttributeError: 'list' object has no attribute 'get'``).

The two logs are composed, not real games: ``tests/data/lobby/compose_floating_uma.py`` writes them and works
their numbers (25,000 returned at 30,000, three players below 30,000 at the end: the row 35/-5/-10/-20).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.api import check, score
from analyzer.cli import main
from analyzer.core.rules import preset
from analyzer.formats.model import Game
from analyzer.formats.read import read_tenhou
from analyzer.formats.settlement import logged_settlement
from analyzer.formats.tenhou.csrule import csrule_fields, read_csrule

DATA = Path(__file__).resolve().parents[2] / "data"
MJLOG, JSON_LOG = DATA / "lobby" / "floating_uma.mjlog", DATA / "lobby" / "floating_uma.json"
TABLE = "15/5/-5/-15,10/5/0/-15,15/5/-5/-15,35/-5/-10/-20,35/-5/-10/-20"
READ = ("read start_points 25000, return_points 30000, floating_uma (0 below: 15/5/-5/-15, 1 below: 10/5/0/-15, "
        "2 below: 15/5/-5/-15, 3 below: 35/-5/-10/-20, 4 below: 35/-5/-10/-20), tie_rule split; not decoded: field 1 "
        "0FE0BF0B, field 2 0000001F, field 7 30000; otherwise scored under Tenhou's rules")


@pytest.mark.parametrize("path, spec, notes", [
    (MJLOG, f"tenhou;game_length=east;return_points=30000;floating_uma={TABLE};tie_rule=split;"
            "game_points_rounding=tenth", [f"custom rules (GO csrule): {READ}"]),
    # the JSON names no room: the length from the play (a bust in E1: a hanchan's end as well), said first
    (JSON_LOG, f"tenhou;return_points=30000;floating_uma={TABLE};tie_rule=split;game_points_rounding=tenth",
     ["a lobby's custom rules as the rule list name no room: the game length is read from the play (east-only "
      "when it ends in the East round without a bust: hanchan here), red fives count where dealt, open tanyao is "
      "taken as allowed", f"custom rules (csrule, from a JSON log): {READ}"]),
])
def test_a_custom_lobby_with_a_floating_uma_imports_and_checks_clean(path, spec, notes):
    hands, problems = read_tenhou([path])
    assert [(p.reason, p.imported) for p in problems] == [(note, True) for note in notes]
    assert set(hands["rules"]) == {spec}
    assert hands["settlement"].to_list() == [None]  # the row of its table fits the recorded result: nothing more
    assert hands["rules_note"].to_list() == [notes[-1]]
    result = check(hands, None, keep_scored=False)
    assert result.ok, result.mismatches
    assert result.notes["recorded"].to_list() == ["lobby_rules"]
    games = score(hands, None).games.sort("seat")
    assert games["final_score"].to_list() == [25_000, 57_000, 25_000, -7_000]
    assert games["uma"].to_list() == [-7.5, 35.0, -7.5, -20.0]  # the row for three below, places 2-3 shared
    assert games["game_points"].to_list() == [-12.5, 82.0, -12.5, -57.0]


def test_the_json_rule_list_is_the_mjlog_csrule():
    rule = json.loads(JSON_LOG.read_text(encoding="utf-8"))["rule"]
    mjlog = MJLOG.read_text(encoding="utf-8")
    assert f'csrule="{csrule_fields(rule)}"' in mjlog


@pytest.mark.parametrize("values, text", [
    (["0FE0BF0B", None, 30000, 30000.0, "", True, False, -5], "0FE0BF0B,,30000,30000,,1,0,-5"),
    ([1.5, {"a": 1, "b": 2}, [1, 2]], '1.5,{"a": 1; "b": 2},[1; 2]'),  # named as not decoded, never shifting
])
def test_a_json_rule_list_as_csrule_text(values, text):
    assert csrule_fields(values) == text


ROWS = ["5,-5,-15"] * 5
HEAD = "0FE0BF0B,0000001F,,,30000,30000,30000," + "," * 14


@pytest.mark.parametrize("text, players, start, options, read, undecoded", [
    # the log's first hand starts at 30,000: the spec says it already
    (HEAD + ",".join(ROWS) + ",,,,", 4, 30000,
     {"return_points": 30000, "uma": (15.0, 5.0, -5.0, -15.0), "tie_rule": "split"},
     ["start_points 30000", "return_points 30000", "uma 15/5/-5/-15 (every row of its uma table)", "tie_rule split"],
     ["field 1 0FE0BF0B", "field 2 0000001F", "field 7 30000"]),
    # a fragment (no first hand): the start is given
    (",,,,25000,30000", 4, None, {"start_points": 25000, "return_points": 30000},
     ["start_points 25000", "return_points 30000"], []),
    # rows that differ: a floating uma, first place taking minus the others' sum
    (",,,," + "," * 17 + "5,-5,-15,5,0,-15,5,-5,-15,-5,-10,-20,-5,-10,-20", 4, None,
     {"floating_uma": ((15.0, 5.0, -5.0, -15.0), (10.0, 5.0, 0.0, -15.0), (15.0, 5.0, -5.0, -15.0),
                       (35.0, -5.0, -10.0, -20.0), (35.0, -5.0, -10.0, -20.0)), "tie_rule": "split"},
     ["floating_uma (0 below: 15/5/-5/-15, 1 below: 10/5/0/-15, 2 below: 15/5/-5/-15, 3 below: 35/-5/-10/-20, "
      "4 below: 35/-5/-10/-20)", "tie_rule split"], []),
    # three players, rows that differ: rows 0-3 of places 2 and 3
    ("," * 21 + "0,-15,,0,-15,,5,-20,,5,-20,", 3, None,
     {"floating_uma": ((15.0, 0.0, -15.0), (15.0, 0.0, -15.0), (15.0, 5.0, -20.0), (15.0, 5.0, -20.0)),
      "tie_rule": "split"},
     ["floating_uma (0 below: 15/0/-15, 1 below: 15/0/-15, 2 below: 15/5/-20, 3 below: 15/5/-20)", "tie_rule split"],
     []),
    # three players with a place-4 number: not the layout known, every field of the table named
    ("," * 21 + "0,-15,-5" + ",0,-15," * 3, 3, None, {}, [],
     ["field 22 0", "field 23 -15", "field 24 -5", "field 25 0", "field 26 -15", "field 28 0", "field 29 -15",
      "field 31 0", "field 32 -15"]),
    # a negative or unreadable start, an uma that would overflow: not read, named
    (",,,,-5,x," + "," * 15 + ",".join(["9999999,9999999,9999999"] * 5), 4, None, {}, [],
     ["field 5 -5", "field 6 x", *[f"field {22 + i} 9999999" for i in range(15)]]),
])
def test_what_a_csrule_gives(text, players, start, options, read, undecoded):
    custom = read_csrule(text, players, start)
    assert (custom.options, custom.read, custom.undecoded) == (options, read, undecoded)


def _finished(finals: list[int], points: list[float]) -> Game:
    game = Game(file="g.mjlog", ref=None, names=["A", "B", "C", "D"], lobby_type=0x101)
    game.final_scores, game.final_points = finals, points
    return game


FLOATING = preset("tenhou").replace(
    return_points=30000, tie_rule="split", floating_uma=((15, 5, -5, -15), (10, 5, 0, -15), (15, 5, -5, -15),
                                                         (35, -5, -10, -20), (35, -5, -10, -20)))


@pytest.mark.parametrize("finals, points, spec, note", [
    # one below (seat 3): the row 10/5/0/-15; Tenhou's rounding, first place minus the others' sum
    ([40000, 31000, 30000, -1000], [40.0, 6.0, 0.0, -46.0], "", None),
    # three below: the row 35/-5/-10/-20
    ([58000, 25000, 24000, -7000], [83.0, -10.0, -16.0, -57.0], "", None),
    # a result that is not the row's: read back, the table replaced, said once
    ([58000, 25000, 24000, -7000], [73.0, 0.0, -16.0, -57.0], ";floating_uma=;uma=25/5/-10/-20",
     "the recorded game points fit no rule we know: scored as recorded, with uma 25/5/-10/-20 by place "
     "(tenhou's 35/-5/-10/-20 (the row of its floating uma for 3 below) -10/+10/+0/+0: the lobby's own uma, or a "
     "bust bonus (D ended below zero))"),
    # an uma Tenhou has used: written, nothing more to say
    ([58000, 25000, 24000, -7000], [68.0, 5.0, -16.0, -57.0], ";floating_uma=;uma=20/10/-10/-20", None),
])
def test_a_floating_uma_is_read_against_the_row_of_its_count_below(finals, points, spec, note):
    settled = logged_settlement(_finished(finals, points), FLOATING, 25000)
    assert (settled.spec, settled.note) == (spec, note)


def test_rules_show_lists_the_floating_uma():
    result = CliRunner().invoke(main, ["rules", "show", f"tenhou;floating_uma={TABLE}"], terminal_width=400)
    assert result.exit_code == 0
    row = next(line for line in result.output.splitlines() if line.lstrip("│ ").startswith("floating_uma"))
    assert "0 below: 15/5/-5/-15; 1 below: 10/5/0/-15" in row
    assert "floating_uma" in CliRunner().invoke(main, ["rules", "show", "tenhou"]).output


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.lists(st.integers(-60, 60), min_size=3, max_size=3), min_size=5, max_size=5),
       start=st.sampled_from([None, 25000]))
def test_any_uma_table_gives_a_ruleset(rows, start):
    """Whatever numbers the table holds, the options make a valid ruleset whose every row adds up to zero."""
    text = ",,,,25000,30000," + "," * 15 + ",".join(",".join(map(str, r)) for r in rows)
    options = read_csrule(text, 4, start).options
    rules = preset("tenhou").replace(**options)
    table = rules.floating_uma or (rules.uma,)
    assert all(abs(sum(row)) < 1e-9 for row in table)
