"""The columnar tenhou.net/6 JSON reader (analyzer.formats.tenhou.tenhou6_columns_read) gives exactly the log
tables of the per-game reader (analyzer.formats.tenhou.tenhou6_read through tables_from_games, the oracle): on
every shared and test JSON log, on tenhou.net/6 exports of every shared and test mjlog (four and three players,
calls, kans, norths, riichi, multiple rons), on hand-made damage of each rule of its play order and on random
edits of a log; a file it refuses is read by the per-game reader (its reason, or its tables)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SHARED_HINT, SHARED_LOGS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from analyzer.cli import main
from analyzer.formats.columns_read import read_with_columns
from analyzer.formats.files import expand_paths
from analyzer.formats.read_columns import reads_as_columns
from analyzer.formats.tenhou.tenhou6_columns_read import read_tenhou6_tables, starts_as_tenhou6

TESTS = Path(__file__).resolve().parents[2]
MJLOGS = [p for p in sorted((TESTS / "data").rglob("*")) if p.suffix in (".mjlog", ".xml")]


def assert_as_per_game(files: list[Path], log_format: str = "tenhou") -> list[bool]:
    """The columns' tables and reads equal the per-game reader's; per file whether the columns read it."""
    tables, reads = read_tenhou6_tables(files, 64 << 20, log_format)
    old, old_reads = read_with_columns(files, [None] * len(files), None, 64 << 20, log_format)
    assert [(r.game, r.game_id, r.digest, r.error) for r in reads] == [
        (r.game, r.game_id, r.digest, r.error) for r in old_reads]
    tables.check_schemas()
    for name in ("games", "hands", "events", "outcomes"):
        assert_frame_equal(getattr(tables, name), getattr(old, name), check_exact=True)
    return [r.columns for r in reads]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[Path]:
    """tenhou.net/6 exports of the test mjlogs and of the shared ones (when present)."""
    sources = MJLOGS + (expand_paths([SHARED_LOGS / "mjlog"])[0] if SHARED_LOGS.is_dir() else [])
    out = tmp_path_factory.mktemp("tenhou6")
    result = CliRunner().invoke(main, ["export", "tenhou6", *map(str, sources), "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    return sorted(out.rglob("*.json"))


def test_exports_of_mjlogs_are_read_by_the_columns_as_by_the_per_game_reader(exported):
    read = assert_as_per_game(exported)
    assert len(read) >= 20 and all(read)
    players = {json.loads(f.read_text(encoding="utf-8"))["log"][0][1][3] == 0 for f in exported}
    assert players == {True, False}  # three- and four-player games among them


@pytest.mark.skipif(not SHARED_LOGS.is_dir(), reason=f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
@pytest.mark.parametrize("log_format", ["tenhou", "auto"])
def test_every_shared_json_log_reads_as_the_per_game_reader_reads_it(log_format):
    files = sorted((SHARED_LOGS / "tenhou-json").rglob("*.json"))
    read = dict(zip((f.name for f in files), assert_as_per_game(files, log_format)))
    assert read["double_ron.json"] and read["chankan.json"] and read["double_kakan_then_chankan.json"]
    # a call the format leaves ambiguous that the first reading gets wrong: the per-game reader tries again
    assert not read["confusing_nakis_0.json"] and read["confusing_nakis_4.json"]


@pytest.mark.parametrize("log_format", ["tenhou", "auto"])
def test_every_test_json_log_reads_as_the_per_game_reader_reads_it(log_format):
    assert_as_per_game(sorted((TESTS / "data").rglob("*.json")), log_format)


def _log(exported: list[Path], want) -> dict:
    """The longest export whose log satisfies ``want`` (a test of its text)."""
    texts = [text for f in exported if want(text := f.read_text(encoding="utf-8"))]
    assert texts, "no export with that play"
    return json.loads(max(texts, key=len))


def _edited(log: dict, edit) -> dict:
    log = json.loads(json.dumps(log))
    edit(log["log"])
    return log


def _first(hands: list, kind: int, test) -> tuple[int, int, int]:
    """(hand, seat, place) of the first item of a seat's draws (kind 1) or discards (kind 2) passing ``test``."""
    for h, hand in enumerate(hands):
        for s in range(4):
            items = hand[4 + 3 * s + kind] if 4 + 3 * s + kind < len(hand) - 1 else []
            for i, x in enumerate(items):
                if test(x):
                    return h, s, i
    raise AssertionError("no such item")


def _set(kind: int, test, value):
    def edit(hands):
        h, s, i = _first(hands, kind, test)
        hands[h][4 + 3 * s + kind][i] = value
    return edit


def _delete(kind: int, test):
    def edit(hands):
        h, s, i = _first(hands, kind, test)
        del hands[h][4 + 3 * s + kind][i]
    return edit


