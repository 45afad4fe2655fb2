"""Small inline SVG charts: bars and lines with labelled axes (round ticks, axis titles), every text escaped, no
scripts, no external files.

Coordinates are rounded to one decimal, the grid lines and tick marks of an axis are one path each, and a line
over more than :data:`CHART_POINTS` positions is drawn through that many of them (evenly spaced, with the
first, the last and each series' highest and lowest), :data:`TOOLTIP_POINTS` of them with a tooltip, so that a
page with thousands of charts stays small.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

PALETTE = ("#2b6cb0", "#c05621", "#2f855a", "#805ad5", "#b7791f", "#c53030")
FONT = 'font-family="system-ui,sans-serif" font-size="11"'
CHART_POINTS = 240  # positions a line chart's lines go through at most
TOOLTIP_POINTS = 60  # of them, the points with a tooltip at most


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering ``low`` .. ``high``."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _tick_text(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:g}"


def _axis_titles(width: int, height: int, left: int, bottom_y: float, plot_mid_y: float, x_title: str,
                 y_title: str) -> list[str]:
    parts = []
    if x_title:
        parts.append(f'<text class="axis-title" x="{_num(left + (width - left) / 2)}" y="{_num(bottom_y)}" '
                     f'text-anchor="middle" fill="#555">{escape(x_title)}</text>')
    if y_title:
        parts.append(f'<text class="axis-title" x="0" y="0" transform="translate(11 {_num(plot_mid_y)}) rotate(-90)" '
                     f'text-anchor="middle" fill="#555">{escape(y_title)}</text>')
    return parts


def _y_axis(ticks: list[float], y_at, left: int, right: float) -> list[str]:
    """The grid lines (one path), the tick marks (one path) and the tick labels of a y axis."""
    grid = "".join(f"M{left} {_num(y_at(t))}H{_num(right)}" for t in ticks)
    marks = "".join(f"M{left - 3} {_num(y_at(t))}h3" for t in ticks)
    parts = [f'<path d="{grid}" fill="none" stroke="#eee"/><path d="{marks}" fill="none" stroke="#999"/>']
    for tick in ticks:
        parts.append(f'<text class="tick" x="{left - 5}" y="{_num(y_at(tick) + 3.5)}" text-anchor="end">'
                     f"{escape(_tick_text(tick))}</text>")
    return parts


def kept_positions(series: list[list[float | None]], limit: int = CHART_POINTS) -> list[int]:
    """The positions a line chart draws: every one up to ``limit``, else ``limit`` of them evenly spaced with
    the first, the last and each series' highest and lowest."""
    n = max((len(ys) for ys in series), default=0)
    limit = max(limit, 2)
    if n <= limit:
        return list(range(n))
    kept = {round(i * (n - 1) / (limit - 1)) for i in range(limit)}
    for ys in series:
        present = [(v, i) for i, v in enumerate(ys) if v is not None]
        if present:
            kept |= {min(present)[1], max(present)[1]}
    return sorted(kept)


def bar_chart(labels: list[str], values: list[float], *, width: int = 280, height: int = 170, title: str = "",
              value_format: str = "{:g}", x_title: str = "", y_title: str = "") -> str:
    """Vertical bars, one per label, with the value above each bar, a y axis with ticks and axis titles."""
    pad_top, pad_bottom, pad_left, pad_right = 18, 36 if x_title else 22, 46 if y_title else 34, 8
    top = max([v for v in values if v is not None] + [0]) or 1
    ticks = nice_ticks(0, top, 4)
    if all(float(v).is_integer() for v in values if v is not None):
        ticks = [t for t in ticks if float(t).is_integer()] or ticks
    top = max(ticks[-1], top)
    slot = (width - pad_left - pad_right) / max(len(values), 1)
    plot_h = height - pad_top - pad_bottom

    def y_at(v: float) -> float:
        return pad_top + plot_h - plot_h * v / top

    parts = [f'<svg class="chart bar" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg" {FONT}>', f"<title>{escape(title)}</title>",
             *_y_axis(ticks, y_at, pad_left, width - pad_right),
             f'<line x1="{pad_left}" y1="{pad_top}" x2="{pad_left}" y2="{pad_top + plot_h}" stroke="#999"/>',
             f'<line x1="{pad_left}" y1="{pad_top + plot_h}" x2="{width - pad_right}" y2="{pad_top + plot_h}" '
             'stroke="#999"/>']
    for i, (label, value) in enumerate(zip(labels, values)):
        v = value or 0
        h = plot_h * v / top
        x = pad_left + i * slot + slot * 0.15
        y = pad_top + plot_h - h
        parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(slot * 0.7)}" height="{_num(h)}" '
                     f'fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(label)}: {escape(value_format.format(v))}'
                     "</title></rect>")
        cx = _num(x + slot * 0.35)
        parts.append(f'<text x="{cx}" y="{_num(y - 4)}" text-anchor="middle">{escape(value_format.format(v))}</text>')
        parts.append(f'<text class="tick" x="{cx}" y="{pad_top + plot_h + 14}" text-anchor="middle">'
                     f"{escape(label)}</text>")
    parts += _axis_titles(width, height, pad_left, height - 5, pad_top + plot_h / 2, x_title, y_title)
    parts.append("</svg>")
    return "".join(parts)


