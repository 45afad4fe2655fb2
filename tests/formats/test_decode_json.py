"""A log's JSON decoded by ``orjson`` where it can reads exactly as ``json`` reads it, errors included, and
reading a game or a batch of logs leaves the cycle collector as it found it."""

import gc
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.formats.files import collector_paused, decode_json
from analyzer.formats.parse import read_game
from analyzer.formats.tenhou.tenhou6_columns_read import read_tenhou6_tables

DATA = Path(__file__).resolve().parent.parent / "data"
RAW = DATA / "majsoul_raw" / "ranked_east.json"

ODD = [
    '{"a": NaN, "b": Infinity, "c": -Infinity}',  # json's extensions, which orjson refuses
    '{"n": 123456789012345678901234567890}',  # past 64 bits
    '[-9223372036854775809, 18446744073709551616]',  # just past 64 bits, which orjson reads as floats
    '["\\ud800"]',  # a lone surrogate
    '[1e400, -1e400, 1e-400]',  # past a double: json's infinities, which orjson refuses
    '{"k": 1, "k": 2}',  # a key given twice: the last value
    '  [1.5e300, -0.0, 1e-320, 0]\n',
    '"\\u00e9\\n\\t"',
]


@pytest.mark.parametrize("text", ODD)
def test_what_json_reads_reads_the_same(text):
    got, want = decode_json(text), json.loads(text)
    assert json.dumps(got) == json.dumps(want)
    assert _same(got, want)


@pytest.mark.parametrize("text", ['{"log": [1, 2]}\n{"log": [3]}', '{"a": ', "[1, 2,]", "", "nul"])
def test_what_json_refuses_is_refused_with_its_message(text):
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as decoded:
        decode_json(text)
    assert (decoded.value.msg, decoded.value.lineno) == (raised.value.msg, raised.value.lineno)


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_any_json_value_reads_as_json_reads_it(value):
    text = json.dumps(value)
    got, want = decode_json(text), json.loads(text)
    assert json.dumps(got) == json.dumps(want)
    assert _same(got, want)


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_a_game_leaves_the_collector_as_it_was(enabled, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"head": {}, "data": [', encoding="utf-8")
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        game, _, _, error = read_game(RAW, "majsoul")
        assert game is not None and error is None
        assert gc.isenabled() is enabled
        game, _, _, error = read_game(broken, "majsoul")
        assert game is None and error
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_in_the_block_and_restored_after_an_error(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with pytest.raises(ZeroDivisionError):
            with collector_paused():
                assert not gc.isenabled()
                1 / 0
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_reading_tenhou6_json_as_columns_leaves_the_collector_on(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"title": ["", ""], "log": [[[0, 0, 0], ', encoding="utf-8")
    was = gc.isenabled()
    try:
        gc.enable()
        _, reads = read_tenhou6_tables([broken])
        assert reads[0].error and gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
