"""Mahjong Soul's record as the game sends it (``analyzer/formats/majsoul/protobuf.py``): the raw JSON records of
``tests/data/majsoul_raw`` encoded here with the game's schema (ms-api's compiled liqi, the ``majsoul-protobuf``
extra; ``tests/data/majsoul_protobuf/compose.py`` does the encoding) as the ``fetchGameRecord`` response — the
frame's bytes, its hex text and the other forms tools save — import into the hand records, events and ``check``
findings of their JSON twins; a damaged record is one problem line; without the extra, one line names it."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.cli import main
from analyzer.formats import read_majsoul, read_mjai, read_tenhou
from analyzer.formats.detect import MAJSOUL_PROTOBUF, MJLOG, detect_bytes
from analyzer.formats.majsoul import protobuf
from analyzer.formats.majsoul.protobuf import EXTRA, protobuf_record

DATA = Path(__file__).resolve().parents[2] / "data"
RAW, STORED = DATA / "majsoul_raw", DATA / "majsoul_protobuf"
GAMES = ["ranked_east", "ranked_south", "ranked_sanma", "friendly_south", "riichi_ron"]

try:
    from tests.data.majsoul_protobuf import compose
except ImportError as exc:  # the extra is not installed: only the tests that need no schema run
    compose, MISSING_REASON = None, f"the {EXTRA} extra is not installed ({exc})"
else:
    MISSING_REASON = ""
needs_schema = pytest.mark.skipif(compose is None, reason=MISSING_REASON)


def _record(name: str) -> dict:
    return json.loads((RAW / f"{name}.json").read_text(encoding="utf-8"))


def _without_file(frame: pl.DataFrame) -> list[dict]:
    return frame.drop([c for c in frame.columns if c in ("log_file", "file")]).to_dicts()


def _read(path: Path) -> tuple[pl.DataFrame, list]:
    hands, problems = read_majsoul([path])
    return hands, problems


def _forms(record: dict) -> dict[str, bytes]:
    """The record as tools save the response: the frame's bytes and hex text, and the other forms read."""
    frame = compose.frame(record)
    response = compose.response(record)
    return {
        "frame.pb": frame,
        "frame.hex": compose.hex_dump(frame).encode(),
        "compact-upper.hex": frame.hex().upper().encode(),
        "frame.b64": base64.b64encode(frame),
        "wrapper.bin": frame[3:],
        "named-wrapper.bin": compose.pb.Wrapper(name=".lq.ResGameRecord", data=response).SerializeToString(),
        "response.pb": response,
        "frame.pb.gz": gzip.compress(frame),
    }


# --- the same game as its JSON twin ---------------------------------------------------------------------------

@needs_schema
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("form", ["frame.pb", "frame.hex"])
def test_the_protobuf_record_gives_the_hand_records_of_its_json_twin(tmp_path, name, form):
    path = tmp_path / form
    path.write_bytes(_forms(_record(name))[form])
    expected, expected_problems = _read(RAW / f"{name}.json")
    hands, problems = _read(path)
    assert problems == expected_problems == []
    assert hands.columns == expected.columns
    assert _without_file(hands) == _without_file(expected)
    assert hands["log_file"].unique().to_list() == [str(path)]


@needs_schema
@pytest.mark.parametrize("form", ["compact-upper.hex", "frame.b64", "wrapper.bin", "named-wrapper.bin",
                                  "response.pb", "frame.pb.gz"])
def test_every_form_tools_save_reads_the_same_hands(tmp_path, form):
    path = tmp_path / form
    path.write_bytes(_forms(_record("ranked_east"))[form])
    assert detect_bytes(path.read_bytes() if not form.endswith(".gz") else gzip.decompress(path.read_bytes())) \
        == MAJSOUL_PROTOBUF
    hands, problems = _read(path)
    assert problems == []
    assert _without_file(hands) == _without_file(_read(RAW / "ranked_east.json")[0])


@needs_schema
@pytest.mark.parametrize("name", ["ranked_sanma", "riichi_ron"])
def test_the_events_are_those_of_the_json_twin(tmp_path, name):
    path = tmp_path / "record.pb"
    path.write_bytes(compose.frame(_record(name)))
    tables = []
    for i, source in enumerate((RAW / f"{name}.json", path)):
        out = tmp_path / f"events_{i}.parquet"
        summary = analyzer.export_events([source], out, workers=1)
        assert summary.problems == []
        tables.append(pl.read_parquet(out))
    assert tables[0].height > 100
    assert _without_file(tables[1]) == _without_file(tables[0])


