"""Issue 12, "One truth per pilot": a pilot serves in one campaign at a time."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from angels.errors import RuleViolation
from campaign import planes, services
from campaign.enrolment import campaign_enrol, enrolment_release
from campaign.models import CampaignPlane
from careers.models import AppliedResult, PilotAward, PilotEvent, TableBattle
from careers.services import award_define, pilots_return_to_duty, table_battle_record
from roster.models import AircraftType, Pilot, Squadron


@pytest.fixture
def second(campaign, users):
    """A second campaign over the very same squadrons, started after the first."""
    return services.campaign_create(
        name="Malta 1942", created_by=users["organiser"], seed=9,
        squadrons=list(Squadron.objects.all()),
        auto_advance=False,  # as it stands when started: no turn has begun (no replacements yet)
    )  # fmt: skip


def test_a_campaigns_squadrons_enrol_their_pilots_and_a_second_campaign_gets_none_of_them(
    campaign, second
):
    first_pilots = set(Pilot.objects.filter(enrolled_in=campaign).values_list("pk", flat=True))
    assert first_pilots, "the first campaign's squadrons enrolled their pilots"
    assert not Pilot.objects.filter(enrolled_in=second).exists()
    # the second campaign draws the pilots of its planes from its own enrolled pilots only
    assert not second.planes.filter(pilot_id__in=first_pilots).exists()


def test_picking_a_pilot_serving_in_another_campaign_is_a_400_naming_him_and_where(
    campaign, second, users, client
):
    pilot = Pilot.objects.filter(enrolled_in=campaign).first()
    with pytest.raises(RuleViolation) as refused:
        campaign_enrol(campaign_id=second.pk, by=users["organiser"], pilots=[pilot.pk])
    assert str(pilot) in refused.value.message and "Channel 1941" in refused.value.message
    client.force_login(users["organiser"])
    response = client.post(
        f"/api/campaigns/{second.pk}/enrolment/", {"pilots": [pilot.pk]},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "state" and body["field"] == "pilots[0]"
    assert str(pilot) in body["detail"] and "'Channel 1941'" in body["detail"]
    pilot.refresh_from_db()
    assert pilot.enrolled_in_id == campaign.pk  # nothing changed
    # a squadron's pilots serving elsewhere are left out and listed, not enrolled
    response = client.post(
        f"/api/campaigns/{second.pk}/enrolment/", {"squadrons": [pilot.squadron_id]},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 200
    assert pilot.pk in {row["pilot"] for row in response.json()["left_out"]}
    # the page re-shows the form with the error
    page = client.post(f"/campaigns/{second.pk}/enrol/", {"pilots": [str(pilot.pk)]})
    assert page.status_code == 200
    assert "serves in campaign" in page.content.decode() and "enrol-error" in page.content.decode()


def test_a_free_pilot_is_enrolled_by_the_organiser(campaign, users):
    squadron = Squadron.objects.first()
    free = Pilot.objects.create(name="Newcomer", nation=squadron.nation, squadron=squadron)
    result = campaign_enrol(campaign_id=campaign.pk, by=users["organiser"], pilots=[free.pk])
    free.refresh_from_db()
    assert free.enrolled_in_id == campaign.pk and result.enrolled == [free]
    with pytest.raises(RuleViolation) as refused:
        campaign_enrol(campaign_id=campaign.pk, by=users["allied"], pilots=[free.pk])
    assert refused.value.code == "permission"


def test_a_pilot_serving_in_a_campaign_flies_no_standalone_battle(campaign, users, client):
    pilot = Pilot.objects.filter(
        enrolled_in=campaign, squadron__aircraft_type__isnull=False
    ).first()
    client.force_login(users["organiser"])
    flights = {
        pilot.squadron.side: [
            {"aircraft_type": pilot.squadron.aircraft_type.pk, "pilot": pilot.pk}
        ],
    }
    other = "axis" if pilot.squadron.side == "allied" else "allied"
    flights[other] = [{"aircraft_type": "Bf 109E Ace" if other == "axis" else "Hurricane Mk I"}]
    response = client.post(
        "/api/battles/create/", {"scenario": "standard", "flights": flights, "seed": 1},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == f"flights.{pilot.squadron.side}[0].pilot"
    assert str(pilot) in body["detail"] and "'Channel 1941'" in body["detail"]


def test_a_pilot_serving_in_a_campaign_flies_no_standalone_table_battle(campaign):
    pilot = Pilot.objects.filter(enrolled_in=campaign).first()
    with pytest.raises(RuleViolation) as refused:
        table_battle_record(
            name="Friendly", system="angels20", territory="neutral",
            flights=[{"pilot_id": pilot.pk}],
        )  # fmt: skip
    assert refused.value.field == "flights[0].pilot_id"
    assert str(pilot) in refused.value.message and "'Channel 1941'" in refused.value.message
    assert not AppliedResult.objects.filter(source_key__startswith="table:").exists()


def test_returns_on_turn_n_is_the_turn_clock_of_the_campaign_he_was_wounded_in(campaign, second):
    """Wounded in the first campaign, returning on its turn 12: the second campaign's
    turn 20 (over the same squadrons) does not bring him back; the first's turn 12 does."""
    pilot = Pilot.objects.filter(enrolled_in=campaign).first()
    Pilot.objects.filter(pk=pilot.pk).update(status="wounded", wounded_until_turn=12)
    assert pilots_return_to_duty(campaign_turn=20, campaign=second) == []
    pilot.refresh_from_db()
    assert pilot.status == "wounded"
    assert [p.pk for p in pilots_return_to_duty(campaign_turn=12, campaign=campaign)] == [pilot.pk]


