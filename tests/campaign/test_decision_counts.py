"""The campaign page's choose-N forms (losses, Pilot Training, discarding over the hand
limit) check the number of planes or cards ticked before any is applied: the wrong number
is refused with "choose exactly N (you chose M)" ("at most N" for losses), naming the rule,
the form re-shown with the choices kept (HTTP 400) and nothing applied. (They used to apply
the first ones and refuse a later one with a misleading message, or apply fewer.)

And the side waiting is told what the other side must do in words meant for it: "Allied
must choose which of their planes are shot down", not "which of your planes"."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db.models import F

from campaign import recording, services
from campaign.models import Campaign, CampaignAction
from campaign.planes import sync_planes
from rules.cardgame import ALLIED, AXIS, Advance, PlayEvent, ScrambleFighter
from rules.cardgame.state import DEBRIEFING, LOSSES
from tests.rules.cardgame.campaign_game_helpers import (
    add_dice,
    mission_scenario,
    put_plane,
)

pytestmark = pytest.mark.django_db

LANC, SPIT, HURR = "Avro 683 Lancaster", "Supermarine Spitfire", "Hawker Hurricane"
BF109, OIL = "Messerschmitt Bf 109", "Attack Oilfield"


def _install(campaign: Campaign, state) -> Campaign:
    """Store ``state`` as the campaign's game (as services._save does, a new version)."""
    recording.denormalise(campaign, state)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=state.to_json(),
        version=F("version") + 1,
        turn=campaign.turn,
        phase=campaign.phase,
        current_side=campaign.current_side,
    )
    campaign.refresh_from_db()
    return campaign


def _pass(state) -> None:
    step, mission = state.step, state.current_mission
    while state.step == step and state.current_mission == mission:
        state.apply(Advance(state.current_side()))


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _form(html: str, group: str) -> str:
    start = html.index(f'data-group="{group}"')
    return html[start : html.index("</form>", start)]


def _refused(client, campaign, group: str, choices: list[str]) -> str:
    """Post ``choices`` to ``group``: refused (400), nothing applied; the form's text."""
    version, actions = campaign.version, CampaignAction.objects.count()
    state = campaign.state
    response = client.post(
        f"/campaigns/{campaign.pk}/", {"version": version, "group": group, "choice": choices}
    )
    assert response.status_code == 400, _text(response.content.decode())[:2000]
    form = _form(response.content.decode(), group)
    for c in choices:
        assert f'value="{c}" checked' in form  # the choices are kept
    campaign.refresh_from_db()
    assert campaign.version == version and CampaignAction.objects.count() == actions
    assert campaign.state == state
    return _text(form)


def _losses_state():
    """Allied's planes on a mission, one hit by the Bf 109: Allied owes 1 loss of 3."""
    state, ids = mission_scenario({OIL: [LANC, SPIT, HURR]}, defenders=[BF109])
    state.apply(ScrambleFighter(AXIS, ids[BF109]))
    _pass(state)
    add_dice(state, 1, 1, 1, 7, 1)  # Lancaster, Spitfire, Hurricane miss; Bf 109 hits; flak
    add_dice(state, *[1] * 10)  # the bombing rolls after the losses
    _pass(state)
    assert state.step == LOSSES and state.current_side() == ALLIED
    return state, ids


def test_losses_refuse_more_planes_than_hits_before_any_is_lost(campaign, users, client):
    state, ids = _losses_state()
    campaign = _install(campaign, state)
    client.force_login(users["allied"])
    page = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert "Choose the plane shot down (1 to choose)" in page
    two = [ids[LANC], ids[SPIT]]
    refusal = _refused(client, campaign, "loss", two)
    assert "Not done: choose at most 1 plane shot down (you chose 2)" in refusal
    assert "(rulebook 003, Interception segment)" in refusal
    assert "cannot act now" not in refusal
    # one plane: taken
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": campaign.version, "group": "loss", "choice": [ids[SPIT]]},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert ids[SPIT] not in services.game_state(campaign).planes


def test_the_waiting_side_reads_whose_planes_are_chosen(campaign, users, client):
    state, _ids = _losses_state()
    campaign = _install(campaign, state)
    client.force_login(users["axis"])
    page = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert (
        "Nothing for you to do now: Allied must choose which of their planes are shot down "
        "(1 to choose)." in page
    )
    assert "which of your planes" not in page
    client.force_login(users["allied"])
    page = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert "You must act now: choose which of your planes are shot down (1 to choose)." in page


def test_pilot_training_takes_exactly_three_planes(campaign, users, client):
    state, ids = mission_scenario({OIL: [LANC]}, hands={ALLIED: ["Pilot Training"]}, launch=False)
    planes = [ids[LANC]] + [put_plane(state, ALLIED, name) for name in (SPIT, HURR, SPIT)]
    play = next(a for a in state.legal_actions() if isinstance(a, PlayEvent))
    state.apply(play)
    assert state.pending and state.pending["remaining"] == 3
    campaign = _install(campaign, state)
    # the planes have their pilots before the card is played (their starting markers,
    # campaign.pilot_experience, are not what this test counts)
    sync_planes(campaign, state, actor="")
    client.force_login(users["allied"])
    refusal = _refused(client, campaign, "train", planes)
    assert "Not done: choose exactly 3 planes for Pilot Training (you chose 4)" in refusal
    assert "(rulebook 003, Event deck card list)" in refusal
    assert "no Pilot Training is being resolved" not in refusal
    refusal = _refused(client, campaign, "train", planes[:2])
    assert "choose exactly 3 planes for Pilot Training (you chose 2)" in refusal
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": campaign.version, "group": "train", "choice": planes[:3]},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    trained = services.game_state(campaign)
    assert [trained.planes[p]["xm"] for p in planes] == [1, 1, 1, 0]


def _over_the_limit():
    """Allied in its Debriefing phase with 9 cards: 2 over the hand limit of 7."""
    cards = ["Industrialization", "Boost Production", "Storm", "Decoy Target", "Rockets",
             "Chaff", "Surprise", "Heavy Flak", "Air Defense"]  # fmt: skip
    state, _ids = mission_scenario({}, hands={ALLIED: cards}, launch=False)
    while state.phase != DEBRIEFING:
        state.apply(Advance(state.current_side()))
    assert state.current_side() == ALLIED and len(state.hands[ALLIED]) == 9
    return state


def test_discarding_takes_exactly_the_cards_over_the_limit(campaign, users, client):
    state = _over_the_limit()
    hand = list(state.hands[ALLIED])
    campaign = _install(campaign, state)
    client.force_login(users["allied"])
    refusal = _refused(client, campaign, "discard", hand[:3])
    assert "Not done: choose exactly 2 cards to discard (you chose 3)" in refusal
    assert "(rulebook 003, Debriefing phase)" in refusal
    assert "cannot act now" not in refusal
    refusal = _refused(client, campaign, "discard", hand[:1])
    assert "choose exactly 2 cards to discard (you chose 1)" in refusal
    response = client.post(
        f"/campaigns/{campaign.pk}/",
        {"version": campaign.version, "group": "discard", "choice": hand[:2]},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert services.game_state(campaign).hands[ALLIED] == hand[2:]


def test_the_waiting_side_reads_how_many_cards_the_other_side_discards(campaign, users, client):
    campaign = _install(campaign, _over_the_limit())
    client.force_login(users["axis"])  # axis holds no card
    page = _text(client.get(f"/campaigns/{campaign.pk}/").content.decode())
    assert (
        "Nothing for you to do now: Allied must discard 2 cards (hand limit 7), "
        "then end their turn." in page
    )
