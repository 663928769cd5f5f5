import threading

import pytest
from django.db import connection

from angels.errors import RuleViolation
from campaign import recording, services
from campaign.models import Campaign, CampaignAction
from careers.models import PilotEvent
from rules.cardgame import GameState

pytestmark = pytest.mark.django_db


def _advance(campaign, user, side=None, version=None):
    campaign.refresh_from_db()
    return services.campaign_act(
        campaign_id=campaign.pk, user=user, version=campaign.version if version is None else version,
        action={"type": "advance", "side": side or campaign.current_side},
        umpire_reason="the test plays both sides",
    )  # fmt: skip


def test_a_new_campaign_follows_the_setup_rules(campaign):
    state = services.game_state(campaign)
    # 003 "SETUP": 10 PP each; a d10 roll-off decided the first side.
    assert state.pp == {"allied": 10, "axis": 10}
    assert state.first_roll["first"] == campaign.current_side
    assert campaign.version == 0 and campaign.phase.startswith("event")


def test_a_commander_cannot_act_for_the_other_side_and_nothing_changes(campaign, users):
    other = "axis" if campaign.current_side == "allied" else "allied"
    wrong_user = users[other]
    before = dict(Campaign.objects.values("state", "version").get(pk=campaign.pk))
    with pytest.raises(RuleViolation) as excinfo:
        services.campaign_act(
            campaign_id=campaign.pk, user=wrong_user, version=campaign.version,
            action={"type": "advance", "side": campaign.current_side},
        )  # fmt: skip
    assert excinfo.value.code == "permission"
    assert dict(Campaign.objects.values("state", "version").get(pk=campaign.pk)) == before
    assert not CampaignAction.objects.exists()


def test_spectators_cannot_act(campaign, users):
    with pytest.raises(RuleViolation, match="only the organiser or a side's commander"):
        _advance(campaign, users["spectator"])


def test_a_stale_version_is_refused(campaign, users):
    _advance(campaign, users["organiser"])
    with pytest.raises(RuleViolation) as excinfo:
        _advance(campaign, users["organiser"], version=0)
    assert excinfo.value.code == "conflict"
    assert Campaign.objects.get(pk=campaign.pk).version == 1


def test_an_illegal_action_names_the_rule(campaign, users):
    campaign.refresh_from_db()
    with pytest.raises(RuleViolation) as excinfo:
        services.campaign_act(
            campaign_id=campaign.pk, user=users["organiser"], version=campaign.version,
            umpire_reason="the test plays both sides",
            action={"type": "assign", "side": campaign.current_side, "plane": "allied-1", "mission": "m01"},
        )  # fmt: skip
    assert excinfo.value.rule and excinfo.value.field == "action"
    assert Campaign.objects.get(pk=campaign.pk).version == 0


def test_planes_put_into_play_are_flown_by_roster_pilots(campaign, users):
    while Campaign.objects.get(pk=campaign.pk).phase.split(":")[0] in (
        "event",
        "industry",
        "production",
    ):
        _advance(campaign, users["organiser"])
    campaign.refresh_from_db()
    planes = list(campaign.planes.select_related("pilot__squadron", "aircraft_type"))
    assert planes, "the production phase put planes into play"
    for plane in planes:
        assert plane.pilot is not None
        assert plane.pilot.squadron.side == plane.side
    assert len({p.pilot_id for p in planes}) == len(planes)


def test_replaying_the_record_gives_the_stored_state(campaign, users):
    for _ in range(12):
        _advance(campaign, users["organiser"])
    campaign.refresh_from_db()
    assert services.campaign_replay(campaign).to_json() == campaign.state


def test_undo_takes_back_the_last_action_and_keeps_it_in_the_record(campaign, users):
    for _ in range(3):
        _advance(campaign, users["organiser"])
    campaign.refresh_from_db()
    # (a correction may follow the game's action: the experience of the pilots it gave planes)
    last = campaign.actions.filter(kind="play").order_by("-sequence")[0].sequence
    state_before = services.campaign_replay(campaign, upto=last - 1).to_json()
    services.campaign_undo_last(campaign_id=campaign.pk, by=users["organiser"])
    campaign.refresh_from_db()
    assert campaign.state == state_before
    undone = CampaignAction.objects.filter(campaign=campaign, undone=True)
    assert min(undone.values_list("sequence", flat=True)) == last
    assert not CampaignAction.objects.filter(campaign=campaign, undone=False, sequence__gt=last)
    with pytest.raises(RuleViolation, match="organiser"):
        services.campaign_undo_last(campaign_id=campaign.pk, by=users["allied"])


