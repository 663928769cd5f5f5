"""A campaign's roster (issue 24 §1): drafted names never repeat within a squadron,
and the organiser may rename a pilot drafted for their campaign."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import services as campaign_services
from campaign.models import CampaignPlane
from careers.models import PilotEvent
from careers.services import career_settings_update, pilot_enlist, replacements_draft
from careers.services.turns import _REPLACEMENT_NAMES
from roster.models import AircraftType, Pilot
from roster.services import squadron_create


@pytest.fixture
def people(db):
    User = get_user_model()
    return {
        "organiser": User.objects.create_user("orga", password="pw-orga-123"),
        "other": User.objects.create_user("rival", password="pw-rival-123"),
        "staff": User.objects.create_user("staffer", password="pw-staff-123", is_staff=True),
    }


@pytest.fixture
def staffel(catalog, people):
    """A German squadron with 60 planes in play and no pilot, in a campaign drafting 12 a
    turn."""
    squadron = squadron_create(
        name="JG 99", nation="Germany", side="axis",
        aircraft_type=AircraftType.objects.get(name="Messerschmitt Bf 109"),
    )  # fmt: skip
    squadron.target_strength = 60
    squadron.save()
    campaign = campaign_services.campaign_create(
        name="Names 1941", created_by=people["organiser"], seed=11, squadrons=[squadron]
    )
    career_settings_update(campaign=campaign, by="orga", replacement_rate=12)
    _waiting_planes(campaign, squadron, 60)
    return {"campaign": campaign, "squadron": squadron}


def _waiting_planes(campaign, squadron, n: int) -> None:
    """``n`` more of the squadron's planes in play with no pilot: replacements fill
    planes (issue 24, ruling "Replacements fill the campaign's planes")."""
    start = CampaignPlane.objects.filter(campaign=campaign).count()
    CampaignPlane.objects.bulk_create(
        CampaignPlane(
            campaign=campaign,
            plane_id=f"axis-w{start + i}",
            side="axis",
            aircraft_type=squadron.aircraft_type,
        )  # fmt: skip
        for i in range(n)
    )


def _names(squadron) -> list[str]:
    return list(Pilot.objects.filter(squadron=squadron).values_list("name", flat=True))


def test_drafted_names_never_repeat_within_a_squadron(staffel):
    campaign, squadron = staffel["campaign"], staffel["squadron"]
    for turn in range(2, 7):  # 60 drafted from 64 first-name/surname pairings
        replacements_draft(campaign=campaign, campaign_turn=turn)
    names = _names(squadron)
    assert len(names) == 60
    assert len(set(names)) == 60, sorted(n for n in names if names.count(n) > 1)


def test_a_draft_skips_every_name_the_squadron_has_then_numbers_them(staffel):
    campaign, squadron = staffel["campaign"], staffel["squadron"]
    first, last = _REPLACEMENT_NAMES["Germany"]
    for f in first:
        for s in last:
            pilot_enlist(squadron=squadron, name=f"{f} {s}")
    # the 64 serve in the campaign (issue 24: its strength is its own enrolled pilots)
    Pilot.objects.filter(squadron=squadron).update(enrolled_in=campaign)
    _waiting_planes(campaign, squadron, 6)  # 66 planes, 64 pilots on duty: two short
    drafted = replacements_draft(campaign=campaign, campaign_turn=2)
    assert len(drafted) == 2
    assert all(p.name.endswith(" II") for p in drafted)  # every pairing taken
    assert len(set(_names(squadron))) == 66


def test_the_draft_is_the_same_from_the_same_seed(staffel, people):
    campaign = staffel["campaign"]
    first = [p.name for p in replacements_draft(campaign=campaign, campaign_turn=2)]
    Pilot.objects.filter(pk__in=PilotEvent.objects.values("pilot_id")).delete()
    PilotEvent.objects.all().delete()
    from careers.models import AppliedResult

    AppliedResult.objects.all().delete()
    again = [p.name for p in replacements_draft(campaign=campaign, campaign_turn=2)]
    assert again == first


@pytest.fixture
def drafted(staffel):
    return replacements_draft(campaign=staffel["campaign"], campaign_turn=2)[0]


def test_the_organiser_renames_a_drafted_pilot_through_the_api(drafted, people, client):
    old = drafted.name
    client.force_login(people["organiser"])
    response = client.post(
        f"/api/roster/pilots/{drafted.pk}/rename/", {"name": "  Adolf   Galland "},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Adolf Galland"
    drafted.refresh_from_db()
    assert drafted.name == "Adolf Galland"
    assert drafted.history.filter(name=old).exists()  # the history keeps the old name
    page = client.get(f"/pilots/{drafted.pk}/").content.decode()
    assert f"Renamed from {old} to Adolf Galland" in page


def test_a_name_another_pilot_of_the_squadron_has_is_refused(staffel, drafted, people, client):
    other = Pilot.objects.filter(squadron=staffel["squadron"]).exclude(pk=drafted.pk).first()
    client.force_login(people["organiser"])
    url = f"/api/roster/pilots/{drafted.pk}/rename/"
    for name, code in ((other.name, "conflict"), ("   ", "required"), ("x" * 121, "max_length")):
        response = client.post(url, {"name": name}, content_type="application/json")
        assert response.status_code == 400, name
        assert response.json()["field"] == "name" and response.json()["code"] == code
    assert Pilot.objects.get(pk=drafted.pk).name == drafted.name  # nothing stored


def test_only_the_campaigns_organiser_or_staff_rename(staffel, drafted, people, client):
    url = f"/api/roster/pilots/{drafted.pk}/rename/"
    client.force_login(people["other"])
    assert (
        client.post(url, {"name": "Hans Rival"}, content_type="application/json").status_code == 403
    )
    assert client.post(f"/pilots/{drafted.pk}/rename/", {"name": "Hans Rival"}).status_code == 403
    assert "Rename this pilot" not in client.get(f"/pilots/{drafted.pk}/").content.decode()
    # a library pilot (not drafted) is staff's, even in the organiser's squadron
    library = pilot_enlist(squadron=staffel["squadron"], name="Werner Mölders")
    client.force_login(people["organiser"])
    assert (
        client.post(f"/api/roster/pilots/{library.pk}/rename/", {"name": "W. Mölders"},
                    content_type="application/json").status_code == 403
    )  # fmt: skip
    client.force_login(people["staff"])
    assert (
        client.post(f"/api/roster/pilots/{library.pk}/rename/", {"name": "W. Mölders"},
                    content_type="application/json").status_code == 200
    )  # fmt: skip


def test_the_pilot_page_form_renames_and_a_bad_name_is_a_400_saying_why(drafted, people, client):
    client.force_login(people["organiser"])
    page = client.get(f"/pilots/{drafted.pk}/").content.decode()
    assert "Rename this pilot" in page
    response = client.post(f"/pilots/{drafted.pk}/rename/", {"name": "<b>Kurt</b> Bühligen"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "&lt;b&gt;Kurt&lt;/b&gt; Bühligen" in page and "<b>Kurt</b>" not in page
    bad = client.post(f"/pilots/{drafted.pk}/rename/", {"name": ""})
    assert bad.status_code == 400
    assert "give the pilot&#x27;s new name" in bad.content.decode()