CALL = re.compile(r"^\d*[cpm]\d+$")
DAMAGE = {
    "bad tile drawn": _set(1, lambda x: isinstance(x, int), 58),
    "float tile": _set(1, lambda x: isinstance(x, int), 11.0),
    "tile as text": _set(2, lambda x: isinstance(x, int) and x != 60, "15"),
    "kan gap where a tile goes": _set(2, lambda x: isinstance(x, int) and x != 60, 0),
    "a discard not held": _set(2, lambda x: isinstance(x, int) and x != 60, 47),
    "a riichi of a bad tile": _set(2, lambda x: isinstance(x, str) and x.startswith("r"), "r99"),
    "a riichi spaced": _set(2, lambda x: isinstance(x, str) and x.startswith("r"), "r 60"),
    "a north in four players": _set(2, lambda x: isinstance(x, int) and x != 60, "f44"),
    "a call string broken": _set(1, lambda x: isinstance(x, str), "p1212"),
    "a call among discards": _set(2, lambda x: isinstance(x, int) and x != 60, "p121212"),
    "a closed kan among draws": _set(1, lambda x: isinstance(x, int), "121212a12"),
    "a call as a draw": _set(1, lambda x: isinstance(x, str) and CALL.match(x) is not None, 11),
    "a draw left over": lambda hands: hands[0][5].append(11),
    "a discard left over": lambda hands: hands[0][6].append(11),
    "a draw missing": _delete(1, lambda x: isinstance(x, int)),
    "a discard missing": _delete(2, lambda x: isinstance(x, int)),
    "a list in a list": _set(1, lambda x: isinstance(x, int), [11]),
    "a null": _set(2, lambda x: isinstance(x, int), None),
    "a true": _set(1, lambda x: isinstance(x, int), True),
    "a deal short": lambda hands: hands[0][4].pop(),
    "a deal of a bad tile": lambda hands: hands[0][4].__setitem__(0, 99),
    "quoted text": _set(2, lambda x: isinstance(x, int) and x != 60, 'a"b\\c'),
    "a big number": _set(1, lambda x: isinstance(x, int), 10**30),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damage_to_the_play_reads_as_the_per_game_reader_reads_it(exported, tmp_path, damage):
    log = _log(exported, lambda text: '"r' in text and re.search(r'"\d*[cpm]\d+"', text) is not None)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(_edited(log, DAMAGE[damage]), ensure_ascii=False), encoding="utf-8")
    assert_as_per_game([path])


def test_kans_norths_and_a_kakan_without_its_pon(exported, tmp_path):
    kakan = _log(exported, lambda text: re.search(r'"\d*k\d+"', text) is not None)
    north = _log(exported, lambda text: '"f44"' in text)
    files = []
    for name, log in (("kakan", kakan), ("north", north),
                      ("no pon", _edited(kakan, _delete(1, lambda x: isinstance(x, str) and "p" in x))),
                      ("pretty", north)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(log, ensure_ascii=False, indent=1 if name == "pretty" else None),
                        encoding="utf-8")
        files.append(path)
    assert assert_as_per_game(files) == [True, True, False, True]


def test_a_file_of_json_lines_or_another_format_goes_to_the_per_game_reader(exported, tmp_path):
    log = _log(exported, lambda text: True)
    lines = tmp_path / "mjx.json"
    lines.write_text("\n".join(json.dumps({**log, "log": [hand]}) for hand in log["log"]) + "\n", encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text('{"title": ["", ""], "log": []}', encoding="utf-8")
    files = [lines, empty, *sorted((TESTS / "data" / "mjai").glob("*"))[:1], exported[0]]
    assert assert_as_per_game(files, "auto") == [False, True, False, True]
    assert [starts_as_tenhou6(f) for f in (lines, empty, exported[0])] == [False, True, True]


def test_a_run_of_tenhou6_files_takes_the_columns_in_one_process_only(exported):
    assert reads_as_columns(exported, "tenhou") and reads_as_columns(exported, "auto")
    assert not reads_as_columns(exported, "tenhou", processes=2)
    assert reads_as_columns(MJLOGS, "tenhou", processes=2)


_SCALAR = re.compile(r"(?<=[\[,])(-?\d+|\"[^\"]*\")(?=[,\]])")
_TOKENS = ["11", "60", "0", '"r60"', '"f44"', '"c121314"', '"p151515"', '"151515k15"', '"141414a14"', "null",
           "[]", "-1", '"x"', "53", "44"]
_EDITS = st.tuples(st.sampled_from(["delete", "repeat", "value"]), st.integers(0, 10**6), st.sampled_from(_TOKENS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(_EDITS, min_size=1, max_size=3), which=st.integers(0, 10**6))
def test_any_edit_of_a_log_gives_the_per_game_result(exported, tmp_path_factory, edits, which):
    """A scalar of the log deleted, repeated or replaced by another token: the columns read the file as the
    per-game reader does, or leave it to that reader."""
    text = exported[which % len(exported)].read_text(encoding="utf-8")
    head, log = text.split('"log":', 1)
    for kind, at, token in edits:
        found = list(_SCALAR.finditer(log))
        if not found:
            break
        m = found[at % len(found)]
        if kind == "delete":
            log = log[:m.start()] + log[m.end():].removeprefix(",") if log[m.end()] == "," else log
        elif kind == "repeat":
            log = log[:m.end()] + "," + m.group(0) + log[m.end():]
        else:
            log = log[:m.start()] + token + log[m.end():]
    path = tmp_path_factory.mktemp("edited") / "edited.json"
    path.write_text(head + '"log":' + log, encoding="utf-8")
    assert_as_per_game([path])
