"""Every install hint names the distribution of pyproject.toml, never the import name.

The package imports as ``analyzer`` and the command is ``analyzer``, but ``analyzer`` on the package index is
someone else's project: ``pip install 'analyzer[xlsx]'`` would fetch it. The hints, in the code (the messages
of a missing extra), the tests' skip reasons, the benchmarks and the docs, say ``[project] name``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAME = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
IMPORT_NAME = "analyzer"
# the project's own files: benchmarks/data (generated, ignored by git) left out
SOURCES = sorted([*(ROOT / "analyzer").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
                  *(ROOT / "benchmarks").glob("*.py"), *(ROOT / "scripts").rglob("*.py"), ROOT / "README.md",
                  *(ROOT / "docs").glob("*.md"), ROOT / "Makefile"])
SOURCES.remove(Path(__file__).resolve())  # its examples of wrong hints
# what follows `pip install` up to the end of the command: options, paths and requirements
INSTALL = re.compile(r"pip install((?:[ \t]+(?:-[-\w]+|'[^'\n]*'|\"[^\"\n]*\"|[^\s`'\"();,#]+))+)")
REQUIREMENT = re.compile(r"^([A-Za-z0-9][\w.-]*)(\[[\w,-]+\])?")


def hinted(text: str) -> list[str]:
    """The distribution names that the ``pip install`` commands of ``text`` install (paths and options left
    out: ``pip install -e '.[test]'`` installs a checkout)."""
    names = []
    for match in INSTALL.finditer(text):
        for word in match.group(1).split():
            word = word.strip("'\"")
            if word.startswith(("-", ".", "/")) or not (found := REQUIREMENT.match(word)):
                continue
            names.append(found.group(1))
    return names


def test_the_distribution_has_a_name_of_its_own():
    assert NAME != IMPORT_NAME and NAME == "riichi-analyzer"


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_every_install_hint_names_the_distribution(path: Path):
    names = hinted(path.read_text(encoding="utf-8"))
    assert IMPORT_NAME not in names, f"{path.relative_to(ROOT)}: `pip install {IMPORT_NAME}…` is another project"


def test_the_messages_of_a_missing_extra_name_the_distribution():
    from analyzer.io.workbook import INSTALL_HINT
    from analyzer.run.dask import EXTRA_MESSAGE

    assert f"pip install '{NAME}[xlsx]'" in INSTALL_HINT and f"pip install '{NAME}[dask]'" in EXTRA_MESSAGE


def test_hints_are_found():
    text = ("run `pip install 'analyzer[xlsx]'`; .venv/bin/pip install -e '.[dask]'  # a checkout\n"
            "pip install --quiet --upgrade pip\n(pip install analyzer) and pip install s3fs 'riichi-analyzer[dask]'")
    assert hinted(text) == ["analyzer", "pip", "analyzer", "s3fs", "riichi-analyzer"]
