"""A self-contained HTML page of tables (no scripts, no external files), for reports people open in a browser."""

from __future__ import annotations

from html import escape

import polars as pl

from analyzer.io.write import flatten_for_csv

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin-bottom: 2em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; position: sticky; top: 0; }
tr:nth-child(even) td { background: #fafafa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
p.lead { font-size: 1.1em; }
"""


def html_table(df: pl.DataFrame) -> str:
    """One ``<table>``: a header row, then every row of ``df`` (nested values flattened as in CSV)."""
    flat = flatten_for_csv(df)
    numeric = [dtype.is_numeric() for dtype in flat.dtypes]
    head = "".join(f"<th>{escape(name)}</th>" for name in flat.columns)
    body = []
    for row in flat.iter_rows():
        cells = "".join(
            f'<td class="num">{_cell(v)}</td>' if is_num else f"<td>{_cell(v)}</td>" for v, is_num in zip(row, numeric)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _cell(value) -> str:
    return "" if value is None else escape(str(value))


def html_page(title: str, lead: str, sections: list[tuple[str, pl.DataFrame]]) -> str:
    """A whole page: title, a lead paragraph, then a heading and a table per section."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="lead">{escape(lead)}</p>',
    ]
    for heading, df in sections:
        parts.append(f"<h2>{escape(heading)}</h2>")
        parts.append(html_table(df) if df.height else "<p>None.</p>")
    parts.append("</body></html>")
    return "\n".join(parts)
