"""The columnar mjai reader gives, file by file, the per-game reader's tables, game ids, digests and refusals:
on the test logs, on mjai exports of every shared and test mjlog, and on damaged copies of them."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from analyzer.cli import main

from analyzer.formats.columns_read import read_with_columns
from analyzer.formats.mjai.columns import read_mjai_tables, starts_as_mjai

DATA = Path(__file__).resolve().parents[2] / "data"
SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "logs" / "mjlog"


def _same_as_per_game(files: list[Path]) -> int:
    tables, reads = read_mjai_tables(files)
    old, old_reads = read_with_columns(files, [None] * len(files), None, 64 << 20, "mjai")
    assert [(r.game, r.game_id, r.digest, r.error) for r in reads] == [
        (r.game, r.game_id, r.digest, r.error) for r in old_reads]
    for name in ("games", "hands", "events", "outcomes"):
        assert_frame_equal(getattr(tables, name), getattr(old, name))
    return sum(r.columns for r in reads)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[Path]:
    sources = sorted((DATA / "mjlog").rglob("*.mjlog")) + (sorted(SHARED.rglob("*.mjlog")) if SHARED.is_dir() else [])
    out = tmp_path_factory.mktemp("mjai")
    result = CliRunner().invoke(main, ["export", "mjai", *map(str, sources), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return sorted(out.rglob("*.jsonl"))


def test_exports_of_mjlogs_read_by_the_columns_as_by_the_per_game_reader(exported):
    assert exported
    assert _same_as_per_game(exported) == len(exported)  # all of them by the columns


def test_test_logs_and_damaged_copies_give_the_per_game_result(exported, tmp_path):
    files = sorted((DATA / "mjai").glob("*")) + exported[:3]
    text = exported[0].read_text(encoding="utf-8").splitlines()
    damaged = {
        "truncated": text[: len(text) // 2],
        "no_end_game": text[:-1],
        "bad_tile": [line.replace('"pai":"1m"', '"pai":"1x"') for line in text],
        "no_tsumogiri": [line.replace(',"tsumogiri":false', "") for line in text],
        "not_json": text[:5] + ["{not json"] + text[5:],
        "bad_seat": [line.replace('"actor":2', '"actor":7') for line in text],
        "bool_seat": [line.replace('"actor":1', '"actor":true') for line in text],
        "second_game": text + text,
        "no_result": [line for line in text if '"type":"hora"' not in line and '"type":"ryukyoku"' not in line],
        "fan_as_text": [line.replace('["pinfu",1]', '["pinfu","1"]') for line in text],
        # draws and discards not written as mjai writes them: read as the other lines are
        "spaced": [line.replace('"actor":0,', '"actor": 0,') for line in text],
        "meta": [line.replace('"tsumogiri":true}', '"tsumogiri":true,"meta":{"q":1}}') for line in text],
        "odd_key": [line.replace('{"type":"tsumo","actor":3,', '{"type":"tsumo","target":"x","actor":3,')
                    for line in text],
    }
    for name, lines in damaged.items():
        path = tmp_path / f"{name}.mjai.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        files.append(path)
    _same_as_per_game(files)


_VALUE = re.compile(r'(?<=:)("[^"]*"|-?\d+|true|false|null|\[\])')  # a scalar value after its key
_TOKENS = ['0', '3', '4', '-1', '"5mr"', '"1m"', '"?"', 'null', 'true', 'false', '"N"', '[]', '"E"', '99999999999']
_EDITS = st.tuples(st.sampled_from(["delete", "repeat", "swap", "value"]), st.integers(0, 10**6),
                   st.integers(0, 100), st.sampled_from(_TOKENS))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(_EDITS, min_size=1, max_size=3), which=st.integers(0, 10**6))
def test_any_edit_of_a_log_gives_the_per_game_result(exported, tmp_path_factory, edits, which):
    """Lines deleted, repeated, swapped, or a value replaced by another of any JSON type: the columns read the
    file as the per-game reader does, or leave it to that reader."""
    lines = exported[which % len(exported)].read_text(encoding="utf-8").splitlines()
    for kind, at, pick, token in edits:
        i = at % len(lines)
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif kind == "value" and (values := list(_VALUE.finditer(lines[i]))):
            m = values[pick % len(values)]
            lines[i] = lines[i][:m.start()] + token + lines[i][m.end():]
    path = tmp_path_factory.mktemp("edited") / "edited.mjai.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _same_as_per_game([path])


def test_a_file_is_told_as_mjai_by_its_first_bytes(exported, tmp_path):
    text = exported[0].read_bytes()
    (tmp_path / "a.json.gz").write_bytes(gzip.compress(text))
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + text)
    (tmp_path / "tenhou.json").write_text('{"title": ["", ""], "log": []}', encoding="utf-8")
    (tmp_path / "bad.json.gz").write_bytes(b"\x1f\x8b not gzip")
    (tmp_path / "folder.json").mkdir()
    told = {name: starts_as_mjai(tmp_path / name) for name in ("a.json.gz", "bom.json", "tenhou.json", "bad.json.gz",
                                                               "folder.json", "missing.json")}
    assert told == {"a.json.gz": True, "bom.json": True, "tenhou.json": False, "bad.json.gz": False,
                    "folder.json": False, "missing.json": False}
