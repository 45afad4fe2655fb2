"""The layout holds: no import cycles, no private names across modules, small modules, one run path."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
MAX_MODULE_LINES = 400


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


DEFERRED = "# deferred:"  # an import inside a function, with the reason (what it keeps off start-up)


def _imports(path: Path, modules: dict[str, Path]) -> list[tuple[str, list[str], int, bool]]:
    """(module imported, names taken from it, line, at module level or deferred with a reason) for every
    import of an analyzer module."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    top_level = {id(node) for node in tree.body} | {
        id(node) for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and DEFERRED in lines[node.lineno - 1]
    }
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            if not base.startswith("analyzer"):
                continue
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in modules:  # `from analyzer.run import plan`: the module itself
                    found.append((target, [], node.lineno, id(node) in top_level))
                else:
                    found.append((base, [alias.name], node.lineno, id(node) in top_level))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("analyzer"):
                    found.append((alias.name, [], node.lineno, id(node) in top_level))
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        ancestors = {name.rsplit(".", i)[0] for i in range(1, name.count(".") + 1)}
        for target, _, _, _ in _imports(path, modules):
            # importing a.b.c runs a and a.b first (their imports count too), but the importer's own packages
            # are running already
            parts = target.split(".")
            edges.update(m for m in (".".join(parts[: i + 1]) for i in range(1, len(parts)))
                         if m in modules and m not in ancestors)
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (module -> modules it imports), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles():
    """A package's ``__init__`` re-exporting its modules is no cycle: they never import their own package."""
    assert find_cycle(_graph()) is None


def test_imports_of_analyzer_modules_are_at_module_level():
    """An import inside a function hides a cycle from readers: allowed only with its reason (``# deferred:``,
    e.g. tables kept off the start-up of commands that never score tiles). The cycle test counts it anyway."""
    modules = _modules()
    hidden = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}"
              for name, path in modules.items() for target, _, line, top in _imports(path, modules) if not top]
    assert hidden == []


def test_no_private_name_is_imported_across_modules():
    modules = _modules()
    private = []
    for name, path in modules.items():
        for target, names, line, _ in _imports(path, modules):
            if any(part.startswith("_") for part in target.split(".")) or any(n.startswith("_") for n in names):
                private.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target} {names}")
    assert private == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_are_small(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines: split it by topic"


def test_one_run_path():
    """Score and check run through the one executor interface: nothing outside analyzer.run loops over a plan's
    partitions or talks to Dask."""
    offenders = []
    for name, path in _modules().items():
        if name.startswith("analyzer.run"):
            continue
        text = path.read_text(encoding="utf-8")
        if "import distributed" in text or "from distributed" in text or ".submit(" in text:
            offenders.append(name)
    assert offenders == []


LOOSE_MODULES = {"__init__.py", "api.py", "allocator.py"}
FORMAT_FOLDERS = ("analyzer.formats.tenhou", "analyzer.formats.mjai", "analyzer.formats.majsoul",
                  "analyzer.formats.riichicity")
# who may use a format's own modules beside the formats: the CLI, the report, the public API (re-exports), and
# the Mahjong Soul rank points, which look a room's table up by its name
FORMAT_USERS = ("analyzer.formats", "analyzer.cli", "analyzer.report")
FORMAT_TABLE_USERS = {"analyzer": FORMAT_FOLDERS, "analyzer.ratings.majsoul_points": ("analyzer.formats.majsoul.rooms",)}


def test_the_top_level_is_folders_by_domain():
    loose = {p.name for p in PACKAGE.glob("*.py")}
    assert loose <= LOOSE_MODULES, f"loose modules in analyzer/: {sorted(loose - LOOSE_MODULES)}; put them in a domain folder"
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert not folders & {"importers", "exporters"}, "a log format's reader and writer live together in formats/"
    assert len(folders) <= 15, f"{len(folders)} folders at the top: {sorted(folders)}"


def test_a_formats_own_modules_are_used_by_the_formats():
    modules = _modules()
    offenders = []
    for name, path in modules.items():
        if name.startswith(FORMAT_USERS):
            continue
        allowed = FORMAT_TABLE_USERS.get(name, ())
        for target, _, line, _ in _imports(path, modules):
            if target.startswith(FORMAT_FOLDERS) and not target.startswith(allowed):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert offenders == []


def test_tests_mirror_the_tree():
    """A folder of tests names a folder of the package (or of the formats), so that a module's tests are found
    where the module is."""
    tests = Path(__file__).resolve().parent
    folders = {p.relative_to(tests).as_posix() for p in tests.rglob("test_*.py") if p.parent != tests}
    missing = sorted(f for f in {Path(f).parent.as_posix() for f in folders}
                     if not (PACKAGE / f).is_dir())
    assert missing == [], f"test folders with no package folder of that name: {missing}"
