"""A demo roster: two sides, a few squadrons each, named pilots of varied quality."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from battles.engine.dice import Dice

from .models import AircraftType, Squadron
from .services import airframe_create, pilot_create, squadron_create

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
            pilot = pilot_create(squadron=squadron, name=pilot_name, rank=rank, quality=quality)
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
            pilots += 1
            airframe_create(
                aircraft_type=aircraft_type,
                serial=f"{prefix}{1000 + 37 * len(name) + index}",
                squadron=squadron,
                pilot=pilot,
            )
            airframes += 1
    return DemoReport(len(_SQUADRONS), pilots, airframes, created=True)
