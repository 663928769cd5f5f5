"""Issue 15, the clock: deadlines over simulated weeks, the computer commander for an
absent side, waiting, phases that advance by themselves, holiday mode, solo play."""

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import override_settings

from angels import events
from campaign import clock, services
from campaign.models import Campaign, CampaignAction
from demo.campaign import stand_in_choice
from rules.cardgame import Advance, GameState, action_to_json

pytestmark = pytest.mark.django_db

START = datetime(2025, 11, 24, 9, 0, tzinfo=UTC)  # a Monday


@pytest.fixture
def sent():
    """Every campaign event sent, as (kind, key, side)."""
    captured = []

    def listener(sender, **kw):
        captured.append((kw["kind"], kw["key"], kw["side"]))

    events.campaign_event.connect(listener, weak=False)
    yield captured
    events.campaign_event.disconnect(listener)


def _pace(campaign, users, **changes):
    return clock.campaign_pace_set(campaign_id=campaign.pk, by=users["organiser"], changes=changes)


def _act(campaign, users, side, rng):
    campaign.refresh_from_db()
    state = services.game_state(campaign)
    action = stand_in_choice(state.legal_actions(), rng)
    services.campaign_act(
        campaign_id=campaign.pk, user=users[side], action=action_to_json(action),
        version=campaign.version,
    )  # fmt: skip


def _replays(campaign):
    campaign.refresh_from_db()
    return services.campaign_replay(campaign).to_json() == campaign.state


def test_phases_with_nothing_to_decide_advance_by_themselves(campaign, users):
    rng = random.Random(7)
    _pace(campaign, users, auto_advance=True)
    for _ in range(80):
        campaign.refresh_from_db()
        side = campaign.current_side
        if side not in ("allied", "axis"):
            break
        legal = services.game_state(campaign).legal_actions()
        assert legal != [Advance(side)]  # only real decisions are left to the players
        _act(campaign, users, side, rng)
    automatic = CampaignAction.objects.filter(campaign=campaign, reason=clock.REASON_AUTO)
    assert automatic.count() >= 5 and not automatic.exclude(payload__type="advance").exists()
    assert not automatic.exclude(actor=None).exists()
    assert _replays(campaign)


def test_a_campaign_over_weeks_with_an_absent_side(campaign, users, sent):
    rng = random.Random(15)
    with time_machine.travel(START, tick=False) as traveller:
        _pace(campaign, users, pace="hours", pace_hours=48, remind_hours=12, auto_advance=True)
        deadlines = 0
        for _ in range(3000):
            campaign.refresh_from_db()
            if campaign.status == "finished":
                break
            if campaign.current_side == "allied":
                _act(campaign, users, "allied", rng)
                traveller.shift(timedelta(minutes=20))
                continue
            assert campaign.current_side == "axis" and campaign.decision_side == "axis"
            assert campaign.decision_due_at == clock.timezone.now() + timedelta(hours=48) or (
                campaign.decision_due_at > clock.timezone.now()
            )
            traveller.shift(timedelta(hours=37))  # 11 hours left: the reminder
            assert clock.watch_deadlines()["reminded"] == 1
            assert clock.watch_deadlines() == {
                "reminded": 0,
                "decided": 0,
                "waiting": 0,
                "failed": 0,
            }
            traveller.shift(timedelta(hours=12))  # the deadline passed an hour ago
            version = Campaign.objects.get(pk=campaign.pk).version
            assert clock.watch_deadlines()["decided"] == 1
            after = Campaign.objects.get(pk=campaign.pk).version
            assert after > version
            assert clock.watch_deadlines()["decided"] == 0  # run twice: nothing twice
            assert Campaign.objects.get(pk=campaign.pk).version == after
            deadlines += 1
    campaign.refresh_from_db()
    assert campaign.status == "finished" and campaign.winner
    axis_moves = CampaignAction.objects.filter(campaign=campaign, side="axis")
    assert deadlines >= 3
    assert axis_moves.filter(reason=clock.REASON_DEADLINE).count() >= deadlines
    assert not axis_moves.filter(actor=users["axis"]).exists()
    assert not axis_moves.exclude(reason__in=[clock.REASON_DEADLINE, clock.REASON_AUTO]).exists()
    kinds = Counter(kind for kind, _, _ in sent)
    assert kinds[events.DEADLINE_SOON] == deadlines and kinds[events.DEADLINE_PASSED] == deadlines
    assert kinds[events.CAMPAIGN_END] == 1 and kinds[events.MUST_ACT] > deadlines
    keys = [key for _, key, _ in sent]
    assert len(keys) == len(set(keys))  # each occurrence once, each with its own key
    assert {side for kind, _, side in sent if kind == events.DEADLINE_SOON} == {"axis"}
    assert _replays(campaign)


