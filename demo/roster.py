"""A demo roster: two sides, a few squadrons each, named pilots of varied quality;
then a demo campaign several turns in, built through the career services."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from campaign.models import Campaign, CampaignPlane
from campaign.results import plane_lost
from campaign.services import campaign_create
from careers.models import PilotEventKind, TableBattle
from careers.services import (
    award_define,
    campaign_turn_begin,
    career_settings_update,
    claim_confirm,
    claim_deny,
    pilot_enlist,
    pilot_log,
    pilot_transfer,
    table_battle_record,
)
from roster.models import AircraftType, Pilot, Squadron
from roster.services import airframe_create, squadron_create
from rules.dice import Dice, ScriptedDice

DEMO_SEED = 1940

# (squadron, nation, side, aircraft type, base, serial prefix, ranks, pilots)
_SQUADRONS = [
    ("No. 92 Squadron RAF", "United Kingdom", "allied", "Supermarine Spitfire", "Biggin Hill", "R",
     ["Sqn Ldr", "Flt Lt", "F/O", "P/O", "Sgt"],
     ["Brian Kingcome", "Geoffrey Wellum", "Tony Bartley", "Allan Wright", "Bob Holland", "Don Kingaby"]),
    ("No. 303 Squadron", "Poland", "allied", "Hawker Hurricane", "Northolt", "V",
     ["Maj", "Kpt", "Por", "Sgt", "Sgt"],
     ["Witold Urbanowicz", "Zdzisław Henneberg", "Mirosław Ferić", "Josef František", "Jan Zumbach", "Ludwik Paszkiewicz"]),
    ("56th Fighter Group", "United States", "allied", "P-47 Thunderbolt", "Halesworth", "42-",
     ["Col", "Maj", "Capt", "1st Lt", "2nd Lt"],
     ["Hubert Zemke", "Francis Gabreski", "Robert Johnson", "Walker Mahurin", "David Schilling", "Gerald Johnson"]),
    ("JG 26 Schlageter", "Germany", "axis", "Messerschmitt Bf 109", "Abbeville", "W.Nr.",
     ["Maj", "Hptm", "Oblt", "Lt", "Fw"],
     ["Adolf Galland", "Josef Priller", "Gerhard Schöpfel", "Joachim Müncheberg", "Walter Adolph", "Klaus Mietusch"]),
    ("JG 2 Richthofen", "Germany", "axis", "Focke Wulf FW 190", "Beaumont-le-Roger", "FW-",
     ["Maj", "Hptm", "Oblt", "Lt", "Uffz"],
     ["Helmut Wick", "Walter Oesau", "Egon Mayer", "Siegfried Schnell", "Josef Wurmheller", "Rudolf Pflanz"]),
    ("KG 53 Legion Condor", "Germany", "axis", "Heinkel He 111", "Lille", "He-",
     ["Obstlt", "Hptm", "Oblt", "Lt", "Fw"],
     ["Paul Weitkus", "Reinhold Tamm", "Hans Raab", "Kurt Berger", "Otto Lorenz", "Emil Faber"]),
]  # fmt: skip

# The aircraft a demo pilot's kills before the roster were scored against.
_ENEMY_TYPE = {"allied": "Messerschmitt Bf 109", "axis": "Supermarine Spitfire"}

_QUALITIES = ("poor", "average", "average", "veteran", "ace")


@dataclass
class DemoReport:
    squadrons: int
    pilots: int
    airframes: int
    created: bool


@transaction.atomic
def demo_roster_create(*, seed: int = DEMO_SEED) -> DemoReport:
    """Build the demo roster; does nothing if it is already there. Needs the catalog loaded."""
    names = [row[0] for row in _SQUADRONS]
    if Squadron.objects.filter(name__in=names).exists():
        squadrons = Squadron.objects.filter(name__in=names)
        return DemoReport(
            squadrons.count(),
            sum(s.pilots.count() for s in squadrons),
            sum(s.airframes.count() for s in squadrons),
            created=False,
        )
    dice = Dice(seed)
    pilots = airframes = 0
    for name, nation, side, type_name, base, prefix, ranks, pilot_names in _SQUADRONS:
        aircraft_type = AircraftType.objects.get(name=type_name)
        squadron = squadron_create(
            name=name, nation=nation, side=side, aircraft_type=aircraft_type, base=base
        )
        for index, pilot_name in enumerate(pilot_names):
            rank = ranks[min(index, len(ranks) - 1)]
            quality = (
                "ace" if index == 0 else _QUALITIES[dice.roll(len(_QUALITIES) - 1, "demo quality")]
            )
            pilot = pilot_enlist(squadron=squadron, name=pilot_name, rank=rank, quality=quality)
            markers = (
                {"poor": 0, "average": 2, "veteran": 5, "ace": 9}[quality]
                + dice.roll(2, "demo markers")
                - 1
            )
            kills = (
                max(0, markers - 3 + dice.roll(3, "demo kills") - 1)
                if quality in ("veteran", "ace")
                else 0
            )
            pilot.experience_markers, pilot.air_kills = markers, kills
            pilot.save(update_fields=["experience_markers", "air_kills"])
            # Kills before the roster: each one a kill entry too, so the figure is
            # its entries (careers.selectors.confirmed_kills_expression, issue 12).
            for _ in range(kills):
                pilot_log(pilot=pilot, kind=PilotEventKind.KILL, recorded_by="demo",
                          details={"victim_aircraft": _ENEMY_TYPE[side], "credit_rule": "before the roster",
                                   "text": "a kill claimed before the pilot joined the roster"})  # fmt: skip
            pilots += 1
            airframe_create(
                aircraft_type=aircraft_type,
                serial=f"{prefix}{1000 + 37 * len(name) + index}",
                squadron=squadron,
                pilot=pilot,
            )
            airframes += 1
    return DemoReport(len(_SQUADRONS), pilots, airframes, created=True)


# -- careers: a campaign several turns in, built through the career services ----------------

DEMO_CAMPAIGN = "Channel Front 1941 (demo)"

_AWARDS = [
    ("Ritterkreuz", "Germany", "kills", 5),
    ("Distinguished Flying Cross", "United Kingdom", "kills", 2),
    ("Virtuti Militari", "Poland", "kills", 3),
    ("Air Medal", "United States", "missions", 3),
]


# the pilots the demo campaign's battles name (the rest of the library stays free)
_DEMO_ENLISTED = (
    "Brian Kingcome", "Geoffrey Wellum", "Tony Bartley", "Adolf Galland", "Josef Priller",
    "Gerhard Schöpfel", "Bob Holland", "Rudolf Pflanz", "Josef František", "Witold Urbanowicz",
    "Zdzisław Henneberg", "Helmut Wick", "Walter Oesau", "Egon Mayer", "Jan Zumbach",
    "Ludwik Paszkiewicz", "Reinhold Tamm", "Hans Raab", "Paul Weitkus", "Joachim Müncheberg",
    "Walter Adolph", "Kurt Berger", "Otto Lorenz", "Walker Mahurin",
)  # fmt: skip


@dataclass
class CareersReport:
    campaign: str
    battles: int
    created: bool


@transaction.atomic  # all or nothing: a run that fails leaves no half-built campaign to trip the next
def demo_careers_create(*, organiser) -> CareersReport:
    """A demo campaign four turns in: table battles with claims (one denied, one
    left for the organiser), card-mode losses through ``campaign.results.plane_lost``,
    pilots wounded, captured, killed and missing, replacements, return to duty,
    awards and aces. Does nothing if the campaign exists. The first two battles
    script their survival dice so every outcome shows; the rest roll the seeded dice."""
    existing = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if existing is not None:
        return CareersReport(
            existing.name, TableBattle.objects.filter(campaign=existing).count(), created=False
        )
    names = [row[0] for row in _SQUADRONS]
    squadrons = list(Squadron.objects.filter(name__in=names))
    with transaction.atomic():
        for squadron in squadrons:  # demo squadrons are six pilots strong
            squadron.target_strength = 6
            squadron.save(update_fields=["target_strength"])
        # the organiser enlists the pilots of its battles (issue 24): the library's other
        # pilots stay free, and planes none is left for get drafted replacements
        enlisted = Pilot.objects.filter(squadron__in=squadrons, name__in=_DEMO_ENLISTED)
        campaign = campaign_create(name=DEMO_CAMPAIGN, created_by=organiser, seed=DEMO_SEED,
                                   progression_rule="card_game", survival_rule="angels20", squadrons=squadrons,
                                   pilots=list(enlisted.values_list("pk", flat=True)))  # fmt: skip
    by = organiser.username
    career_settings_update(
        campaign=campaign, by=by, replacement_rate=2, characteristics=True, year=1941
    )
    for name, nation, kind, threshold in _AWARDS:
        award_define(
            campaign=campaign,
            name=name,
            nation=nation,
            threshold_kind=kind,
            threshold=threshold,
            by=by,
        )
    p = {pilot.name: pilot.pk for pilot in Pilot.objects.filter(squadron__in=squadrons)}

    def flights(*names, **extra):
        return [{"pilot_id": p[n], **extra.get(n, {})} for n in names]

    # Turn 1: a sweep over France. Bartley comes down over enemy ground (captured), Schöpfel dies.
    table_battle_record(
        name="Sweep over Abbeville", system="angels20", territory="axis", campaign=campaign, campaign_turn=1,
        flights=flights("Brian Kingcome", "Geoffrey Wellum", "Tony Bartley", "Adolf Galland", "Josef Priller",
                        "Gerhard Schöpfel", extra={"Geoffrey Wellum": {"damage": 2}}),
        kills=[{"victim_pilot_id": p["Tony Bartley"], "attacks": [[p["Josef Priller"], 1], [p["Adolf Galland"], 2], [p["Josef Priller"], 2]]},
               {"victim_pilot_id": p["Gerhard Schöpfel"], "attacks": [[p["Brian Kingcome"], 3]]}],
        damages=[{"pilot_id": p["Adolf Galland"], "victim_pilot_id": p["Geoffrey Wellum"], "turn": 1}],
        recorded_by=by, confirm=True, survival_dice=ScriptedDice([6, 1, 2]),
    )  # fmt: skip
    # Card mode: two planes of the card game lost on turn 1 (the Allies flew the mission).
    campaign.current_side = "allied"
    for plane_id, side, pilot_name, _squadron, shooter in (
        ("demo-card-1", "allied", "Bob Holland", "No. 92 Squadron RAF", "flak"),
        ("demo-card-2", "axis", "Rudolf Pflanz", "JG 2 Richthofen", "demo-card-3"),
    ):
        pilot = Pilot.objects.select_related("squadron__aircraft_type").get(pk=p[pilot_name])
        plane = CampaignPlane(campaign=campaign, plane_id=plane_id, side=side, pilot=pilot,
                              aircraft_type=pilot.squadron.aircraft_type)  # fmt: skip
        plane_lost(
            campaign=campaign,
            plane=plane,
            loss={"turn": 1, "mission": "m01", "shot_down_by": shooter},
            actor=by,
        )
    campaign_turn_begin(campaign=campaign, campaign_turn=2, recorded_by=by)

    # Turn 2: JG 2 over Kent. Henneberg wounded, Oesau killed, Mayer captured; a probable denied.
    battle = table_battle_record(
        name="Interception over Kent", system="angels20", territory="allied", campaign=campaign, campaign_turn=2,
        flights=flights("Josef František", "Witold Urbanowicz", "Zdzisław Henneberg", "Helmut Wick", "Walter Oesau",
                        "Egon Mayer"),
        kills=[{"victim_pilot_id": p["Zdzisław Henneberg"], "attacks": [[p["Helmut Wick"], 2]]},
               {"victim_pilot_id": p["Walter Oesau"], "attacks": [[p["Witold Urbanowicz"], 1], [p["Josef František"], 3]]},
               {"victim_pilot_id": p["Egon Mayer"], "attacks": [[p["Josef František"], 4]]}],
        probables=[{"pilot_id": p["Witold Urbanowicz"], "victim_pilot_id": p["Helmut Wick"], "turn": 4}],
        recorded_by=by, survival_dice=ScriptedDice([3, 4, 1, 1, 6]),
    )  # fmt: skip
    for claim in battle.claims.filter(state="claimed"):
        claim_confirm(
            claim_id=claim.pk, by=by, reason="confirmed by the squadron's intelligence officer"
        )
    claim_deny(
        claim_id=battle.claims.get(state="probable").pk,
        by=by,
        reason="Wick landed at Beaumont-le-Roger",
    )
    campaign_turn_begin(campaign=campaign, campaign_turn=3, recorded_by=by)

    # Turn 3: a raid on London; seeded dice decide the bomber crews. One claim is left for the organiser.
    battle = table_battle_record(
        name="Raid on the docks", system="angels20", territory="allied", campaign=campaign, campaign_turn=3,
        flights=flights("Josef František", "Jan Zumbach", "Ludwik Paszkiewicz", "Reinhold Tamm", "Hans Raab",
                        "Paul Weitkus", "Joachim Müncheberg", "Walter Adolph"),
        kills=[{"victim_pilot_id": p["Reinhold Tamm"], "attacks": [[p["Josef František"], 2]]},
               {"victim_pilot_id": p["Hans Raab"], "attacks": [[p["Jan Zumbach"], 2], [p["Josef František"], 3]]},
               {"victim_pilot_id": p["Paul Weitkus"], "attacks": [[p["Jan Zumbach"], 4]]}],
        recorded_by=by,
    )  # fmt: skip
    for claim in battle.claims.filter(state="claimed", pilot_id=p["Josef František"]):
        claim_confirm(claim_id=claim.pk, by=by)
    campaign_turn_begin(campaign=campaign, campaign_turn=4, recorded_by=by)

    # Turn 4: over the Channel. František makes ace; Paszkiewicz goes missing at sea.
    table_battle_record(
        name="Convoy patrol, the Channel", system="angels20", territory="neutral", campaign=campaign, campaign_turn=4,
        flights=flights("Josef František", "Ludwik Paszkiewicz", "Kurt Berger", "Otto Lorenz", "Joachim Müncheberg"),
        kills=[{"victim_pilot_id": p["Ludwik Paszkiewicz"], "attacks": [[p["Joachim Müncheberg"], 2]]},
               {"victim_pilot_id": p["Kurt Berger"], "attacks": [[p["Josef František"], 2]]},
               {"victim_pilot_id": p["Otto Lorenz"], "attacks": [[p["Josef František"], 3]]}],
        recorded_by=by, confirm=True, survival_dice=ScriptedDice([5, 2, 1, 2, 4, 5, 3]),
    )  # fmt: skip
    pilot_transfer(pilot_id=p["Walker Mahurin"], squadron=Squadron.objects.get(name="No. 92 Squadron RAF"),
                   by=by, reason="attached to the RAF to learn the theatre")  # fmt: skip
    campaign_turn_begin(campaign=campaign, campaign_turn=5, recorded_by=by)
    return CareersReport(
        campaign.name, TableBattle.objects.filter(campaign=campaign).count(), created=True
    )