@needs_schema
def test_check_finds_what_it_finds_on_the_json_twin(tmp_path):
    """A result block that says seat 2 ended with 12,300 (the hands leave it 11,300): the same findings, seat by
    seat, from the JSON and from the protobuf; the untouched games agree with the server."""
    record = _record("ranked_east")
    for player in record["head"]["result"]["players"]:
        if player["seat"] == 2:
            player |= {"part_point_1": 12300, "total_point": -27700}
    as_json, as_protobuf = tmp_path / "record.json", tmp_path / "record.pb"
    as_json.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    as_protobuf.write_bytes(compose.frame(record))
    findings = [analyzer.check(_read(p)[0]).findings for p in (as_json, as_protobuf)]
    assert findings[0].height == 2
    assert _without_file(findings[1]) == _without_file(findings[0])
    for name in GAMES:
        (tmp_path / f"{name}.hex").write_bytes(compose.hex_dump(compose.frame(_record(name))).encode())
    hands, problems = read_majsoul([tmp_path / f"{name}.hex" for name in GAMES])
    assert problems == [] and hands["game_id"].n_unique() == len(GAMES)
    assert analyzer.check(hands).ok


@needs_schema
@pytest.mark.parametrize("stored, twin", [("ranked_south.pb", "ranked_south"), ("ranked_sanma.hex", "ranked_sanma")])
def test_the_stored_records_read_as_their_json_twins(stored, twin):
    """Encoded once and kept: a schema package that renumbered a field would fail here."""
    hands, problems = _read(STORED / stored)
    assert problems == []
    assert _without_file(hands) == _without_file(_read(RAW / f"{twin}.json")[0])
    data = (STORED / stored).read_bytes()
    assert protobuf_record(data) == compose.frame(_record(twin))


