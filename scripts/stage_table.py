"""Write the scoring stages' table (analyzer.scoring.stages.stage_table) into docs/architecture.md between its markers.

    .venv/bin/python scripts/stage_table.py
"""

from __future__ import annotations

from pathlib import Path

from analyzer.scoring.stages import stage_table

PAGE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
BEGIN, END = "<!-- stages:begin -->", "<!-- stages:end -->"


def main() -> None:
    text = PAGE.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{BEGIN}\n{stage_table()}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
