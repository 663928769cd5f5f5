"""A battle built from a setup (``battles.services.battle_create_from_setup``) is stored as an
engagement, so that its odds and retries fly that setup, but only a campaign's is titled
"Campaign engagement": another one is called by the name its setup gives its scenario, on
the play page, the report, the battle list and the API (list and detail). The battles are
the tests' sealed duel ("Dusk at the crossroads") and an Air Pirates scenario built by its
game, each with a person seated; the campaign's engagement is checked in
test_airpirates_in_product.py, where a campaign flies one."""

from __future__ import annotations

import re

import pytest

from battles import services
from battles.models import Battle
from rules.airpirates.scenarios import SCENARIOS
from rules.airpirates.system import AIRPIRATES
from rules.tactical import registered
from tests.battles.seating import logged_in, seated_people
from tests.rules.sealed_duel import SEALED_DUEL, SEALED_SCENARIO

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model, catalog):
    with registered(SEALED_DUEL):
        yield seated_people(django_user_model)


def _text(response) -> str:
    assert response.status_code == 200, response.content
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def _row(list_page: str, pk: int) -> str:
    row = re.search(rf'<tr data-battle="{pk}">(.*?)</tr>', list_page, re.S)
    assert row is not None, f"battle {pk} not listed"
    return " ".join(re.sub(r"<[^>]+>", " ", row[1]).split())


def _seen_as(client, battle: Battle, title: str) -> None:
    """Every place a user reads the battle's scenario gives ``title``, none the engagement."""
    play = _text(client.get(f"/battles/{battle.pk}/play/"))
    assert f"Battle #{battle.pk}: {title}" in play and "Campaign engagement" not in play
    report = _text(client.get(f"/battles/{battle.pk}/"))
    assert f"Battle #{battle.pk}: {title}" in report and "Campaign engagement" not in report
    row = _row(client.get("/battles/").content.decode(), battle.pk)
    assert title in row and "Campaign engagement" not in row
    detail = client.get(f"/api/battles/{battle.pk}/").json()
    assert detail["scenario_title"] == title
    assert detail["scenario"] == "engagement"  # still flown from its setup (odds, retries)
    rows = client.get("/api/battles/").json()["results"]
    assert [r["scenario_title"] for r in rows if r["id"] == battle.pk] == [title]


def test_a_duel_built_from_its_setup_is_called_by_its_scenarios_name(people):
    seats = {"axis": {"user": people["axis"].pk}, "allied": {"pilot": "gunner"}}
    battle = services.battle_create_from_setup(
        setup=SEALED_SCENARIO, seed=3, source_key="test:titles:duel",
        settings={"seats": seats}, system="sealed_duel",
    )  # fmt: skip
    assert battle.status == "in_play" and battle.scenario == "engagement"
    _seen_as(logged_in(people["axis"]), battle, "Dusk at the crossroads")


def test_an_air_pirates_battle_built_from_its_setup_is_called_by_its_scenarios_name(people):
    seats = {"axis": {"user": people["axis"].pk}, "allied": {"pilot": "competent"}}
    battle = services.battle_create_from_setup(
        setup=AIRPIRATES.scenario("fighters", 4), seed=4, source_key="test:titles:airpirates",
        settings={"seats": seats}, system="airpirates",
    )  # fmt: skip
    assert battle.status == "in_play" and battle.scenario == "engagement"
    _seen_as(logged_in(people["axis"]), battle, SCENARIOS["fighters"])


def _named_duel(people, n: int) -> Battle:
    seats = {"axis": {"user": people["axis"].pk}, "allied": {"pilot": "gunner"}}
    return services.battle_create_from_setup(
        setup={**SEALED_SCENARIO, "name": f"Duel {n}"}, seed=n, source_key=f"test:titles:{n}",
        settings={"seats": seats}, system="sealed_duel",
    )  # fmt: skip


def test_the_list_titles_setup_built_battles_without_a_query_per_row(
    people, client, django_assert_max_num_queries
):
    for n in range(3):
        _named_duel(people, n)
    with django_assert_max_num_queries(12) as counted:
        page = client.get("/battles/").content.decode()
    assert all(f"Duel {n}" in page for n in range(3))
    for n in range(3, 6):
        _named_duel(people, n)
    with django_assert_max_num_queries(len(counted.captured_queries)):
        page = client.get("/battles/").content.decode()
    assert all(f"Duel {n}" in page for n in range(6))
