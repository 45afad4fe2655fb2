"""What may go wrong while outputs are written, made plain: an OS error names the file or directory it hit
(:class:`OutputError`), and Ctrl-C waits until a cleanup or a commit is done (:func:`interrupts_held`)."""

from __future__ import annotations

import os
import re
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import polars as pl


class OutputError(OSError):
    """An output that could not be written: ``filename`` is the file or directory, ``errno`` and ``strerror``
    say why (``errno.ENOSPC``: the disk is full; ``EACCES``, ``EROFS``: not writable); ``advice``, when set,
    what to do instead of choosing another output (a temporary file's disk, say)."""

    advice: str | None = None


# how Polars (Rust: "... (os error 28)") and Arrow ("[errno 28] ...") write the OS error behind theirs
OS_ERROR_NUMBER = re.compile(r"os error (\d+)|\[errno (\d+)\]", re.IGNORECASE)


def error_number(exc: BaseException) -> int | None:
    """The OS error number behind ``exc`` (an OSError, or a Polars error that wraps one), or None."""
    if isinstance(getattr(exc, "errno", None), int):
        return exc.errno
    match = OS_ERROR_NUMBER.search(str(exc))
    return int(match.group(1) or match.group(2)) if match else None


@contextmanager
def writing(path: str | Path, advice: str | None = None):
    """OS errors of the block (also those Polars wraps) raised as :class:`OutputError` naming ``path``."""
    try:
        yield
    except OutputError:
        raise
    except (OSError, pl.exceptions.PolarsError) as exc:
        code = error_number(exc)
        if code is None:
            raise
        error = OutputError(code, os.strerror(code), str(path))
        error.advice = advice
        raise error from exc


@contextmanager
def interrupts_held():
    """Ctrl-C held back while the block runs, so that a cleanup or a commit is never left half done; the
    KeyboardInterrupt is raised when the block ends (the block may look at ``held.interrupted`` first).
    Only the main thread receives signals: elsewhere, or without Python's SIGINT handler, nothing changes."""
    held = SimpleNamespace(interrupted=False)
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if not callable(previous):
        yield held
        return
    signal.signal(signal.SIGINT, lambda number, frame: setattr(held, "interrupted", True))
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)
    if held.interrupted:
        previous(signal.SIGINT, None)


def set_aside(final: Path, kept: Path) -> None:
    """Keep ``final`` as ``kept`` until a new file replaces it: a hard link, so that the old file stays in place
    meanwhile, or moved there on a filesystem without hard links."""
    try:
        os.link(final, kept)
    except OSError:
        os.replace(final, kept)
