"""The catalog's origin "air_pirates": the aircraft Air Pirates (002) names, by its names
(rules/catalog/airpirates_named_types.csv).

A choice only; no row changes. An existing database gains those 24 types, each with its
control card, from ``manage.py load_catalog`` (``./bin/serve`` runs it after migrating),
which creates the types a database lacks and keeps every organiser's edit
(tests/roster/test_airpirates_named_types.py migrates a database loaded before them).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("roster", "0010_airpirates_card_bomber_fields"),
    ]

    operations = [
        migrations.AlterField(
            model_name="aircrafttype",
            name="origin",
            field=models.CharField(
                choices=[
                    ("angels20", "Angels 20 card"),
                    ("card_game", "Card game plane"),
                    ("air_pirates", "Aircraft Air Pirates (002) names"),
                    ("organiser", "Added by an organiser"),
                ],
                default="organiser",
                max_length=12,
            ),
        ),
        migrations.AlterField(
            model_name="historicalaircrafttype",
            name="origin",
            field=models.CharField(
                choices=[
                    ("angels20", "Angels 20 card"),
                    ("card_game", "Card game plane"),
                    ("air_pirates", "Aircraft Air Pirates (002) names"),
                    ("organiser", "Added by an organiser"),
                ],
                default="organiser",
                max_length=12,
            ),
        ),
    ]
