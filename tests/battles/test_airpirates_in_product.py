"""Air Pirates (002) flown by the product (issue 26): the new-battle page and API offer its
scenarios; a battle the engine flies with seeded computer pilots finishes, replays from
its record, and its report and API show its log; a campaign flown under Air Pirates
builds an engagement from the card game's mission, and its pilots' careers get the kills,
fires and bail-outs (with 002 13c1's die) the battle gave them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from battles.models import Battle
from campaign import services
from careers.models import PilotEvent
from roster.models import Squadron
from rules.airpirates.system import AIRPIRATES
from rules.tactical import check_result
from tests.battles.airpirates_product import (
    engine_campaign,
    first_engine_battle,
    organiser_with_demo_roster,
    page_text,
)

pytestmark = pytest.mark.django_db


def test_the_new_battle_page_and_api_offer_its_scenarios(flyer):
    page = flyer.get("/battles/new/").content.decode()
    assert '<option value="airpirates">Air Pirates</option>' in page
    assert '<optgroup label="Air Pirates" data-system="airpirates">' in page
    assert (
        '<option value="basic">Basic game: two Bf 109E against two Spitfire Mk I (002 [2])'
        "</option>" in page
    )
    assert '<option value="competent">computer pilot: competent</option>' in page
    refused = flyer.post(
        "/api/battles/create/", {"system": "airpirates", "scenario": "dogfight"},
        content_type="application/json",
    )  # fmt: skip
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "scenario"
    assert "(basic)" in refused.json()["detail"] and "(fighters)" in refused.json()["detail"]
    assert not Battle.objects.exists()


def test_an_engine_flown_battle_finishes_and_its_report_and_api_show_its_log(
    flyer, django_capture_on_commit_callbacks
):
    body = {
        "system": "airpirates", "scenario": "fighters", "seed": 4,
        "settings": {"policies": {"axis": "random", "allied": "random"}},
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        made = flyer.post("/api/battles/create/", body, content_type="application/json")
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.system == "airpirates" and battle.status == "finished"
    result = battle.result
    assert check_result(result) == [] and result["kind"] == "airpirates"
    assert result["reason"] == "the eighth Turn has been completed"
    assert [a["name"] for a in result["aircraft"]] == [
        "Bf 109E (ace)", "Bf 109E (wingman)", "Spitfire Mk I", "Hurricane Mk I",
    ]  # fmt: skip
    assert all(set(a["damage_by_part"]) == {"engine", "crew", "fuel", "wing", "fuselage", "rudder"}
               for a in result["aircraft"])  # fmt: skip
    # its record (scenario, seed, actions) replays to the same battle
    again = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    assert again.result() == result and again.log == battle.log
    page = flyer.get(f"/battles/{battle.pk}/").content.decode()
    assert "<svg" in page and '"label": "#1 A4 S5"' in page  # its frames carry the map
    report = page_text(flyer.get(f"/battles/{battle.pk}/"))
    assert "Game: Air Pirates" in report and "Two against two" in report
    # its log in its own words, with the dice and the rule (rules/airpirates/words.py)
    assert re.search(
        r"Competitive die roll: axis \d+, allied \d+; \w+ holds the sequence marker\. \[002 '2a'\]",
        report,
    )
    assert re.search(r"unit \d is placed at \(\d+, \d+\) facing [NESW]+\. \[002 '2f'\]", report)
    assert "Bf 109E (ace)" in report
    # the outcome numbers each unit as the log does ("unit 1"), not from 0
    assert "#1 Bf 109E (ace)" in report and "#0 " not in report
    detail = flyer.get(f"/api/battles/{battle.pk}/").json()
    assert detail["status"] == "finished" and detail["result"]["kind"] == "airpirates"
    log = flyer.get(f"/api/battles/{battle.pk}/log/").json()
    assert log["system"] == "airpirates" and len(log["log"]) == len(battle.log) > 100
    assert log["log"][0]["event"] == "competitive die roll"


def test_a_battle_without_pilots_named_is_flown_by_the_competent_pilot(
    flyer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        made = flyer.post(
            "/api/battles/create/", {"system": "airpirates", "scenario": "basic", "seed": 2},
            content_type="application/json",
        )  # fmt: skip
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.settings == {"policies": {"axis": "competent", "allied": "competent"}}
    assert battle.status == "finished" and check_result(battle.result) == []


def test_a_campaign_under_air_pirates_flies_an_engagement_and_careers_get_its_hits(
    catalog, django_capture_on_commit_callbacks
):
    organiser = organiser_with_demo_roster()
    campaign = engine_campaign(organiser, name="Pirate war", seed=6)
    assert campaign.survival_rule == "air_pirates"
    battle = first_engine_battle(campaign, organiser, django_capture_on_commit_callbacks)
    assert battle.system == "airpirates" and battle.status == "finished"
    # a campaign's battle is titled as one, though its setup is named after the mission
    # (a setup-built battle of no campaign goes by that name: test_setup_battle_titles.py)
    assert battle.setup["name"].startswith("Pirate war: ")
    reader = Client()
    reader.force_login(organiser)
    assert f"Battle #{battle.pk}: Campaign engagement" in page_text(
        reader.get(f"/battles/{battle.pk}/")
    )
    assert (
        reader.get(f"/api/battles/{battle.pk}/").json()["scenario_title"] == "Campaign engagement"
    )
    assert battle.applied_at is not None and battle.apply_error == ""
    assert battle.settings["policies"] == {"axis": "competent", "allied": "competent"}
    # the card game's mission: its planes, each with its pilot's reference, 13c and 14 on
    assert battle.setup["options"] == ["bailout", "points"]
    assert all(u["pilot_ref"].startswith("plane:") for u in battle.setup["units"])
    # seed 6 (with today's competent pilot): a P-38 goes down with one crew hit and a fire
    # burning; its pilot's bail-out d10 of 1, -3 and -2, fails (13c1)
    down = next(a for a in battle.result["aircraft"] if a["fate"] == "destroyed")
    bailout = down["bailout"]
    assert bailout["die"] == "d10" and bailout["roll"] is not None
    assert bailout["modifier"] == -3 * down["crew_hits"] - 2 * down["fires"]
    events = PilotEvent.objects.filter(applied_result__source_key=f"battle:{battle.pk}")
    kills = events.filter(kind="kill")
    assert kills.count() == len(battle.result["kills"]) >= 1
    assert {k.details["credit_rule"] for k in kills} == {"001 'How Kills are Scored'"}
    assert down["name"] in {k.details["victim_aircraft"] for k in kills}
    expected = [[f"{down['crew_hits']} crew hit(s)", -3 * down["crew_hits"]]] * (
        down["crew_hits"] > 0
    )
    expected += [[f"{down['fires']} fire(s)", -2 * down["fires"]]] * (down["fires"] > 0)
    # (the card game's Scramble and Chaff in play change the set-up, so two pilots may roll
    # the same d10: the downed pilot's roll is the one with his modifiers)
    survivals = events.filter(kind="survival_roll", details__rolls__0__2=bailout["roll"])
    survival = next(s for s in survivals if s.details["modifiers"] == expected)
    assert survival.details["rule_set"] == "air_pirates"
    assert survival.details["rolls"] == [["bail out (the battle's roll)", 10, bailout["roll"]]]
    total = bailout["roll"] + bailout["modifier"]
    assert (survival.details["outcome"] == "killed") == (total < 5)
    damaged = events.get(kind="damaged", details__aircraft=down["name"])
    assert (
        damaged.details["fires"] == down["fires"]
        and damaged.details["crew_hits"] == down["crew_hits"]
    )
    assert damaged.details["damage_by_part"] == down["damage_by_part"]
    downed = [a for a in battle.result["aircraft"] if a["fate"] == "destroyed"]
    assert events.filter(kind="shot_down").count() == len(downed)


def test_a_person_flies_it_against_the_competent_pilot_through_the_turn_api(flyer):
    seats = {"axis": {"user": "flyer"}, "allied": {"pilot": "competent"}}
    made = flyer.post(
        "/api/battles/create/", {"system": "airpirates", "scenario": "basic", "settings": {"seats": seats}},
        content_type="application/json",
    )  # fmt: skip
    assert made.status_code == 202, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert battle.status == "in_play"
    turn = flyer.get(f"/api/battles/{battle.pk}/turn/").json()
    assert turn["seats"] == {"axis": "flyer", "allied": "computer pilot (competent)"}
    placing = [c for c in turn["choices"] if c["action"]["kind"] == "place"]
    assert placing and placing[0]["label"].startswith("place unit 1 at")
    for _ in range(30):  # the first listed decision each time; the pilot answers for allied
        if turn["status"] != "in_play" or not turn["your_turn"]:
            break
        posted = flyer.post(
            f"/api/battles/{battle.pk}/turn/",
            {"version": turn["version"], "action": turn["legal_actions"][0]},
            content_type="application/json",
        )  # fmt: skip
        assert posted.status_code == 200, posted.content
        turn = posted.json()
    battle.refresh_from_db()
    mine = [a for a in battle.actions if a.get("unit") in (1, 2)]
    assert len(mine) >= 20 and len(battle.actions) > len(mine)  # both sides flew
    assert any(e["event"] == "moved" for e in battle.log)
    again = AIRPIRATES.replay(battle.setup, battle.seed, battle.actions)
    assert again.log == battle.log
    assert "sequence marker:" in turn["phase"] and "Phase of " in turn["phase"]
    page = flyer.get(f"/battles/{battle.pk}/play/")
    assert page.status_code == 200 and "Basic game: two Bf 109E" in page_text(page)
    # the banner: the turn once, then the game's phase with its impulse and the marker
    assert f"Turn <strong>{turn['turn']}</strong>: {turn['phase']}" in page.content.decode()
    # its gameboard drawn (rules/airpirates/pages.py): each unit with altitude and speed
    # (any unit: the battle's seed is random, and unit #1 may have been shot down by now)
    html = page.content.decode()
    assert "<svg" in html and re.search(r"#\d A\d S\d", html)


def test_a_web_engagement_under_air_pirates_is_flown_in_the_browser_and_reaches_careers(
    client, catalog, django_capture_on_commit_callbacks
):
    from battles.play import hand_over
    from tests.campaign.test_web_engagements import play_until_a_web_battle

    organiser = organiser_with_demo_roster()
    hans = get_user_model().objects.create_user("hans", password="pw-hans-123")
    campaign = services.campaign_open(
        name="Pirate web war", created_by=organiser, seed=6, resolution_mode="web",
        squadrons=list(Squadron.objects.all()), tactical_system="airpirates",
    )  # fmt: skip
    services.campaign_member_set(
        campaign=campaign, by=organiser, user=hans, role="commander", side="axis"
    )
    services.campaign_start(campaign_id=campaign.pk, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        battle = play_until_a_web_battle(campaign, organiser)
    assert battle.system == "airpirates"
    # the side nobody flies gets the game's own competent pilot, not Angels 20's tactical one
    assert battle.settings["seats"] == {"axis": {"user": hans.pk}, "allied": {"pilot": "competent"}}
    client.force_login(hans)
    turn = client.get(f"/api/battles/{battle.pk}/turn/").json()
    for _ in range(5):
        if turn["status"] != "in_play" or not turn["your_turn"]:
            break
        posted = client.post(
            f"/api/battles/{battle.pk}/turn/",
            {"version": turn["version"], "action": turn["legal_actions"][0]},
            content_type="application/json",
        )  # fmt: skip
        assert posted.status_code == 200, posted.content
        turn = posted.json()
    with django_capture_on_commit_callbacks(execute=True):
        hand_over(battle_id=battle.pk, user=hans, side="axis")  # the rest by the computer
    battle.refresh_from_db()
    assert battle.status == "finished" and battle.applied_at is not None
    assert check_result(battle.result) == []
    flown = PilotEvent.objects.filter(applied_result__source_key=f"battle:{battle.pk}")
    assert flown.filter(kind="damaged").count() == len(
        [a for a in battle.result["aircraft"] if a["damage"] and a["pilot_ref"]]
    )
