"""The documentation's links resolve: README.md and every docs/*.md page.

Every relative Markdown link ``[text](path)`` or ``[text](path#anchor)`` (images included) must name an existing
file, and an ``#anchor`` must match a heading of the target page, slugged the way GitHub does. Links inside
fenced code blocks and inline code are not links; ``http(s)://`` and ``mailto:`` links are not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_MAX_LINES = 250
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^(https?:|mailto:)", re.IGNORECASE)


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup and punctuation dropped, lower case, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = re.sub(r"<[^>]+>", "", text).lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading anchor of a page, with GitHub's -1, -2 … suffixes for repeated headings."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The link targets of a page, outside code."""
    targets = []
    for line in prose_lines(page.read_text(encoding="utf-8")):
        targets += LINK.findall(INLINE_CODE.sub("", line))
    return targets


def _shown(file: Path) -> str:
    return str(file.relative_to(ROOT)) if file.is_relative_to(ROOT) else str(file)


def broken_links(page: Path) -> list[str]:
    """'target: why' for each relative link of ``page`` that does not resolve."""
    broken = []
    for target in links(page):
        if EXTERNAL.match(target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {_shown(file)}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {_shown(file)}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path):
    assert broken_links(page) == []


def test_readme_is_short():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move the detail into docs/"


def test_the_docs_pages_exist_and_are_linked_from_the_readme():
    readme_links = {t.partition("#")[0] for t in links(README)}
    pages = {f"docs/{p.name}" for p in PAGES if p != README}
    assert pages, "no docs/*.md pages"
    assert pages <= readme_links, f"not linked from README.md: {sorted(pages - readme_links)}"


def test_the_checker_finds_broken_links(tmp_path: Path):
    (tmp_path / "target.md").write_text("# Title\n\n## Some `code` here: yes\n\n## Some code here yes\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](target.md) [ok](target.md#title) [ok](target.md#some-code-here-yes)"
        " [ok](target.md#some-code-here-yes-1) [ok](#here) [web](https://example.com/x#y)\n"
        "# Here\n"
        "`[not a link](missing.md)`\n```\n[not a link](missing.md)\n```\n"
        "[bad](missing.md) [bad](target.md#nowhere) [bad](#nowhere)\n"
    )
    assert broken_links(page) == [
        f"missing.md: no file {tmp_path / 'missing.md'}",
        "target.md#nowhere: no heading #nowhere in " + str(tmp_path / "target.md"),
        "#nowhere: no heading #nowhere in " + str(page),
    ]


MAIN_GUARD = 'if __name__ == "__main__":'
LOCAL_CLUSTER = re.compile(r"\bworkers\s*=\s*(?:\d|[A-Za-z_])")  # DaskExecutor(workers=4), score(..., workers=n)


def python_blocks(text: str) -> list[str]:
    """The code of each ```python block of a page, comments left out."""
    blocks, current = [], None
    for line in text.splitlines():
        if current is None and re.match(r"^\s*```python\s*$", line):
            current = []
        elif current is not None and FENCE.match(line):
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line.split("#", 1)[0])
    return blocks


def unguarded_clusters(text: str) -> list[str]:
    """The Python examples of a page that start a local cluster (worker processes, which import the script
    that starts them) without the ``__main__`` guard: in a script they stop with 'Nanny failed to start'."""
    return [block for block in python_blocks(text) if LOCAL_CLUSTER.search(block) and MAIN_GUARD not in block]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_local_cluster_example_shows_the_main_guard(page: Path):
    assert unguarded_clusters(page.read_text(encoding="utf-8")) == []


def test_the_guard_check_finds_a_local_cluster():
    bare = "```python\nwith analyzer.DaskExecutor(workers=4) as cluster:\n    analyzer.score(x, executor=cluster)\n```\n"
    guarded = f"```python\n{MAIN_GUARD}\n    analyzer.score(x, workers=2)\n```\n"
    other = "```python\nanalyzer.score(x, scheduler='tcp://h:8786')  # or workers=N\n```\n```\nworkers=4\n```\n"
    assert len(unguarded_clusters(bare + guarded + other)) == 1