def test_a_correction_needs_a_reason_and_is_replayed(campaign, users):
    with pytest.raises(RuleViolation) as excinfo:
        services.campaign_correct(
            campaign_id=campaign.pk, by=users["organiser"], reason=" ", pp={"axis": 4}
        )
    assert excinfo.value.field == "reason"
    services.campaign_correct(
        campaign_id=campaign.pk, by=users["organiser"], reason="scoring slip", pp={"axis": 4}
    )
    campaign.refresh_from_db()
    assert services.game_state(campaign).pp["axis"] == 4
    assert services.campaign_replay(campaign).pp["axis"] == 4
    record = CampaignAction.objects.get(campaign=campaign, kind="correction")
    assert record.reason == "scoring slip" and record.actor == users["organiser"]


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_advances_advance_once(catalog, users):
    if connection.vendor != "postgresql":
        pytest.skip(
            "real row locks need PostgreSQL (DATABASE_URL); SQLite serialises writers anyway"
        )
    from demo.roster import demo_roster_create

    demo_roster_create()
    campaign = services.campaign_create(  # phases advanced by hand: the race is on one Advance
        name="Race", created_by=users["organiser"], seed=3, auto_advance=False
    )
    barrier = threading.Barrier(2)
    outcomes = []

    def advance():
        try:
            barrier.wait()
            services.campaign_act(
                campaign_id=campaign.pk, user=users["organiser"], version=0,
                umpire_reason="the test plays both sides",
                action={"type": "advance", "side": campaign.current_side},
            )  # fmt: skip
            outcomes.append("ok")
        except RuleViolation as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=advance) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    campaign.refresh_from_db()
    assert campaign.version == 1
    assert CampaignAction.objects.filter(campaign=campaign).count() == 1


def test_experience_and_kills_of_a_plane_are_its_pilots(campaign, users):
    """Play random legal actions until a plane earns an experience marker; its pilot gets it."""
    import random

    rng = random.Random(5)
    for _ in range(600):
        campaign.refresh_from_db()
        if campaign.status == "finished":
            break
        state = GameState.from_json(campaign.state)
        action = rng.choice(state.legal_actions())
        from rules.cardgame import action_to_json

        services.campaign_act(
            campaign_id=campaign.pk,
            user=users["organiser"],
            umpire_reason="the test plays both sides",
            version=campaign.version,
            action=action_to_json(action),
        )
        if (
            campaign.planes.filter(xm_recorded__gt=0).exists()
            and campaign.planes.filter(kills_recorded__gt=0).exists()
        ):
            break
    plane = campaign.planes.filter(xm_recorded__gt=0).select_related("pilot").first()
    assert plane is not None, "no plane flew a mission in 600 random actions"
    # the markers a plane started with are its pilot's quality, not missions he flew
    started = [a.payload["pilot_xm"].get(plane.plane_id, 0) for a in
               campaign.actions.filter(kind="correction", undone=False, payload__has_key="pilot_xm")]  # fmt: skip
    flown = plane.xm_recorded - max(started, default=0)
    assert plane.pilot.experience_markers >= flown
    assert PilotEvent.objects.filter(pilot=plane.pilot, kind="mission").count() >= flown
    shooter = campaign.planes.filter(kills_recorded__gt=0).select_related("pilot").first()
    if shooter is not None and shooter.pilot is not None:
        assert (
            PilotEvent.objects.filter(pilot=shooter.pilot, kind="kill").count()
            >= shooter.kills_recorded
        )


def test_a_wounded_pilot_returns_to_duty_when_the_campaign_reaches_his_turn(campaign, users):
    from roster.models import Pilot

    pilot = Pilot.objects.filter(squadron__campaigns=campaign, status="active").first()
    Pilot.objects.filter(pk=pilot.pk).update(status="wounded", wounded_until_turn=2)
    for _ in range(60):
        campaign.refresh_from_db()
        if campaign.turn >= 2:
            break
        _advance(campaign, users["organiser"])
    # phases with nothing to decide advance by themselves (the default): the advance that
    # ends turn 1 may carry the campaign through turn 2; the pilot is back from turn 2 on
    assert campaign.turn >= 2
    pilot.refresh_from_db()
    assert pilot.status == "active" and pilot.wounded_until_turn is None
    assert pilot.events.filter(kind="returned", campaign_turn=2).exists()


