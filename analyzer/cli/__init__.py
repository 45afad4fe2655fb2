"""Command line: a thin click layer over the library (``analyzer.load``, ``analyzer.score``, …).

One module per command or command group; the options several commands share are written once in
``options.py``, exit statuses and one-line errors are in ``errors.py``, what is printed is in ``display.py``.
"""

from __future__ import annotations

import click

from analyzer.cli.check import check_command
from analyzer.cli.errors import InterruptibleGroup
from analyzer.cli.exports import export_group
from analyzer.cli.imports import import_group
from analyzer.cli.report import report_command
from analyzer.cli.rules import rules_group
from analyzer.cli.score import score_command
from analyzer.cli.tiles import tiles_group


@click.group(cls=InterruptibleGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="analyzer")
def main() -> None:
    """Score Riichi mahjong hand records, replay games and total every player.

    \b
    analyzer score sample_logs/csv -o out          score, write out/*.parquet, print standings
    analyzer import tenhou LOGS… -o hands.parquet  read Tenhou logs into hand records
    analyzer import mjai LOGS… -o hands.parquet    read mjai logs (Mortal, mjai-reviewer) likewise
    analyzer export events LOGS… -o ev.parquet     every event of every game, one row each
    analyzer check hands.parquet -o report.html    recompute and report every disagreement
    analyzer rules list                            the shipped rulesets
    analyzer rules show ema                        every option of a ruleset
    """


for _command in (score_command, check_command, report_command, import_group, export_group, tiles_group, rules_group):
    main.add_command(_command)
