"""The campaign pages' small forms (start a campaign, invite a user, the rules of engine
engagements, a commander's holiday): a refused post re-shows its form (HTTP 400) with
every problem beside its field and in a list at the top, and what was typed kept, as the
pace form does (``campaign.templatetags.campaign_clock``) and the new-battle page.

:func:`refused` turns the problems into what the templates show: ``errors`` by the
page's field name (``battles.forms.form_field``: ``engine_rules.clouds`` -> ``clouds``)
and ``problems``, each naming its field in the form's words.
"""

from __future__ import annotations

from typing import Any

from angels.errors import RuleViolation
from battles.forms import errors_by_field, form_field, plain

# the label of each field of these forms, as the page shows it
LABELS = {
    "name": "Name",
    "resolution_mode": "Engagements resolved by",
    "squadrons": "Squadrons taking part",
    "pilots": "Pilots who enlist",
    "engine_territory": "Territory",
    "tactical_system": "Game",
    "username": "User",
    "role": "Part",
    "side": "Side",
    "until": "Holiday",
    "version": "Campaign version",
}


def in_words(exc: RuleViolation) -> dict[str, Any]:
    """A problem for the list at the top: its message, with the field's label first
    unless the message names it already."""
    shown = plain(exc)
    label = LABELS.get(form_field(exc.field), "")
    if label and label.lower() not in shown["message"].lower():
        shown["message"] = f"{label}: {shown['message'][:1].lower()}{shown['message'][1:]}"
    return shown


def refused(form: str, errors: list[RuleViolation], values: dict[str, Any]) -> dict[str, Any]:
    """A refused form: which one (``form``), what was typed (``values``), the problems
    beside each field (``errors``) and all of them (``problems``)."""
    problems: list[dict[str, Any]] = []
    for exc in errors:
        shown = in_words(exc)
        if shown not in problems:
            problems.append(shown)
    return {
        "form": form,
        "values": values,
        "errors": errors_by_field(errors),
        "problems": problems,
        "open": True,
    }
