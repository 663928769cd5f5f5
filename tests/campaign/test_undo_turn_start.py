"""Undo of the action that began a campaign turn: the turn's start comes back off
the roster too (wounded pilots who returned are wounded again, the replacements
drafted leave it), and re-doing the action begins the turn alike."""

from __future__ import annotations

import random
import re

import pytest

from angels.errors import RuleViolation
from campaign import services
from campaign.models import CampaignAction
from careers import tallies
from careers.models import AppliedResult, PilotEvent
from careers.records import EngagementRecord, FlownRecord
from careers.services import (
    campaign_turn_begin_revert,
    engagement_apply,
    pilot_add,
    pilot_retire,
)
from demo.roster import demo_roster_create
from roster.models import Pilot, PilotStatus, Squadron
from rules.cardgame import GameState, action_to_json
from rules.cardgame.actions import Advance
from rules.dice import ScriptedDice


@pytest.fixture(autouse=True)
def drafts_to_target(monkeypatch):
    """What is under test here is taking a turn's start back, not how many it drafts:
    these campaigns' squadrons draft to their target strength (as one recorded through
    table battles does), whatever their planes lack (issue 24's rule has its own tests,
    tests/campaign/test_campaign_owns_roster.py)."""
    from roster import campaign_hooks

    def short_of_target(campaign):
        return {
            s.pk: max(0, s.target_strength - s.pilots.filter(
                enrolled_in=campaign, status__in=["active", "wounded"]).count())
            for s in campaign.squadrons.all()
        }  # fmt: skip

    monkeypatch.setattr(
        campaign_hooks, "_installed", campaign_hooks.with_answer(pilot_needs=short_of_target)
    )


def _agree(campaign) -> dict:
    """The kept tallies equal a recount of the entries (the statistics and aces figures)."""
    kept = tallies.campaign_tallies(campaign)
    assert kept == tallies.campaign_recount(campaign)
    assert tallies.pilot_tallies() == tallies.pilot_recount()
    return kept


_FIGURE = re.compile(r'data-figure="([a-z_]+)">\s*([^<]*?)\s*<')


def _figures(client, campaign, squadrons=()) -> dict:
    """The figures a user reads: the statistics (API and page), the aces (API and
    page), the squadrons' figures on their pages; and the tallies equal a recount."""
    stats = client.get(f"/statistics/{campaign.pk}/").content.decode()
    return {
        "stats": client.get(f"/api/roster/campaigns/{campaign.pk}/stats/").json()["sides"],
        "stats_page": {
            side: dict(_FIGURE.findall(stats[stats.index(f'data-side="{side}"') :].split("</tr>")[0]))
            for side in ("allied", "axis")
        },
        "aces": client.get("/api/roster/aces/?limit=500").json()["results"],
        "aces_page": re.findall(r'<tr data-pilot="(\d+)">', client.get("/aces/").content.decode()),
        "squadrons": {
            s.pk: dict(_FIGURE.findall(client.get(f"/squadrons/{s.pk}/").content.decode().split("</div>")[0]))
            for s in squadrons
        },
        "tallies": _agree(campaign),
    }  # fmt: skip


def _act(campaign, users, action) -> None:
    campaign.refresh_from_db()
    services.campaign_act(
        campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
        umpire_reason="the test plays both sides",
        action=action_to_json(action),
    )  # fmt: skip


def _play_to_the_last_action_of_the_turn(campaign, users, *, seed=5, limit=400):
    """Play (passing more often than not) until the next action would begin a new
    turn; returns that action, not yet played."""
    rng = random.Random(seed)
    turn = campaign.turn
    for _ in range(limit):
        campaign.refresh_from_db()
        state = GameState.from_json(campaign.state)
        actions = state.legal_actions()
        passes = [a for a in actions if isinstance(a, Advance)]
        action = passes[0] if passes and rng.random() < 0.7 else rng.choice(actions)
        trial = GameState.from_json(campaign.state)
        trial.apply(action)
        if trial.turn > turn:
            return action
        _act(campaign, users, action)
    raise AssertionError("the turn never ended")


