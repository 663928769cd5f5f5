import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from roster.models import Pilot, Squadron

pytestmark = pytest.mark.django_db


def test_demo_builds_two_sides_and_an_organiser_and_is_idempotent(capsys):
    call_command("demo", password="s3cret-pass")
    out = capsys.readouterr().out
    assert "Organiser login: organiser / s3cret-pass" in out
    assert set(Squadron.objects.values_list("side", flat=True)) == {"allied", "axis"}
    pilots = Pilot.objects.count()
    assert pilots >= 36  # 36 demo pilots, plus the replacements of the careers demo
    assert len(set(Pilot.objects.values_list("quality", flat=True))) >= 3
    assert get_user_model().objects.get(username="organiser").is_staff
    call_command("demo")
    assert Pilot.objects.count() == pilots


def test_home_and_catalog_pages_show_the_demo(client):
    call_command("demo", password="x" * 12)
    home = client.get("/")
    assert home.status_code == 200
    assert "JG 26 Schlageter" in home.content.decode()
    assert "Adolf Galland" in home.content.decode()  # an ace of the demo
    page = client.get("/aircraft/").content.decode()  # the first page of the catalog
    assert 'rel="next"' in page and "Typhoon Interceptor" not in page
    found = client.get("/aircraft/?q=typhoon").content.decode()
    assert "Typhoon Interceptor" in found and "Messerschmitt Bf 109" not in found
    assert "Messerschmitt Bf 109" in client.get("/aircraft/?q=bf+109").content.decode()


def test_admin_lists_pilots_with_filters(client):
    call_command("demo", password="organiser-pass")
    client.login(username="organiser", password="organiser-pass")
    response = client.get("/admin/roster/pilot/?status__exact=active&squadron__side=axis")
    assert response.status_code == 200
    body = response.content.decode()
    shown = Pilot.objects.filter(status="active", squadron__side="axis")
    hidden = Pilot.objects.exclude(status="active", squadron__side="axis")
    assert shown.exists() and hidden.exists()
    # by the row's change link: a replacement may share a fallen pilot's name
    assert all(f"/admin/roster/pilot/{p.pk}/change/" in body for p in shown)
    assert not any(f"/admin/roster/pilot/{p.pk}/change/" in body for p in hidden)
    squadron = Squadron.objects.get(name="No. 92 Squadron RAF")
    page = client.get(f"/admin/roster/squadron/{squadron.pk}/change/").content.decode()
    assert all(p.name in page for p in squadron.pilots.all())  # pilots inline


def test_roster_api_lists_pilots_by_side(client):
    call_command("demo", password="x" * 12)
    body = client.get("/api/roster/pilots/?side=allied&limit=100").json()
    assert body["count"] >= 18  # 18 demo pilots, plus the careers demo's replacements
    assert {p["nation"] for p in body["results"]} == {"United Kingdom", "Poland", "United States"}
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/roster/pilots/" in schema.content


def test_the_demo_shows_a_campaign_several_turns_in_and_battles_flown_by_the_engine(client):
    from battles.models import Battle
    from campaign.models import Campaign

    call_command("demo", password="x" * 12)
    campaign = Campaign.objects.get()
    assert campaign.turn >= 6
    modes = {e["mode"] for e in campaign.state["engagements"]}
    assert {"card", "engine"} <= modes
    assert Battle.objects.filter(status="finished", source_key="demo").count() == 3
    assert Battle.objects.filter(
        status="finished", source_key__startswith=f"campaign:{campaign.pk}:"
    ).exists()
    battle = Battle.objects.filter(source_key="demo").first()
    assert '<svg id="map"' in client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Planes in play" in client.get(f"/campaigns/{campaign.pk}/").content.decode()
