"""Every screenshot of the docs is made by scripts/screenshots.py (so it can be regenerated from the current
code), and every one it makes is shown by a docs page. Shooting them needs chromium and takes a minute: run the
script itself after changing a page."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_docs_png_is_made_by_the_script_and_shown():
    made = {shot.png for shot in _script().SHOTS}
    assert made == {p.name for p in (ROOT / "docs").glob("*.png")}
    pages = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    assert {png for png in made if f"]({png})" not in pages} == set()


def test_every_shot_runs_on_sample_logs_only():
    for shot in _script().SHOTS:
        inputs = [arg for command in shot.commands for arg in command if "/" in arg]
        assert all(arg.startswith("sample_logs/") for arg in inputs), shot
        assert (ROOT / inputs[0]).exists(), shot