@pytest.fixture
def manual(catalog, users):
    """A campaign whose phases move on only when a side acts (no automatic actions):
    the action that ends a turn is the last one."""
    demo_roster_create()
    return services.campaign_create(
        name="Kanalkampf", created_by=users["organiser"], seed=7,
        squadrons=list(Squadron.objects.all()), auto_advance=False,
    )  # fmt: skip


@pytest.fixture
def turn_end(manual, users):
    """The campaign at the last action of its turn: one enrolled pilot wounded until
    the next turn (shot down in an engine battle), one squadron a pilot short (the
    organiser retired one)."""
    campaign = manual
    action = _play_to_the_last_action_of_the_turn(campaign, users)
    campaign.refresh_from_db()
    flying = set(campaign.planes.exclude(pilot=None).values_list("pilot_id", flat=True))
    enrolled = Pilot.objects.filter(enrolled_in=campaign, status=PilotStatus.ACTIVE)
    wounded, retired = enrolled.exclude(pk__in=flying).order_by("id")[:2]
    record = EngagementRecord(
        mode="engine", battle_ref="Sweep", campaign_turn=campaign.turn - 1,
        territory=wounded.squadron.side, flown=(FlownRecord(pilot_id=wounded.pk, destroyed=True),),
    )  # fmt: skip
    engagement_apply(
        source_key="sweep", result=record, campaign=campaign, dice=ScriptedDice([3, 4])
    )
    wounded.refresh_from_db()
    assert wounded.status == "wounded" and wounded.wounded_until_turn == campaign.turn + 1
    pilot_retire(pilot_id=retired.pk, by="orga", reason="posted to training")
    return {"action": action, "wounded": wounded, "short": retired.squadron}


def _begin_turn(campaign, users, turn_end) -> dict:
    before = campaign.turn
    _act(campaign, users, turn_end["action"])
    campaign.refresh_from_db()
    assert campaign.turn == before + 1
    draft = AppliedResult.objects.get(source_key=f"replacements:{campaign.pk}:{campaign.turn}")
    drafted = Pilot.objects.filter(pk__in=[pk for ids in draft.summary.values() for pk in ids])
    return {
        "returned": list(
            PilotEvent.objects.filter(campaign=campaign, kind="returned", campaign_turn=campaign.turn)
            .values_list("pilot_id", flat=True)
        ),
        "drafted": sorted((p.squadron.name, p.name) for p in drafted),
        "ids": sorted(p.pk for p in drafted),
    }  # fmt: skip


def test_undo_of_the_action_that_began_a_turn_takes_back_returns_and_replacements_and_redo_is_alike(
    manual, users, client, turn_end
):
    campaign = manual
    wounded, short = turn_end["wounded"], turn_end["short"]
    client.force_login(users["organiser"])
    shown = (short, wounded.squadron)
    before = {"turn": campaign.turn, "figures": _figures(client, campaign, shown)}
    strength = {s.pk: s.pilots.count() for s in campaign.squadrons.all()}

    first = _begin_turn(campaign, users, turn_end)
    assert wounded.pk in first["returned"]
    assert short.name in {squadron for squadron, _ in first["drafted"]}
    replacement = next(name for squadron, name in first["drafted"] if squadron == short.name)
    assert replacement in client.get(f"/squadrons/{short.pk}/").content.decode()
    begun = _figures(client, campaign, shown)
    assert begun["squadrons"] != before["figures"]["squadrons"]  # one more pilot, one back on duty

    response = client.post(f"/api/campaigns/{campaign.pk}/undo/")
    assert response.status_code == 200, response.content
    campaign.refresh_from_db()
    assert campaign.turn == before["turn"] and response.json()["turn"] == before["turn"]
    wounded.refresh_from_db()
    assert wounded.status == "wounded" and wounded.wounded_until_turn == before["turn"] + 1
    assert not PilotEvent.objects.filter(pilot=wounded, kind="returned").exists()
    assert replacement not in client.get(f"/squadrons/{short.pk}/").content.decode()
    assert {s.pk: s.pilots.count() for s in campaign.squadrons.all()} == strength
    assert not AppliedResult.objects.filter(source_key__startswith=f"replacements:{campaign.pk}:{campaign.turn + 1}").exists()  # fmt: skip
    assert _figures(client, campaign, shown) == before["figures"]

    # redo: the same action again returns the same pilot and drafts the same names
    again = _begin_turn(campaign, users, turn_end)
    assert {k: again[k] for k in ("returned", "drafted")} == {
        k: first[k] for k in ("returned", "drafted")
    }
    assert _figures(client, campaign, shown) == begun
    assert replacement in client.get(f"/squadrons/{short.pk}/").content.decode()


