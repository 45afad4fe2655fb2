"""OUTDIR's lock: one run at a time, and no lock file left after a run — removed by the run holding it, so that
a run that opened the file just before can tell (issue 34)."""

from __future__ import annotations

import fcntl
import os

import pytest

import analyzer
import analyzer.io.write as write
from analyzer.io.load import InputError
from analyzer.io.lock import LOCK_NAME, lock_outdir, unlock_outdir

SAMPLE = "sample_logs/csv"


def test_no_lock_file_is_left_after_a_run_or_a_failed_one(tmp_path):
    out = tmp_path / "out"
    analyzer.score_to(SAMPLE, out)
    assert not (out / LOCK_NAME).exists()
    with pytest.raises(InputError):
        analyzer.score_to(tmp_path / "missing.csv", out)
    assert not (out / LOCK_NAME).exists() and (out / "hands.parquet").exists()


def test_a_lock_file_a_killed_run_left_is_taken_and_removed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).touch()  # kill -9 leaves the file, not the lock: the kernel drops it with the process
    analyzer.score_to(SAMPLE, out)
    assert not (out / LOCK_NAME).exists()


def test_a_second_run_is_refused_while_the_first_holds_the_lock(tmp_path):
    held = lock_outdir(tmp_path)
    with pytest.raises(InputError, match="another analyzer run is writing into"):
        lock_outdir(tmp_path)
    with pytest.raises(InputError, match="another analyzer run"):
        analyzer.score_to(SAMPLE, tmp_path)
    assert (tmp_path / LOCK_NAME).exists()  # the refused run leaves the holder's file alone
    unlock_outdir(held, tmp_path)
    assert not (tmp_path / LOCK_NAME).exists()
    assert analyzer.score_to(SAMPLE, tmp_path).rows_read == 70


def test_a_run_that_locked_a_removed_lock_file_locks_again(tmp_path, monkeypatch):
    """The race of removing a lock file: run B opens it, run A (holding it) removes it and lets go, B gets the
    lock — on a file no longer in OUTDIR. B must see that and lock the file now there, or a run C locking that
    one would write beside B."""
    real_flock, calls = fcntl.flock, []

    def holder_lets_go_first(handle, operation):
        calls.append(operation)
        if len(calls) == 1:  # between B's open and B's flock: A removes the file and lets go
            (tmp_path / LOCK_NAME).unlink()
        return real_flock(handle, operation)

    monkeypatch.setattr(fcntl, "flock", holder_lets_go_first)
    held = lock_outdir(tmp_path)
    monkeypatch.undo()
    assert len(calls) == 2  # locked once more, on the file now in OUTDIR (its inode may be the freed one's)
    assert os.fstat(held.fileno()).st_ino == os.stat(tmp_path / LOCK_NAME).st_ino
    with pytest.raises(InputError):  # C is refused: B holds the file in OUTDIR
        lock_outdir(tmp_path)
    unlock_outdir(held, tmp_path)


def test_letting_go_does_not_remove_a_file_another_run_holds(tmp_path):
    stale = lock_outdir(tmp_path)
    (tmp_path / LOCK_NAME).unlink()  # not this run's file any more (cannot happen between runs: to be safe)
    other = lock_outdir(tmp_path)
    unlock_outdir(stale, tmp_path)
    assert (tmp_path / LOCK_NAME).exists()
    unlock_outdir(other, tmp_path)
    assert not (tmp_path / LOCK_NAME).exists()


def test_ctrl_c_while_the_run_directory_is_made_leaves_no_lock_and_no_directory(tmp_path, monkeypatch):
    """Ctrl-C between taking the lock and making the run directory: both dropped."""
    import signal

    real_mkdtemp = write.tempfile.mkdtemp

    def mkdtemp_then_ctrl_c(*args, **kwargs):
        made = real_mkdtemp(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # held back until the run directory and the lock are both taken
        return made

    analyzer.score_to(SAMPLE, tmp_path / "out")  # the old set
    before = sorted(p.name for p in (tmp_path / "out").iterdir())
    monkeypatch.setattr(write.tempfile, "mkdtemp", mkdtemp_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        analyzer.score_to(SAMPLE, tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == before
