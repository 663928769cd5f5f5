"""``{% pace_form campaign as pf %}``: the pace form's values and errors for
``templates/campaign/_clock.html``: the campaign's settings, or, when the form was
refused (``campaign.clock_views.campaign_pace``: ``pace_refused``, a
:class:`campaign.clock.PaceRefused`, and ``pace_posted`` in the page's context), what
the organiser typed with every error by its field, in the form's own words (the
service names fields by their API names: "pace_hours is between 1 and 720" reads
"Hours per decision is between 1 and 720" here)."""

from typing import Any

from django import template

register = template.Library()


# the form's label of each pace field (templates/campaign/_clock.html)
LABELS = {
    "pace": "Pace", "pace_hours": "Hours per decision", "turn_weekdays": "Turn days",
    "turn_time": "Turn time", "pace_timezone": "Time zone", "on_deadline": "When a deadline passes",
    "remind_hours": "Reminder hours", "auto_advance": "Phases advancing by themselves",
    "computer_sides": "Played by the computer",
}  # fmt: skip


def in_words(field: str, message: str) -> str:
    """A problem's message with its field named as the form names it."""
    label = LABELS.get(field, field)
    if message.startswith(f"{field} "):
        return label + message[len(field) :]
    return f"{label}: {message}" if field else message


def _whole(value: str) -> Any:
    return int(value) if value.strip().isdigit() else value


@register.simple_tag(takes_context=True)
def pace_form(context: Any, campaign: Any) -> dict[str, Any]:
    refused = context.get("pace_refused")
    if refused is None:
        values = {
            "pace": campaign.pace,
            "pace_hours": campaign.pace_hours,
            "turn_weekdays": list(campaign.turn_weekdays or []),
            "turn_time": campaign.turn_time.strftime("%H:%M") if campaign.turn_time else "",
            "pace_timezone": campaign.pace_timezone,
            "on_deadline": campaign.on_deadline,
            "remind_hours": campaign.remind_hours,
            "auto_advance": campaign.auto_advance,
            "computer_sides": list(campaign.computer_sides or []),
        }
        return {"values": values, "errors": {}, "problems": [], "open": False}
    posted = context["pace_posted"]
    values = {
        name: posted.get(name, "")
        for name in ("pace", "pace_hours", "turn_time", "pace_timezone", "on_deadline")
    } | {
        "remind_hours": posted.get("remind_hours", ""),
        "turn_weekdays": [_whole(d) for d in posted.getlist("turn_weekdays")],
        "auto_advance": bool(posted.get("auto_advance")),
        "computer_sides": posted.getlist("computer_sides"),
    }
    errors = {
        field: [in_words(field, message) for message in messages]
        for field, messages in refused.errors.items()
    }
    problems = [in_words(p.field or "", p.message) for p in refused.problems]
    return {"values": values, "errors": errors, "problems": problems, "open": True}
