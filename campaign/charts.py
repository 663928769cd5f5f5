"""A small server-drawn SVG chart of PP and ST over the turns (no JavaScript needed)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

_SERIES = (
    ("pp", "allied", "#2b5fad", ""),
    ("pp", "axis", "#a8322d", ""),
    ("st", "allied", "#2b5fad", "5 4"),
    ("st", "axis", "#a8322d", "5 4"),
)


def history_chart_svg(history: list[dict], *, width: int = 560, height: int = 200) -> SafeString:
    if not history:
        return mark_safe("")
    top = max([1] + [h[k][s] for h in history for k, s, _, _ in _SERIES])
    pad = 28
    step = (width - 2 * pad) / max(1, len(history) - 1)

    def point(i: int, value: int) -> str:
        return f"{pad + i * step:.1f},{height - pad - (height - 2 * pad) * value / top:.1f}"

    lines = format_html_join(
        "",
        '<polyline fill="none" stroke="{}" stroke-width="2" stroke-dasharray="{}" points="{}"><title>{} {}</title></polyline>',
        (
            (
                colour,
                dash,
                " ".join(point(i, h[key][side]) for i, h in enumerate(history)),
                side,
                key.upper(),
            )
            for key, side, colour, dash in _SERIES
        ),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="PP and ST over the turns">'
        '<line x1="{p}" y1="{b}" x2="{r}" y2="{b}" stroke="#999"/><line x1="{p}" y1="{p}" x2="{p}" y2="{b}" stroke="#999"/>'
        '<text x="2" y="{p}" font-size="11">{top}</text><text x="2" y="{b}" font-size="11">0</text>'
        '{lines}<text x="{p}" y="{h2}" font-size="11">solid: PP · dashed: ST · blue: Allied · red: Axis · {n} turns</text></svg>',
        w=width, h=height, p=pad, b=height - pad, r=width - pad, top=top, lines=lines, h2=height - 6, n=len(history) - 1,
    )  # fmt: skip