@needs_schema
def test_the_command_line_reads_a_folder_of_them_and_bytes_and_hex_are_one_content(tmp_path):
    (tmp_path / "copy.hex").write_bytes(compose.hex_dump((STORED / "ranked_south.pb").read_bytes()).encode())
    out = tmp_path / "hands.parquet"
    result = CliRunner().invoke(main, ["import", "majsoul", str(STORED), str(tmp_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "imported 2 game(s), 15 row(s)" in result.output
    assert "the same content" in result.output  # copy.hex: the bytes of ranked_south.pb
    assert analyzer.check(pl.read_parquet(out)).ok
    auto = CliRunner().invoke(main, ["import", str(STORED), "-o", str(tmp_path / "auto.parquet")])
    assert auto.exit_code == 0, auto.output
    assert "imported 2 game(s), 15 row(s)" in auto.output


# --- damaged records, other readers, the missing extra ---------------------------------------------------------

def _stored_frame() -> bytes:
    return (STORED / "ranked_south.pb").read_bytes()


def _wrapper(name: str, data: bytes) -> bytes:
    return b"\x0a" + bytes([len(name)]) + name.encode() + b"\x12" + _length(data) + data


def _length(data: bytes) -> bytes:
    n, out = len(data), b""
    while n >= 0x80:
        out, n = out + bytes([n & 0x7F | 0x80]), n >> 7
    return out + bytes([n])


@needs_schema
@pytest.mark.parametrize("content, reason", [
    (_stored_frame()[: len(_stored_frame()) // 2], "a Mahjong Soul protobuf record that does not decode (truncated"),
    (_stored_frame()[:-3], "a Mahjong Soul protobuf record that does not decode (truncated"),
    (_stored_frame().hex()[:5000].encode(), "a Mahjong Soul protobuf record that does not decode (truncated"),
    (_wrapper(".lq.RecordGame", b"\x0a\x01x"), "a Mahjong Soul protobuf message '.lq.RecordGame', not a game record"),
    (b"\x03\x01\x00\x12\x09\x2a\x07https:/", "the fetchGameRecord response holds no rounds (data_url 'https:/')"),
    (b"\x03\x01\x00\x12\x05\x0a\x03\x08\x97\x01", "the fetchGameRecord response is the server's error 151"),
    (b"\x03\x01\x00\x12\x08\x22\x06\x0a\x04.lq.", "the record's data is '.lq.', not an .lq.GameDetailRecords"),
])
def test_a_damaged_binary_record_is_one_problem_line(tmp_path, content, reason):
    path = tmp_path / "record.pb"
    path.write_bytes(content)
    hands, problems = read_majsoul([path, RAW / "ranked_east.json"])
    assert [p.reason[: len(reason)] for p in problems] == [reason]
    assert "\n" not in problems[0].reason
    assert hands["game_id"].n_unique() == 1  # the other file imports


@needs_schema
def test_the_rounds_alone_import_without_a_head(tmp_path):
    """The ``Wrapper`` of ``.lq.GameDetailRecords`` (what a ``data_url`` holds) has no head: the rounds import
    under the ranked rules with the note a headless JSON record gets."""
    rounds = compose.pb.ResGameRecord.FromString(compose.response(_record("ranked_east"))).data
    path = tmp_path / "rounds.bin"
    path.write_bytes(rounds)
    hands, problems = _read(path)
    assert hands.height == 6
    assert [p.reason for p in problems] == ["the record names no room: scored under Mahjong Soul's ranked rules "
                                            "(open tanyao, red fives)"]


@needs_schema
@settings(max_examples=25, deadline=None)
@given(cut=st.integers(0, 30000), flip=st.integers(0, 255), truncate=st.booleans())
def test_any_damage_imports_or_is_one_problem_never_a_crash(tmp_path_factory, cut, flip, truncate):
    data = bytearray(_stored_frame())
    at = cut % len(data)
    if truncate:
        del data[at:]
    else:
        data[at] ^= flip or 1
    path = tmp_path_factory.mktemp("damaged") / "record.pb"
    path.write_bytes(bytes(data))
    hands, problems = read_majsoul([path])
    if hands.height:
        assert all(p.imported for p in problems)
        analyzer.check(hands)
    else:
        assert len(problems) == 1 and problems[0].reason and "\n" not in problems[0].reason


@pytest.fixture
def without_the_extra(monkeypatch):
    """ms-api cannot be imported (as where the extra is not installed); the schema loaded again afterwards."""
    protobuf.load_schema.cache_clear()
    monkeypatch.setitem(__import__("sys").modules, "ms", None)
    monkeypatch.setitem(__import__("sys").modules, "ms.protocol_pb2", None)
    yield
    protobuf.load_schema.cache_clear()


@pytest.mark.parametrize("content", [b"\x03\x07\x00\x12\x02\x1a\x00", b"0307 0012 021a 00\n"])
def test_without_the_extra_one_line_names_it(tmp_path, without_the_extra, content):
    path = tmp_path / "record.pb"
    path.write_bytes(content)
    hands, problems = read_majsoul([path])
    assert hands.height == 0 and len(problems) == 1
    reason = problems[0].reason
    assert reason.startswith("a Mahjong Soul protobuf record: reading it needs the optional extra majsoul-protobuf "
                             "(pip install 'riichi-analyzer[majsoul-protobuf]')")
    assert "\n" not in reason
    result = CliRunner().invoke(main, ["import", "majsoul", str(path), "-o", str(tmp_path / "h.parquet")])
    assert result.exit_code != 0 and "majsoul-protobuf" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("content, expected", [
    (b"\x03\x07\x00\x12\x02\x1a\x00", MAJSOUL_PROTOBUF),  # the frame header: 3 (a response), its index, the Wrapper
    (b"\x03\x07\x00\x0a\x11.lq.ResGameRecord", MAJSOUL_PROTOBUF),  # cut short: still told, the reader names it
    (b"\x0a\x11.lq.ResGameRecord\x12\x00", MAJSOUL_PROTOBUF),
    (b"\x12\x03\x1a\x01\x0a", MAJSOUL_PROTOBUF),  # an unnamed Wrapper: its data the whole rest
    (b"\x12\x09\x1a\x01\x0a", None),  # … or not one
    (b"\x1a\x05\x0a\x03abc", MAJSOUL_PROTOBUF),  # ResGameRecord: head, its uuid first
    (b"  0307 0012\n021a 00\n", MAJSOUL_PROTOBUF),
    (base64.b64encode(b"\x03\x07\x00\x12\x02\x1a\x00"), MAJSOUL_PROTOBUF),
    (b"\n{\"head\": {}}", None),  # a newline is 0x0a: not followed by a name
    (b"<mjloggm ver=\"2.3\">", MJLOG),
    (b"0307 0012 021a 0", None),  # an odd number of digits
    (b"\x0a\x12\x08\x01\x12\x0e.lq.RecordGame\xff\x00", None),
    (b"cafe", None),
])
def test_detection_by_content(content, expected):
    assert detect_bytes(content) == expected


@pytest.mark.parametrize("read", [read_tenhou, read_mjai])
def test_the_other_readers_send_it_to_import_majsoul(tmp_path, read):
    path = tmp_path / "record.json"
    path.write_bytes(_stored_frame())
    _, problems = read([path])
    assert [p.reason for p in problems] == ["a Mahjong Soul protobuf record (the fetchGameRecord response): import it "
                                            "with `analyzer import majsoul`"]
