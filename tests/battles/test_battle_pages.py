import pytest
from django.contrib.auth import get_user_model

from battles import services
from battles.models import Battle

pytestmark = pytest.mark.django_db


def test_the_report_page_renders_a_finished_battle(client, catalog):
    battle = services.battle_create(scenario="dogfight", seed=12, resolve=False)
    Battle.objects.filter(pk=battle.pk).update(status="pending")
    services.battle_run(battle_id=battle.pk)
    battle.refresh_from_db()
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    hexmap = page.split('<svg id="map"')[1].split("</svg>")[0]
    assert hexmap.count("<polygon") == 16 * 22  # the hex map
    assert "Turn 1, initiative: Axis rolled 2d6" in page  # the log in sentences with its dice
    assert f"winner: <strong>{battle.result['winner'] or 'draw'}</strong>" in page
    assert "Spitfire Mk I Ace" in page
    assert 'id="frames"' in page


def test_a_waiting_engagement_offers_odds_and_resolution(
    client, catalog, django_capture_on_commit_callbacks
):
    user = get_user_model().objects.create_user("orga", password="pw-123456")
    client.force_login(user)
    battle = services.battle_create(scenario="intercept", seed=3, resolve=False, requested_by=user)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Preview the odds" in page and "Resolve it now" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/odds/")
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "95% interval" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/resolve/")
    assert Battle.objects.get(pk=battle.pk).status == "finished"


def test_the_new_battle_form_creates_and_flies_a_battle(
    client, catalog, django_capture_on_commit_callbacks
):
    user = get_user_model().objects.create_user("orga", password="pw-123456")
    client.force_login(user)
    assert "Fly a battle" in client.get("/battles/new/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/battles/new/",
            {
                "scenario": "schnellbomber",
                "axis_policy": "tactical",
                "allied_policy": "random",
                "resolve": "now",
            },
        )
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert battle.status == "finished"
    bad = client.post(
        "/battles/new/", {"scenario": "standard", "axis_aircraft": ["1"], "allied_aircraft": []}
    )
    assert bad.status_code == 400 and Battle.objects.count() == 1