def test_the_campaign_page_undoes_the_turns_start_with_a_redirect(manual, users, client, turn_end):
    campaign = manual
    first = _begin_turn(campaign, users, turn_end)
    client.force_login(users["organiser"])
    response = client.post(f"/campaigns/{campaign.pk}/undo/")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "The last action was taken back." in page
    assert not Pilot.objects.filter(pk__in=first["ids"]).exists()
    assert PilotEvent.objects.filter(campaign=campaign, kind="returned").count() == 0


def test_a_replacement_who_served_since_keeps_the_turn_and_the_refusal_names_him(
    manual, users, client, turn_end
):
    campaign = manual
    """A replacement with a career beyond joining (here the organiser retired him) cannot
    be taken off the roster: the undo is refused, naming him, and nothing changes."""
    first = _begin_turn(campaign, users, turn_end)
    campaign.refresh_from_db()
    replacement = Pilot.objects.get(pk=first["ids"][0])
    name = replacement.name
    pilot_retire(pilot_id=replacement.pk, by="orga", reason="medical")
    version = campaign.version
    client.force_login(users["organiser"])
    response = client.post(f"/api/campaigns/{campaign.pk}/undo/")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "state" and body["field"] == "pilot"
    assert (
        name in body["detail"] and "replacement" in body["detail"] and "retired" in body["detail"]
    )
    campaign.refresh_from_db()
    assert campaign.version == version
    assert not CampaignAction.objects.filter(campaign=campaign, undone=True).exists()
    assert PilotEvent.objects.filter(campaign=campaign, kind="returned").exists()


def test_a_returned_pilot_wounded_again_since_is_refused(manual, users, turn_end):
    campaign = manual
    _begin_turn(campaign, users, turn_end)
    campaign.refresh_from_db()
    wounded = turn_end["wounded"]
    pilot_add(squadron=wounded.squadron, name="Walk-in", by="orga", reason="posted in", campaign=campaign)  # fmt: skip
    Pilot.objects.filter(pk=wounded.pk).update(status=PilotStatus.WOUNDED, wounded_until_turn=9)
    with pytest.raises(RuleViolation) as refused:
        campaign_turn_begin_revert(campaign=campaign, campaign_turn=campaign.turn)
    assert refused.value.code == "state" and str(wounded) in refused.value.message
    assert "returned to duty" in refused.value.message
    assert AppliedResult.objects.filter(source_key=f"replacements:{campaign.pk}:{campaign.turn}").exists()  # fmt: skip


def test_undoing_after_the_campaign_released_its_pilots_is_still_refused(campaign, users, client):
    from campaign.enrolment import enrolment_release

    services.campaign_act(
        campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
        umpire_reason="the test plays both sides",
        action=action_to_json(GameState.from_json(campaign.state).legal_actions()[0]),
    )  # fmt: skip
    campaign.refresh_from_db()
    enrolment_release(campaign=campaign, actor="orga")
    client.force_login(users["organiser"])
    response = client.post(f"/api/campaigns/{campaign.pk}/undo/")
    assert response.status_code == 400
    assert response.json()["code"] == "state"
    assert "free roster" in response.json()["detail"]


