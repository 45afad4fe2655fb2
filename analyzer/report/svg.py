"""Small inline SVG charts: bars and lines, every text escaped, no scripts, no external files.

Coordinates are rounded to one decimal so that a page with thousands of charts stays small.
"""

from __future__ import annotations

from html import escape

PALETTE = ("#2b6cb0", "#c05621", "#2f855a", "#805ad5", "#b7791f", "#c53030")
FONT = 'font-family="system-ui,sans-serif" font-size="11"'


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def bar_chart(labels: list[str], values: list[float], *, width: int = 260, height: int = 150, title: str = "",
              value_format: str = "{:g}") -> str:
    """Vertical bars, one per label, with the value above each bar."""
    pad_top, pad_bottom, pad_side = 18, 22, 8
    top = max([v for v in values if v is not None] + [0]) or 1
    slot = (width - 2 * pad_side) / max(len(values), 1)
    plot_h = height - pad_top - pad_bottom
    parts = [f'<svg class="chart bar" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg" {FONT}>', f"<title>{escape(title)}</title>"]
    for i, (label, value) in enumerate(zip(labels, values)):
        v = value or 0
        h = plot_h * v / top
        x = pad_side + i * slot + slot * 0.15
        y = pad_top + plot_h - h
        parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(slot * 0.7)}" height="{_num(h)}" '
                     f'fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(label)}: {escape(value_format.format(v))}'
                     "</title></rect>")
        cx = _num(x + slot * 0.35)
        parts.append(f'<text x="{cx}" y="{_num(y - 4)}" text-anchor="middle">{escape(value_format.format(v))}</text>')
        parts.append(f'<text x="{cx}" y="{height - 6}" text-anchor="middle">{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def line_chart(series: dict[str, list[float]], *, x_labels: list[str] | None = None, width: int = 520,
               height: int = 200, title: str = "", point_titles: list[str] | None = None,
               baseline: float | None = None) -> str:
    """One polyline per series over the same x positions, with y-axis extremes and an optional baseline.

    ``point_titles`` (one per x position) become tooltips of the points of the first series.
    """
    pad_left, pad_right, pad_top, pad_bottom = 48, 24, 10, 22
    values = [v for ys in series.values() for v in ys if v is not None]
    if baseline is not None:
        values.append(baseline)
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high == low:
        low, high = low - 1, high + 1
    n = max((len(ys) for ys in series.values()), default=0)
    plot_w, plot_h = width - pad_left - pad_right, height - pad_top - pad_bottom

    def x_at(i: int) -> float:
        return pad_left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return pad_top + plot_h * (high - v) / (high - low)

    parts = [f'<svg class="chart line" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg" {FONT}>', f"<title>{escape(title)}</title>",
             f'<line x1="{pad_left}" y1="{pad_top}" x2="{pad_left}" y2="{pad_top + plot_h}" stroke="#999"/>',
             f'<text x="{pad_left - 4}" y="{pad_top + 8}" text-anchor="end">{escape(f"{high:g}")}</text>',
             f'<text x="{pad_left - 4}" y="{pad_top + plot_h}" text-anchor="end">{escape(f"{low:g}")}</text>']
    if baseline is not None:
        y = _num(y_at(baseline))
        parts.append(f'<line x1="{pad_left}" y1="{y}" x2="{width - pad_right}" y2="{y}" stroke="#bbb" '
                     'stroke-dasharray="4 3"/>')
    if x_labels:
        step = max(1, len(x_labels) // 12)
        for i in range(0, len(x_labels), step):
            parts.append(f'<text x="{_num(x_at(i))}" y="{height - 6}" text-anchor="middle">'
                         f"{escape(x_labels[i])}</text>")
    for k, (name, ys) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{_num(x_at(i))},{_num(y_at(v))}" for i, v in enumerate(ys) if v is not None)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}">'
                     f"<title>{escape(name)}</title></polyline>")
        if k == 0 and point_titles:
            for i, (v, tip) in enumerate(zip(ys, point_titles)):
                if v is not None:
                    parts.append(f'<circle cx="{_num(x_at(i))}" cy="{_num(y_at(v))}" r="2.5" fill="{colour}">'
                                 f"<title>{escape(tip)}</title></circle>")
    parts.append("</svg>")
    return "".join(parts)


def legend(names: list[str]) -> str:
    """HTML legend matching the colours of :func:`line_chart` series."""
    items = "".join(f'<span class="key"><i style="background:{PALETTE[k % len(PALETTE)]}"></i>{escape(n)}</span>'
                    for k, n in enumerate(names))
    return f'<div class="legend">{items}</div>'
