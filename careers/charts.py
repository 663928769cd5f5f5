"""Small server-drawn SVG charts for the career pages (no JavaScript)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

ALLIED, AXIS = "#2b5fad", "#a8322d"


def _frame(
    width: int, height: int, pad: int, top: float, label: str, body: SafeString, legend: str
) -> SafeString:
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{label}">'
        '<line x1="{p}" y1="{b}" x2="{r}" y2="{b}" stroke="#999"/><line x1="{p}" y1="{p}" x2="{p}" y2="{b}" stroke="#999"/>'
        '<text x="2" y="{p}" font-size="11">{top}</text><text x="2" y="{b}" font-size="11">0</text>{body}'
        '<text x="{p}" y="{h2}" font-size="11">{legend}</text></svg>',
        w=width, h=height, p=pad, b=height - pad, r=width - pad, top=top, label=label, body=body,
        h2=height - 6, legend=legend,
    )  # fmt: skip


def kills_over_turns_svg(
    points: Sequence[tuple[str, int]], *, width: int = 360, height: int = 150
) -> SafeString:
    """Cumulative confirmed kills after each campaign turn, as a step line with dots."""
    if not points:
        return mark_safe("")
    pad, top = 24, max(1, max(v for _, v in points))
    step = (width - 2 * pad) / max(1, len(points) - 1)

    def xy(i: int, v: int) -> tuple[str, str]:
        return f"{pad + i * step:.1f}", f"{height - pad - (height - 2 * pad) * v / top:.1f}"

    line = " ".join(",".join(xy(i, v)) for i, (_, v) in enumerate(points))
    dots = format_html_join(
        "", '<circle cx="{}" cy="{}" r="3" fill="#26324a"><title>{}: {} kill{}</title></circle>',
        ((*xy(i, v), label, v, "" if v == 1 else "s") for i, (label, v) in enumerate(points)),
    )  # fmt: skip
    body = format_html(
        '<polyline fill="none" stroke="#26324a" stroke-width="2" points="{}"/>{}', line, dots
    )
    return _frame(
        width,
        height,
        pad,
        top,
        "Kills over campaign turns",
        body,
        f"confirmed kills, {points[0][0]} to {points[-1][0]}",
    )


def grouped_bars_svg(
    rows: Sequence[dict], series: Sequence[tuple[str, str, str]], *, label_key: str, title: str,
    width: int = 560, height: int = 200,
) -> SafeString:  # fmt: skip
    """Bars per row for each series ``(key, colour, name)``."""
    if not rows:
        return mark_safe("")
    pad = 28
    top = max([1] + [max(0, r[k] or 0) for r in rows for k, _, _ in series])
    group = (width - 2 * pad) / len(rows)
    bar = max(2.0, group / (len(series) + 1))
    rects = []
    for i, row in enumerate(rows):
        for j, (key, colour, name) in enumerate(series):
            value = max(0, row[key] or 0)
            h = (height - 2 * pad) * value / top
            x = pad + i * group + j * bar + bar / 2
            rects.append(
                (
                    f"{x:.1f}",
                    f"{height - pad - h:.1f}",
                    f"{bar:.1f}",
                    f"{h:.1f}",
                    colour,
                    row[label_key],
                    name,
                    value,
                )
            )
    body = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {} {}</title></rect>',
        rects,
    )
    legend = " · ".join(name for _, _, name in series)
    return _frame(width, height, pad, top, title, body, f"{legend} ({len(rows)} groups)")
