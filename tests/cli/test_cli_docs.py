"""Every option of every command is documented: walks click's command tree (``analyzer.cli.main``).

* docs/cli.md: each option of a command is in the command's synopsis line at the top of the page and in the
  command's own section (its heading names the command, e.g. ``## `analyzer score` ``);
* README.md: each option is in the command's synopsis under "Commands" (``--debug`` excepted: the README says
  once which commands take it).

An option counts as present under any of its names (``-o`` or ``--output``). A new option added to the code
without its documentation fails here, naming the command and the option.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from analyzer.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLI_DOC = ROOT / "docs" / "cli.md"
README = ROOT / "README.md"
README_LEAVES_OUT = {"--debug"}  # the README's prose says which commands take it


def commands(command: click.Command = main, path: tuple[str, ...] = ("analyzer",)):
    """(``analyzer score``, its options' names) for every runnable command of the tree."""
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from commands(sub, (*path, name))
    elif command.hidden:  # `analyzer import any` is `analyzer import` without a format word
        yield " ".join(path[:-1]), [tuple(p.opts) for p in command.params if isinstance(p, click.Option)]
    else:
        yield " ".join(path), [tuple(p.opts) for p in command.params if isinstance(p, click.Option)]


COMMANDS = list(commands())


def mentions(text: str, names: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) for name in names)


def synopsis(text: str, command: str) -> str:
    """The lines of the first code block that start with ``command`` (and their indented continuations)."""
    block = text.split("```", 2)[1] if text.lstrip().startswith("```") else text.split("\n```", 2)[1]
    kept, inside = [], False
    for line in block.splitlines():
        if line.startswith("analyzer "):
            words = line.split()[: len(command.split())]
            inside = " ".join(w for w in words) == command or any(  # `analyzer export mjai|tenhou6 …`
                " ".join(words[:-1] + [alt]) == command for alt in words[-1].split("|"))
        if inside:
            kept.append(line)
    return "\n".join(kept)


def section(text: str, command: str) -> str:
    """The ``## `` section whose heading names ``command`` in backticks (up to the next ``## `` heading)."""
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return "\n".join(part for part in parts[1:] if f"`{command}`" in part.splitlines()[0])


def test_the_tree_has_commands_and_options():
    names = dict(COMMANDS)
    assert {"analyzer score", "analyzer check", "analyzer report", "analyzer rules list"} <= set(names)
    assert ("-o", "--output") in names["analyzer score"]


@pytest.mark.parametrize(("command", "options"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_every_option_is_in_docs_cli(command: str, options: list[tuple[str, ...]]):
    text = CLI_DOC.read_text(encoding="utf-8")
    assert synopsis(text, command), f"docs/cli.md: no synopsis line for {command}"
    assert section(text, command), f"docs/cli.md: no section headed `{command}`"
    missing = [names[-1] for names in options if not mentions(synopsis(text, command), names)]
    assert not missing, f"docs/cli.md synopsis of {command} lacks {missing}"
    missing = [names[-1] for names in options if not mentions(section(text, command), names)]
    assert not missing, f"docs/cli.md section of {command} lacks {missing}"


@pytest.mark.parametrize(("command", "options"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_every_option_is_in_the_readme_synopsis(command: str, options: list[tuple[str, ...]]):
    commands_part = README.read_text(encoding="utf-8").split("\n## Commands", 1)[1]
    shown = synopsis(commands_part, command)
    assert shown, f"README.md: no synopsis line for {command} under Commands"
    missing = [names[-1] for names in options if not set(names) & README_LEAVES_OUT and not mentions(shown, names)]
    assert not missing, f"README.md synopsis of {command} lacks {missing}"


def test_the_walk_finds_a_missing_option():
    text = "```\nanalyzer score IN -o OUT [--top N]\n    [--rules R]\nanalyzer check IN\n```\n## `analyzer score`\n`--top`\n"
    assert synopsis(text, "analyzer score") == "analyzer score IN -o OUT [--top N]\n    [--rules R]"
    assert mentions(synopsis(text, "analyzer score"), ("-o", "--output"))
    assert not mentions(synopsis(text, "analyzer check"), ("--top",))
    assert mentions(section(text, "analyzer score"), ("--top",))
    assert not mentions(section(text, "analyzer score"), ("--rules",))
    assert not mentions("--top-n", ("--top",))