def test_a_campaigns_end_returns_its_pilots_to_the_free_roster(campaign):
    wounded = Pilot.objects.filter(enrolled_in=campaign).first()
    Pilot.objects.filter(pk=wounded.pk).update(status="wounded", wounded_until_turn=30)
    count = Pilot.objects.filter(enrolled_in=campaign).count()
    released = enrolment_release(campaign=campaign, actor="test")
    assert len(released) == count
    assert not Pilot.objects.filter(enrolled_in=campaign).exists()
    wounded.refresh_from_db()
    assert wounded.status == "active" and wounded.enrolled_in is None
    assert wounded.events.filter(kind="returned", campaign=campaign).exists()


def test_a_card_kill_reaches_the_pilots_awards_at_once(campaign):
    """The card game gives a plane a kill: its pilot's award comes with it, not at his next result."""
    pilot = Pilot.objects.filter(enrolled_in=campaign, squadron__side="allied").first()
    plane = CampaignPlane.objects.create(
        campaign=campaign, plane_id="allied-90", side="allied",
        aircraft_type=AircraftType.objects.get(name="Supermarine Spitfire"), pilot=pilot,
    )  # fmt: skip
    kills, missions = pilot.air_kills, pilot.experience_markers
    award_define(campaign=campaign, name="First blood", threshold_kind="kills", threshold=kills + 1)
    assert not PilotAward.objects.filter(pilot=pilot, name="First blood").exists()
    state = SimpleNamespace(
        turn=2, lost={}, setup=services.game_state(campaign).setup,
        kills=[{"shooter": plane.plane_id, "victim": "axis-99", "turn": 2, "mission": "m1",
                "credit_rule": "003 interception"}],
    )  # fmt: skip
    planes.carry_counts(campaign, state, plane, {"xm": 1, "kills": 1}, "test")
    pilot.refresh_from_db()
    assert pilot.air_kills == kills + 1 and pilot.experience_markers == missions + 1
    assert PilotAward.objects.filter(pilot=pilot, name="First blood").exists()
    assert pilot.events.filter(kind="award").exists() and pilot.events.filter(kind="kill").exists()
    assert PilotEvent.objects.filter(pilot=pilot, kind="kill", campaign=campaign).exists()


def _play_until(campaign, users, found, *, limit=500, seed=11):
    import random

    from rules.cardgame import GameState, action_to_json

    rng = random.Random(seed)
    for _ in range(limit):
        campaign.refresh_from_db()
        if campaign.status == "finished":
            return None
        state = GameState.from_json(campaign.state)
        action = rng.choice(state.legal_actions())
        services.campaign_act(
            campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
            umpire_reason="the test plays both sides",
            action=action_to_json(action),
        )  # fmt: skip
        last = campaign.actions.order_by("-sequence").first()
        hit = found(campaign, last.sequence)
        if hit is not None:
            return hit
    return None


