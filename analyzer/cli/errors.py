"""How a command ends: exit statuses, one-line errors instead of tracebacks, Ctrl-C.

Exit status: 0 clean, 1 some rows rejected (or, for ``check``, mismatches found), 2 bad usage or unreadable
input — always with a one-line message, never a traceback (``--debug`` shows one); 130 interrupted.
"""

from __future__ import annotations

import errno
import re
from contextlib import contextmanager
from pathlib import Path

import click
import polars as pl

from analyzer.core.startup import EXIT_INTERRUPTED, command_started, ctrl_c_seen
from analyzer.run import ClusterUnavailable
from analyzer.io.faults import OutputError
from analyzer.io.load import InputError, expand_inputs
from analyzer.core.rules import RulesError

from analyzer.cli.display import cell, console

EXIT_CLEAN, EXIT_REJECTS, EXIT_USAGE = 0, 1, 2  # and EXIT_INTERRUPTED, 130 (analyzer.core.startup)
# what to do about an output that cannot be written, by the OS error behind it
WRITE_ADVICE = {errno.ENOSPC: "free space or choose another -o", errno.EDQUOT: "free space or choose another -o",
                errno.EACCES: "make it writable or choose another -o", errno.EPERM: "make it writable or choose another -o",
                errno.EROFS: "choose another -o on a writable disk"}


class Failure(click.ClickException):
    exit_code = EXIT_USAGE

    def show(self, file=None) -> None:
        console.print(f"[bold red]error:[/] {cell(self.message)}", highlight=False)


@contextmanager
def friendly_errors(debug: bool):
    try:
        yield
    except (click.exceptions.Exit, click.ClickException, KeyboardInterrupt):
        raise
    except Exception as exc:
        if caused_by_ctrl_c(exc):
            # a Ctrl-C that an extension turned into an error of its own is still a Ctrl-C (exit 130)
            raise KeyboardInterrupt from exc
        if debug:
            raise
        raise Failure(one_line(exc)) from exc


def caused_by_ctrl_c(exc: BaseException) -> bool:
    """Whether a Ctrl-C was seen while the command ran, or a KeyboardInterrupt is among the exceptions ``exc``
    was raised from or while handling."""
    if ctrl_c_seen():
        return True
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def one_line(exc: Exception) -> str:
    """The message of an error that ends a command."""
    if isinstance(exc, OutputError):  # cannot write out/hands.parquet: no space left on device — free space or …
        return cannot_write(exc)
    if isinstance(exc, (InputError, RulesError, OSError, ClusterUnavailable)):
        return str(exc)
    if isinstance(exc, pl.exceptions.PolarsError):
        return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    return f"internal error: {type(exc).__name__}: {exc} (--debug shows the traceback)"  # a bug: still one line


def cannot_write(exc: OutputError) -> str:
    """The one-line message of an output that could not be written: which, why, and what to do."""
    reason = (exc.strerror or str(exc)).rstrip(".")
    advice = exc.advice or WRITE_ADVICE.get(exc.errno, "choose another -o")
    return f"cannot write {exc.filename}: {reason[:1].lower()}{reason[1:]} — {advice}"


# click (8.2 on) shows a group's help for a bare `analyzer` by raising this usage error: kept as it is
_HELP_AS_ERROR = getattr(click.exceptions, "NoArgsIsHelpError", ())

# ctx.meta key: the outputs a command has written (committed), for the message of a Ctrl-C after that
WRITTEN = "analyzer.written"


class InterruptibleGroup(click.Group):
    """Commands that end on Ctrl-C with their own exit status (130) and a one-line message, and whose usage
    errors (an unknown option, a missing argument, a bad option value) read like every other error: one line,
    ``error: …``, with the way to the command's help (:func:`usage_failure`), exit status 2."""

    def main(self, *args, **kwargs):
        command_started()  # Ctrl-C from here on is a KeyboardInterrupt, ended below (before: analyzer.core.startup)
        return super().main(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except KeyboardInterrupt:
            interrupted(ctx)
        except _HELP_AS_ERROR:  # `analyzer` alone: the help, as click prints it
            raise
        except click.UsageError as exc:
            raise usage_failure(exc, ctx) from exc

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted(ctx)
        except _HELP_AS_ERROR:  # `analyzer rules` alone: its help
            raise
        except click.UsageError as exc:
            raise usage_failure(exc, ctx) from exc
        except Exception as exc:  # after friendly_errors' block (printing the standings): the same as there
            if not isinstance(exc, (click.ClickException, click.exceptions.Exit)) and caused_by_ctrl_c(exc):
                interrupted(ctx)
            raise


def interrupted(ctx: click.Context) -> None:
    """Ctrl-C: one line saying whether the outputs were written, exit status 130."""
    written = ctx.meta.get(WRITTEN)
    what = f"the outputs were written to {cell(written)}" if written else "outputs of this run were not written"
    console.print(f"[bold red]interrupted[/]: {what}", highlight=False)
    ctx.exit(EXIT_INTERRUPTED)


def usage_failure(exc: click.UsageError, ctx: click.Context) -> Failure:
    """Click's usage error as a :class:`Failure`: ``error: invalid value for '--top': 'x' is not a valid integer —
    try 'analyzer score --help'`` instead of click's usage lines and ``Error:``."""
    message = " ".join(exc.format_message().split()).rstrip(".").replace(". Did you mean", ": did you mean")
    # click's sentences start with a capital, after a colon too (`Invalid value for '-o': Directory …`)
    message = re.sub(r"(^|: )([A-Z])(?=[a-z])", lambda m: m.group(1) + m.group(2).lower(), message)
    command = (exc.ctx or ctx).command_path
    return Failure(f"{message} — try '{command} --help'")


def refuse_inputs_as_outputs(inputs, outputs) -> None:
    """An output path that is also an input would be overwritten: refused before anything is read."""
    try:
        read = {p.resolve() for p in expand_inputs(list(inputs))}
    except InputError:
        return  # the run itself reports what is wrong with the inputs
    for path in outputs:
        if Path(path).resolve() in read:
            raise Failure(f"{path} is also an input: choose another output")
