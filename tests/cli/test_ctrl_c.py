"""Ctrl-C the way a terminal sends it — SIGINT to the whole process group of ``analyzer score`` — at random
moments of a 300,000-row run into an OUTDIR that holds an earlier run: afterwards OUTDIR holds exactly the old
set or exactly the new one, no run directory and no lock file (issue 34).

Half the moments are spread over the whole run; the other half fall just after the first new entry appears in
OUTDIR (the run directory being made and locked), where a run is most fragile. Seeded: the same moments, as
fractions of the measured run time, every time.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.io.lock import LOCK_NAME
from analyzer.io.write import MANIFEST_NAME

REPO = Path(__file__).resolve().parents[2]
ROWS = 300_000
SPREAD_RUNS, EARLY_RUNS = 6, 6
SEED = 34
HANG_SECONDS = 60


def start_score(inputs: Path, outdir: Path) -> subprocess.Popen:
    """``analyzer score`` in a session of its own: its process group is what a terminal's Ctrl-C reaches."""
    return subprocess.Popen([sys.executable, "-m", "analyzer.cli", "score", str(inputs), "-o", str(outdir)],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"})  # a hang's threads, on SIGABRT


def finish(process: subprocess.Popen) -> tuple[int, str]:
    try:
        _, errors = process.communicate(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGABRT)
        _, errors = process.communicate()
        pytest.fail(f"analyzer score hung after Ctrl-C; its threads:\n{errors.decode(errors='replace')[-8000:]}")
    return process.returncode, errors.decode(errors="replace")


def contents(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder``: a file with its bytes, a directory as None."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def tables_of(snapshot: dict[str, bytes | None]) -> dict[str, bytes | None]:
    """A result set without its manifest (whose run id and seconds differ from run to run)."""
    return {name: data for name, data in snapshot.items() if name != MANIFEST_NAME}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The input, the set an earlier run left (a smaller input, so the two sets differ in every table) and the
    set a finished run writes, with how long that run took and its exit status."""
    from benchmarks.gamegen import generate

    base = tmp_path_factory.mktemp("ctrl_c")
    rows = generate(ROWS, seed=SEED)
    rows.write_parquet(base / "hands.parquet")
    rows.head(2_000).write_parquet(base / "earlier.parquet")
    assert subprocess.run([sys.executable, "-m", "analyzer.cli", "score", str(base / "earlier.parquet"), "-o",
                           str(base / "old")], cwd=REPO, capture_output=True).returncode in (0, 1)
    (base / "old" / LOCK_NAME).unlink(missing_ok=True)  # the state this test starts from: a clean earlier run
    begun = time.perf_counter()
    process = start_score(base / "hands.parquet", base / "new")
    while process.poll() is None and not (base / "new").exists():
        time.sleep(0.001)
    writing = time.perf_counter() - begun  # before, the command is starting and reading: OUTDIR is not touched
    status, errors = finish(process)
    seconds = time.perf_counter() - begun
    assert status in (0, 1), errors
    return base, contents(base / "old"), contents(base / "new"), (writing, seconds), status


def moments(writing: float, seconds: float) -> list[tuple[str, float]]:
    """(kind, delay): ``spread`` waits that long after the start (from the moment the run first touches OUTDIR to
    a little past its end), ``early`` that long after the first new entry in OUTDIR appears."""
    rng = random.Random(SEED)
    spread = [("spread", writing + rng.random() * (seconds * 1.1 - writing)) for _ in range(SPREAD_RUNS)]
    early = [("early", rng.random() * 0.005) for _ in range(EARLY_RUNS)]
    return [item for pair in zip(spread, early) for item in pair]


def wait_for_new_entry(outdir: Path, known: set[str], process: subprocess.Popen) -> None:
    while process.poll() is None and set(os.listdir(outdir)) <= known:
        time.sleep(0.0005)


def test_ctrl_c_at_random_moments_leaves_the_old_set_or_the_new_one(runs):
    base, old, new, seconds, finished_status = runs
    assert not [name for name in new if name == LOCK_NAME or name.startswith(".analyzer-run-")], sorted(new)
    outdir = base / "out"
    failures = []
    for trial, (kind, delay) in enumerate(moments(*seconds)):
        shutil.rmtree(outdir, ignore_errors=True)
        shutil.copytree(base / "old", outdir)
        known = set(os.listdir(outdir))
        process = start_score(base / "hands.parquet", outdir)
        if kind == "early":
            wait_for_new_entry(outdir, known, process)
        time.sleep(delay)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
        status, errors = finish(process)
        after = contents(outdir)
        left = sorted(name for name in after if name.startswith(".analyzer-run-") or name == LOCK_NAME)
        if after == old:
            state = "old"
        elif tables_of(after) == tables_of(new) and json.loads(after[MANIFEST_NAME])["tables"] == \
                json.loads(new[MANIFEST_NAME])["tables"]:
            state = "new"
        else:
            state = "mixed: " + ", ".join(sorted(after))
        # killed by SIGINT itself: Ctrl-C while Python exits after the run (a shell shows 130 for it too)
        interrupted = status in (130, -signal.SIGINT)
        expected = interrupted or (status == finished_status and state == "new")
        if left or state.startswith("mixed") or not expected or "Traceback" in errors:
            failures.append(f"run {trial} ({kind}, {delay:.3f} s): exit {status}, {state}, left {left}, "
                            f"{errors.strip().splitlines()[-1:] if errors.strip() else ''}")
    assert not failures, "\n".join(failures)


def test_ctrl_c_after_the_commit_says_the_outputs_were_written(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import analyzer.cli.score as score_command
    from analyzer.cli import main

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(score_command, "print_standings", interrupted)
    result = CliRunner().invoke(main, ["score", "sample_logs/csv", "-o", str(tmp_path / "out")])
    assert result.exit_code == 130
    assert f"interrupted: the outputs were written to {tmp_path / 'out'}" in result.output
    assert (tmp_path / "out" / "hands.parquet").exists() and not (tmp_path / "out" / LOCK_NAME).exists()


@pytest.mark.parametrize("landing_in, said", [("score_to", "outputs of this run were not written"),
                                               ("print_standings", "the outputs were written to {out}")])
def test_a_ctrl_c_that_an_extension_turns_into_its_own_error_still_ends_as_an_interrupt(tmp_path, monkeypatch,
                                                                                        landing_in, said):
    """Polars, converting a value while the KeyboardInterrupt lands, raises ``TypeError: '<unprintable str
    object>' is not a Polars data type`` from it: still Ctrl-C (130, one line), not an internal error (2)."""
    from click.testing import CliRunner

    import analyzer.cli.score as score_command
    from analyzer.cli import main

    def interrupted_inside_an_extension(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise TypeError("'<unprintable str object>' is not a Polars data type")

    monkeypatch.setattr(score_command, landing_in, interrupted_inside_an_extension)
    result = CliRunner().invoke(main, ["score", "sample_logs/csv", "-o", str(tmp_path / "out")])
    assert result.exit_code == 130, result.output
    assert "internal error" not in result.output
    assert "interrupted: " + said.format(out=tmp_path / "out") in result.output


def test_ctrl_c_as_a_single_output_file_is_begun_leaves_no_temporary_file(tmp_path, monkeypatch):
    """``import … -o hands.parquet`` and the other single files: Ctrl-C just as the temporary file is made."""
    import polars as pl

    import analyzer.io.write as write

    real_mkstemp = write.tempfile.mkstemp

    def mkstemp_then_ctrl_c(*args, **kwargs):
        made = real_mkstemp(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # held back until the file's name is known
        return made

    monkeypatch.setattr(write.tempfile, "mkstemp", mkstemp_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        write.write_table(pl.DataFrame({"a": [1]}), tmp_path / "hands.parquet")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_commit_waits_for_every_encoder_before_the_run_directory_goes(tmp_path, monkeypatch):
    """Ctrl-C cancels Polars' queries on every thread: one table's encoder ends with KeyboardInterrupt while
    another's is still writing. The abort that follows must wait for that one too, or its file lands in the run
    directory after the directory is removed (issue 43: a run directory left behind)."""
    import threading

    import polars as pl

    import analyzer.io.parquet_stream as parquet_stream
    import analyzer.io.write as write

    real_encode, streams = parquet_stream.ParquetStream._encode, []

    def encode(self, source, compression):
        streams.append(self)
        if self.path.name == "hands.parquet":
            for _ in source.collect_batches():  # the frames read, then the query cancelled by Ctrl-C
                pass
            self._error = KeyboardInterrupt()
            return
        time.sleep(0.5)  # still encoding when the other stream's error is raised
        real_encode(self, source, compression)

    monkeypatch.setattr(parquet_stream.ParquetStream, "_encode", encode)
    writer = write.ResultWriter(tmp_path / "out", streamed=True)
    writer.append("hands", pl.DataFrame({"a": [1, 2]}))
    writer.append("rejects", pl.DataFrame({"b": ["x"]}))
    with pytest.raises(KeyboardInterrupt):
        writer.commit()
    writer.abort()
    still_writing = [stream.path.name for stream in streams if stream._thread.is_alive()]
    for stream in streams:  # a stream the abort left open: ended here, so that no thread outlives the test
        stream._frames.put(parquet_stream._END)
        stream._thread.join()
    assert still_writing == [] and not (tmp_path / "out").exists()


@pytest.mark.parametrize("delay", [0.1, 0.2, 0.3, 0.5, 0.8])
def test_ctrl_c_while_the_command_starts_is_exit_130_without_a_traceback(tmp_path, delay):
    """Ctrl-C while Python is still loading analyzer and Polars: nothing is written yet (issue 43)."""
    process = start_score(Path("sample_logs/csv"), tmp_path / "out")
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGINT)
    status, errors = finish(process)
    assert status == 130 and "Traceback" not in errors, errors
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_a_run_started_with_ctrl_c_ignored_ignores_it(runs):
    """``analyzer … &`` in a script: the shell starts it with SIGINT ignored, and so it stays — though Polars
    sets a handler of its own as it loads (issue 43)."""
    base, old, new, (writing, seconds), finished_status = runs
    outdir = base / "ignored"
    shutil.rmtree(outdir, ignore_errors=True)
    shutil.copytree(base / "old", outdir)
    process = subprocess.Popen([sys.executable, "-m", "analyzer.cli", "score", str(base / "hands.parquet"), "-o",
                                str(outdir)], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    while process.poll() is None:  # Ctrl-C all along the run
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.02)
    status, errors = finish(process)
    assert status == finished_status, errors
    assert tables_of(contents(outdir)) == tables_of(new)
