"""A campaign chooses the game its engine and web engagements are flown under (issue 25):
chosen at creation (page and API) and by the organiser later, for the campaign or one
mission; refused by name when unknown or unable to fly an engagement; the engagement's
battle is built and flown under it, and its result reaches the careers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from battles.models import Battle
from campaign import services
from campaign.game import mission_system
from campaign.models import Campaign
from careers.models import PilotEvent
from roster.models import Squadron
from rules.tactical import registered
from tests.campaign.test_engine_engagements import _play_until_an_engine_battle
from tests.rules.duel_system import SIDES, Duel, DuelSystem

pytestmark = pytest.mark.django_db


class SquadronDuel(Duel):
    """The tests' duel flown by whole flights: a hit downs the other side's first plane
    still flying, credited to the shooting side's first; it ends when a side has none."""

    def __init__(self, scenario: dict[str, Any], seed: int) -> None:
        super().__init__(scenario, seed)
        self.down: dict[int, int] = {}  # aircraft id -> the id of the one that downed it
        self.kill_turn: dict[int, int] = {}

    def _flying(self, side: str) -> list[dict[str, Any]]:
        return [
            a for a in self.scenario["aircraft"] if a["side"] == side and a["id"] not in self.down
        ]

    def apply(self, action: Any) -> None:
        side, turn = self.to_act, self.turn
        super().apply(action)
        if self.winner is None or side is None:
            return
        shooter, target = self._flying(SIDES[side])[0], self._flying(SIDES[1 - side])[0]
        self.down[target["id"]], self.kill_turn[target["id"]] = shooter["id"], turn
        if self._flying(SIDES[1 - side]) and self.turn <= self.scenario["turns"]:
            self.winner, self.to_act = None, 1 - side  # the duel goes on

    def result(self) -> dict[str, Any]:
        result = super().result()
        by_id = {a["id"]: a for a in self.scenario["aircraft"]}
        result["aircraft"] = [
            {"id": a["id"], "name": a["name"], "side": a["side"], "pilot": a["quality"],
             "pilot_ref": a["pilot_ref"], "fate": "destroyed" if a["id"] in self.down else "intact",
             "exit_edge": None, "scored_exit": False, "damage": 1 if a["id"] in self.down else 0,
             "destroyed_by": self.down.get(a["id"]),
             "destroyed_by_pilot_ref": by_id[self.down[a["id"]]]["pilot_ref"] if a["id"] in self.down else None,
             "survival_roll": None, "survival_modifier": None, "pilot_survived": None}
            for a in self.scenario["aircraft"]
        ]  # fmt: skip
        result["kills"] = [
            {"attacker": shooter, "attacker_pilot_ref": by_id[shooter]["pilot_ref"], "target": target,
             "target_pilot_ref": by_id[target]["pilot_ref"], "turn": self.kill_turn[target]}
            for target, shooter in self.down.items()
        ]  # fmt: skip
        return result


class CampaignDuel(DuelSystem):
    """The duel system, able to fly a campaign's engagements (``campaign_engagement``)."""

    def new_battle(self, scenario: dict[str, Any], seed: int) -> SquadronDuel:
        return SquadronDuel(self.scenario_json(scenario), seed)

    def scenario_json(self, scenario: dict[str, Any]) -> dict[str, Any]:
        return {**super().scenario_json(scenario), "aircraft": list(scenario.get("aircraft", []))}

    def campaign_engagement(self, attackers, defenders, *, name, turns, territory, effects):
        planes = [*attackers, *defenders]
        return {
            "name": name, "turns": turns,
            "aircraft": [
                {"id": i, "side": p["side"], "name": p["aircraft"], "quality": p["quality"], "pilot_ref": p["pilot_ref"]}
                for i, p in enumerate(planes)
            ],
        }  # fmt: skip


DUEL = CampaignDuel()


@pytest.fixture
def duel():
    with registered(DUEL):
        yield DUEL


