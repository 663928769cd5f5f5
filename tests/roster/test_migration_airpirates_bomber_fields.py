"""Air Pirates cards stored before the bomber rules gain bomber_class and cannon_30mm_only."""

import pytest

from roster.game_cards import game_cards_problems
from rules.airpirates.units import catalog_card

BEFORE = [("roster", "0009_aircraft_game_cards")]
AFTER = [("roster", "0010_airpirates_card_bomber_fields")]
LATER = ("bomber_class", "cannon_30mm_only")


def _old_block(name, **edits):
    """The shipped card of ``name`` as a card stored before [20]: without its two fields."""
    values = {k: v for k, v in catalog_card(name).items() if k not in LATER}
    values.update(edits)
    provenance = {k: {"kind": "estimated", "source": "catalog"} for k in values}
    return {"values": values, "provenance": provenance}


def _type(AircraftType, name, block):
    return AircraftType.objects.create(
        name=name, nation="USA", side="allied", kind="medium bomber", cost=40,
        pilot_quality="average", speed_min=2, speed_max=2, attack_1=3, attack_2=2, attack_3=0,
        armor=4, vital_armor=9, hits=5, turn=0, roll=0, climb=0, dive=0,
        game_cards={"airpirates": block},
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_old_cards_gain_the_bomber_fields_and_keep_their_edits(migrated):
    apps = migrated(BEFORE)
    AircraftType = apps.get_model("roster", "AircraftType")
    havoc = _old_block("Douglas A-20 Havoc", defence_factor=5)  # an organiser's edit
    _type(AircraftType, "Douglas A-20 Havoc", havoc)
    _type(AircraftType, "A club's own bomber", _old_block("Douglas A-20 Havoc"))

    apps = migrated(AFTER)
    AircraftType = apps.get_model("roster", "AircraftType")
    cards = {a.name: a.game_cards for a in AircraftType.objects.all()}
    shipped = cards["Douglas A-20 Havoc"]["airpirates"]
    assert shipped["values"]["bomber_class"] == catalog_card("Douglas A-20 Havoc")["bomber_class"]
    assert shipped["values"]["bomber_class"] != "none"
    assert shipped["values"]["cannon_30mm_only"] is False
    assert shipped["values"]["defence_factor"] == 5
    assert shipped["provenance"]["bomber_class"]["kind"] == "estimated"
    own = cards["A club's own bomber"]["airpirates"]
    assert own["values"]["bomber_class"] == "none"  # not in the catalog: flies as before
    assert "migration 0010" in own["provenance"]["bomber_class"]["source"]
    assert game_cards_problems(cards["Douglas A-20 Havoc"]) == []
    assert game_cards_problems(cards["A club's own bomber"]) == []