def test_a_card_engagement_tells_its_result_as_the_players_and_the_webhook_read_it(
    campaign, users, django_capture_on_commit_callbacks
):
    """Seed 7 and the stand-in commanders' choices fix the dice: the first engagement is
    fought with the cards over Attack Port on turn 4; the planes start with their pilots'
    experience (the demo's aces: campaign.pilot_experience), and five are shot down."""
    import random

    from angels import events
    from demo.campaign import stand_in_choice
    from notifications.models import CampaignWebhook, Delivery, Notification
    from rules.cardgame import action_to_json

    CampaignWebhook.objects.create(campaign=campaign, url="https://example.org/hook",
                                   kinds=[events.BATTLE_RESULT])  # fmt: skip
    told = []

    def listen(sender, **event):
        if event["kind"] == events.BATTLE_RESULT:
            told.append(event)

    events.campaign_event.connect(listen, weak=False)
    rng = random.Random(campaign.seed)
    try:
        for _ in range(200):
            campaign.refresh_from_db()
            state = GameState.from_json(campaign.state)
            if state.engagements:
                break
            action = stand_in_choice(state.legal_actions(), rng)
            with django_capture_on_commit_callbacks(execute=False):  # (no webhook post)
                services.campaign_act(campaign_id=campaign.pk, user=users["organiser"],
                                      umpire_reason="the test plays both sides",
                                      version=campaign.version, action=action_to_json(action))  # fmt: skip
    finally:
        events.campaign_event.disconnect(listen)
    (fought,) = state.engagements
    assert (fought["turn"], fought["mode"], fought["mission_id"]) == (4, "card", "m25")
    assert [(k["shooter_id"], k["victim_id"]) for k in fought["kills"]] == [
        ("allied-1", "axis-8"),
        ("allied-5", "axis-4"),
        ("allied-7", "axis-1"),
        ("axis-4", "allied-1"),
        ("axis-1", "allied-6"),
    ]
    text = (
        "Channel 1941: the engagement for Attack Port was fought with the cards: "
        "allied lost 2, axis lost 3 (5 shot down by fighters, 5 lost in all)."
    )
    (event,) = told  # told once
    assert event["key"] == f"battle_result:campaign:{campaign.pk}:engagement:0:turn4:m25"
    assert (event["text"], event["side"], event["url"]) == (
        text,
        None,
        f"/campaigns/{campaign.pk}/",
    )
    # every member reads it in the app; the webhook gets it once, with the link
    readers = Notification.objects.filter(kind=events.BATTLE_RESULT, text=text)
    assert sorted(readers.values_list("user__username", flat=True)) == sorted(
        u.username for u in users.values()
    )
    hook = Delivery.objects.get(channel="webhook", kind=events.BATTLE_RESULT)
    assert hook.text.startswith(f"**Channel 1941**: {text.removeprefix('Channel 1941: ')} ")
    assert hook.text.endswith(f"/campaigns/{campaign.pk}/")


def test_flak_kills_are_not_counted_as_the_fighters(campaign):
    """Flak's kills (shooter "flak") are told apart from the fighters' in the event."""
    state = services.game_state(campaign)
    mission = next(iter(state.setup.mission_cards))
    fought = {"turn": 2, "mode": "card", "mission_id": mission, "losses": ["axis-2", "axis-3", "allied-4"],
              "kills": [{"shooter_id": "flak", "victim_id": "axis-2", "credit_rule": "card:flak"},
                        {"shooter_id": "allied-1", "victim_id": "axis-3", "credit_rule": "card:roll-order"}]}  # fmt: skip
    assert recording.engagement_result_text(campaign, state, fought) == (
        f"Channel 1941: the engagement for {state.mission_spec(mission).name} was fought with "
        "the cards: allied lost 1, axis lost 2 (1 shot down by fighters, 1 by flak, 3 lost in all)."
    )