def _open(organiser, **values):
    from demo.roster import demo_roster_create

    demo_roster_create()
    return services.campaign_open(
        name=values.pop("name", "Dawn war"), created_by=organiser, seed=4,
        resolution_mode=values.pop("resolution_mode", "engine"), squadrons=list(Squadron.objects.all()),
        auto_advance=False, **values,
    )  # fmt: skip


# -- choosing the game ---------------------------------------------------------------
def test_a_campaign_flies_angels_20_unless_told_and_says_so_in_words(catalog, users, client):
    campaign = _open(users["organiser"])
    assert Campaign.objects.get(pk=campaign.pk).tactical_system == "angels20"
    assert campaign.survival_rule == "angels20"
    page = _text(client.get(f"/campaigns/{campaign.pk}/"))
    assert "Engagements are flown under Angels 20" in page
    api = client.get(f"/api/campaigns/{campaign.pk}/game/").json()
    assert api["tactical_system"] == "angels20" and api["title"] == "Angels 20"
    assert {"tactical_system": "angels20", "title": "Angels 20"} in api["games"]
    assert (
        client.get(f"/api/campaigns/{campaign.pk}/").json()["campaign"]["tactical_system"]
        == "angels20"
    )


def test_the_api_creates_a_campaign_under_a_registered_game_and_refuses_others(
    catalog, users, client, duel
):
    client.force_login(users["organiser"])
    users["organiser"].is_staff = True
    users["organiser"].save()
    made = client.post(
        "/api/campaigns/create/", {"name": "Duel war", "tactical_system": "duel"}, content_type="application/json"
    )  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["campaign"]["tactical_system"] == "duel"
    assert Campaign.objects.get(name="Duel war").tactical_system == "duel"
    refused = client.post(
        "/api/campaigns/create/", {"name": "Chess war", "tactical_system": "chess"}, content_type="application/json"
    )  # fmt: skip
    assert refused.status_code == 400
    body = refused.content.decode()
    assert (
        "tactical_system" in body
        and "Angels 20 (angels20)" in body
        and "Duel at Dawn (duel)" in body
    )
    assert not Campaign.objects.filter(name="Chess war").exists()


def test_a_game_that_cannot_fly_an_engagement_is_refused_when_chosen(catalog, users, client):
    plain = DuelSystem()  # the bare duel builds no campaign engagement
    client.force_login(users["organiser"])
    campaign = _open(users["organiser"])
    with registered(plain):
        answer = client.put(
            f"/api/campaigns/{campaign.pk}/game/", {"tactical_system": "duel"}, content_type="application/json"
        )  # fmt: skip
    assert answer.status_code == 400
    assert "tactical_system" in answer.json()["errors"][0]["field"]
    assert "Duel at Dawn cannot fly a campaign's engagements" in answer.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).tactical_system == "angels20"


def test_the_organiser_chooses_the_game_and_a_missions_own(catalog, users, client, duel):
    campaign = _open(users["organiser"])
    from rules.cardgame import GameSetup

    mission = next(iter(GameSetup.from_json(campaign.state["setup"]).mission_cards))
    client.force_login(users["allied"])
    services.campaign_member_set(campaign=campaign, by=users["organiser"], user=users["allied"], role="commander", side="allied")  # fmt: skip
    assert client.put(
        f"/api/campaigns/{campaign.pk}/game/", {"tactical_system": "duel"}, content_type="application/json"
    ).status_code == 403  # fmt: skip
    client.force_login(users["organiser"])
    answer = client.put(
        f"/api/campaigns/{campaign.pk}/game/", {"tactical_system": "duel"}, content_type="application/json"
    )  # fmt: skip
    assert answer.status_code == 200 and answer.json()["title"] == "Duel at Dawn"
    answer = client.put(
        f"/api/campaigns/{campaign.pk}/game/", {"tactical_system": "angels20", "mission": mission},
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 200
    assert answer.json()["missions"][0]["tactical_system"] == "angels20"
    campaign.refresh_from_db()
    assert campaign.tactical_system == "duel" and campaign.mission_systems == {mission: "angels20"}
    assert (
        mission_system(campaign, mission) == "angels20" and mission_system(campaign, "m0") == "duel"
    )
    bad = client.put(
        f"/api/campaigns/{campaign.pk}/game/", {"tactical_system": "duel", "mission": "nowhere"},
        content_type="application/json",
    )  # fmt: skip
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "mission"
    page = _text(client.get(f"/campaigns/{campaign.pk}/"))
    assert "Engagements are flown under Duel at Dawn" in page
    assert "flown under Angels 20" in page  # the mission's own


def test_the_campaign_page_form_sets_the_game(catalog, users, client, duel):
    campaign = _open(users["organiser"])
    client.force_login(users["organiser"])
    answer = client.post(f"/campaigns/{campaign.pk}/game/", {"tactical_system": "chess"})
    assert answer.status_code == 400
    assert "is not a game this server flies" in answer.content.decode()
    answer = client.post(f"/campaigns/{campaign.pk}/game/", {"tactical_system": "duel"})
    assert answer.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).tactical_system == "duel"


