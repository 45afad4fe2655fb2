"""Hostile and broken log files: each is reported for itself, the others import, nothing blocks or explodes."""

from __future__ import annotations

import gzip
import json
import os
import signal
import tracemalloc
import zlib
from pathlib import Path

import pytest

from analyzer.formats import read_tenhou
from analyzer.formats.files import MAX_MAGNITUDE, gunzip, read_log_bytes
from analyzer.formats.model import LogError

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_logs" / "tenhou" / "sample_tonpuu.json"
MJLOG_HEAD = ('<mjloggm ver="2.3"><SHUFFLE seed="" ref=""/><GO type="169" lobby="0"/>'
              '<UN n0="a" n1="b" n2="c" n3="d" dan="0,0,0,0" rate="1500,1500,1500,1500"/><TAIKYOKU oya="0"/>')


@pytest.fixture(autouse=True)
def deadline():
    """A read that blocks (a FIFO opened for reading waits for a writer) fails the test instead of hanging."""
    def expire(*_):
        raise TimeoutError("the import blocked")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _sample_json(**changes) -> str:
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game.update(changes)
    return json.dumps(game, ensure_ascii=False)


def _import(paths, **kwargs):
    df, problems = read_tenhou([str(p) for p in paths], **kwargs)
    return df, {Path(p.file).name: p for p in problems}


def _zeros_gz(size: int) -> bytes:
    """``size`` zero bytes, gzip-compressed in steps (a bomb: about a thousandth of its size on disk)."""
    pack = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    parts = [pack.compress(block) for _ in range(size >> 20)]
    return b"".join(parts) + pack.flush()


def test_files_that_are_not_regular_files_are_reported_and_never_opened(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "good.json").write_bytes(SAMPLE.read_bytes())
    os.mkfifo(logs / "pipe.mjlog")  # opening it for reading would wait for a writer forever
    (logs / "zero.mjlog").symlink_to("/dev/zero")  # endless
    (logs / "gone.json").symlink_to(tmp_path / "nowhere.json")
    (logs / "loop.json").symlink_to(logs / "loop.json")
    (logs / "dir.mjlog").mkdir()  # a directory with a log's name is searched, not read
    df, problems = _import([logs])
    assert df["game_id"].n_unique() == 1 and df.height == 4  # good.json
    assert set(problems) == {"pipe.mjlog", "zero.mjlog", "gone.json", "loop.json"}
    assert "not a regular file: a named pipe (FIFO)" in problems["pipe.mjlog"].reason
    assert "not a regular file: a character device" in problems["zero.mjlog"].reason
    assert "No such file" in problems["gone.json"].reason
    assert "symbolic links" in problems["loop.json"].reason
    assert not any(p.imported for p in problems.values())
    # named on the command line, they are reported the same way (not as missing)
    df, problems = _import([logs / "pipe.mjlog", "/dev/null", logs / "good.json"])
    assert df.height == 4
    assert problems["pipe.mjlog"].reason.startswith("not a regular file")
    assert problems["null"].reason == "not a regular file: a character device, not read"
    with pytest.raises(LogError, match="a directory"):
        read_log_bytes(logs / "dir.mjlog")


def test_a_file_larger_than_the_cap_is_not_read(tmp_path):
    (tmp_path / "good.json").write_text(_sample_json(), encoding="utf-8")
    (tmp_path / "padded.json").write_text(_sample_json(title=["x" * 200_000, ""]), encoding="utf-8")
    df, problems = _import([tmp_path], max_log_size=100_000)
    assert df.height == 4
    assert set(problems) == {"padded.json"}
    assert "larger than the 97.7 kB limit (--max-log-size)" in problems["padded.json"].reason


def test_a_gzip_bomb_costs_at_most_the_cap(tmp_path):
    (tmp_path / "good.json.gz").write_bytes(gzip.compress(SAMPLE.read_bytes()))
    bomb = _zeros_gz(128 << 20)  # 128 MB of zeros in about 125 kB
    assert len(bomb) < 1 << 20
    (tmp_path / "bomb.json.gz").write_bytes(bomb)
    df, problems = _import([tmp_path], max_log_size=1 << 20)
    assert df.height == 4
    assert set(problems) == {"bomb.json.gz"}
    assert "decompresses to more than the 1 MB limit" in problems["bomb.json.gz"].reason
    # memory: the default cap of 64 MB bounds what the bomb inflates to (one chunk past it at most)
    tracemalloc.start()
    with pytest.raises(LogError, match="more than the 64 MB limit"):
        read_log_bytes(tmp_path / "bomb.json.gz")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 3 * (64 << 20), peak


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda gz: gz[: len(gz) // 2], "truncated gzip data"),
        (lambda gz: gz[:-8], "truncated gzip data"),  # the trailer (CRC, length) cut off
        (lambda gz: gz[:40] + bytes(b ^ 0xFF for b in gz[40:60]) + gz[60:], "bad gzip data"),
        (lambda gz: gz[:-8] + bytes(8), "bad gzip data"),  # wrong CRC and length
        (lambda gz: gz + b"garbage", "trailing bytes"),
        (lambda gz: b"\x1f\x8bnot gzip", "bad gzip data"),
    ],
    ids=["half", "no_trailer", "flipped", "bad_crc", "trailing", "header"],
)
def test_corrupt_or_truncated_gzip_is_reported(tmp_path, damage, words):
    data = gzip.compress(SAMPLE.read_bytes())
    (tmp_path / "good.json.gz").write_bytes(data)
    (tmp_path / "bad.json.gz").write_bytes(damage(data))
    df, problems = _import([tmp_path])
    assert df.height == 4
    assert set(problems) == {"bad.json.gz"} and words in problems["bad.json.gz"].reason


