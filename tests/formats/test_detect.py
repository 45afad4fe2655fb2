"""Formats told from content (:mod:`analyzer.formats.detect`), and ``import`` with no format word on a
folder of mixed logs under misleading names: the same hand records as the format-word imports of the originals."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from analyzer.formats.detect import MJAI, MJLOG, SNIFF_CHARS, TENHOU_JSON, detect_format
from analyzer.formats.read import read_logs

DATA = Path(__file__).parents[1] / "data"
TENHOU_GAME = {"title": ["", ""], "name": ["A", "B", "C", "D"], "rule": {"disp": "般南喰赤", "aka": 1},
               "log": [[[0, 0, 0], [25000] * 4, [16], [], *([[11]] * 12), ["流局", [0, 0, 0, 0]]]]}


@pytest.mark.parametrize(("text", "expected"), [
    ('<mjloggm ver="2.3"><SHUFFLE/></mjloggm>', MJLOG),
    ('\ufeff<?xml version="1.0"?>\n<mjloggm ver="2.3">', MJLOG),
    ("  \n<mjloggm>", MJLOG),
    (json.dumps(TENHOU_GAME), TENHOU_JSON),
    (json.dumps(TENHOU_GAME, indent=1), TENHOU_JSON),  # pretty-printed: the first line is "{"
    (json.dumps(TENHOU_GAME) + "\n" + json.dumps(TENHOU_GAME), TENHOU_JSON),  # JSON lines, a kyoku each (mjx)
    ('{"title": ["x"], "name": ["' + "a" * SNIFF_CHARS + '"], "log": []}', TENHOU_JSON),  # longer than sniffed
    ('{"type":"start_game","names":["A","B","C","D"]}\n{"type":"start_kyoku"}', MJAI),
    ('{"type": "start_game", "id": 0}', MJAI),
    ("", None),
    ("hello", None),
    ("{}", None),
    ('{"type": 3}', None),
    ("[1, 2]", None),
    ("{not json", None),
])
def test_detect_format(text: str, expected: str | None) -> None:
    assert detect_format(text) == expected


def _mixed_folder(tmp_path: Path) -> Path:
    """The test logs under names that do not tell their format: an mjlog as .xml, mjai as .json and gzipped
    .jsonl, tensoul JSON as .jsonl."""
    mixed = tmp_path / "mixed"
    (mixed / "sub").mkdir(parents=True)
    for f in sorted((DATA / "mjlog").glob("*.mjlog")):
        shutil.copy(f, mixed / f"{f.stem}.xml")
    for i, f in enumerate(sorted((DATA / "mjai").glob("*.*son"))):
        if i % 2:
            (mixed / "sub" / f"{f.stem}.jsonl.gz").write_bytes(gzip.compress(f.read_bytes()))
        else:
            shutil.copy(f, mixed / f"{f.stem}.json")
    for f in sorted((DATA / "majsoul").glob("*.json")):
        shutil.copy(f, mixed / "sub" / f"{f.stem}.jsonl")
    return mixed


def test_import_detects_each_file_of_a_mixed_folder(tmp_path: Path) -> None:
    tenhou, tenhou_problems = read_logs([DATA / "mjlog", DATA / "majsoul"], 1, "tenhou")
    mjai, mjai_problems = read_logs([DATA / "mjai"], 1, "mjai")
    mixed, problems = read_logs([_mixed_folder(tmp_path)], 1, "auto")
    assert not [p for p in problems if not p.imported]
    assert len(problems) == len(tenhou_problems) + len(mjai_problems)  # the same notes
    key = ["game_id", "log_row"]
    expected = pl.concat([tenhou, mjai]).drop("log_file").sort(key)
    assert mixed.height == expected.height > 0
    assert mixed.drop("log_file").sort(key).equals(expected)


def test_import_names_a_file_of_no_known_format(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text('{"hello": "world"}')
    shutil.copy(DATA / "mjlog" / "triple_yakuman.mjlog", tmp_path / "game.xml")
    hands, problems = read_logs([tmp_path], 1, "auto")
    assert hands.height > 0
    assert [(Path(p.file).name, p.reason) for p in problems] == [
        ("notes.json", "not a log of a known format (mjlog XML, tenhou.net/6 JSON, mjai JSON lines or Mahjong Soul "
                       "raw records)")]


def test_the_raw_record_reader_is_asked_only_about_texts_of_no_other_format(monkeypatch) -> None:
    from analyzer.formats import detect

    asked: list[str] = []

    def raw_record(text: str):
        asked.append(text)
        return detect.RawRecord(None, None, [("NewRound", {})]) if text.startswith("[") else None

    monkeypatch.setattr(detect, "raw_record", raw_record)
    assert detect_format('[{"name": ".lq.RecordNewRound"}]') == detect.MAJSOUL_RAW
    assert detect_format('{"head": {}, "data": []}') is None
    assert detect_format("<mjloggm>") == MJLOG and detect_format(json.dumps(TENHOU_GAME)) == TENHOU_JSON
    assert len(asked) == 2


def test_a_raw_record_told_by_its_content_is_read_once_and_as_its_format_reads_it(monkeypatch) -> None:
    from analyzer.formats.game_files import TEXTS
    from analyzer.formats.majsoul import raw
    from analyzer.formats.parse import read_game

    path = sorted((DATA / "majsoul_raw").glob("*.json"))[0]
    named = read_game(path, "majsoul")
    read: list[object] = []
    actions = raw._actions
    monkeypatch.setattr(raw, "_actions", lambda obj: read.append(obj) or actions(obj))
    game, gid, digest, error = read_game(path, "auto")
    assert error is None and len(read) == 1  # telling it read the record's actions: its reader did not again
    assert (gid, digest) == named[1:3] and game.notes == named[0].notes
    assert all(TEXTS[fmt](game) == TEXTS[fmt](named[0]) for fmt in ("mjai", "tenhou6"))
