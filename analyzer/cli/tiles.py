"""``analyzer tiles encode``: hands stored as tile codes."""

from __future__ import annotations

import sys

import click

from analyzer.tiles.codes import ENCODE_ERRORS
from analyzer.tiles.encode_files import encode_to

from analyzer.cli.display import console, print_line, progress_bar
from analyzer.cli.errors import EXIT_CLEAN, EXIT_REJECTS, friendly_errors, refuse_inputs_as_outputs
from analyzer.cli.options import debug_option, table_output


@click.group("tiles")
def tiles_group() -> None:
    """Tile codes: hands stored as integers, scored with less work than their MPSZ text."""


@tiles_group.command("encode")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), callback=table_output,
              help="codes.parquet or codes.csv")
@click.option("--drop-text", is_flag=True, help="Leave out the text columns (hand, melds, win_tile, dora, ura).")
@debug_option
def tiles_encode(inputs: tuple[str, ...], output: str, drop_text: bool, debug: bool) -> None:
    """Read the tiles of hand records (CSV/Parquet) into tile codes (tc_* columns) and write every row.

    `analyzer score` and `check` take the result like the text it came from. A row whose tiles cannot be
    read is kept, with tc_error saying why (1 bad_notation, 2 bad_meld); exit status 1 when there are some.
    """
    with friendly_errors(debug):
        refuse_inputs_as_outputs(inputs, [output])
        with progress_bar("Encoding") as progress:
            summary = encode_to(list(inputs), output, drop_text=drop_text, progress=progress)
    for code, count in sorted(summary.errors.items()):
        console.print(f"[yellow]{count} row(s) with unreadable tiles: {ENCODE_ERRORS[code]}[/]", highlight=False)
    print_line(f"encoded {summary.hands} hand(s) of {summary.rows} row(s) into {output}")
    sys.exit(EXIT_REJECTS if summary.errors else EXIT_CLEAN)