def test_the_page_offers_one_missions_game_by_the_cards_name(catalog, users, client, duel):
    from rules.cardgame import GameSetup

    campaign = _open(users["organiser"])
    setup = GameSetup.from_json(campaign.state["setup"])
    mission = next(iter(setup.mission_cards))
    client.force_login(users["organiser"])
    html = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'<option value="{mission}">{setup.card_name(mission)}' in html  # chosen by name
    assert "e.g. m12" not in html
    answer = client.post(
        f"/campaigns/{campaign.pk}/game/", {"tactical_system": "duel", "mission": mission}
    )
    assert answer.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).mission_systems == {mission: "duel"}


def test_the_start_form_chooses_the_game(catalog, users, client, duel):
    users["organiser"].is_staff = True
    users["organiser"].save()
    client.force_login(users["organiser"])
    page = client.get("/campaigns/").content.decode()
    assert 'name="tactical_system"' in page and "Duel at Dawn" in page
    answer = client.post(
        "/campaigns/new/",
        {"name": "Form duel", "resolution_mode": "engine", "tactical_system": "duel"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Campaign.objects.get(name="Form duel").tactical_system == "duel"


# -- flying under the chosen game ------------------------------------------------------
def test_an_engagement_under_the_duel_is_a_duel_battle_whose_kills_reach_the_careers(
    catalog, users, django_capture_on_commit_callbacks, duel
):
    campaign = _open(users["organiser"], tactical_system="duel")
    services.campaign_start(campaign_id=campaign.pk, by=users["organiser"])
    assert _play_until_an_engine_battle(
        campaign, users["organiser"], django_capture_on_commit_callbacks
    )
    battle = (
        Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")
        .order_by("pk")
        .first()
    )
    assert battle.system == "duel" and battle.status == "finished" and battle.applied_at is not None
    assert battle.settings["policies"] == {"axis": "gunner", "allied": "gunner"}
    refs = {a["pilot_ref"] for a in battle.setup["aircraft"]}
    assert refs and all(r.startswith("plane:") for r in refs)
    kills = battle.result["kills"]
    assert kills, "the first duel of seed 4 has a hit"
    events = PilotEvent.objects.filter(
        kind="kill", applied_result__source_key=f"battle:{battle.pk}"
    )
    assert events.count() == len([k for k in kills if _manned(campaign, k["attacker_pilot_ref"])])
    shot_down = PilotEvent.objects.filter(
        kind="shot_down", applied_result__source_key=f"battle:{battle.pk}"
    )
    assert shot_down.count() == len([k for k in kills if _manned(campaign, k["target_pilot_ref"])])
    assert events.exists() or shot_down.exists()


def _text(response) -> str:
    """The page's words, without its tags."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def _manned(campaign: Campaign, ref: str) -> bool:
    return campaign.planes.filter(plane_id=ref.removeprefix("plane:"), pilot__isnull=False).exists()


# -- export, import and the admin --------------------------------------------------------
def test_the_game_and_missions_games_travel_with_the_campaign_file(catalog, users, duel):
    from campaign.exchange import ImportRefused, campaign_export, campaign_import, seal

    campaign = _open(users["organiser"], tactical_system="duel")
    services.campaign_start(campaign_id=campaign.pk, by=users["organiser"])
    Campaign.objects.filter(pk=campaign.pk).update(mission_systems={"m1": "angels20"})
    document = campaign_export(Campaign.objects.get(pk=campaign.pk))
    row = document["tables"]["campaign.campaign"][0]
    assert row["tactical_system"] == "duel" and row["mission_systems"] == {"m1": "angels20"}
    campaign_import(document, by=users["organiser"], mode="copy")
    copy = Campaign.objects.exclude(pk=campaign.pk).get()
    assert copy.tactical_system == "duel" and copy.mission_systems == {"m1": "angels20"}
    row["tactical_system"] = "chess"
    with pytest.raises(ImportRefused, match="tactical_system"):
        campaign_import(seal(document), by=users["organiser"], mode="copy")
    assert Campaign.objects.count() == 2


def test_the_admin_refuses_an_unknown_game(catalog, users, client):
    from django.contrib.auth import get_user_model

    campaign = _open(users["organiser"])
    get_user_model().objects.create_superuser("boss", password="pw-boss-123")
    client.login(username="boss", password="pw-boss-123")
    page = client.get(f"/admin/campaign/campaign/{campaign.pk}/change/").content.decode()
    assert 'name="tactical_system"' in page and 'value="angels20"' in page
    from campaign.admin import CampaignForm

    form = CampaignForm(instance=campaign, data={"tactical_system": "chess"})
    form.is_valid()
    assert "is not a game this server flies" in str(form.errors["tactical_system"])


# -- table entries say which rules they were played under ----------------------------
def test_a_table_engagement_links_its_table_battle_with_the_rules_it_was_played_under(
    catalog, users, client
):
    from campaign.selectors import campaign_engagements
    from careers.models import TableBattle
    from rules.cardgame import GameState

    campaign = _open(users["organiser"], name="Table war")
    table = TableBattle.objects.create(
        campaign=campaign, name="Dover raid", system="air_force", campaign_turn=1,
        territory="neutral", record={}, recorded_by="orga",
    )  # fmt: skip
    state = GameState.from_json(campaign.state)
    state.engagements.append(
        {"turn": 1, "mission_id": "m1", "mode": "table", "losses": [], "kills": []}
    )
    row = campaign_engagements(campaign, state=state)[0]
    assert row["mode_words"] == "table battle"
    assert row["links"] == [
        {"label": "Dover raid (played under Air Force)", "url": f"/table-battles/{table.pk}/"}
    ]
    page = _text(client.get(f"/table-battles/{table.pk}/"))
    assert "Air Force" in page


def test_the_survival_rule_follows_the_game_unless_the_organiser_chose_one(catalog, users):
    class AirForceLike(CampaignDuel):  # a game whose survival rule is Air Force's
        name, title = "air_force", "Air Force (a test's)"

    with registered(AirForceLike()):
        follows = _open(users["organiser"], name="Bail-out war", tactical_system="air_force")
        chosen = services.campaign_open(
            name="Chosen war", created_by=users["organiser"], tactical_system="air_force",
            survival_rule="angels20",
        )  # fmt: skip
    assert follows.survival_rule == "air_force"
    assert follows.engine_rules["pilot_survival"] is False  # one roll, one fate
    assert chosen.survival_rule == "angels20"


def test_a_web_engagement_with_no_commander_seated_is_flown_by_the_games_computer_pilot(
    catalog, users, django_capture_on_commit_callbacks, duel
):
    campaign = _open(
        users["organiser"], name="Web duel", tactical_system="duel", resolution_mode="web"
    )
    services.campaign_start(campaign_id=campaign.pk, by=users["organiser"])
    campaign.refresh_from_db()
    assert _play_until_an_engine_battle(
        campaign, users["organiser"], django_capture_on_commit_callbacks
    )
    battle = (
        Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")
        .order_by("pk")
        .first()
    )
    assert battle.system == "duel" and battle.status == "finished"
    seats = battle.settings.get("seats") or {
        s: {"pilot": p} for s, p in battle.settings["policies"].items()
    }
    assert seats == {"axis": {"pilot": "gunner"}, "allied": {"pilot": "gunner"}}
