"""OUTDIR's lock: one run at a time writes into an output directory, and no lock file stays after a run.

The lock file lives only while a run holds it: its holder removes it before letting go, and a run that got the
lock on a file no longer at its name (another inode, or none) takes it again on the file now there. Removing a
lock file is safe only that way: a run that opened it just before the removal would otherwise hold a lock
nobody else sees.
"""

from __future__ import annotations

import os
from pathlib import Path

from analyzer.io.load import InputError

LOCK_NAME = ".analyzer.lock"


def lock_outdir(outdir: Path):
    """An exclusive lock on OUTDIR for one run (two runs into one directory would mix their tables), or an
    :class:`InputError` saying another run holds it. Let go with :func:`unlock_outdir`."""
    import fcntl

    path = outdir / LOCK_NAME
    while True:
        handle = open(path, "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise InputError(f"another analyzer run is writing into {outdir}: wait for it, or choose another "
                             "directory")
        if _same_file(handle, path):
            return handle
        handle.close()


def unlock_outdir(handle, outdir: Path) -> None:
    """Let go of :func:`lock_outdir`'s lock, removing the lock file first (while it is still held, so no other
    run holds it)."""
    path = outdir / LOCK_NAME
    try:
        if _same_file(handle, path):
            path.unlink()
    except OSError:  # a directory that cannot be written: the file stays, harmless (the next run takes it)
        pass
    finally:
        handle.close()


def _same_file(handle, path: Path) -> bool:
    """Whether ``path`` still names the open file ``handle``."""
    try:
        held, named = os.fstat(handle.fileno()), os.stat(path)
    except FileNotFoundError:
        return False
    return (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)
