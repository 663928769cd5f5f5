"""Air Pirates control cards stored before [20] (bombers) gain its two fields.

``bomber_class`` and ``cannon_30mm_only`` were added to the control card (rules/airpirates/
card.py) after cards were stored on aircraft types; the card's check calls a card without
them incomplete, so an organiser could not save a type whose card predates them. Each stored
card missing a field gets the shipped catalog's estimate for that type (the same value a new
installation loads), or the value a card without it flies with (``LATER_FIELDS``); every
other value, organisers' edits included, is kept.
"""

import csv
from pathlib import Path

from django.db import migrations

CATALOG = Path(__file__).resolve().parents[2] / "rules" / "catalog" / "airpirates_cards.csv"
FIELDS = {"bomber_class": "none", "cannon_30mm_only": False}
LATER = "002 [20]: added to a card stored before the bomber rules (migration 0010)"


def _shipped() -> dict[tuple[str, str], dict[str, str]]:
    if not CATALOG.exists():
        return {}
    with CATALOG.open(newline="", encoding="utf-8") as f:
        return {(r["name"], r["field"]): r for r in csv.DictReader(f) if r["field"] in FIELDS}


def _value(raw: str, default: object) -> object:
    text = raw.strip().lower()  # as rules.game_cards.CardField.parse reads the catalog
    return text == "yes" if isinstance(default, bool) else text


def add_fields(apps, schema_editor):
    AircraftType = apps.get_model("roster", "AircraftType")
    shipped = _shipped()
    for aircraft in AircraftType.objects.all():
        cards = aircraft.game_cards if isinstance(aircraft.game_cards, dict) else {}
        block = cards.get("airpirates")
        if not isinstance(block, dict) or not isinstance(block.get("values"), dict):
            continue
        values, provenance = dict(block["values"]), dict(block.get("provenance") or {})
        changed = False
        for field, default in FIELDS.items():
            if field in values:
                continue
            row = shipped.get((aircraft.name, field))
            values[field] = _value(row["value"], default) if row else default
            provenance[field] = {
                "kind": "estimated",
                "source": row["source"] if row else LATER,
            }
            changed = True
        if changed:
            cards["airpirates"] = {**block, "values": values, "provenance": provenance}
            aircraft.game_cards = cards
            aircraft.save(update_fields=["game_cards"])


class Migration(migrations.Migration):
    dependencies = [("roster", "0009_aircraft_game_cards")]

    operations = [migrations.RunPython(add_fields, migrations.RunPython.noop)]
