"""Engagements the card game hands to a tactical engine (resolution mode ``engine``).

The game is the campaign's (or the organiser's for the mission, :mod:`campaign.game`):
Angels 20's scenario is built here; another game's by its system's own
``campaign_engagement`` from the same entrants (issue 25).

When a mission's interception segment is to be resolved by the engine, the
game waits (``AWAITING_RESULT``). :func:`engagement_battle_ensure` turns the
waiting engagement into a :class:`battles.models.Battle` of the attackers and
escorts against the scrambled interceptors, flown by the pilots of the planes
(their quality by the campaign's rule set), and dispatches it. When the battle
finishes, :func:`engagement_battle_finished` enters its result into the game as
the umpire's ``EnterResult`` action (so the campaign still replays from its
record) and applies it to the roster under the battle's key, so each kill on a
pilot's page links to the battle report.

Rulings (docs/rulings.md, "Engine engagements"): attackers enter from the south
edge at altitude 3 heading north, interceptors from the north edge at altitude 4
heading south, in ranks of seven on a map grown for more; the fight lasts at most
8 game turns; the card game's flak rolls d10s at AF 7 before the battle (or, when
no fighter intercepts, instead of it), and its event cards, night fighters and NF
marks change the set-up (:mod:`rules.angels20.interception`). The campaign's ``engine_rules`` (optional rules, validated like a
battle's ``settings.rules``) and ``engine_territory`` (defenders over friendly
ground, attackers over enemy ground) are recorded in each battle's scenario.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, cast

from django.db import transaction

from angels.events import BATTLE_RESULT, send_campaign_event
from angels.secrets import seed_key
from battles.models import Battle, BattleStatus
from battles.other_games import roster_cards
from battles.play import seats_of, user_sides
from battles.rules_settings import rules_options
from battles.scenarios import engine_quality
from battles.services import battle_create_from_setup
from careers.records import record_from_engine_result
from careers.services import engagement_apply
from roster.models import AircraftType
from rules.angels20 import Rules, Scenario
from rules.angels20.interception import Entrant, interception_scenario
from rules.cardgame import EngagementResult, GameState, Kill
from rules.cardgame.cards import FIGHTER_TYPES
from rules.cardgame.effects import engagement_effects, resolve_flak_only
from rules.cardgame.state import AWAITING_RESULT
from rules.dice import Dice, derive_seed

from .game import BUILT_HERE, ENGAGEMENT_BUILDER, battle_game, game_checked, mission_system

ENGINE_MODE = "engine"
WEB_MODE = "web"  # an engine battle flown by people (campaign.web_engagements)
CARD_MODE = "card"
ENGAGEMENT_TURNS = 8
ENGINE_CREDIT = "engine:last-attack"


def waiting_mode(state: GameState) -> str | None:
    if state.step != AWAITING_RESULT or state.engagement_input is None:
        return None
    mission = state.current_mission
    if mission is None:  # (the overrides are by mission)
        return state.setup.engagement_mode
    return state.mode_overrides.get(mission, state.setup.engagement_mode)


def _source_key(campaign: Any, state: GameState) -> str:
    return f"campaign:{campaign.pk}:turn{state.turn}:{state.current_mission}"


def _engagement_name(state: GameState) -> str:
    """The engagement's place in its campaign, the same on every server and database."""
    return f"turn{state.turn}:{state.current_mission}"


def engagement_seed(campaign_seed: int, engagement_name: str) -> int:
    """The seed of a campaign's engine battle, keyed by the server's secret.

    Derived from the campaign's seed and the engagement's turn and mission, not
    from the campaign's database id, so a campaign replays the same battles
    whatever id it was given.

    Battle seeds are public (the battle API and report show them, once the
    campaign ends to everyone); with the public key, brute force over candidate
    campaign seeds would find the campaign's seed and with it the card game's
    hands and deck order. Stored battles keep their seeds (replay reads them).
    """
    return derive_seed(
        campaign_seed, f"engagement {engagement_name}", key=seed_key("campaign engagement")
    )


