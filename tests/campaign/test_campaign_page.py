"""The campaign page people can read (issue 15): what to do now in plain words, the hand
with its rules text, the decisions as grouped forms applied all or none, the log in
sentences. (The log builder's coverage of every entry type: test_log_sentences.py.)"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle, BattleBatch, BattleStatus, ScenarioKind
from battles.scenarios import build_scenario
from battles.services import battle_create_from_setup
from campaign import services
from campaign.models import CampaignAction
from rules.cardgame.cards import EVENT_LIST

pytestmark = pytest.mark.django_db


def until_assign(campaign, user, limit=120):
    """Advance (discarding over the hand limit) until a side may assign planes to
    missions: its second turn, planes in play, a mission in play. Returns that side."""
    for _ in range(limit):
        campaign.refresh_from_db()
        state = services.game_state(campaign)
        side = state.current_side()
        legal = [a for a in state.legal_actions() if a.kind in ("advance", "discard", "assign")]
        if any(a.kind == "assign" for a in legal):
            return side
        action = next((a for a in legal if a.kind == "discard"), None) or legal[0]
        payload = {"type": action.kind, "side": side}
        if action.kind == "discard":
            payload["card"] = action.card
        services.campaign_act(
            campaign_id=campaign.pk, user=user, action=payload, umpire_reason="test: both sides"
        )
    raise AssertionError("no assign step reached")


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _form(html: str, group: str) -> str:
    start = html.index(f'data-group="{group}"')
    return html[start : html.index("</form>", start)]


def test_the_commander_reads_what_to_do_and_assigns_planes_in_one_form(campaign, users, client):
    side = until_assign(campaign, users["organiser"])
    campaign.refresh_from_db()
    client.force_login(users[side])
    html = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    text = _text(html)
    assert (
        f"Turn {campaign.turn} · {side.capitalize()}'s turn · Mission phase (assigning planes)"
        in text
    )
    assert "You must act now: assign planes to the missions in play" in text
    # the hand: each card with its printed text (003 "EVENT DECK CARD LIST")
    state = services.game_state(campaign)
    cards = dict(EVENT_LIST)
    for card in state.hands[side]:
        name = state.card_name(card)
        block = _text(html[html.index(f'id="card-{card}"') :].split("</article>")[0])
        assert name in block and cards[name] in block
    # a card that may be played now has its Play form on the card itself
    playable = {a.card for a in state.legal_actions() if a.kind == "play"}
    assert playable  # seed 7: Pilot Training and Boost Production, in the Mission phase
    for card in playable:
        article = html[html.index(f'id="card-{card}"') :].split("</article>")[0]
        assert f'data-group="play:{card}"' in article
    assert html.count('data-group="play:') == len(playable)
    # one form per mission, with the planes as checkboxes, instead of a button per pair
    missions = [m for m in state.missions_in_play if state.mission_spec(m).kind != "E"]
    assert missions
    mission = missions[0]
    name = state.mission_spec(mission).name
    form = _form(html, f"assign:{mission}")
    assert f"Assign planes to {name} (level {state.mission_spec(mission).level})" in _text(form)
    mine = [p for p, plane in state.planes.items() if plane["side"] == side]
    boxes = re.findall(r'type="checkbox" name="choice" value="([^"]+)"', form)
    assert sorted(boxes) == sorted(mine)
    assert html.count('data-group="assign:') == len(missions)
    # each plane says what it does there; those carrying the payload come first
    tags = re.findall(r'<em class="tag">([^<]+)</em>', form)
    assert len(tags) == len(mine) and tags[0].startswith("bombs:")
    assert tags == sorted(tags, key=lambda t: not t.startswith("bombs:"))
    assert "Assign Junkers" not in html and "Assign " + state.plane_spec(mine[0]).name not in html
    # the log in sentences, no raw entries
    assert "takes the first turn" in text and "{'" not in text and "hits=" not in text
    assert "{#" not in html and "{%" not in html  # no template text leaks onto the page

    # two planes to the mission in one submit: two engine actions, in the order chosen
    before = CampaignAction.objects.filter(campaign=campaign).count()
    chosen = mine[:2]
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": campaign.version, "group": f"assign:{mission}", "choice": chosen},
    )
    assert response.status_code == 302
    added = list(CampaignAction.objects.filter(campaign=campaign).order_by("sequence")[before:])
    assert [a.payload for a in added] == [
        {"type": "assign", "side": side, "plane": p, "mission": mission} for p in chosen
    ]
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Done: Assigned" in _text(page)
    block = _text(page[page.index(f'data-mission="{mission}"') :].split("</article>")[0])
    for p in chosen:
        assert f"({p})" in block  # the mission shows its planes
    assert f"assigns {state.plane_spec(chosen[0]).name} ({chosen[0]}" in _text(page)


def test_a_refused_plane_refuses_the_whole_group_and_keeps_the_choices(campaign, users, client):
    side = until_assign(campaign, users["organiser"])
    campaign.refresh_from_db()
    state = services.game_state(campaign)
    mission = next(m for m in state.missions_in_play if state.mission_spec(m).kind != "E")
    mine = [p for p, plane in state.planes.items() if plane["side"] == side]
    enemy = next(p for p, plane in state.planes.items() if plane["side"] != side)
    client.force_login(users[side])
    version, before = campaign.version, CampaignAction.objects.count()
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": version, "group": f"assign:{mission}", "choice": [mine[0], enemy]},
    )
    assert response.status_code == 400
    html = response.content.decode()
    form = _form(html, f"assign:{mission}")
    refusal = _text(form)
    assert (
        f"Not done: nothing was done: assigning {state.plane_spec(enemy).name} ({enemy})" in refusal
    )
    assert "(rulebook 003, Mission phase)" in refusal
    assert f'value="{mine[0]}" checked' in form  # the choice is kept
    campaign.refresh_from_db()
    assert campaign.version == version and CampaignAction.objects.count() == before
    assert services.game_state(campaign).assignments == {}

    # nothing chosen: the form says so, by its field
    response = client.post(
        f"/campaigns/{campaign.pk}/", {"version": version, "group": f"assign:{mission}"}
    )
    assert response.status_code == 400 and "choose at least one plane" in response.content.decode()
    # a stale version: the campaign has moved on
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": version - 1, "group": f"assign:{mission}", "choice": [mine[0]]},
    )
    assert response.status_code == 400 and "the campaign has moved on" in response.content.decode()


def test_the_other_side_and_a_spectator_are_told_who_must_act(campaign, users, client):
    side = campaign.current_side
    other = "axis" if side == "allied" else "allied"
    client.force_login(users[other])
    text = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert f"Nothing for you to do now: {side.capitalize()} must" in text
    assert "Your decisions" not in text and "Your hand" in text
    client.force_login(users["spectator"])
    text = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert f"{side.capitalize()} must" in text and "Your hand" not in text
    # and a commander may not post the other side's decision
    response = client.post(
        f"/campaigns/{campaign.pk}/", {"version": campaign.version, "group": "advance"}
    )
    assert response.status_code == 403


def _campaign_battles(campaign, users, turns):
    """For each of ``turns``, five battles of the campaign: an engine battle waiting to be
    flown, one flown (with an odds preview under way) and one whose result could not be
    applied; a battle flown by people in play (its mission named in its settings) and one
    flown, stored before the settings named the mission (read from its scenario's name)."""
    setup = build_scenario(kind="dogfight", flights={}, settings={}, seed=1).to_json()
    seats = {"axis": {"user": users["axis"].pk}, "allied": {"user": users["allied"].pk}}
    base = {"campaign": campaign.pk, "max_turns": 8}
    engine = {**base, "policies": {"axis": "tactical", "allied": "tactical"}}
    for turn in turns:
        key = f"campaign:{campaign.pk}:turn{turn}"
        Battle.objects.create(scenario=ScenarioKind.ENGAGEMENT, setup=setup, seed=turn,
                              source_key=f"{key}:m{turn}a", settings=engine)  # fmt: skip
        flown = Battle.objects.create(
            scenario=ScenarioKind.ENGAGEMENT, setup=setup, seed=turn, source_key=f"{key}:m{turn}b",
            settings=engine, status=BattleStatus.FINISHED, applied_at=timezone.now(),
            result={"winner": "axis"},
        )  # fmt: skip
        BattleBatch.objects.create(scenario=ScenarioKind.ENGAGEMENT, runs=4, seed=turn,
                                   purpose=f"odds:{flown.pk}")  # fmt: skip
        Battle.objects.create(
            scenario=ScenarioKind.ENGAGEMENT, setup=setup, seed=turn, source_key=f"{key}:m{turn}e",
            settings=engine, status=BattleStatus.FINISHED, finished_at=timezone.now(),
            result={"winner": None}, apply_error=f"pilot {turn} is gone",
        )  # fmt: skip
        battle_create_from_setup(
            setup=setup, seed=turn, source_key=f"{key}:m{turn}c",
            settings={**base, "seats": seats, "mission": {"id": f"m{turn}c", "name": f"Rhubarb {turn}"}},
        )  # fmt: skip
        Battle.objects.create(
            scenario=ScenarioKind.ENGAGEMENT, seed=turn, source_key=f"{key}:m{turn}d",
            setup={**setup, "name": f"{campaign.name}: Circus {turn} (turn {turn})"},
            settings={**base, "seats": seats}, status=BattleStatus.FINISHED,
            result={"winner": "allied"}, applied_at=timezone.now(),
        )  # fmt: skip


def _page_queries(client, campaign):
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/campaigns/{campaign.pk}/")
    assert page.status_code == 200
    battle_reads = [q["sql"] for q in queries if re.search(r'FROM "battles_battle"\s', q["sql"])]
    return len(queries), battle_reads, page.content.decode()


def test_the_campaign_page_reads_its_battles_once_however_many(campaign, users, client):
    """The engagements table, the box of battles flown by people and the box of work under
    way share one read of the campaign's battles (and one of the battles in play, for whose
    decision it is): the page's queries do not grow with the battles."""
    _campaign_battles(campaign, users, [1])
    client.force_login(users["axis"])
    client.get(f"/campaigns/{campaign.pk}/")  # (the session, the caches: as a reader's next page)
    few, reads, html = _page_queries(client, campaign)
    assert len(reads) == 2, reads  # the campaign's battles; the scenarios of those in play
    # what each box shows from that one read
    text = _text(html)
    assert "<em>Rhubarb 1</em>, campaign turn 1: axis goering, allied churchill" in html
    assert "<em>Circus 1</em>, campaign turn 1: finished, won by Allied" in html
    assert "engine battle for m1a: waiting to be flown" in text
    assert "odds preview of Battle " in text and "battles 0 of 4" in text
    assert "finished, not applied: pilot 1 is gone" in text
    assert len(re.findall(r"Battle \d+ \(", text)) >= 5  # the engagements table links every battle

    _campaign_battles(campaign, users, range(2, 12))
    many, reads, html = _page_queries(client, campaign)
    assert len(reads) == 2, reads
    assert many == few, f"{few} queries with 5 battles, {many} with 55"
    text = _text(html)
    assert "<em>Rhubarb 11</em>, campaign turn 11" in html
    assert "<em>Circus 11</em>, campaign turn 11" in html
    assert "engine battle for m11a" in text and "pilot 11 is gone" in text
