"""The README's console examples (and those of the user docs listed in ``PAGES``) are what the current code prints.

Every fenced block of such a page whose first line starts with ``$ `` is a console session: each ``$ command``
line is followed by the output it shows, up to the next ``$`` line. A page's sessions run in order, in one
temporary directory (so ``cat out/rejects.csv`` reads what the ``analyzer score`` before it wrote), with
``sample_logs/`` beside them as in a checkout. A block preceded by the line ``<!-- file: NAME -->`` is an
input file the examples read, written there first.

The expected output is read from the README itself: refreshing an example means pasting the new output into
the README, never editing this test. Only what must be is normalised: the terminal width (``COLUMNS``, for
rich's tables), trailing spaces, and the temporary directory's path. A docs page may leave lines out of a long
output with a line ``...``; the README shows its outputs whole.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "docs" / "importing.md", ROOT / "docs" / "cli.md"]  # pages whose `$` sessions are tested
ELISION = "..."  # a shown output line of only this stands for any lines (none included) the page leaves out
FENCE = re.compile(r"^\s*```")
FILE_MARK = re.compile(r"^<!--\s*file:\s*(\S+)\s*-->\s*$")
TERMINAL_COLUMNS = "200"  # wide enough that no shown line is wrapped by rich


@dataclass(frozen=True)
class Step:
    command: str
    shown: str
    line: int  # the README line of the command


def blocks(text: str) -> list[tuple[int, str | None, list[str]]]:
    """(first line number, file name or None, lines) of each fenced block, with its ``<!-- file: -->`` mark."""
    found, lines = [], text.splitlines()
    index = 0
    while index < len(lines):
        if FENCE.match(lines[index]):
            mark = FILE_MARK.match(lines[index - 1]) if index else None
            end = next(i for i in range(index + 1, len(lines)) if FENCE.match(lines[i]))
            found.append((index + 2, mark.group(1) if mark else None, lines[index + 1:end]))
            index = end
        index += 1
    return found


def readme_examples(text: str) -> tuple[dict[str, str], list[Step]]:
    """The input files and the console steps of a README text."""
    files, steps = {}, []
    for first, name, lines in blocks(text):
        if name:
            files[name] = "\n".join(lines) + "\n"
        elif lines and lines[0].startswith("$ "):
            for offset, line in enumerate(lines):
                if line.startswith("$ "):
                    steps.append(Step(line[2:], "", first + offset))
                else:
                    last = steps[-1]
                    steps[-1] = Step(last.command, last.shown + line + "\n", last.line)
    return files, steps


def matches(printed: str, shown: str) -> bool:
    """Whether ``printed`` is ``shown``, each ``...`` line of ``shown`` standing for any lines."""
    lines = shown.splitlines()
    if ELISION not in lines:
        return printed == shown
    pattern = "".join(r"(?:.*\n)*?" if line == ELISION else re.escape(line) + r"\n" for line in lines)
    return re.fullmatch(pattern, printed + "\n") is not None


def normalised(output: str, workdir: Path) -> str:
    output = output.replace(f"{workdir}/", "").replace(str(workdir), ".")
    return "\n".join(line.rstrip() for line in output.splitlines()).strip("\n")


EXAMPLES = {page: readme_examples(page.read_text(encoding="utf-8")) for page in PAGES}
CASES = [(page, step) for page, (_, steps) in EXAMPLES.items() for step in steps]


def run_page(page: Path, work: Path) -> dict[int, str]:
    """What each step of ``page`` prints (by line), every step run in page order in ``work``, laid out like a
    checkout: the page's input files, ``sample_logs/``, and an ``analyzer`` command on the PATH."""
    files, steps = {**EXAMPLES[README][0], **EXAMPLES[page][0]}, EXAMPLES[page][1]  # the README's files too
    (work / "sample_logs").symlink_to(ROOT / "sample_logs")
    (work / "tests").symlink_to(ROOT / "tests")  # a few docs examples read a test fixture, as in a checkout
    for name, content in files.items():
        (work / name).write_text(content, encoding="utf-8")
    bin_dir = work / ".bin"
    bin_dir.mkdir()
    command = bin_dir / "analyzer"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m analyzer.cli "$@"\n')
    command.chmod(0o755)
    env = {**os.environ, "COLUMNS": TERMINAL_COLUMNS, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1",
           "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("FORCE_COLOR", None)
    outputs = {}
    for step in steps:
        # stdout and stderr in one pipe, unbuffered: the order a terminal shows them in
        run = subprocess.run(["bash", "-c", step.command], cwd=work, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=300)
        outputs[step.line] = normalised(run.stdout, work)
    return outputs


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[Path, dict[int, str]]:
    """Each page's outputs, run once for the module, each page in its own directory."""
    return {page: run_page(page, tmp_path_factory.mktemp(page.stem)) for page in PAGES}


def test_the_readme_has_console_examples():
    files, steps = EXAMPLES[README]
    assert files, "no <!-- file: NAME --> input block in README.md"
    assert any(step.command.startswith("analyzer ") for step in steps), "no `$ analyzer …` example in README.md"


@pytest.mark.parametrize(("page", "step"), CASES, ids=[f"{p.name}:{s.line}:{s.command}" for p, s in CASES])
def test_example_prints_what_it_shows(page: Path, step: Step, printed: dict[Path, dict[int, str]]):
    shown = page.relative_to(ROOT)
    expected = normalised(step.shown, Path("/nonexistent"))
    if page == README:  # the README shows every line
        assert printed[page][step.line] == expected, (
            f"{shown} line {step.line}: `{step.command}` prints something else now; paste its output into {shown}")
    assert matches(printed[page][step.line], expected), (
        f"{shown} line {step.line}: `{step.command}` prints something else now; paste its output into {shown}")


def test_elided_lines_match_any_lines():
    assert matches("a\nb\nc", "a\n...\nc") and matches("a\nc", "a\n...\nc") and matches("a\nb", "a\n...")
    assert not matches("a\nb\nd", "a\n...\nc") and not matches("a\nb", "a") and not matches("x\na", "a\n...")


def test_examples_are_read_from_the_readme():
    text = "\n".join([
        "<!-- file: a.csv -->", "```", "x,y", "1,2", "```", "prose", "```", "$ cat a.csv", "x,y", "1,2",
        "$ echo hi", "hi", "```", "```", "not a console block", "```",
    ])
    files, steps = readme_examples(text)
    assert files == {"a.csv": "x,y\n1,2\n"}
    assert steps == [Step("cat a.csv", "x,y\n1,2\n", 8), Step("echo hi", "hi\n", 11)]