def test_undo_takes_back_a_card_loss_its_survival_roll_and_its_career_entries(campaign, users):
    def loss(campaign, sequence):
        return AppliedResult.objects.filter(
            campaign=campaign, campaign_action=sequence, source_key__startswith="card:"
        ).first()

    applied = _play_until(campaign, users, loss)
    assert applied is not None, "no plane was shot down in 500 random actions"
    pilot_id = int(next(iter(applied.undo["pilots"])))
    # the pilot as he was before the action: the first of its results that touched him
    first = next(
        a
        for a in AppliedResult.objects.filter(
            campaign=campaign, campaign_action=applied.campaign_action
        ).order_by("id")
        if str(pilot_id) in a.undo["pilots"]
    )
    before = first.undo["pilots"][str(pilot_id)]["before"]
    assert PilotEvent.objects.filter(pilot_id=pilot_id, kind="survival_roll").exists()
    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    pilot = Pilot.objects.get(pk=pilot_id)
    assert pilot.status == before["status"] == "active"
    assert pilot.air_kills == before["air_kills"]
    assert not PilotEvent.objects.filter(
        pilot=pilot, kind__in=["survival_roll", "shot_down"]
    ).exists()
    assert not AppliedResult.objects.filter(pk=applied.pk).exists()
    assert pilot.airframe is not None or not applied.undo["airframes"]


def test_a_second_campaign_over_busy_squadrons_drafts_its_own_replacements(campaign, second):
    """Its squadrons' pilots all serve in the first campaign: none is on the second's
    strength, so it drafts replacements, who serve in it."""
    from careers.services import career_settings_for, replacements_draft

    rate = career_settings_for(second).replacement_rate
    expected = sum(min(rate, s.target_strength) for s in second.squadrons.all())
    drafted = replacements_draft(campaign=second, campaign_turn=2)
    assert len(drafted) == expected > 0
    assert {p.enrolled_in_id for p in drafted} == {second.pk}


def test_undoing_an_engine_battles_result_is_refused_with_the_reason(campaign, users, client):
    import json

    from campaign.models import CampaignAction

    version = campaign.version
    CampaignAction.objects.create(
        campaign=campaign, sequence=1, side="umpire", turn=campaign.turn,
        payload={"type": "result", "side": "umpire", "result": json.dumps({"mode": "engine"})},
    )  # fmt: skip
    client.force_login(users["organiser"])
    response = client.post(f"/api/campaigns/{campaign.pk}/undo/")
    assert response.status_code == 400
    assert response.json()["code"] == "state" and "engine battle" in response.json()["detail"]
    campaign.refresh_from_db()
    assert campaign.version == version
    assert not CampaignAction.objects.filter(campaign=campaign, undone=True).exists()


def test_the_table_battle_page_reshows_the_form_naming_where_the_pilot_serves(
    campaign, users, client
):
    users["organiser"].is_staff = True
    users["organiser"].save()
    pilot = Pilot.objects.filter(enrolled_in=campaign).first()
    client.force_login(users["organiser"])
    post = {
        "name": "Friendly sweep", "system": "angels20", "territory": "neutral",
        "flight-TOTAL_FORMS": 8, "flight-INITIAL_FORMS": 0, "shot-TOTAL_FORMS": 8,
        "shot-INITIAL_FORMS": 0, "flight-0-pilot": pilot.pk,
    }  # fmt: skip
    response = client.post("/table-battles/new/", post)
    page = response.content.decode()
    assert response.status_code in (200, 400)
    assert "serves in campaign" in page and "Channel 1941" in page
    assert 'value="Friendly sweep"' in page  # the form is re-shown with what was typed
    assert not AppliedResult.objects.filter(source_key__startswith="table:").exists()


