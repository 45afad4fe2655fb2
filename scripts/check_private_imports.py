"""Check that no module of ``analyzer/`` reaches into another module's private names.

A name starting with ``_`` is free to change within its module; a module importing it from elsewhere (or
importing a module whose path has a ``_`` segment, or reading ``alias._name`` off an imported module) ties the
two together without saying so. Dunder names (``__future__``, ``__version__``) are public by convention.

    python scripts/check_private_imports.py                      # all of analyzer/
    python scripts/check_private_imports.py analyzer/tiles       # some files or folders
    python scripts/check_private_imports.py --exclude analyzer/cli.py

Prints one line per finding and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def findings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: list[str] = []
    module_aliases: set[str] = set()  # names bound to an imported module, whose private attributes count too
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(is_private(part) for part in alias.name.split(".")):
                    out.append(f"{path}:{node.lineno}: imports private module {alias.name}")
                module_aliases.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if any(is_private(part) for part in (node.module or "").split(".")):
                out.append(f"{path}:{node.lineno}: imports from private module {module}")
            for alias in node.names:
                if is_private(alias.name):
                    out.append(f"{path}:{node.lineno}: imports private name {alias.name} from {module}")
                # `from analyzer.tiles import fu as F` binds a module; other names are harmless here
                module_aliases.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and is_private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in module_aliases and node.value.id not in {"self", "cls"}):
            out.append(f"{path}:{node.lineno}: reads private {node.value.id}.{node.attr}")
    return out


def python_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "analyzer"])
    parser.add_argument("--exclude", nargs="*", type=Path, default=[], help="files left out of the check")
    args = parser.parse_args(argv)
    excluded = {p.resolve() for p in args.exclude}
    lines = [line for f in python_files(args.paths) if f.resolve() not in excluded for line in findings(f)]
    print("\n".join(lines) if lines else "no private imports")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
