"""The battle a career entry came from, in words (issue 24 §7).

An entry's ``battle_ref`` is stored as written when it was recorded: a card-game
engagement's "<campaign>: m12" (entries from before the mission's name was written
there), an engine engagement's "battle:5". The pages show the mission card's name and
"Battle 5" instead; the API and the exports keep the stored text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rules.cardgame import GameSetup

from .models import PilotEvent

_CARD_MISSION = re.compile(r"^(?P<campaign>.*): (?P<mission>m\d+)$")
_ENGINE_BATTLE = re.compile(r"^battle:(?P<pk>\d+)$")


def _mission_names(campaign: Any) -> dict[str, str]:
    """The campaign's mission cards by id ("m12" -> "Attack Refinery"), read from the
    game's setup as the campaign stores it; none when it has no card game."""
    setup = (getattr(campaign, "state", None) or {}).get("setup")
    if not setup:
        return {}
    try:
        return {mid: m.name for mid, m in GameSetup.from_json(setup).mission_cards.items()}
    except (KeyError, TypeError, ValueError):  # a hand-edited setup: the ids stay
        return {}


def battle_words(events: Iterable[PilotEvent]) -> None:
    """Sets ``battle_words`` on each entry: its ``battle_ref`` for people. A mission's id
    becomes the mission card's name, "battle:5" becomes "Battle 5", and the name of the
    entry's own campaign is dropped (the pages name it in their own column). Reads the
    campaigns already loaded with the entries."""
    names: dict[Any, dict[str, str]] = {}
    for event in events:
        ref = event.battle_ref or ""
        words = ref
        campaign = event.campaign if event.campaign_id is not None else None
        if m := _ENGINE_BATTLE.match(ref):
            words = f"Battle {m['pk']}"
        elif campaign is not None:
            if (m := _CARD_MISSION.match(ref)) and m["campaign"] == campaign.name:
                if campaign.pk not in names:
                    names[campaign.pk] = _mission_names(campaign)
                words = names[campaign.pk].get(m["mission"], ref)
            # the page names the campaign in its own column
            words = words.removeprefix(f"{campaign.name}: ")
        event.battle_words = words  # type: ignore[attr-defined]
