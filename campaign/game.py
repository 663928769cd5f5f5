"""The tactical game a campaign's engine and web engagements are flown under (issue 25).

A campaign names one game of the registry (:mod:`rules.tactical`), Angels 20 unless
the organiser chose another (``Campaign.tactical_system``); the organiser may name
another for a single mission before its battle is built (``Campaign.mission_systems``,
by mission id). The engagement's battle is created with that game
(:func:`campaign.engagements.engagement_battle_ensure`), which must be able to build a
campaign engagement: Angels 20 by :mod:`rules.angels20.interception`, another game by
its system's own ``campaign_engagement`` (:data:`ENGAGEMENT_BUILDER`). A game that
cannot is refused when it is chosen (400 naming the field), not when the battle is due.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from angels.errors import RuleViolation
from battles.models import Battle
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, tactical_systems

from .models import Campaign, CampaignStatus

FIELD = "tactical_system"
# The optional method of a tactical system that builds a campaign engagement's scenario:
# ``campaign_engagement(attackers, defenders, *, name, turns, territory) -> dict``, the
# entrants as :func:`campaign.engagements.engagement_entrants` lists them (plane id, side,
# aircraft type's name, pilot quality, fighter or not); each aircraft of its result
# carries ``pilot_ref`` "plane:<plane id>" so the campaign knows whose it was.
ENGAGEMENT_BUILDER = "campaign_engagement"
# Angels 20's campaign engagements are built here, in campaign.engagements, from the
# catalog's engine cards (rules.angels20.interception and the card game's effects).
BUILT_HERE = frozenset({DEFAULT_SYSTEM})


def builds_engagements(system: TacticalSystem) -> bool:
    """Can ``system`` fly a campaign engagement?"""
    return system.name in BUILT_HERE or callable(getattr(system, ENGAGEMENT_BUILDER, None))


def games_in_words() -> str:
    """The games a campaign may choose, as a sentence lists them: "Angels 20 (angels20)"."""
    return ", ".join(
        f"{s.title} ({name})" for name, s in tactical_systems().items() if builds_engagements(s)
    )


def game_checked(name: Any, *, field: str = FIELD) -> TacticalSystem:
    """The registered game ``name`` names, able to fly a campaign engagement; otherwise a
    400 naming ``field`` and listing the games in words."""
    system = tactical_systems().get(name) if isinstance(name, str) else None
    if system is None:
        raise RuleViolation(
            f"{name!r} is not a game this server flies; choose one of: {games_in_words()}",
            field=field,
            code="invalid",
        )
    if not builds_engagements(system):
        raise RuleViolation(
            f"{system.title} cannot fly a campaign's engagements yet; choose one of: "
            f"{games_in_words()}",
            field=field,
            code="invalid",
        )
    return system


def game_title(name: str) -> str:
    """The game's name as pages write it ("Angels 20"); the stored name if not registered."""
    system = tactical_systems().get(name)
    return system.title if system is not None else name


def mission_system(campaign: Campaign, mission: str | None) -> str:
    """The game the engagement of ``mission`` is flown under: the organiser's choice for
    it, else the campaign's."""
    chosen = (campaign.mission_systems or {}).get(mission or "")
    return str(chosen) if chosen else campaign.tactical_system


def _built(campaign: Campaign, mission: str) -> bool:
    return Battle.objects.filter(
        source_key__startswith=f"campaign:{campaign.pk}:", source_key__endswith=f":{mission}"
    ).exists()


