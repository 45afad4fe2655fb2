"""A check's findings written out: one row each (CSV, Parquet) or a page with the summary too (HTML)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analyzer.io.html import html_page
from analyzer.io.load import InputError
from analyzer.io.write import write_atomic, write_table
from analyzer.report.viewer import tenhou_url_expr, where_recorded

REPORT_FORMATS = ("csv", "parquet", "html")
WHERE_COLUMNS = ("source_file", "source_row", "log_file", "log_row")  # one ``where`` column on the page


def _cited(findings: pl.DataFrame) -> pl.DataFrame:
    """Findings with ``where`` (:func:`~analyzer.report.viewer.where_recorded`) after their game, for the page."""
    first, *rest = findings.columns
    return findings.select(first, where_recorded().alias("where"), *rest)


def write_findings(result, path: str | Path) -> Path:
    """A :class:`~analyzer.jobs.check.CheckResult`'s findings as ``.csv`` or ``.parquet`` (one row each, most
    serious first), or an ``.html`` page: the summary, the mismatches, then the notes."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in REPORT_FORMATS:
        raise InputError(f"report {path}: use a .csv, .parquet or .html file name")
    if fmt != "html":
        return write_table(result.findings, path, fmt)
    # as on the console: the mismatches, most serious kind first, then the notes (worth knowing, not wrong),
    # each saying where it was recorded next to its game (the log file and hand, or the input file and row);
    # a Tenhou game links to the tenhou.net viewer at the finding's hand; other ids are shown as they are
    page = html_page(
        "analyzer check",
        f"{result.headline()}. Rules: {result.rules_label}.",
        [("Summary", result.summary), ("Mismatches", _cited(result.mismatches)), ("Notes", _cited(result.notes))],
        links={"game_id": tenhou_url_expr(pl.col("game_id"), pl.col("log_row"))},
        hidden=WHERE_COLUMNS,
    )
    return write_atomic(path, lambda temp: Path(temp).write_text(page, encoding="utf-8"))