def test_the_wait_policy_waits_and_says_so_once(campaign, users, sent, client):
    with time_machine.travel(START, tick=False) as traveller:
        _pace(campaign, users, pace="hours", pace_hours=48, on_deadline="wait")
        campaign.refresh_from_db()
        side, version = campaign.decision_side, campaign.version
        assert side == campaign.current_side
        traveller.shift(timedelta(hours=49))
        assert clock.watch_deadlines()["waiting"] == 1
        assert clock.watch_deadlines()["waiting"] == 0
        campaign.refresh_from_db()
        assert campaign.version == version and campaign.deadline_noted
        passed = [s for s in sent if s[0] == events.DEADLINE_PASSED]
        assert len(passed) == 1
        page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        assert f"passed: the campaign waits for the {side} side" in page
        # the side acts at last: the next decision has a fresh deadline
        services.campaign_act(
            campaign_id=campaign.pk, user=users[side], version=version,
            action={"type": "advance", "side": side},
        )  # fmt: skip
        campaign.refresh_from_db()
        assert not campaign.deadline_noted
        assert campaign.decision_due_at == clock.timezone.now() + timedelta(hours=48)


def test_holiday_hands_the_side_to_the_computer_until_the_date(campaign, users, client):
    rng = random.Random(3)
    with time_machine.travel(START, tick=False) as traveller:
        _pace(campaign, users, pace="hours", pace_hours=48, auto_advance=True)
        clock.campaign_holiday_set(
            campaign_id=campaign.pk,
            by=users["axis"],
            until=clock.timezone.now() + timedelta(days=7),
        )
        for _ in range(60):
            campaign.refresh_from_db()
            assert campaign.current_side != "axis"  # the computer decided at once
            if campaign.current_side != "allied":
                break
            _act(campaign, users, "allied", rng)
        holiday = CampaignAction.objects.filter(campaign=campaign, reason=clock.REASON_HOLIDAY)
        assert holiday.exists() and set(holiday.values_list("side", flat=True)) == {"axis"}
        # the campaign's log says which decisions were the computer's, turn by turn
        client.force_login(users["allied"])
        page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        turn = holiday.first().turn
        first = holiday.filter(turn=turn).count()
        times = "once" if first == 1 else f"{first} times"
        assert f"The computer commander decided for Axis {times} (holiday)." in page
        traveller.shift(timedelta(days=8))  # back from holiday: axis decides again
        for _ in range(60):
            campaign.refresh_from_db()
            if campaign.current_side == "axis":
                break
            _act(campaign, users, "allied", rng)
        assert campaign.current_side == "axis" and campaign.decision_side == "axis"
        assert campaign.decision_due_at > clock.timezone.now()
    assert _replays(campaign)


