"""How a command ends: exit statuses, one-line errors instead of tracebacks, Ctrl-C.

Exit status: 0 clean, 1 some rows rejected (or, for ``check``, mismatches found), 2 bad usage or unreadable
input — always with a one-line message, never a traceback (``--debug`` shows one); 130 interrupted.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import click
import polars as pl
from rich.markup import escape

from analyzer.run import ClusterUnavailable
from analyzer.io.load import InputError, expand_inputs
from analyzer.rules import RulesError

from analyzer.cli.display import console

EXIT_CLEAN, EXIT_REJECTS, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130


class Failure(click.ClickException):
    exit_code = EXIT_USAGE

    def show(self, file=None) -> None:
        console.print(f"[bold red]error:[/] {escape(self.message)}", highlight=False)


@contextmanager
def friendly_errors(debug: bool):
    try:
        yield
    except (InputError, RulesError, OSError, ClusterUnavailable) as exc:
        if debug:
            raise
        raise Failure(str(exc)) from exc
    except pl.exceptions.PolarsError as exc:
        if debug:
            raise
        raise Failure(f"{type(exc).__name__}: {str(exc).splitlines()[0]}") from exc
    except (click.exceptions.Exit, click.ClickException, KeyboardInterrupt):
        raise
    except Exception as exc:  # a bug: still one line, with the way to see more
        if debug:
            raise
        raise Failure(f"internal error: {type(exc).__name__}: {exc} (--debug shows the traceback)") from exc


class InterruptibleGroup(click.Group):
    """Commands that end on Ctrl-C with their own exit status (130) and a one-line message."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            console.print("[bold red]interrupted[/]: outputs of this run were not written", highlight=False)
            ctx.exit(EXIT_INTERRUPTED)


def refuse_inputs_as_outputs(inputs, outputs) -> None:
    """An output path that is also an input would be overwritten: refused before anything is read."""
    try:
        read = {p.resolve() for p in expand_inputs(list(inputs))}
    except InputError:
        return  # the run itself reports what is wrong with the inputs
    for path in outputs:
        if Path(path).resolve() in read:
            raise Failure(f"{path} is also an input: choose another output")
