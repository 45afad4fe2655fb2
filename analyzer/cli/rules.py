"""``analyzer rules list|show``: the shipped rulesets and every option of one."""

from __future__ import annotations

import click
from rich.table import Table

from analyzer.core.rules import load_rules, preset_names

from analyzer.cli.display import cell, out
from analyzer.cli.errors import friendly_errors


@click.group("rules")
def rules_group() -> None:
    """List the shipped rulesets or show one."""


@rules_group.command("list")
def rules_list() -> None:
    """The shipped presets and where their values come from."""
    table = Table(title="Rulesets")
    table.add_column("name")
    table.add_column("source")
    for name in preset_names():
        table.add_row(cell(name), cell(load_rules(name).source))
    out.print(table)


@rules_group.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Every option of a ruleset (preset name, NAME;option=value…, or TOML file) with its meaning."""
    with friendly_errors(False):
        rules = load_rules(name)
    table = Table(title=f"Ruleset {cell(rules.name)}")
    table.add_column("option")
    table.add_column("value")
    table.add_column("meaning")
    for option, value, doc in rules.table():
        table.add_row(cell(option), cell(value), cell(doc))
    out.print(table)
