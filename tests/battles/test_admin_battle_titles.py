"""The Django admin calls a battle built from a setup by its scenario's own name, as the
battle pages do (``Battle.scenario_title``; test_setup_battle_titles.py): its changelist's
scenario column and the battle's own name (``str``, on its change page and in the admin's
messages) say "Dusk at the crossroads", not "Campaign engagement", which stays the title of
a campaign's engagement only. Titling costs the changelist no query per row."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from battles import services
from battles.models import Battle
from rules.tactical import registered
from tests.battles.seating import seated_people
from tests.rules.sealed_duel import SEALED_DUEL, SEALED_SCENARIO

pytestmark = pytest.mark.django_db
CHANGELIST = "/admin/battles/battle/"


@pytest.fixture
def staff(client, django_user_model):
    with registered(SEALED_DUEL):
        people = seated_people(django_user_model)
        admin = get_user_model().objects.create_superuser("boss", password="pw-boss-1234")
        client.force_login(admin)
        yield people


def _duel(people, source_key: str, name: str = SEALED_SCENARIO["name"]) -> Battle:
    seats = {"axis": {"user": people["axis"].pk}, "allied": {"pilot": "gunner"}}
    return services.battle_create_from_setup(
        setup={**SEALED_SCENARIO, "name": name}, seed=3, source_key=source_key,
        settings={"seats": seats}, system="sealed_duel",
    )  # fmt: skip


def _row(page: str, pk: int) -> str:
    """The changelist row of battle ``pk``, as its words."""
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    mine = [r for r in rows if f"/admin/battles/battle/{pk}/change/" in r]
    assert len(mine) == 1, f"battle {pk} not listed once"
    return " ".join(re.sub(r"<[^>]+>", " ", mine[0]).split())


def test_the_admin_calls_a_setup_built_battle_by_its_scenarios_name(staff, client):
    duel = _duel(staff, "test:admin:duel")
    engagement = _duel(staff, "campaign:7:engagement:1", name="Spring war: sweep over Calais")
    assert duel.scenario == engagement.scenario == "engagement"
    assert str(duel) == f"Battle #{duel.pk}: Dusk at the crossroads (in_play)"
    page = client.get(CHANGELIST).content.decode()
    row = _row(page, duel.pk)
    assert "Dusk at the crossroads" in row and "Campaign engagement" not in row
    assert "Campaign engagement" in _row(page, engagement.pk)
    change = client.get(f"{CHANGELIST}{duel.pk}/change/").content.decode()
    title = re.search(r"<title>(.*?)</title>", change, re.S)[1]
    assert f"Battle #{duel.pk}: Dusk at the crossroads (in_play)" in title


def test_the_changelist_titles_its_battles_without_a_query_per_row(
    staff, client, django_assert_max_num_queries
):
    for n in range(2):
        _duel(staff, f"test:admin:{n}", name=f"Duel {n}")
    with django_assert_max_num_queries(30) as counted:
        page = client.get(CHANGELIST).content.decode()
    assert all(f"Duel {n}" in page for n in range(2))
    for n in range(2, 8):
        _duel(staff, f"test:admin:{n}", name=f"Duel {n}")
    with django_assert_max_num_queries(len(counted.captured_queries)):
        page = client.get(CHANGELIST).content.decode()
    assert all(f"Duel {n}" in _row(page, b.pk) for n, b in enumerate(Battle.objects.order_by("pk")))
