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


LINK = "_link_"  # the address a linked column's cell points to, as a column of its own while the table is built


def html_table(df: pl.DataFrame, links: dict[str, pl.Expr] | None = None, hidden: tuple[str, ...] = ()) -> str:
    """One ``<table>``: a header row, then every row of ``df`` (nested values flattened as in CSV) but its
    ``hidden`` columns (which ``links`` may still read). ``links`` maps a column to the address its cells link
    to (an expression over ``df``'s columns; a null address, or a column the table lacks, leaves the text
    plain)."""
    links = {name: url for name, url in (links or {}).items()
             if name in df.columns and set(url.meta.root_names()) <= set(df.columns)}
    flat = flatten_for_csv(df.with_columns(url.alias(LINK + name) for name, url in links.items()))
    shown = {name: dtype for name, dtype in flat.schema.items() if not name.startswith(LINK) and name not in hidden}
    head = "".join(f"<th>{escape(name)}</th>" for name in shown)
    cells = [
        pl.concat_str(
            pl.lit('<td class="num">' if dtype.is_numeric() else "<td>"),
            _linked(_escaped(pl.col(name).cast(pl.String)).fill_null(""), name in links and pl.col(LINK + name)),
            pl.lit("</td>"),
        )
        for name, dtype in shown.items()
    ]
    rows = ""
    if flat.height:
        rows = flat.select(pl.concat_str(pl.lit("<tr>"), *cells, pl.lit("</tr>")).str.join("")).item()
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _linked(text: pl.Expr, url: pl.Expr | bool) -> pl.Expr:
    """``text`` inside a link to ``url`` where it is not null (``url`` False: no link)."""
    if url is False:
        return text
    return pl.when(url.is_not_null()).then(
        pl.concat_str(pl.lit('<a href="'), _escaped(url), pl.lit('">'), text, pl.lit("</a>"))
    ).otherwise(text)


def _escaped(text: pl.Expr) -> pl.Expr:
    """What ``html.escape`` does, as one simultaneous replacement (so ``&`` is not escaped twice)."""
    return text.str.replace_many(["&", "<", ">", '"', "'"], ["&amp;", "&lt;", "&gt;", "&quot;", "&#x27;"])


def html_page(title: str, lead: str, sections: list[tuple[str, pl.DataFrame]],
              links: dict[str, pl.Expr] | None = None, hidden: tuple[str, ...] = ()) -> str:
    """A whole page: title, a lead paragraph, then a heading and a table per section (``links`` and ``hidden``
    as for :func:`html_table`, in every table that has the columns)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="lead">{escape(lead)}</p>',
    ]
    for heading, df in sections:
        parts.append(f"<h2>{escape(heading)}</h2>")
        parts.append(html_table(df, links, hidden) if df.height else "<p>None.</p>")
    parts.append("</body></html>")
    return "\n".join(parts)
