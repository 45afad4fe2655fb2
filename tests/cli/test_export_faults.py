"""``analyzer export`` and the faults of its output (issue 43): a target that cannot be written, a full disk and
Ctrl-C end in one line naming the file (or exit status 130) and leave nothing behind — no temporary file, no
folder the export made — as ``score`` does; and the files written follow the umask, as ``score``'s do."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from analyzer.cli import main

LOGS = ["sample_logs/tenhou", "sample_logs/mjlog", "sample_logs/mjai", "sample_logs/tensoul"]  # five games
KINDS = {"events": "ev.parquet", "mjai": "games", "tenhou6": "games"}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def everything(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def fail_with(code: int, text: str):
    def fail(*args, **kwargs):
        raise OSError(code, text)
    return fail


@pytest.mark.parametrize("kind", KINDS)
def test_a_read_only_target_is_one_line_naming_it(tmp_path, monkeypatch, kind):
    target = tmp_path / "ro" / KINDS[kind]
    (tmp_path / "ro").mkdir()
    before = everything(tmp_path)
    real_mkstemp, real_mkdtemp = tempfile.mkstemp, tempfile.mkdtemp

    def read_only(real):
        def make(*args, **kwargs):  # nothing may be made under ro/: a read-only mount
            if str(tmp_path / "ro") in str(kwargs.get("dir", args[2] if len(args) > 2 else "")):
                raise OSError(errno.EROFS, "Read-only file system")
            return real(*args, **kwargs)
        return make

    monkeypatch.setattr(tempfile, "mkstemp", read_only(real_mkstemp))
    monkeypatch.setattr(tempfile, "mkdtemp", read_only(real_mkdtemp))
    if kind != "events":  # the games' folder is made by the export: that fails first on a read-only disk
        monkeypatch.setattr(Path, "mkdir", fail_with(errno.EROFS, "Read-only file system"))
    result = invoke("export", kind, *LOGS, "-o", target)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"error: cannot write {target}: read-only file system — choose another -o on "
                                     "a writable disk")
    monkeypatch.undo()
    assert everything(tmp_path) == before


def test_a_full_disk_while_the_events_are_written_leaves_nothing_behind(tmp_path, monkeypatch):
    target = tmp_path / "new" / "ev.parquet"
    full = fail_with(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No space left on device")
    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    monkeypatch.setattr(pq.ParquetWriter, "close", full)  # what is buffered cannot be written either
    result = invoke("export", "events", *LOGS, "-o", target)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"error: cannot write {target}: no space left on device — free space or "
                                     "choose another -o")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []  # no temporary file, no folder made for it


@pytest.mark.parametrize("kind", ["mjai", "tenhou6"])
@pytest.mark.parametrize("earlier", [False, True])
def test_a_full_disk_while_the_games_are_written_leaves_the_folder_as_it_was(tmp_path, monkeypatch, kind, earlier):
    target = tmp_path / "games"
    if earlier:  # an earlier export's folder: kept as it is
        assert invoke("export", kind, LOGS[0], "-o", target).exit_code == 0
    before = everything(tmp_path)
    real_write_text, written = Path.write_text, []

    def third_game_fills_the_disk(path, *args, **kwargs):
        if path.name.endswith((".mjai.jsonl", ".json")):
            written.append(path.name)
            if len(written) == 3:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_write_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", third_game_fills_the_disk)
    result = invoke("export", kind, *LOGS, "-o", target)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"error: cannot write {target / written[-1]}: no space left on device — "
                                     "free space or choose another -o")
    monkeypatch.undo()
    assert everything(tmp_path) == before


def test_ctrl_c_while_the_games_are_written_leaves_nothing(tmp_path, monkeypatch):
    real_write_text, written = Path.write_text, []

    def ctrl_c_at_the_second(path, *args, **kwargs):
        written.append(path)
        if len(written) == 2:
            raise KeyboardInterrupt
        return real_write_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", ctrl_c_at_the_second)
    result = invoke("export", "mjai", *LOGS, "-o", tmp_path / "games")
    assert result.exit_code == 130 and "interrupted" in result.output
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_exported_files_follow_the_umask(tmp_path, kind):
    mask = os.umask(0o027)
    try:
        result = invoke("export", kind, *LOGS, "-o", tmp_path / KINDS[kind])
    finally:
        os.umask(mask)
    assert result.exit_code == 0, result.output
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files and {oct(p.stat().st_mode & 0o777) for p in files} == {oct(0o640)}
