"""The columnar Riichi City reader gives, file by file, the per-game reader's tables, game ids, digests and
refusals: on the test records, on the Mahjong Soul test games written as Riichi City records (the benchmark's),
and on damaged copies of them; and ``import riichicity`` gives the per-game path's records and problems."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from analyzer.formats import read
from analyzer.formats.columns_read import read_with_columns
from analyzer.formats.majsoul.raw import parse_majsoul
from analyzer.formats.riichicity.columns import read_riichicity_tables
from tests.data.riichicity.compose import record_of
from tests.formats.riichicity.rc_records import DATA, EAST, SANMA

RAW = DATA.parent / "majsoul_raw"


def _same_as_per_game(files: list[Path]) -> int:
    """The number of files the columns read; their tables and every file's outcome are the per-game reader's."""
    tables, reads = read_riichicity_tables(files)
    old, old_reads = read_with_columns(files, [None] * len(files), None, 64 << 20, "riichicity")
    assert [(r.game, r.game_id, r.digest, r.error) for r in reads] == [
        (r.game, r.game_id, r.digest, r.error) for r in old_reads]
    for name in ("games", "hands", "events", "outcomes"):
        assert_frame_equal(getattr(tables, name), getattr(old, name))
    return sum(r.columns for r in reads)


def _write(rec: dict, path: Path, indent: int | None = None) -> Path:
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=indent,
                               separators=None if indent else (",", ":")), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> list[Path]:
    """The test records, the Mahjong Soul test games as Riichi City records (four- and three-player, East and
    South), a record without the API's envelope and one written with line breaks."""
    out = tmp_path_factory.mktemp("rc")
    files = [EAST, SANMA]
    for i, raw in enumerate(sorted(RAW.glob("*.json"))):
        game = parse_majsoul(raw.read_text(encoding="utf-8"), "test")
        rec = record_of(game, f"cq3k9u2ai08a{i:08d}", round_type=1 if game.game_length == "tonpuu" else 2)
        files.append(_write(rec, out / f"{raw.stem}.json"))
    files.append(_write(json.loads(EAST.read_text(encoding="utf-8"))["data"], out / "bare.json"))
    files.append(_write(json.loads(SANMA.read_text(encoding="utf-8")), out / "indented.json", indent=2))
    return files


def test_records_are_read_by_the_columns_as_by_the_per_game_reader(records):
    assert len(records) >= 6
    assert _same_as_per_game(records) == len(records)  # all of them by the columns


def _edited(path: Path, change) -> dict:
    rec = json.loads(path.read_text(encoding="utf-8"))
    change(rec["data"] if "handRecord" not in rec else rec)
    return rec


def _event(game: dict, hand: int, pick) -> dict:
    return next(e for e in game["handRecord"][hand]["handEventRecord"] if pick(e))


def _set_data(event: dict, **values) -> None:
    event["data"] = json.dumps({**json.loads(event["data"]), **values})


def _action(code: int):
    return lambda e: e["eventType"] == 4 and json.loads(e["data"]).get("action") == code


DAMAGES = {
    "data_as_objects": lambda g: [e.update(data=json.loads(e["data"])) for e in g["handRecord"][0]["handEventRecord"]],
    "nickname_a_number": lambda g: g["handRecord"][0]["players"][0].update(nickname=1234),
    "key_value_a_number": lambda g: g.update(keyValue=12345678901234567890),
    "gang_pay_a_number": lambda g: g.update(isGangPay=1),
    "bad_tile": lambda g: _set_data(_event(g, 0, _action(11)), card=0x0A),
    "unknown_action": lambda g: _set_data(_event(g, 0, _action(11)), action=12),
    "discard_moved": lambda g: _set_data(_event(g, 1, _action(11)), move_cards_pos=[1, 1]),
    "no_hand_end": lambda g: g["handRecord"][1]["handEventRecord"].remove(_event(g, 1, lambda e: e["eventType"] == 5)),
    "deal_in_play": lambda g: g["handRecord"][0]["handEventRecord"].append(
        copy.deepcopy(g["handRecord"][0]["handEventRecord"][0])),
    "stranger_draws": lambda g: _event(g, 0, lambda e: e["eventType"] == 2 and '"in_card":0' not in e["data"]).update(
        userId=4242),
    "data_with_line_breaks": lambda g: _event(g, 0, _action(11)).update(
        data=json.dumps(json.loads(_event(g, 0, _action(11))["data"]), indent=1)),
    "no_riichi_type": lambda g: [_set_data(e, li_zhi_type=None) for e in g["handRecord"][1]["handEventRecord"]
                                 if e["eventType"] == 4 and '"is_li_zhi":true' in e["data"]],
    "hand_field_null": lambda g: g["handRecord"][2].update(quanFeng=None),
    "counter_beyond": lambda g: [_set_data(e, ben_chang_num=40000) for e in g["handRecord"][1]["handEventRecord"]
                                 if e["eventType"] == 1],
}


