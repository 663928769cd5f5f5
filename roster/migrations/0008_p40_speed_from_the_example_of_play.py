"""Bring catalogs loaded before issue 24 to the P-40's shipped speeds.

The Example of Play (000, turn 1) flies the P-40C at speed 4 without "(high
speed)" -- the same turn writes it for the Hurricane and the Zeke -- and
Movement Example 2 calls 5 its high speed: the P-40 airframe flies 2-4 / 5,
not 2-3 / 4-5 (docs/rulings.md, Aircraft catalog). ``load_catalog`` never
overwrites existing rows without ``--reset`` (organiser edits win), so only
rows still holding the old shipped speeds change; an organiser's own values
are left alone.
"""

from django.db import migrations

# the P-40 airframe (ruling "Rule F — same airframe"; card-game rule G1)
P40_CARDS = (
    "P-40B Rookie",
    "P-40C Flying Tiger",
    "Lend-Lease Tomahawk Mk. II",
    "Curtis P-40 Warhawk",
)
OLD = {"speed_min": 2, "speed_max": 3, "high_speed_min": 4, "high_speed_max": 5}
NEW = {"speed_min": 2, "speed_max": 4, "high_speed_min": 5, "high_speed_max": 5}


def forwards(apps, schema_editor):
    AircraftType = apps.get_model("roster", "AircraftType")
    AircraftType.objects.filter(name__in=P40_CARDS, **OLD).update(**NEW)


def backwards(apps, schema_editor):
    AircraftType = apps.get_model("roster", "AircraftType")
    AircraftType.objects.filter(name__in=P40_CARDS, **NEW).update(**OLD)


class Migration(migrations.Migration):
    dependencies = [("roster", "0007_history")]

    operations = [migrations.RunPython(forwards, backwards)]
