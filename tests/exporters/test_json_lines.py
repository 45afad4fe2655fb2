"""Per-game JSON lines (:func:`analyzer.exporters.games.json_lines`): each event one line that decodes back to
it, whatever its strings hold (the separator put between events in the one encode call included)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from analyzer.exporters.games import json_lines

_TEXT = st.text(alphabet=st.sampled_from(['\x00', ',', '"', "\\", "\n", "a", "é", "中", "u", "0"]), max_size=8)
_VALUE = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | _TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=3),
                      max_leaves=10)
_EVENT = st.dictionaries(_TEXT, _VALUE, max_size=4)


@given(st.lists(_EVENT, max_size=6))
def test_each_event_is_one_line_that_decodes_back(events: list[dict]) -> None:
    text = json_lines(events)
    assert text.endswith("\n") or not events
    assert [json.loads(line) for line in text.splitlines()] == events


def test_the_separator_string_inside_an_event_does_not_cut_it() -> None:
    events = [{"type": "start_game", "names": ["A", "\x00", "C", "D"]}, {"type": "end_game"}]
    assert json_lines(events).splitlines() == ['{"type":"start_game","names":["A","\\u0000","C","D"]}',
                                               '{"type":"end_game"}']