def campaign_game_set(
    *, campaign_id: int, by: User, tactical_system: Any, mission: str | None = None
) -> Campaign:
    """The organiser chooses the game of the engagements not yet built: the campaign's
    (``mission`` None) or one mission's (``tactical_system`` "" takes the mission's
    choice back). Battles already built keep the game they were built with."""
    from .recording import campaign_locked
    from .services import require_organiser

    with transaction.atomic():
        campaign = campaign_locked(campaign_id, None)
        require_organiser(campaign, by)
        if campaign.status == CampaignStatus.FINISHED:
            raise RuleViolation("the campaign is over: no engagement is left to fly", code="state")
        if mission is None:
            campaign.tactical_system = game_checked(tactical_system).name
            reason, fields = "game chosen by the organiser", ["tactical_system"]
        else:
            mission = _mission_checked(campaign, mission)
            if _built(campaign, mission):
                raise RuleViolation(
                    f"the battle of mission {mission} is built already: it keeps its game",
                    field="mission",
                    code="state",
                )
            systems = dict(campaign.mission_systems or {})
            if tactical_system in ("", None):
                systems.pop(mission, None)
            else:
                systems[mission] = game_checked(tactical_system).name
            campaign.mission_systems = systems
            reason, fields = f"game of mission {mission} chosen by the organiser", ["mission_systems"]  # fmt: skip
        campaign._change_reason = reason  # type: ignore[attr-defined]  # issue 16 history
        campaign.save(update_fields=[*fields, "updated_at"])
    return campaign


def _mission_checked(campaign: Campaign, mission: Any) -> str:
    """A mission card of the campaign's game (its id, e.g. "m12")."""
    from rules.cardgame import GameSetup

    try:
        setup = GameSetup.from_json(campaign.state["setup"])
        known = isinstance(mission, str) and mission in setup.mission_cards
    except (KeyError, TypeError, ValueError):
        known = False
    if not known:
        raise RuleViolation(
            f"{mission!r} is not a mission of this campaign", field="mission", code="invalid"
        )
    return str(mission)


def game_view(campaign: Campaign) -> dict[str, Any]:
    """The campaign's game and the missions' own, with their names in words."""
    from rules.cardgame import GameSetup

    try:
        setup: Any = GameSetup.from_json(campaign.state["setup"])
    except (KeyError, TypeError, ValueError):
        setup = None
    return {
        "tactical_system": campaign.tactical_system,
        "title": game_title(campaign.tactical_system),
        "missions": [
            {
                "mission": m,
                "mission_name": setup.card_name(m) if setup is not None else m,
                "tactical_system": s,
                "title": game_title(s),
            }
            for m, s in sorted((campaign.mission_systems or {}).items())
        ],
        "games": games_listed(),
        "mission_choices": _mission_choices(setup),
    }


def _mission_choices(setup: Any) -> list[dict[str, str]]:
    """The mission cards by name, for the page's choice of one mission's game; copies of
    one card are numbered ("Attack Refinery (2)") so each can be told apart."""
    if setup is None:
        return []
    named = sorted((setup.card_name(m), m) for m in setup.mission_cards)
    copies: dict[str, int] = {}
    choices = []
    for name, mission in named:
        copies[name] = copies.get(name, 0) + 1
        shown = name if copies[name] == 1 else f"{name} ({copies[name]})"
        choices.append({"mission": mission, "mission_name": shown})
    return choices


def games_listed() -> list[dict[str, str]]:
    """The games a campaign may choose, by name and title: Angels 20, the product's
    default, first (a form offers it selected), then the others by title."""
    games = [
        {"tactical_system": name, "title": s.title}
        for name, s in tactical_systems().items()
        if builds_engagements(s)
    ]
    return sorted(games, key=lambda g: (g["tactical_system"] != DEFAULT_SYSTEM, g["title"]))


# The survival rule (careers' rule sets, ``SurvivalRule``) of each game that has its own:
# a campaign's survival rule follows its game unless the organiser chose another
# (docs/rulings.md "Careers: survival by the game that flew it" maps a mix). A game
# with none of its own (a test's) leaves Angels 20's, the product's first.
SURVIVAL_OF_GAME = {
    "angels20": "angels20",
    "airforce": "air_force",
    "air_force": "air_force",
    "airpirates": "air_pirates",
    "air_pirates": "air_pirates",
}


def survival_of_game(name: str) -> str:
    """The survival rule a campaign flying ``name`` has unless its organiser chose one."""
    return SURVIVAL_OF_GAME.get(name, "angels20")


def battle_game(system: str) -> str:
    """A battle's game as careers read its hits (``EngagementRecord.game``): the game's
    survival rule set, or "" (read as the campaign's rule reads them) for one without."""
    return SURVIVAL_OF_GAME.get(system, "")
