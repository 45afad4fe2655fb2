"""Ctrl-C while analyzer starts, set before Polars is loaded (:mod:`analyzer` calls these first and last).

* A process started with SIGINT ignored — a shell's background job, ``analyzer … &`` in a script — ignores it
  throughout. Polars sets a SIGINT handler of its own as it loads (to cancel its queries), which would end such
  a run with a cancelled query's error: :func:`keep_ignoring` puts the ignoring back once Polars is loaded.
* The command line (``analyzer …``, ``python -m analyzer.cli …``) spends its first second loading Python
  modules, before any command can handle Ctrl-C: :func:`hold_start` makes a Ctrl-C then end the process with
  exit status 130 and one line, not a traceback (nothing is written yet); :func:`command_started` turns it
  into the usual KeyboardInterrupt, which the commands handle (:mod:`analyzer.cli.errors`).

The library imported by another program changes nothing of its signals but the ignoring it was started with.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

EXIT_INTERRUPTED = 130
NOT_WRITTEN = "interrupted: outputs of this run were not written"
_state = {"started": False, "interrupted": False}


def started_as_command_line() -> bool:
    """Whether this process is analyzer's command line: the ``analyzer`` script, or ``python -m analyzer.cli``."""
    args = list(getattr(sys, "orig_argv", sys.argv))
    if Path(sys.argv[0]).name == "analyzer":
        return True
    return "-m" in args[:-1] and args[args.index("-m") + 1] == "analyzer.cli"


def _ignored() -> bool:
    return threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def interrupted(number, frame) -> None:
    """The SIGINT handler of the command line: exit 130 while it starts, KeyboardInterrupt once a command runs."""
    _state["interrupted"] = True
    if _state["started"]:
        raise KeyboardInterrupt
    sys.stderr.write(NOT_WRITTEN + "\n")
    sys.stderr.flush()
    # ended here, not by SystemExit: an exception raised in a handler that runs while Python compiles a module
    # (no bytecode cached, PYTHONDONTWRITEBYTECODE) can be lost, and the run then went on to exit 0; nothing is
    # written yet, so there is nothing to clean up
    os._exit(EXIT_INTERRUPTED)


def hold_start() -> None:
    """Before anything is loaded: Ctrl-C ends a starting command line quietly (see the module's text)."""
    if not _ignored() and threading.current_thread() is threading.main_thread() and started_as_command_line():
        signal.signal(signal.SIGINT, interrupted)


def keep_ignoring() -> None:
    """Once Polars is loaded: a process that ignored SIGINT goes on ignoring it (Polars set a handler)."""
    if _ignored():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def command_started() -> None:
    """From here on Ctrl-C is a KeyboardInterrupt for the command to handle."""
    _state["started"] = True


def ctrl_c_seen() -> bool:
    """Whether a Ctrl-C reached the command line's handler: an error raised after it may be the interrupt itself,
    turned into another exception by the extension it landed in (a Polars call, a str conversion)."""
    return _state["interrupted"]