def engagement_battle_ensure(*, campaign: Any, state: GameState) -> Battle | None:
    """Create (once) and dispatch the battle for the engagement the game waits for.

    Called inside the campaign's locked transaction; the battle is dispatched
    after commit.
    """
    from .web_engagements import web_battle_announce, web_battle_settings

    mode = waiting_mode(state)
    if mode not in (ENGINE_MODE, WEB_MODE):
        return None
    key = _source_key(campaign, state)
    existing = Battle.objects.filter(source_key=key).first()
    if existing is not None:
        return existing
    engagement = state.engagement_input
    assert engagement is not None  # waiting_mode() checked it
    effects = engagement_effects(state)
    assert effects is not None  # the game waits for this engagement
    seed = engagement_seed(campaign.seed, _engagement_name(state))
    if not engagement["defenders"]:
        # Nobody scrambled: nothing for the engine to fly; the flak still fires,
        # rolled as the card game rolls it, and its losses are card losses (the
        # roster rolls their pilots' fates) (ruling "Engine engagements: flak").
        result = resolve_flak_only(
            engagement, effects, Dice(derive_seed(seed, "flak")), mode=CARD_MODE
        )
        _enter_result(campaign, result, actor="engine")
        return None
    # issue 25: the game the mission is flown under (the organiser's, campaign.game)
    system = game_checked(mission_system(campaign, state.current_mission))
    mission_named = {"id": state.current_mission, "name": engagement["mission_name"]}
    if system.name in BUILT_HERE:
        scenario = _engagement_scenario(campaign, state, engagement, effects)
        setup = scenario.to_json()
        settings = {"policies": {"axis": "tactical", "allied": "tactical"}, "campaign": campaign.pk,
                    "rules": campaign.engine_rules, "max_turns": scenario.rules.max_turns,
                    "territory": dict(zip(("axis", "allied"), scenario.territory, strict=True)),
                    # the mission, for the pages that list the battle (battle_mission_name)
                    "mission": mission_named}  # fmt: skip
    else:  # another game builds it from the same entrants (campaign.game.ENGAGEMENT_BUILDER)
        setup, settings = _other_game_engagement(campaign, state, engagement, effects, system)
        settings["mission"] = mission_named
    if mode == WEB_MODE:  # the same battle, its sides seated to the commanders
        policies = settings["policies"]
        settings = web_battle_settings(campaign, settings)
        if system.name not in BUILT_HERE and not any(
            "user" in s for s in settings["seats"].values()
        ):
            # nobody to seat: flown in the background by the game's own computer pilots
            # (battles.play_seats knows Angels 20's pilots only)
            settings = {k: v for k, v in settings.items() if k not in ("seats", "deadline")}
            settings["policies"] = policies
        elif system.name not in BUILT_HERE:  # a computer seat flies with the game's own pilot
            settings["seats"] = {
                side: seat if "user" in seat or seat.get("pilot") in system.pilots
                else {**seat, "pilot": _computer_pilot(system)}
                for side, seat in settings["seats"].items()
            }  # fmt: skip
    battle = battle_create_from_setup(
        setup=setup, seed=seed, source_key=key, settings=settings, system=system.name
    )
    if mode == WEB_MODE:
        web_battle_announce(campaign, battle)
    return battle


def _computer_pilot(system: Any) -> str:
    """The computer pilot flying a side no person flies: the tactical one where the game
    has it, else the game's first."""
    return "tactical" if "tactical" in system.pilots else system.pilots[0]


