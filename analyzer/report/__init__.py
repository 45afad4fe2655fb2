"""The HTML report: one self-contained page (inline CSS, SVG and a few lines of JS) of a scoring run."""

from analyzer.report.html import build_report, write_report

__all__ = ["build_report", "write_report"]