def test_solo_play_against_the_computer_commander_to_the_end(
    campaign, users, sent, mailoutbox, django_capture_on_commit_callbacks
):
    from notifications.models import Notification, Preference

    for name, user in users.items():  # everyone asks for the campaign's end by e-mail
        user.email = f"{name}@example.org"
        user.save(update_fields=["email"])
        Preference.objects.create(user=user, kind=events.CAMPAIGN_END, email=True, in_app=True)
    rng = random.Random(5)
    _pace(campaign, users, computer_sides=["axis"], auto_advance=True)
    for _ in range(3000):
        campaign.refresh_from_db()
        if campaign.status == "finished":
            break
        assert campaign.current_side == "allied"
        with django_capture_on_commit_callbacks(execute=True):  # the mails go after commit
            _act(campaign, users, "allied", rng)
    campaign.refresh_from_db()
    assert campaign.status == "finished"
    axis = CampaignAction.objects.filter(campaign=campaign, side="axis")
    assert axis.filter(reason=clock.REASON_SOLO).exists()
    assert not axis.exclude(reason__in=[clock.REASON_SOLO]).exists()
    assert [k for k, _, _ in sent].count(events.CAMPAIGN_END) == 1
    # the end reaches each member once: in the app and by one e-mail
    ends = Notification.objects.filter(campaign=campaign, kind=events.CAMPAIGN_END)
    assert sorted(ends.values_list("user__username", flat=True)) == sorted(
        u.username for u in users.values()
    )
    end_mails = [m for m in mailoutbox if "The campaign's end" in m.subject]
    assert sorted(m.to[0] for m in end_mails) == sorted(f"{n}@example.org" for n in users)
    assert all(f"{campaign.name} is over: {campaign.winner} won." in m.body for m in end_mails)
    # each engagement fought with the cards told its result once (card mode)
    results = [key for kind, key, _ in sent if kind == events.BATTLE_RESULT]
    fought = GameState.from_json(campaign.state).engagements
    assert len(results) == len(fought) == len(set(results)) > 0
    assert _replays(campaign)


def test_weekly_turn_days_in_the_organisers_time_zone(campaign, users):
    with time_machine.travel(START, tick=False):  # Monday 24 Nov 2025, 09:00 UTC
        _pace(campaign, users, pace="weekly", turn_weekdays=[1], turn_time="18:00",
              pace_timezone="Europe/London")  # fmt: skip
        campaign.refresh_from_db()
        assert campaign.decision_due_at == datetime(2025, 11, 25, 18, 0, tzinfo=UTC)
    with time_machine.travel(datetime(2025, 6, 30, 9, 0, tzinfo=UTC), tick=False):
        campaign.decision_side = ""
        assert clock.due_at(campaign, clock.timezone.now()) == datetime(
            2025, 7, 1, 17, 0, tzinfo=UTC
        )  # 18:00 British Summer Time


def test_the_page_shows_the_deadline_in_the_viewers_time_zone(campaign, users, client):
    with time_machine.travel(START, tick=False):
        _pace(campaign, users, pace="hours", pace_hours=48)
        campaign.refresh_from_db()
        client.force_login(users["allied"])
        with override_settings(TIME_ZONE="Europe/London"):
            page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        assert "due Wed 26 Nov, 09:00 (Europe/London), in 48 hours" in page
        assert f"<strong>{campaign.current_side.capitalize()}</strong> must act" in page
        with override_settings(TIME_ZONE="America/New_York"):
            page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
        assert "due Wed 26 Nov, 04:00 (America/New_York)" in page


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"pace": "daily"}, "pace"),
        ({"pace": "hours", "pace_hours": 0}, "pace_hours"),
        ({"pace": "weekly", "turn_weekdays": [], "turn_time": "18:00"}, "turn_weekdays"),
        ({"pace": "weekly", "turn_weekdays": [1]}, "turn_time"),
        ({"pace": "weekly", "turn_weekdays": [7], "turn_time": "18:00"}, "turn_weekdays"),
        ({"pace_timezone": "Mars/Olympus_Mons"}, "pace_timezone"),
        ({"on_deadline": "panic"}, "on_deadline"),
        ({"computer_sides": ["allied", "axis"]}, "computer_sides"),
        ({"remind_hours": -1}, "remind_hours"),
    ],
)
def test_bad_pace_settings_are_a_400_naming_the_field(campaign, users, client, body, field):
    client.force_login(users["organiser"])
    before = Campaign.objects.values("pace", "pace_hours", "version").get(pk=campaign.pk)
    response = client.put(
        f"/api/campaigns/{campaign.pk}/pace/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"].split(".")[0].split("[")[0] == field
    assert Campaign.objects.values("pace", "pace_hours", "version").get(pk=campaign.pk) == before