def line_chart(series: dict[str, list[float]], *, x_labels: list[str] | None = None, width: int = 520,
               height: int = 220, title: str = "", point_titles: list[str] | Callable[[int], str] | None = None,
               baseline: float | None = None, x_title: str = "", y_title: str = "",
               max_points: int = CHART_POINTS, max_tooltips: int = TOOLTIP_POINTS) -> str:
    """One polyline per series over the same x positions, on a y axis of round ticks with grid lines, the x
    positions' labels, axis titles and an optional dashed baseline.

    ``point_titles`` (one per x position, or a function of the position) become tooltips of the points of the
    first series (a function is called only for the points drawn with one). Past
    ``max_points`` positions the lines go through the positions :func:`kept_positions` keeps, and past
    ``max_tooltips`` the tooltips are at the positions it keeps of that many.
    """
    pad_left, pad_right, pad_top = 62 if y_title else 50, 24, 10
    pad_bottom = 36 if x_title else 22
    values = [v for ys in series.values() for v in ys if v is not None]
    if baseline is not None:
        values.append(baseline)
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high == low:
        low, high = low - 1, high + 1
    ticks = nice_ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    n = max((len(ys) for ys in series.values()), default=0)
    plot_w, plot_h = width - pad_left - pad_right, height - pad_top - pad_bottom

    def x_at(i: int) -> float:
        return pad_left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return pad_top + plot_h * (high - v) / (high - low)

    parts = [f'<svg class="chart line" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg" {FONT}>', f"<title>{escape(title)}</title>",
             *_y_axis(ticks, y_at, pad_left, width - pad_right),
             f'<line x1="{pad_left}" y1="{pad_top}" x2="{pad_left}" y2="{pad_top + plot_h}" stroke="#999"/>',
             f'<line x1="{pad_left}" y1="{pad_top + plot_h}" x2="{width - pad_right}" y2="{pad_top + plot_h}" '
             'stroke="#999"/>']
    if baseline is not None:
        y = _num(y_at(baseline))
        parts.append(f'<line x1="{pad_left}" y1="{y}" x2="{width - pad_right}" y2="{y}" stroke="#999" '
                     'stroke-dasharray="4 3"/>')
    if x_labels:
        step = max(1, math.ceil(len(x_labels) / 12))
        shown = range(0, len(x_labels), step)
        bottom = pad_top + plot_h
        marks = "".join(f"M{_num(x_at(i))} {bottom}v3" for i in shown)
        parts.append(f'<path d="{marks}" fill="none" stroke="#999"/>')
        parts += [f'<text class="tick" x="{_num(x_at(i))}" y="{bottom + 14}" text-anchor="middle">'
                  f"{escape(x_labels[i])}</text>" for i in shown]
    first = next(iter(series.values()), [])
    tips = set(kept_positions([first], max_tooltips)) if point_titles else set()
    kept = sorted(set(kept_positions(list(series.values()), max_points)) | tips)  # a tooltip's point on its line
    for k, (name, ys) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        drawn = [(i, ys[i]) for i in kept if i < len(ys) and ys[i] is not None]
        points = " ".join(f"{_num(x_at(i))},{_num(y_at(v))}" for i, v in drawn)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}">'
                     f"<title>{escape(name)}</title></polyline>")
        if k == 0 and point_titles:
            tip = point_titles if callable(point_titles) else point_titles.__getitem__
            count = n if callable(point_titles) else len(point_titles)
            circles = "".join(f'<circle cx="{_num(x_at(i))}" cy="{_num(y_at(v))}" r="2.5">'
                              f"<title>{escape(tip(i))}</title></circle>"
                              for i, v in drawn if i in tips and i < count)
            parts.append(f'<g fill="{colour}">{circles}</g>')
    parts += _axis_titles(width, height, pad_left, height - 5, pad_top + plot_h / 2, x_title, y_title)
    parts.append("</svg>")
    return "".join(parts)


def legend(names: list[str], colours: tuple[str, ...] = PALETTE) -> str:
    """HTML legend matching the colours of :func:`line_chart` series (or of ``colours``, as
    :func:`stacked_shares` is given them)."""
    items = "".join(f'<span class="key"><i style="background:{colours[k % len(colours)]}"></i>{escape(n)}</span>'
                    for k, n in enumerate(names))
    return f'<div class="legend">{items}</div>'