def test_gzip_members_and_zero_padding_are_read():
    text = SAMPLE.read_bytes()
    half = len(text) // 2
    two_members = gzip.compress(text[:half]) + gzip.compress(text[half:]) + bytes(512)
    assert gunzip(two_members, 1 << 20) == text
    with pytest.raises(LogError, match="more than"):
        gunzip(two_members, len(text) - 1)


@pytest.mark.parametrize(
    "name, content, words",
    [
        ("honba.mjlog", MJLOG_HEAD + '<INIT seed="0,99999999999999999999999,0,1,2,3" ten="250,250,250,250" oya="0" '
         'hai0="1" hai1="2" hai2="3" hai3="4"/></mjloggm>', f"beyond ±{MAX_MAGNITUDE:,}"),
        ("points.json", _sample_json(sc=[10**30, 1, 0, 0, 0, 0, 0, 0]), f"beyond ±{MAX_MAGNITUDE:,}"),
        ("nan.json", _sample_json(sc=[34500, float("nan"), 24300, -16.0, 26000, 6.0, 15200, -35.0]), "nan"),
        ("digits.json", _sample_json().replace('"sc": [34500', '"sc": [' + "9" * 5000, 1), "thousands of digits"),
        ("seat.mjlog", MJLOG_HEAD + '<INIT seed="0,0,0,1,2,3" ten="250,250,250,250" oya="0" hai0="1" hai1="2" '
         'hai2="3" hai3="4"/><N who="123456789012345678901234567890" m="1"/></mjloggm>', "bad seat"),
        ("xml.mjlog", MJLOG_HEAD + "<INIT", "not well-formed mjlog XML"),
        ("entity.mjlog", MJLOG_HEAD.replace('n0="a"', 'n0="&a;"') + "</mjloggm>", "no hands"),
        ("entities.mjlog", '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
         + "".join(f'<!ENTITY {c} "&{p};&{p};&{p};&{p};&{p};&{p};&{p};&{p};&{p};&{p};">'
                   for p, c in zip("abcdefgh", "bcdefghi"))
         + "]><mjloggm>&i;</mjloggm>", "DTDs and entities are not read"),  # a billion laughs: refused
        ("deep.json", "[" * 100_000 + "]" * 100_000, "malformed log"),
        ("binary.json", "\ufeff{\x00\x01", "not valid JSON"),
    ],
)
def test_absurd_numbers_and_invalid_text_are_reported(tmp_path, name, content, words):
    (tmp_path / "good.json").write_bytes(SAMPLE.read_bytes())
    (tmp_path / name).write_text(content, encoding="utf-8")
    df, problems = _import([tmp_path])
    assert df.height == 4  # good.json; no Int64 column overflowed
    assert set(problems) == {name}
    assert words in problems[name].reason and not problems[name].imported
    assert len(problems[name].reason) < 400


def test_the_command_line_reports_hostile_files_and_keeps_an_output_when_nothing_imports(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    logs = tmp_path / "logs"
    logs.mkdir()
    os.mkfifo(logs / "pipe.mjlog")
    (logs / "zero.mjlog").symlink_to("/dev/zero")
    (logs / "bomb.json.gz").write_bytes(_zeros_gz(4 << 20))
    output = tmp_path / "hands.parquet"
    output.write_bytes(b"earlier")
    runner = CliRunner()
    nothing = runner.invoke(main, ["import", "tenhou", str(logs), "-o", str(output), "--max-log-size", "1MB"])
    assert nothing.exit_code == 2 and "not written" in nothing.output, nothing.output
    assert output.read_bytes() == b"earlier"
    for words in ("pipe.mjlog: not a regular file", "zero.mjlog: not a regular file", "bomb.json.gz: gzip data"):
        assert words in nothing.output
    (logs / "good.json").write_bytes(SAMPLE.read_bytes())
    some = runner.invoke(main, ["import", "tenhou", str(logs), "-o", str(output), "--max-log-size", "1MB"])
    assert some.exit_code == 1 and "imported 1 game(s), 4 row(s)" in some.output and "3 file(s) not imported" in some.output
    assert "Traceback" not in some.output
    bad = runner.invoke(main, ["import", "tenhou", str(logs), "-o", str(output), "--max-log-size", "lots"])
    assert bad.exit_code == 2 and "--max-log-size: not a size" in bad.output