def test_only_the_organiser_sets_the_pace_and_the_api_gives_it(campaign, users, client):
    client.force_login(users["allied"])
    url = f"/api/campaigns/{campaign.pk}/pace/"
    assert client.put(url, {"pace": "hours"}, content_type="application/json").status_code == 403
    client.force_login(users["organiser"])
    answer = client.put(url, {"pace": "hours", "pace_hours": 72}, content_type="application/json")
    assert answer.status_code == 200
    assert answer.json()["pace_hours"] == 72 and answer.json()["decision_due_at"]
    assert (
        client.get(url).json()["decision_side"] == Campaign.objects.get(pk=campaign.pk).current_side
    )


def test_holiday_api_only_for_commanders_and_in_the_future(campaign, users, client):
    url = f"/api/campaigns/{campaign.pk}/holiday/"
    client.force_login(users["spectator"])
    until = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    assert client.post(url, {"until": until}, content_type="application/json").status_code == 403
    client.force_login(users["axis"])
    past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    answer = client.post(url, {"until": past}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["field"] == "until"
    answer = client.post(url, {"until": until}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["side"] == "axis"


def test_the_pace_and_holiday_forms_on_the_campaign_page(campaign, users, client):
    client.force_login(users["organiser"])
    form = {"pace": "weekly", "pace_hours": "48", "turn_time": "18:00", "pace_timezone": "UTC",
            "on_deadline": "wait", "remind_hours": "12"}  # fmt: skip
    page = client.post(f"/campaigns/{campaign.pk}/pace/", form, follow=True).content.decode()
    assert "<li>Turn days: weekly turns need at least one turn day</li>" in page
    form["turn_weekdays"] = ["1", "4"]
    page = client.post(f"/campaigns/{campaign.pk}/pace/", form, follow=True).content.decode()
    assert "The campaign&#x27;s pace is set." in page and "Fixed weekly turn days" in page
    campaign.refresh_from_db()
    assert campaign.turn_weekdays == [1, 4] and campaign.decision_due_at is not None
    client.force_login(users["axis"])
    until = (datetime.now(UTC) + timedelta(days=5)).date().isoformat()
    page = client.post(f"/campaigns/{campaign.pk}/holiday/", {"until": until}, follow=True)
    assert "axis on holiday until" in page.content.decode()
    day = datetime.fromisoformat(until)  # the message names the day, not "until then"
    assert f"plays your side until {day:%a} {day.day} {day:%b}, 23:59 (" in page.content.decode()
    page = client.post(f"/campaigns/{campaign.pk}/holiday/", {"until": "soon"})
    assert page.status_code == 400  # the form re-shown with what was typed
    assert "The holiday&#x27;s last day is a date such as 2026-12-24" in page.content.decode()


def test_a_refused_pace_form_shows_every_error_and_keeps_what_was_typed(campaign, users, client):
    client.force_login(users["organiser"])
    before = Campaign.objects.values("pace", "pace_hours", "remind_hours").get(pk=campaign.pk)
    form = {"pace": "weekly", "pace_hours": "0", "turn_time": "", "pace_timezone": "Mars/Olympus_Mons",
            "on_deadline": "wait", "remind_hours": "-3", "computer_sides": ["axis"]}  # fmt: skip
    answer = client.post(f"/campaigns/{campaign.pk}/pace/", form)
    assert answer.status_code == 400
    page = answer.content.decode()
    for error in (
        "Hours per decision is between 1 and 720",
        "Turn days: weekly turns need at least one turn day",
        "Turn time: weekly turns need a time of day",
        "Time zone: &#x27;Mars/Olympus_Mons&#x27; is not a time zone (e.g. Europe/London)",
        "Reminder hours is between 0 and 720",
    ):
        assert f"<li>{error}</li>" in page, error
    # beside its field too, without the API's name for it
    assert '<span class="field-error">Hours per decision is between 1 and 720</span>' in page
    assert "pace_hours is" not in page and "remind_hours is" not in page
    assert '<details id="pace" open>' in page
    assert '<option value="weekly" selected>' in page and '<option value="wait" selected>' in page
    assert 'name="pace_hours" min="1" max="720" value="0"' in page
    assert 'name="remind_hours" min="0" max="720" value="-3"' in page
    assert 'name="pace_timezone" value="Mars/Olympus_Mons"' in page
    assert 'name="computer_sides" value="axis" checked' in page
    assert (
        Campaign.objects.values("pace", "pace_hours", "remind_hours").get(pk=campaign.pk) == before
    )


def test_a_refused_pace_names_every_problem_in_the_service_and_the_api(campaign, users, client):
    """One check of the settings gives every rule broken, each by its field: the page, the
    API's 400 (the first on top, all in ``errors``) and the service's refusal agree."""
    bad = {"pace": "weekly", "turn_weekdays": [], "turn_time": None,
           "pace_timezone": "Mars/Olympus_Mons", "remind_hours": 999}  # fmt: skip
    fields = ["turn_weekdays", "turn_time", "pace_timezone", "remind_hours"]
    with pytest.raises(clock.PaceRefused) as refused:
        clock.campaign_pace_set(campaign_id=campaign.pk, by=users["organiser"], changes=bad)
    assert [p.field for p in refused.value.problems] == fields
    assert refused.value.field == "turn_weekdays"  # a RuleViolation: the first problem
    assert refused.value.errors["remind_hours"] == ["remind_hours is between 0 and 720"]
    client.force_login(users["organiser"])
    answer = client.put(f"/api/campaigns/{campaign.pk}/pace/", bad, content_type="application/json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["field"] == "turn_weekdays"
    assert [e["field"] for e in body["errors"]] == fields
    assert body["errors"][2]["detail"] == (
        "'Mars/Olympus_Mons' is not a time zone (e.g. Europe/London)"
    )
    assert Campaign.objects.get(pk=campaign.pk).pace == "none"
    # the organiser's page shows the same list, and still the whole campaign page
    form = {"pace": "weekly", "pace_hours": "48", "turn_time": "", "pace_timezone": "Mars/Olympus_Mons",
            "on_deadline": "wait", "remind_hours": "999"}  # fmt: skip
    page = client.post(f"/campaigns/{campaign.pk}/pace/", form)
    assert page.status_code == 400
    html = page.content.decode()
    listed = html[html.index("Pace not changed:") :].split("</ul>")[0]
    assert [line.split("</li>")[0] for line in listed.split("<li>")[1:]] == [
        "Turn days: weekly turns need at least one turn day",
        "Turn time: weekly turns need a time of day",
        "Time zone: &#x27;Mars/Olympus_Mons&#x27; is not a time zone (e.g. Europe/London)",
        "Reminder hours is between 0 and 720",
    ]  # the same problems in the same order, each field named as the form names it
    assert 'id="clock"' in html and "Turn 1" in html and 'id="work"' in html


def test_the_admin_shows_every_pace_problem_by_its_field(campaign):
    import json

    from django.forms.models import model_to_dict

    from campaign.admin import CampaignForm

    data = model_to_dict(campaign, fields=CampaignForm.Meta.fields)
    data["squadrons"] = [s.pk for s in data["squadrons"]]
    data |= {"engine_rules": json.dumps(data["engine_rules"]), "turn_weekdays": "[]",
             "computer_sides": "[]", "pace": "weekly", "pace_timezone": "Mars/Olympus_Mons"}  # fmt: skip
    form = CampaignForm(instance=campaign, data=data)
    assert not form.is_valid()
    assert form.errors["turn_weekdays"] == [
        "turn_weekdays: weekly turns need at least one turn day"
    ]
    assert form.errors["turn_time"] == ["turn_time: weekly turns need a time of day"]
    assert form.errors["pace_timezone"] == [
        "pace_timezone: 'Mars/Olympus_Mons' is not a time zone (e.g. Europe/London)"
    ]
