"""The HTML report: one self-contained page (inline CSS, SVG and a few lines of JS) of a scoring run."""

from analyzer.report.html import build_report, write_report
from analyzer.report.options import ReportOptions

__all__ = ["ReportOptions", "build_report", "write_report"]
