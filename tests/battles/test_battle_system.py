"""A battle says which tactical game it is (issue 25): ``Battle.system`` stored, shown on
the report and list, filtered on page, API and admin; existing battles migrate to
angels20; an unknown game is refused naming ``system``; the worker asks the battle's
system, not Angels 20, to fly it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles import services
from battles.models import Battle
from rules.tactical import registered
from tests.errors import reason
from tests.rules.duel_system import DUEL, DUEL_SCENARIO

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, catalog):
    user = get_user_model().objects.create_user("organiser", password="pw-123456", is_staff=True)
    client.force_login(user)
    return client


def _duel_battle(**kw) -> Battle:
    return Battle.objects.create(system="duel", scenario="engagement", setup=DUEL_SCENARIO, **kw)


def test_a_new_battle_is_angels20_stored_shown_and_in_the_api(
    api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/battles/create/",
            {"scenario": "dogfight", "seed": 4},
            content_type="application/json",
        )
    assert response.status_code == 202, response.content
    pk = response.json()["id"]
    assert response.json()["system"] == "angels20"
    assert Battle.objects.get(pk=pk).system == "angels20"
    assert api.get(f"/api/battles/{pk}/").json()["system"] == "angels20"
    assert api.get(f"/api/battles/{pk}/log/").json()["system"] == "angels20"
    assert (
        'id="game">Game: <strong>Angels 20</strong>' in api.get(f"/battles/{pk}/").content.decode()
    )
    assert "<th>Game</th>" in api.get("/battles/").content.decode()


def test_create_with_an_unknown_system_is_a_400_naming_it_and_stores_nothing(api):
    response = api.post(
        "/api/battles/create/",
        {"system": "airforce", "scenario": "dogfight"},
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "system" and reason(body) == "invalid"
    assert body["detail"] == "unknown tactical system 'airforce' (known: airpirates, angels20)"
    assert not Battle.objects.exists()


def test_the_new_battle_page_takes_the_game_and_refuses_an_unknown_one(api):
    page = api.get("/battles/new/").content.decode()
    assert '<option value="angels20" selected>Angels 20</option>' in page  # the first game
    refused = api.post(
        "/battles/new/",
        {
            "system": "airforce",
            "scenario": "dogfight",
            "axis_policy": "tactical",
            "allied_policy": "tactical",
        },
    )
    assert refused.status_code == 400
    assert (
        "Unknown tactical system &#x27;airforce&#x27; (known: airpirates, angels20)"
        in refused.content.decode()
    )
    assert not Battle.objects.exists()
    flown = api.post(
        "/battles/new/",
        {
            "system": "angels20",
            "scenario": "dogfight",
            "axis_policy": "tactical",
            "allied_policy": "tactical",
        },
    )
    assert flown.status_code == 302
    assert Battle.objects.get().system == "angels20"


def test_a_registered_game_without_scenarios_here_is_refused_by_name(api):
    with registered(DUEL):
        response = api.post(
            "/api/battles/create/",
            {"system": "duel", "scenario": "dogfight"},
            content_type="application/json",
        )
    assert response.status_code == 400 and response.json()["field"] == "system"
    assert "Duel at Dawn (duel) battles cannot be built" in response.json()["detail"]
    assert not Battle.objects.exists()


def test_battles_are_filtered_by_game_on_the_page_and_the_api(api):
    with registered(DUEL):
        duel = _duel_battle(seed=3, status="draft")
        angels = Battle.objects.create(scenario="dogfight", seed=4, status="draft")
        listed = api.get("/api/battles/?system=duel").json()
        assert [b["id"] for b in listed["results"]] == [duel.pk]
        assert listed["results"][0]["system"] == "duel"
        assert [b["id"] for b in api.get("/api/battles/?system=angels20").json()["results"]] == [
            angels.pk
        ]
        page = api.get("/battles/?system=duel").content.decode()
        assert f'data-battle="{duel.pk}"' in page and f'data-battle="{angels.pk}"' not in page
        assert "<td>Duel at Dawn</td>" in page
        api.force_login(get_user_model().objects.create_superuser("admin", password="pw-123456"))
        admin = api.get("/admin/battles/battle/?system__exact=duel").content.decode()
        assert f"/admin/battles/battle/{duel.pk}/change/" in admin
        assert f"/admin/battles/battle/{angels.pk}/change/" not in admin
    unknown = api.get("/api/battles/?system=airforce")
    assert unknown.status_code == 400 and "system" in unknown.json()["detail"] + str(unknown.json())


def test_the_worker_flies_a_battle_with_the_battles_own_system(catalog):
    with registered(DUEL):
        battle = _duel_battle(
            seed=11, settings={"policies": {"axis": "gunner", "allied": "gunner"}}
        )
        assert services.battle_run(battle_id=battle.pk) is True
        battle.refresh_from_db()
        assert battle.status == "finished", battle.error
        assert battle.result["kind"] == "duel" and battle.log[0]["e"] == "duel_start"
        assert DUEL.replay(DUEL_SCENARIO, 11, battle.actions).log == battle.log


@pytest.mark.django_db(transaction=True)
def test_existing_battles_migrate_to_angels20_with_nothing_lost(migrated):
    before = [("battles", "0007_battle_decision_due_handed_notes")]
    old = migrated(before).get_model("battles", "Battle")
    row = old.objects.create(
        scenario="dogfight", seed=5, setup={"name": "x"}, status="draft", log=[{"e": "a"}]
    )
    new = migrated([("battles", "0008_battle_system")]).get_model("battles", "Battle")
    migrated = new.objects.get(pk=row.pk)
    assert migrated.system == "angels20"
    assert (migrated.scenario, migrated.seed, migrated.setup, migrated.log) == (
        "dogfight",
        5,
        {"name": "x"},
        [{"e": "a"}],
    )