def _keep_short(campaign, squadron) -> None:
    """The organiser retires a pilot of the squadron whenever it is up to strength,
    so that every turn's start drafts him a replacement."""
    serving = squadron.pilots.filter(enrolled_in=campaign, status__in=["active", "wounded"])
    if serving.count() >= squadron.target_strength:
        flying = campaign.planes.filter(left_turn=None).exclude(pilot=None).values("pilot_id")
        pilot = serving.filter(status="active").exclude(pk__in=flying).order_by("id").first()
        pilot_retire(pilot_id=pilot.pk, by="orga", reason="posted to training")


def test_an_automatic_action_that_began_a_turn_is_undone_and_redone_alike(campaign, users, client):
    """Phases with nothing to decide move on by themselves: the last action may be an
    automatic one that began the turn (its replacements drafted); undo takes the
    turn's start back with it and the same action again drafts the same pilots."""
    squadron = campaign.squadrons.order_by("name").first()
    rng, start = random.Random(2), campaign.turn
    for _ in range(400):
        campaign.refresh_from_db()
        last = campaign.actions.filter(undone=False).order_by("-sequence").first()
        if start < campaign.turn and last.turn < campaign.turn:
            break
        _keep_short(campaign, squadron)
        state = GameState.from_json(campaign.state)
        _act(campaign, users, rng.choice(state.legal_actions()))
    else:
        raise AssertionError("no action began a turn")
    turn = campaign.turn
    key = f"replacements:{campaign.pk}:{turn}"
    drafted = AppliedResult.objects.get(source_key=key).summary
    names = sorted(Pilot.objects.filter(pk__in=sum(drafted.values(), [])).values_list("name", flat=True))  # fmt: skip
    assert names, "the turn drafted no replacement"
    client.force_login(users["organiser"])
    figures = _figures(client, campaign)

    assert client.post(f"/api/campaigns/{campaign.pk}/undo/").status_code == 200
    campaign.refresh_from_db()
    assert campaign.turn == last.turn
    assert not AppliedResult.objects.filter(source_key=key).exists()
    assert not Pilot.objects.filter(pk__in=sum(drafted.values(), [])).exists()
    _agree(campaign)

    services.campaign_act(
        campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
        umpire_reason="the test plays both sides",
        action=last.payload,
    )  # fmt: skip
    campaign.refresh_from_db()
    again = AppliedResult.objects.get(source_key=key).summary
    assert sorted(Pilot.objects.filter(pk__in=sum(again.values(), [])).values_list("name", flat=True)) == names  # fmt: skip
    assert {k: len(v) for k, v in again.items()} == {k: len(v) for k, v in drafted.items()}
    if campaign.turn == turn:  # (nothing automatic went on to a later turn)
        assert _figures(client, campaign) == figures
    _agree(campaign)


def test_undoing_back_through_a_turn_whose_replacements_then_flew_takes_them_off(
    manual, users, client, turn_end
):
    """The organiser walks back action by action over a turn in which a replacement
    or the returned pilot was given a plane: each undo answers 200 and the turn's
    start comes off last, the plane's note with the replacement."""
    campaign = manual
    first = _begin_turn(campaign, users, turn_end)
    began = campaign.actions.filter(undone=False).count()
    fresh = set(first["ids"]) | set(first["returned"])
    rng = random.Random(4)
    for _ in range(200):
        if campaign.planes.filter(pilot_id__in=fresh).exists():
            break
        state = GameState.from_json(campaign.state)
        _act(campaign, users, rng.choice(state.legal_actions()))
        campaign.refresh_from_db()
    else:
        raise AssertionError("no new plane went to a replacement or the returned pilot")
    flew = campaign.planes.filter(pilot_id__in=fresh).values_list("pilot_id", flat=True)
    assert PilotEvent.objects.filter(pilot_id__in=flew, kind="note").exists()
    client.force_login(users["organiser"])
    while campaign.actions.filter(undone=False).count() >= began:
        assert client.post(f"/api/campaigns/{campaign.pk}/undo/").status_code == 200
        campaign.refresh_from_db()
    assert campaign.turn == turn_end["wounded"].wounded_until_turn - 1
    assert not Pilot.objects.filter(pk__in=first["ids"]).exists()
    assert Pilot.objects.get(pk=turn_end["wounded"].pk).status == "wounded"
    _agree(campaign)
