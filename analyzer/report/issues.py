"""The report's lists of what is wrong or doubtful: the problems of scored rows, the rejected rows and the
incomplete games, the first :data:`~analyzer.report.options.LISTED` of each read from the tables (the rest
counted), each game linked where the page has its section. Where a row was recorded (its log file and hand,
or its input file and row: paths on the machine that ran the report) is a column only with ``sources``."""

from __future__ import annotations

from html import escape

import polars as pl

from analyzer.core.schema import log_columns
from analyzer.game.problems import has_problems, problem_lists, problems_text
from analyzer.report.games import said
from analyzer.report.markup import EVERY_SECTION, Sections
from analyzer.report.options import LISTED
from analyzer.report.tables import columns, count
from analyzer.report.viewer import where_recorded


def _more(shown: int, total: int, where: str) -> str:
    return f'<p class="lead">… and {total - shown:,} more ({where} lists them all).</p>' if total > shown else ""


def _head(names: list[tuple[str, bool]]) -> str:
    return "".join(f'<th class="{"t" if text else ""}">{escape(name)}</th>' for name, text in names)


def issues(hands: pl.LazyFrame, rejects: pl.LazyFrame, sections: Sections = EVERY_SECTION, sources: bool = False,
           listed: int = LISTED) -> str:
    """The problems of scored rows and the rejected rows (the first ``listed`` of each)."""
    parts = []
    if "problems" in columns(hands):
        found = problem_lists(hands).filter(has_problems())
        total = count(found)
        where = [where_recorded().alias("where")] if sources else []
        problems = found.head(listed).collect()  # the text of the rows listed alone
        problems = problems.with_columns(log_columns(problems.columns)).select(
            "game_id", "round", "honba", problems_text().alias("problems"), *where)
        if total:
            rows = "".join(
                f'<tr><td class="t">{sections.game(r["game_id"])}</td><td class="t">{escape(str(r["round"]))}</td>'
                f'<td>{r["honba"]}</td><td class="t">{escape(r["problems"])}</td>'
                + (f'<td class="t">{escape(str(r["where"]))}</td>' if sources else "") + "</tr>"
                for r in problems.iter_rows(named=True))
            head = _head([("game", True), ("round", True), ("honba", False), ("problems", True)]
                         + ([("source", True)] if sources else []))
            parts.append(f'<h3>Problems ({total:,})</h3><table class="sortable"><thead><tr>{head}</tr></thead>'
                         f"<tbody>{rows}</tbody></table>"
                         + _more(problems.height, total, "the hands table's problems column"))
    total = count(rejects)
    if total:
        where = [where_recorded("log_file", "log_row", "file", "row").alias("where")] if sources else []
        shown = rejects.head(listed).collect()
        shown = shown.with_columns(log_columns(shown.columns)).select(*where, "game_id", "column", "value", "reason")
        rows = "".join(
            f'<tr><td class="t">{sections.game(r["game_id"]) if r["game_id"] else ""}</td>'
            + (f'<td class="t">{escape(str(r["where"]))}</td>' if sources else "")
            + f'<td class="t">{escape(str(r["column"]))}</td><td class="t">{escape(str(r["value"]))}</td>'
            f'<td class="t">{escape(str(r["reason"]))}</td></tr>'
            for r in shown.iter_rows(named=True))
        head = _head([("game", True), *([("source", True)] if sources else []), ("column", True), ("value", True),
                      ("reason", True)])
        parts.append(f'<h3>Rejected rows ({total:,} reasons)</h3><table class="sortable"><thead><tr>{head}</tr>'
                     f"</thead><tbody>{rows}</tbody></table>" + _more(shown.height, total, "the rejects table"))
    return "".join(parts) or "<p>No problems and no rejected rows.</p>"


def incomplete_list(reasons: dict[str, str], total: int, sections: Sections = EVERY_SECTION) -> str:
    """The incomplete games with why each is (``reasons``: the first of ``total``)."""
    rows = "".join(f'<tr><td class="t">{sections.game(g)}</td><td class="t">{said(r)}</td></tr>'
                   for g, r in reasons.items())
    return ('<h2 id="incomplete">Incomplete games</h2><p class="lead">Their hands are scored and counted; a game '
            "is incomplete when it is a fragment (it does not start at E1 with nothing on the table), when rows "
            "of it were rejected, or when it does not end where its rules end a game.</p>"
            f'<table class="sortable"><thead><tr><th class="t">game</th><th class="t">why</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>" + _more(len(reasons), total, "the games table's complete column"))
