"""No test names a path under the system's temporary directory: a test writes under pytest's ``tmp_path``.

A fixed name there (``x.csv`` in it) is shared by every run on the machine: two runs at once overwrite each
other's files, and what a run leaves behind is never cleaned up. Every string literal of every test module
(f-strings and docstrings included) is looked at.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
TMP = re.compile(r"(?<![\w.~-])/" + "tmp" + r"(?=/|$|[\s\"'])")  # not written out whole: this file is a test too


def tmp_paths(source: str) -> list[tuple[int, str]]:
    """(line, literal) of each string literal of ``source`` that names a path under the temporary directory."""
    return sorted((node.lineno, node.value) for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and TMP.search(node.value))


MODULES = sorted(TESTS.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(TESTS)) for p in MODULES])
def test_no_test_names_a_path_under_tmp(path: Path):
    found = tmp_paths(path.read_text(encoding="utf-8"))
    assert found == [], f"{path.relative_to(TESTS.parent)}: use tmp_path, not {found}"


def test_the_check_finds_tmp_paths():
    root = "/" + "tmp"
    source = "\n".join([
        f'open("{root}/x.csv")', f'Path("{root}") / "y.csv"', f'name = f"{root}/{{n}}.csv"',
        f'"""A docstring that writes to {root}/z."""', f'url = "file://{root}/w"',
    ])
    assert [line for line, _ in tmp_paths(source)] == [1, 2, 3, 4, 5]
    assert tmp_paths('"sample_logs/tmp/x.csv", "~/tmp/y", "/tmpfs", "./tmp/z", tmp_path / "x.csv"') == []
