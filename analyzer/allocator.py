"""Polars' memory allocator (jemalloc), tuned for batch runs before Polars is loaded.

Polars returns freed memory to the system after half a second (``dirty_decay_ms:500``), which keeps an
interactive session small. A batch run frees and reallocates hundreds of megabytes per partition, and every
page given back is faulted in again by the next one: on 10M rows that was 7–9 s of system CPU time. Keeping
freed pages for five seconds cuts it to about 3 s and the run by 10–15%, for about 0.3 GB more at the peak
(docs/performance.md, "Memory allocator").

Polars appends ``_RJEM_MALLOC_CONF`` to its own settings, so ours win. A value the user set is left alone, and
so is a process that loaded Polars before :mod:`analyzer`. Polars writes its own settings into the variable of
the process that loads it, so a child of a Python process that used Polars inherits them: those alone count
as unset.
"""

from __future__ import annotations

import os
import sys

ALLOCATOR_VARIABLE = "_RJEM_MALLOC_CONF"
BATCH_SETTINGS = "dirty_decay_ms:5000,muzzy_decay_ms:5000"
POLARS_SETTINGS = "dirty_decay_ms:500,muzzy_decay_ms:1000"  # what Polars 1.x-2.x writes (polars/__init__.py)


def tune_for_batch() -> bool:
    """Set the batch settings if Polars is not loaded yet and the user chose none; whether they were set."""
    if "polars" in sys.modules or os.environ.get(ALLOCATOR_VARIABLE, POLARS_SETTINGS) != POLARS_SETTINGS:
        return False
    os.environ[ALLOCATOR_VARIABLE] = BATCH_SETTINGS
    return True
