"""Print and export (issue 16 "Records that last"): a squadron's roster and a
pilot's card as PDF (fpdf2), the aces leaderboard and a campaign's statistics
as CSV rows. Every figure comes from ``careers.selectors`` and
``roster.selectors``; nothing is counted here, only laid out."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from fpdf import FPDF

from roster.models import Pilot

# A Unicode font, where the machine has one (Debian's fonts-dejavu-core, which
# Chromium pulls in), so names like "Witold Urbanowicz" or "Łokuciewski" print as
# written; without it the PDF falls back to the core Helvetica (Latin-1), with
# letters outside it printed as their base letter (ł -> l).
UNICODE_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
)
_PLAIN = {"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "—": "-", "★": "*"}


def latin1(text: str) -> str:
    """``text`` as the core fonts can print it: base letters for letters outside Latin-1."""
    out = []
    for ch in text:
        ch = _PLAIN.get(ch, ch)
        if ord(ch) > 255:
            ch = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 256) or "?"
        out.append(ch)
    return "".join(out)


def characteristics(pilot: Pilot) -> str:
    """The pilot's characteristics in words, as the pilot page shows them (001 'XIX')."""
    parts = [name for name, on in (("Vision", pilot.vision), ("Reflex", pilot.reflex)) if on]
    if pilot.training:
        parts.append(f"Training×{pilot.training}")
    if pilot.experience:
        parts.append("Experience")
    return " ".join(parts) or "none"


class _Document(FPDF):
    def __init__(self, title: str) -> None:
        super().__init__(format="A4")
        self.set_title(title)
        self.set_creator("Angels")
        self.set_auto_page_break(True, margin=15)
        self.unicode = all(p.exists() for p in UNICODE_FONTS)
        if self.unicode:
            self.add_font("body", "", str(UNICODE_FONTS[0]))
            self.add_font("body", "B", str(UNICODE_FONTS[1]))
            self.face = "body"
        else:
            self.face = "helvetica"

    def text_of(self, value: Any) -> str:
        text = "" if value is None else str(value)
        return text if self.unicode else latin1(text)

    def heading(self, text: str, size: int = 16) -> None:
        self.set_font(self.face, "B", size)
        self.multi_cell(0, size * 0.5, self.text_of(text), new_x="LMARGIN", new_y="NEXT")
        self.ln(1)

    def line_of(self, text: str, size: int = 10) -> None:
        self.set_font(self.face, "", size)
        self.multi_cell(0, 5, self.text_of(text), new_x="LMARGIN", new_y="NEXT")

    def rows(
        self, header: tuple[str, ...], rows: Iterable[Iterable[Any]], widths: tuple[int, ...]
    ) -> None:
        self.set_font(self.face, "", 9)
        with self.table(col_widths=widths, text_align="LEFT", line_height=5.5) as table:
            table.row([self.text_of(h) for h in header])
            for row in rows:
                table.row([self.text_of(cell) for cell in row])
        self.ln(3)


def _status(pilot: Pilot) -> str:
    status = pilot.get_status_display()
    return (
        f"{status} (back turn {pilot.wounded_until_turn})" if pilot.wounded_until_turn else status
    )


def squadron_roster_pdf(page: dict[str, Any]) -> bytes:
    """The squadron's roster from ``careers.selectors.squadron_page``: its figures
    and one row per pilot, as on the squadron page."""
    squadron = page["squadron"]
    pdf = _Document(f"{squadron} roster")
    pdf.add_page()
    pdf.heading(f"{squadron}: roster")
    pdf.line_of(
        f"{squadron.get_side_display()} · {squadron.nation} · "
        f"{squadron.aircraft_type or 'no aircraft type'} · {squadron.base}"
    )
    pdf.line_of(
        f"Strength {page.get('strength_words') or squadron.strength} · "
        f"active {squadron.active_pilots} · wounded {squadron.wounded_pilots} · "
        f"aircraft on hand {squadron.airframes_on_hand} ({squadron.serviceable_airframes} serviceable) · "
        f"killed {squadron.killed_pilots} · captured {squadron.captured_pilots} · "
        f"missing {squadron.missing_pilots} · retired {squadron.retired_pilots}"
    )
    pdf.ln(2)
    pdf.rows(
        ("Pilot", "Quality", "Status", "Missions", "Confirmed kills", "Claims pending"),
        (
            (
                f"{p}{' (ace)' if p.ace else ''}", p.get_quality_display(), _status(p),
                p.experience_markers, p.confirmed_kills, p.unconfirmed_kills,
            )
            for p in page["pilots"]
        ),
        (52, 24, 40, 20, 26, 26),
    )  # fmt: skip
    return bytes(pdf.output())