def test_undoing_a_plane_put_into_play_takes_its_pilots_assignment_off_the_career_log(
    campaign, users
):
    """A plane card played gives a pilot the note "assigned to a plane in play"; undone,
    the card is back in the deck and the note goes with it: played again, the pilot's log
    says it once."""
    campaign.auto_advance = False  # the last action is the one played, not a phase's end
    campaign.save(update_fields=["auto_advance"])

    def assigned(pilot_id=None):
        notes = PilotEvent.objects.filter(campaign=campaign, kind="note",
                                          details__text="assigned to a plane in play")  # fmt: skip
        return notes if pilot_id is None else notes.filter(pilot_id=pilot_id)

    def new_plane(campaign, sequence):
        planes = set(campaign.planes.exclude(pilot=None).values_list("plane_id", flat=True))
        return (planes - seen).pop() if planes - seen else seen.update(planes)

    seen: set[str] = set()
    plane_id = _play_until(campaign, users, new_plane)
    assert plane_id is not None, "no plane came into play in 500 random actions"
    # the game's action (a correction may follow it: the experience its pilots bring)
    played = campaign.actions.filter(undone=False, kind="play").order_by("-sequence").first()
    pilot_id = CampaignPlane.objects.get(campaign=campaign, plane_id=plane_id).pilot_id
    assert assigned(pilot_id).filter(details__plane=plane_id).count() == 1

    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    assert not CampaignPlane.objects.filter(campaign=campaign, plane_id=plane_id).exists()
    assert not assigned().filter(details__plane=plane_id).exists()
    in_play = set(campaign.planes.values_list("plane_id", flat=True))
    assert {e.details["plane"] for e in assigned()} <= in_play

    campaign.refresh_from_db()
    services.campaign_act(
        campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
        umpire_reason="the test plays both sides",
        action=played.payload,
    )  # fmt: skip
    again = CampaignPlane.objects.get(campaign=campaign, plane_id=plane_id)
    assert assigned(again.pilot_id).filter(details__plane=plane_id).count() == 1


def test_the_table_battle_page_offers_an_organiser_only_their_campaigns_and_tells_others_who_may(
    campaign, users, client
):
    """A commander is told in plain words who records table battles (403, the site's own
    page), not shown a form of every campaign and pilot that the post then refuses; the
    organiser (not staff) chooses among the campaigns they organise, and must choose one."""
    other = services.campaign_create(name="Somebody else's", created_by=users["allied"], seed=3)
    client.force_login(users["axis"])
    refused = client.get("/table-battles/new/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "Only staff or a campaign&#x27;s organiser record table battles" in page
    assert "<h1>Not allowed</h1>" in page and 'name="name"' not in page
    assert client.post("/table-battles/new/", {"name": "Sneaky"}).status_code == 403

    client.force_login(users["organiser"])
    form = client.get("/table-battles/new/").content.decode()
    choices = form.split('name="campaign"')[1].split("</select>")[0]
    assert f'<option value="{campaign.pk}">Channel 1941</option>' in choices
    assert "Somebody else" not in choices
    post = {"name": "Friendly sweep", "system": "angels20", "territory": "neutral",
            "flight-TOTAL_FORMS": 0, "flight-INITIAL_FORMS": 0, "shot-TOTAL_FORMS": 0,
            "shot-INITIAL_FORMS": 0}  # fmt: skip
    answer = client.post("/table-battles/new/", {**post, "campaign": ""})  # none chosen
    assert answer.status_code == 400 and 'value="Friendly sweep"' in answer.content.decode()
    answer = client.post("/table-battles/new/", {**post, "campaign": str(other.pk)})
    assert answer.status_code == 403  # another organiser's campaign
    assert not TableBattle.objects.exists()


def test_a_campaigns_summary_counts_its_own_pilots_in_each_squadron(
    campaign, second, users, client
):
    """Two campaigns over the same squadrons: a pilot lost in the first is the first's
    loss on its printed summary, not the second's; the second's squadrons show the
    strength of its own pilots (none: every one serves in the first)."""
    lost = Pilot.objects.filter(enrolled_in=campaign).order_by("name").first()
    Pilot.objects.filter(pk=lost.pk).update(status="killed")
    client.force_login(users["organiser"])

    def row(of, squadron) -> list[str]:
        page = client.get(f"/campaigns/{of.pk}/print/").content.decode()
        tr = re.search(rf'<tr data-squadron="{squadron.pk}">(.*?)</tr>', page, re.S).group(1)
        return [
            re.sub(r"<[^>]+>", "", td).strip()
            for td in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        ]

    first, other = row(campaign, lost.squadron), row(second, lost.squadron)
    own = Pilot.objects.filter(
        enrolled_in=campaign, squadron=lost.squadron, status__in=("active", "wounded")
    )
    assert first[3] == str(own.count()) and first[6] == "1"  # strength, killed
    assert other[3] == "0" and other[6] == "0"