READ_BY_COLUMNS = {"discard_moved", "no_riichi_type", "data_as_objects"}  # damages the per-game reader reads too


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_a_damaged_record_gives_the_per_game_result(name, records, tmp_path):
    files = [_write(_edited(source, DAMAGES[name]), tmp_path / f"{name}_{source.stem}.json")
             for source in (EAST, SANMA, records[2])]
    assert _same_as_per_game(files) == (len(files) if name in READ_BY_COLUMNS else 0)


def test_an_envelope_with_a_hand_record_of_its_own_gives_the_per_game_refusal(tmp_path):
    rec = json.loads(EAST.read_text(encoding="utf-8"))
    rec["handRecord"] = None  # the per-game reader does not look inside "data" then
    assert _same_as_per_game([_write(rec, tmp_path / "envelope.json")]) == 0


_VALUES = [None, 0, 1, -1, 5, 7, 11, 13, 0x15, 0x115, 0x41, 999, True, "x", "", [], [0x11], {}, 1.5]
_EDITS = st.tuples(st.sampled_from(["delete", "repeat", "swap", "data", "event", "hand", "top"]),
                   st.integers(0, 10**6), st.integers(0, 10**6), st.sampled_from(range(len(_VALUES))))


def _apply(game: dict, kind: str, at: int, pick: int, value) -> None:
    hand = game["handRecord"][at % len(game["handRecord"])]
    events = hand["handEventRecord"]
    i = pick % len(events)
    if kind == "delete":
        del events[i]
    elif kind == "repeat":
        events.insert(i, copy.deepcopy(events[at % len(events)]))
    elif kind == "swap":
        j = at % len(events)
        events[i], events[j] = events[j], events[i]
    elif kind == "data" and (data := json.loads(events[i]["data"])):
        data[sorted(data)[at % len(data)]] = value
        events[i]["data"] = json.dumps(data)
    elif kind == "event":
        events[i][sorted(events[i])[at % len(events[i])]] = value
    elif kind == "hand":
        keys = sorted(k for k in hand if k != "handEventRecord")
        hand[keys[at % len(keys)]] = value
    elif kind == "top":
        keys = sorted(k for k in game if k != "handRecord")
        game[keys[at % len(keys)]] = value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(_EDITS, min_size=1, max_size=3), which=st.integers(0, 10**6))
def test_any_edit_of_a_record_gives_the_per_game_result(records, tmp_path_factory, edits, which):
    """Events deleted, repeated or swapped, or a value of an event's data, an event, a hand or the game replaced
    by one of any JSON type: the columns read the record as the per-game reader does, or leave it to that
    reader."""
    rec = json.loads(records[which % len(records)].read_text(encoding="utf-8"))
    game = rec["data"] if "handRecord" not in rec else rec
    for kind, at, pick, value in edits:
        _apply(game, kind, at, pick, _VALUES[value])
    _same_as_per_game([_write(rec, tmp_path_factory.mktemp("edited") / "edited.json")])


def test_import_riichicity_through_the_columns_gives_the_per_game_paths_records(records, monkeypatch):
    old, old_problems = _run(records, False, monkeypatch)
    new, new_problems = _run(records, True, monkeypatch)
    assert old.height > 40
    assert_frame_equal(new, old)
    assert new_problems == old_problems


def _run(files, columns: bool, monkeypatch):
    monkeypatch.setattr(read, "reads_as_columns", lambda paths, log_format: columns)
    try:
        return read.read_logs(files, workers=2, log_format="riichicity")
    finally:
        monkeypatch.undo()