def stacked_shares(labels: list[str], counts: dict[str, list[int]], *, colours: tuple[str, ...] = PALETTE,
                   width: int = 560, height: int = 230, title: str = "", x_title: str = "",
                   y_title: str = "share") -> str:
    """A column per label, each cut into the shares of ``counts`` (the first series at the bottom), on a 0–100%
    axis; each piece's tooltip gives its share and its count of the column's total."""
    pad_top, pad_bottom, pad_left, pad_right = 10, 36 if x_title else 22, 52, 8
    plot_h = height - pad_top - pad_bottom
    slot = (width - pad_left - pad_right) / max(len(labels), 1)

    def y_at(share: float) -> float:
        return pad_top + plot_h * (1 - share)

    ticks = [0, 0.25, 0.5, 0.75, 1]
    grid = "".join(f"M{pad_left - 3} {_num(y_at(t))}H{width - pad_right}" for t in ticks)
    parts = [f'<svg class="chart shares" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" {FONT}>',
             f"<title>{escape(title)}</title>", f'<path d="{grid}" fill="none" stroke="#eee"/>']
    parts += [f'<text class="tick" x="{pad_left - 5}" y="{_num(y_at(t) + 3.5)}" text-anchor="end">{t:.0%}</text>'
              for t in ticks]
    names = list(counts)
    step = max(1, math.ceil(len(labels) / 24))
    for i, label in enumerate(labels):
        total = sum(counts[name][i] for name in names)
        x, below = pad_left + i * slot + slot * 0.1, 0.0
        for k, name in enumerate(names):
            share = counts[name][i] / total if total else 0.0
            parts.append(f'<rect x="{_num(x)}" y="{_num(y_at(below + share))}" width="{_num(slot * 0.8)}" '
                         f'height="{_num(plot_h * share)}" fill="{colours[k % len(colours)]}"><title>'
                         f"{escape(f'{x_title} {label}: {name} {share:.1%} ({counts[name][i]:,} of {total:,})')}"
                         "</title></rect>")
            below += share
        if i % step == 0:
            parts.append(f'<text class="tick" x="{_num(x + slot * 0.4)}" y="{pad_top + plot_h + 14}" '
                         f'text-anchor="middle">{escape(label)}</text>')
    parts += _axis_titles(width, height, pad_left, height - 5, pad_top + plot_h / 2, x_title, y_title)
    parts.append("</svg>")
    return "".join(parts)


def rank_chart(ranks: dict[str, list[int | None]], sessions: list[str], players: int, *, highlight: int = 8,
               width: int = 720, height: int = 360) -> str:
    """Each player's rank after each session: rank 1 at the top, one polyline per player (named in its tooltip),
    the first ``highlight`` of ``ranks`` in colour with their names at the right, the others thin and grey."""
    pad_left, pad_right, pad_top, pad_bottom = 44, 110, 12, 36
    plot_w, plot_h = width - pad_left - pad_right, height - pad_top - pad_bottom
    n = len(sessions)
    worst = max(players, 2)

    def x_at(i: int) -> float:
        return pad_left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y_at(rank: float) -> float:
        return pad_top + plot_h * (rank - 1) / (worst - 1)

    gap = (worst - 1) / 12  # ticks this close to the first or last rank are left out: the two are shown
    ticks = sorted({1, *[t for t in nice_ticks(1, worst, 6) if 1 + gap <= t <= worst - gap], worst})
    parts = [f'<svg class="chart ranks" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg" {FONT}>', "<title>Rank after each session</title>",
             *_y_axis(ticks, y_at, pad_left, pad_left + plot_w)]
    for i, session in enumerate(sessions):
        x = _num(x_at(i))
        parts.append(f'<line x1="{x}" y1="{pad_top + plot_h}" x2="{x}" y2="{pad_top + plot_h + 3}" stroke="#999"/>'
                     f'<text class="tick" x="{x}" y="{pad_top + plot_h + 14}" text-anchor="middle">'
                     f"{escape(session)}</text>")
    named = list(ranks.items())
    highlight = min(highlight, len(PALETTE))  # a colour each
    labels = []
    for k, (name, ys) in reversed(list(enumerate(named))):  # the coloured lines drawn last, on top
        coloured = k < highlight
        colour = PALETTE[k] if coloured else "#c8ccd2"
        points = " ".join(f"{_num(x_at(i))},{_num(y_at(v))}" for i, v in enumerate(ys) if v is not None)
        parts.append(f'<polyline class="rank-line" fill="none" stroke="{colour}" '
                     f'stroke-width="{2.5 if coloured else 1}" points="{points}"><title>{escape(name)}: '
                     f"{escape(', '.join('-' if v is None else str(v) for v in ys))}</title></polyline>")
        last = next((v for v in reversed(ys) if v is not None), None)
        if coloured and last is not None:
            labels.append((y_at(last) + 3.5, name, colour))
    placed = -1e9
    for y, name, colour in sorted(labels):  # names at the right, moved apart where the lines end close together
        placed = max(y, placed + 12)
        parts.append(f'<text x="{_num(pad_left + plot_w + 6)}" y="{_num(placed)}" fill="{colour}">{escape(name)}</text>')
    parts += _axis_titles(width - pad_right + pad_left, height, pad_left, height - 5, pad_top + plot_h / 2,
                          "session", "rank")
    parts.append("</svg>")
    return "".join(parts)