def engagement_entrants(
    campaign: Any, engagement: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The mission's attackers and escorts, and its interceptors, as any game reads them:
    plane id, side, aircraft type's name, its pilot's quality (Angels 20's words, by the
    campaign's rule set), fighter or not, experience markers, and the ``pilot_ref``
    ("plane:<id>") its result names them by."""
    pilots = {p.plane_id: p for p in campaign.planes.select_related("pilot")}

    def entrant(c: dict[str, Any]) -> dict[str, Any]:
        plane = pilots.get(c["plane_id"])
        pilot = plane.pilot if plane is not None else None
        return {
            "plane_id": c["plane_id"], "side": c["side"], "aircraft": c["name"],
            "quality": engine_quality(pilot) if pilot is not None else "average",
            # the pilot's own quality on his own scale, for a game whose scale it is
            # (Air Pirates' five: ruling "Air Pirates: a campaign's engagement")
            "pilot_quality": None if pilot is None
            else {"scale": pilot.quality_scale, "quality": pilot.quality},
            "fighter": c["card_type"] in FIGHTER_TYPES, "experience": c.get("experience", 0),
            "pilot_ref": f"plane:{c['plane_id']}",
        }  # fmt: skip

    return (
        [entrant(c) for c in engagement["attackers"]],
        [entrant(c) for c in engagement["defenders"]],
    )


def _other_game_engagement(
    campaign: Any, state: GameState, engagement: dict[str, Any], effects: dict[str, Any],
    system: Any,
) -> tuple[dict[str, Any], dict[str, Any]]:  # fmt: skip
    """The scenario and settings of an engagement flown under a game other than Angels 20:
    its system builds the scenario from the entrants (``campaign_engagement``); the card
    game's effects are handed over for it to apply what its rules can."""
    attackers, defenders = engagement_entrants(campaign, engagement)
    territory = dict(zip(("axis", "allied"), _engine_territory(campaign, engagement), strict=True))
    # the roster's cards of the game (as organisers edited them), for a game that flies them
    cards = roster_cards(system)
    setup = getattr(system, ENGAGEMENT_BUILDER)(
        attackers, defenders, name=f"{campaign.name}: {engagement['mission_name']} (turn {state.turn})",
        turns=ENGAGEMENT_TURNS, territory=territory, effects=effects,
        **({} if cards is None else {"cards": cards}),
    )  # fmt: skip
    pilot = _computer_pilot(system)
    settings = {"policies": {side: pilot for side in system.sides}, "campaign": campaign.pk,
                "max_turns": ENGAGEMENT_TURNS, "territory": territory}  # fmt: skip
    return system.scenario_json(setup), settings


def battle_mission_name(campaign: Any, battle: Battle, *, scenario_name: str | None = None) -> str:
    """The mission of a campaign's battle in words: as its settings name it (from its
    creation, :func:`engagement_battle_ensure`); for a battle stored before they did, read
    from its scenario's name "<campaign>: <mission> (turn n)" (``scenario_name`` when its
    ``setup`` was not read), else the mission's id in its source key."""
    mission = (battle.settings or {}).get("mission")
    if isinstance(mission, dict) and mission.get("name"):
        return str(mission["name"])
    name = str((battle.setup or {}).get("name", "")) if scenario_name is None else scenario_name
    if ": " in name:
        return name.removeprefix(f"{campaign.name}: ").rsplit(" (turn ", 1)[0]
    return battle.source_key.rsplit(":", 1)[-1]


def _engagement_scenario(
    campaign: Any, state: GameState, engagement: dict[str, Any], effects: dict[str, Any]
) -> Scenario:
    """The engine's scenario: the mission's planes in formation, with the card game's effects.

    Placement and every effect are read in :mod:`rules.angels20.interception`
    (rulings "Engine engagements: ..." in docs/rulings.md); this gathers the
    planes' engine cards (the roster's aircraft types) and their pilots.
    """
    from battles.catalogue import stats_for

    pilots = {p.plane_id: p for p in campaign.planes.select_related("pilot")}
    names = [c["name"] for c in engagement["attackers"] + engagement["defenders"]]
    types = {t.name: t for t in AircraftType.objects.filter(name__in=names)}

    def entrant(c: dict[str, Any]) -> Entrant:
        plane = pilots.get(c["plane_id"])
        pilot = plane.pilot if plane is not None else None
        return Entrant(
            plane_id=c["plane_id"], side=c["side"], stats=stats_for(types[c["name"]]),
            pilot=engine_quality(pilot) if pilot is not None else "average",
            fighter=c["card_type"] in FIGHTER_TYPES, experience=c.get("experience", 0),
        )  # fmt: skip

    campaign_rules = rules_options(campaign.engine_rules, field="engine_rules")
    return interception_scenario(
        [entrant(c) for c in engagement["attackers"]],
        [entrant(c) for c in engagement["defenders"]],
        effects=effects,
        rules=Rules(max_turns=ENGAGEMENT_TURNS, **campaign_rules),
        territory=_engine_territory(campaign, engagement),
        name=f"{campaign.name}: {engagement['mission_name']} (turn {state.turn})",
    )


def battle_seed_hidden(battle: Battle, user: Any) -> bool:
    """Is ``battle`` a campaign's that has not finished, and ``user`` not its organiser?

    ``roster.campaign_hooks``' ``battle_seed_hidden``: a running
    campaign's battle seeds are its organiser's (and staff's); once the
    campaign is finished anyone who may see the battle may see its seed.
    """
    from .models import Campaign, CampaignStatus
    from .services import is_organiser

    campaign_id = battle.settings.get("campaign") if isinstance(battle.settings, dict) else None
    if not campaign_id or not battle.source_key.startswith("campaign:"):
        return False
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or campaign.status == CampaignStatus.FINISHED:
        return False
    if battle.status == BattleStatus.IN_PLAY and user_sides(battle, user):
        return True  # an organiser flying a web battle would foresee its dice
    return not is_organiser(campaign, user)


def _engine_territory(campaign: Any, engagement: dict[str, Any]) -> tuple[str, str]:
    """(axis, allied) territory of the engine's scenario, for its pilot survival rolls.

    The mission is flown over the defender's ground (ruling "Careers: card mode
    territory", as :func:`_territory` reads it for the roster): the defenders
    are over friendly territory, the attackers and escorts over enemy territory.
    With the campaign's ``engine_territory`` off, both are neutral.
    """
    if not campaign.engine_territory:
        return ("neutral", "neutral")
    return ("enemy", "friendly") if engagement["attacker"] == "axis" else ("friendly", "enemy")


def _enter_result(campaign: Any, result: EngagementResult, *, actor: str) -> None:
    from .services import campaign_umpire_act

    campaign_umpire_act(
        campaign_id=campaign.pk,
        action={"type": "result", "result": json.dumps(result.to_json()), "side": "umpire"},
        actor=actor,
    )


def engagement_battle_finished(battle: Battle) -> None:
    """Enter a finished engine battle's result into its campaign and the roster (once)."""
    from .models import Campaign

    campaign_id = battle.settings.get("campaign")
    if not campaign_id or not battle.source_key.startswith("campaign:"):
        return
    campaign = Campaign.objects.get(pk=campaign_id)
    mission = battle.source_key.rsplit(":", 1)[1]
    result = cast("dict[str, Any]", battle.result)  # a finished battle has its result
    by_id = {craft["id"]: craft for craft in result["aircraft"]}
    plane_of = {
        craft["id"]: craft["pilot_ref"].removeprefix("plane:") for craft in result["aircraft"]
    }
    losses = tuple(plane_of[c["id"]] for c in result["aircraft"] if c["fate"] == "destroyed")
    retreats = tuple(plane_of[c["id"]] for c in result["aircraft"] if c["fate"] == "retreated")
    kills = tuple(
        Kill(
            shooter_id=plane_of[k["attacker"]],
            victim_id=plane_of[k["target"]],
            credit_rule=f"{ENGINE_CREDIT}:battle:{battle.pk}",
        )
        for k in result["kills"]
        if k["attacker"] in by_id and k["target"] in by_id
    )
    with transaction.atomic():
        _enter_result(
            campaign,
            EngagementResult(
                mode=WEB_MODE if seats_of(battle) else ENGINE_MODE,  # (who flew it, for the log)
                mission_id=mission,
                losses=losses,
                kills=kills,
                retreats=retreats,
            ),
            actor="engine",
        )
        campaign.refresh_from_db()
        planes = {f"plane:{p.plane_id}": p.pilot_id for p in campaign.planes.all() if p.pilot_id}
        attacker_side = next(
            (
                c["side"]
                for c in result["aircraft"]
                if c["pilot_ref"].removeprefix("plane:").startswith(c["side"])
            ),
            "allied",
        )
        record = record_from_engine_result(
            result, battle_ref=f"battle:{battle.pk}", pilot_ids=planes, territory=_territory(battle, attacker_side), campaign_turn=campaign.turn,
            game=battle_game(battle.system),  # issue 25: careers read the hits as its game did
        )  # fmt: skip
        # Missions and experience markers come from the card game's own
        # Experience phase; the battle gives the kills, damage and losses.
        record = replace(record, flown=tuple(replace(f, mission=False) for f in record.flown))
        engagement_apply(
            source_key=f"battle:{battle.pk}", result=record, campaign=campaign, recorded_by="engine",
            leave_out_unavailable=True,
        )  # fmt: skip
        send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key=f"battle_result:battle:{battle.pk}", text=f"{campaign.name}: the battle for {battle_mission_name(campaign, battle)} was flown ({len(kills)} shot down by fighters, {len(losses)} lost in all).", url=f"/battles/{battle.pk}/")  # fmt: skip


def _territory(battle: Battle, attacker_side: str) -> str:
    """The mission is flown over the defender's ground (ruling "Careers: card mode territory")."""
    aircraft = battle.setup.get("aircraft", [])
    attackers = {a["side"] for a in aircraft if a.get("row") == 19}
    side = next(iter(attackers), attacker_side)
    return "axis" if side == "allied" else "allied"