def pilot_card_pdf(career: dict[str, Any]) -> bytes:
    """A pilot's card from ``careers.selectors.pilot_career``: his figures,
    characteristics and awards, and his confirmed kills with their victims."""
    pilot = career["pilot"]
    pdf = _Document(f"{pilot}: pilot card")
    pdf.add_page()
    pdf.heading(f"{pilot}{' · ace' if career['ace'] else ''}")
    pdf.line_of(f"{pilot.squadron} · {pilot.nation} · {pilot.squadron.get_side_display()}")
    pdf.ln(2)
    awards = ", ".join(
        f"{a.name}{f' (turn {a.campaign_turn})' if a.campaign_turn else ''}"
        for a in career["awards"]
    )
    pdf.rows(
        ("Figure", "Value"),
        (
            ("Quality", f"{pilot.get_quality_display()} ({pilot.get_quality_scale_display()})"),
            ("Status", _status(pilot)),
            ("Missions", career["missions"]),
            ("Confirmed air kills", career["confirmed_kills"]),
            ("Claims awaiting a decision", pilot.unconfirmed_kills),
            ("Ground credits / bombing successes", f"{pilot.ground_credits} / {pilot.bombing_successes}"),
            ("Characteristics", characteristics(pilot)),
            ("Awards", awards or "none"),
        ),
        (70, 110),
    )  # fmt: skip
    pdf.heading("Confirmed kills", size=12)
    if career["kills"]:
        pdf.rows(
            ("Campaign", "Turn", "Victim", "Battle", "Game turn"),
            (
                (k.campaign_name, k.campaign_turn or "—", k.victim_label, k.battle_ref or "—",
                 k.details.get("turn") or "—")
                for k in career["kills"]
            ),
            (45, 15, 60, 40, 20),
        )  # fmt: skip
    else:
        pdf.line_of("No confirmed kills.")
    return bytes(pdf.output())


ACES_HEADER = (
    "rank", "pilot", "squadron", "side", "aircraft", "quality", "status",
    "confirmed_kills", "claimed_kills", "missions", "ace",
)  # fmt: skip


def aces_rows(pilots: Iterable[Pilot]) -> Iterator[tuple[Any, ...]]:
    """The leaderboard's rows (``careers.selectors.leaderboard``), in its order."""
    for rank, p in enumerate(pilots, start=1):
        a: Any = p  # annotated by the leaderboard
        yield (
            rank, str(p), str(p.squadron), p.squadron.side, str(p.squadron.aircraft_type or ""),
            p.get_quality_display(), p.get_status_display(), a.confirmed_kills, a.claimed_kills,
            p.experience_markers, "yes" if a.ace else "no",
        )  # fmt: skip


STATISTICS_HEADER = ("table", "name", "side", "kills", "losses", "kill_ratio")


def _ratio(value: float | None) -> str:
    """As the page shows it, to two places; empty where there is nothing to divide by (page: —)."""
    return "" if value is None else f"{value:.2f}"


def statistics_rows(stats: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """The statistics page's three tables (``careers.selectors.campaign_statistics``)
    in one long table: per side, per turn and side, per aircraft type."""
    for side, v in stats["sides"].items():
        yield ("side", side.capitalize(), side, v["kills"], v["losses"], _ratio(v["ratio"]))
    for t in stats["turns"]:
        for side in ("allied", "axis"):
            yield ("turn", t["turn"], side, t[f"{side}_kills"], t[f"{side}_losses"], "")
    for r in stats["ratios"]:
        yield ("aircraft", r["aircraft"], "", r["kills"], r["losses"], _ratio(r["ratio"]))
