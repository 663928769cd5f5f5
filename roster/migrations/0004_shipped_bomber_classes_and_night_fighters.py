"""Bring catalogs loaded before issue 4 up to the shipped values it changed.

`load_catalog` never overwrites existing rows without `--reset` (organiser
edits win), so a database loaded earlier would keep the card game's bombers
as plain "bomber" and lack the Night Fighter ability that lets the night
fighters attack in darkness. Only rows still holding the old shipped value
are changed; an organiser's own choice is left alone.
"""

from django.db import migrations

# ruling "Bomber classes" (docs/rulings.md); rules/catalog/card_game_tactical.csv
BOMBER_CLASSES = {
    "Douglas A-20 Havoc": "light bomber",
    "Douglas A-26 Invader": "medium bomber",
    "Havilland DH 98 Mosquito": "light bomber",
    "Bristol Blenheim": "light bomber",
    "Martin B-26 Marauder": "medium bomber",
    "Messerschmitt Me 410": "light bomber",
    "Junkers Ju 87 Stuka": "light bomber",
    "Junkers Ju 88": "medium bomber",
    "Henschel Hs 129": "light bomber",
    "Dornier Do 17": "light bomber",
}
# 003 plane cards marked night fighter
NIGHT_FIGHTERS = (
    "Bristol Beaufighter",
    "Hawker Hurricane",
    "Douglas A-20 Havoc",
    "Havilland DH 98 Mosquito",
    "Focke Wulf FW 190",
    "Messerschmitt Me 262",
    "Messerschmitt Bf 110",
    "Dornier Do 17",
    "Dornier Do 217",
)


def forwards(apps, schema_editor):
    AircraftType = apps.get_model("roster", "AircraftType")
    for name, kind in BOMBER_CLASSES.items():
        AircraftType.objects.filter(name=name, kind="bomber").update(kind=kind)
    for t in AircraftType.objects.filter(name__in=NIGHT_FIGHTERS):
        if "Night Fighter" not in t.abilities:
            t.abilities = [*t.abilities, "Night Fighter"]
            t.save(update_fields=["abilities"])


class Migration(migrations.Migration):
    dependencies = [("roster", "0003_bomber_classes")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
