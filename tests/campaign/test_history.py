"""Issue 16, history of every change: who, when and why, from the admin, the pages and the API,
shown on the object's history page to staff and the organiser concerned, and reverted."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from simple_history.models import HistoricalRecords

from angels.history import history_task, revert_to
from campaign.models import Campaign
from roster.models import Pilot, Squadron


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser("adj", password="pw-adj-123")


def _admin_form_data(response) -> dict:
    """What the admin's change form would post back unchanged (its fields and inlines)."""
    data: dict = {}

    def put(form, name):
        value = form[name].value()
        key = form.add_prefix(name)
        if value is None or value is False:
            return
        data[key] = "on" if value is True else value

    form = response.context["adminform"].form
    for name in form.fields:
        put(form, name)
    for inline in response.context.get("inline_admin_formsets", ()):
        formset = inline.formset
        for name in formset.management_form.fields:
            data[f"{formset.prefix}-{name}"] = formset.management_form[name].value()
        for sub in formset.forms:
            for name in sub.fields:
                put(sub, name)
    return data


def test_an_admin_edit_of_a_pilot_is_kept_with_who_and_why(campaign, staff):
    pilot = Pilot.objects.filter(squadron__campaigns=campaign).first()
    admin = _client(staff)
    url = f"/admin/roster/pilot/{pilot.pk}/change/"
    data = _admin_form_data(admin.get(url))
    data.update(rank="Wing Commander", _change_reason="promoted after the Channel sweep")
    response = admin.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    pilot.refresh_from_db()
    assert pilot.rank == "Wing Commander"
    record = pilot.history.first()
    assert (record.history_user, record.history_change_reason, record.rank) == (
        staff,
        "promoted after the Channel sweep",
        "Wing Commander",
    )
    # without a reason typed, the admin's default; the admin's own history page lists both
    data.update(rank="Group Captain", _change_reason="")
    admin.post(url, data)
    assert pilot.history.first().history_change_reason == "admin edit"
    page = admin.get(f"/admin/roster/pilot/{pilot.pk}/history/").content.decode()
    assert "promoted after the Channel sweep" in page and "Group Captain" in page
    assert 'name="_change_reason"' in admin.get(url).content.decode()


def test_the_admins_history_revert_restores_and_is_recorded(campaign, staff):
    pilot = Pilot.objects.filter(squadron__campaigns=campaign).first()
    old_rank = pilot.rank
    first = pilot.history.first()
    pilot.rank = "Air Marshal"
    pilot.save()
    admin = _client(staff)
    url = f"/admin/roster/pilot/{pilot.pk}/history/{first.history_id}/"
    form = admin.get(url)
    assert 'name="_change_reason"' in form.content.decode()
    data = _admin_form_data(form)
    assert data["rank"] == old_rank  # the form shows the record's values
    response = admin.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    pilot.refresh_from_db()
    assert pilot.rank == old_rank
    record = pilot.history.first()
    assert (record.history_user, record.history_change_reason) == (staff, "admin revert")


def test_an_api_edit_is_kept_with_the_user_and_the_reason_given(campaign, staff):
    pilot = Pilot.objects.filter(squadron__campaigns=campaign, status="active").first()
    other = Squadron.objects.filter(side=pilot.squadron.side).exclude(pk=pilot.squadron_id).first()
    response = _client(staff).post(
        f"/api/roster/pilots/{pilot.pk}/transfer/",
        {"squadron": other.pk, "reason": "posted to a night squadron"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    record = pilot.history.first()
    assert record.history_user == staff
    assert record.history_change_reason == "transfer: posted to a night squadron"
    assert record.squadron_id == other.pk


def test_the_organisers_page_edit_is_kept_and_shown_on_the_history_page(campaign, users):
    organiser = _client(users["organiser"])
    organiser.post(f"/campaigns/{campaign.pk}/engine-rules/", {"night": "moonlight"})
    record = campaign.history.first()
    assert record.history_user == users["organiser"]
    assert record.history_change_reason == "engine rules set by the organiser"
    # the campaign page links its history; the history page names who, why and what changed
    detail = organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    url = f"/history/campaign/campaign/{campaign.pk}/"
    assert url in detail
    page = organiser.get(url).content.decode()
    assert "orga" in page and "engine rules set by the organiser" in page
    assert "moonlight" in page and "Engine rules" in page.replace("engine rules", "Engine rules")


def test_only_staff_and_the_organiser_see_the_history(campaign, users, staff):
    url = f"/history/campaign/campaign/{campaign.pk}/"
    assert _client(users["allied"]).get(url).status_code == 403
    assert url not in _client(users["allied"]).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert Client().get(url).status_code == 302  # to the login page
    assert _client(staff).get(url).status_code == 200
    assert _client(staff).get("/history/battles/battle/1/").status_code == 404  # not kept


def test_revert_from_the_history_page_restores_the_values_and_is_recorded(campaign, users):
    organiser = _client(users["organiser"])
    url = f"/campaigns/{campaign.pk}/engine-rules/"
    organiser.post(url, {"night": "moonlight", "engine_territory": "on"})
    before = campaign.history.first()
    organiser.post(url, {"midair_collision": "on"})
    campaign.refresh_from_db()
    assert campaign.engine_rules == {"midair_collision": True} and not campaign.engine_territory
    # a commander may not revert
    history = f"/history/campaign/campaign/{campaign.pk}/"
    refused = _client(users["allied"]).post(f"{history}revert/", {"history_id": before.history_id})
    assert refused.status_code == 403
    response = organiser.post(
        f"{history}revert/",
        {"history_id": before.history_id, "reason": "moonlight was right"},
        follow=True,
    )
    campaign.refresh_from_db()
    assert campaign.engine_rules == {"night": "moonlight"} and campaign.engine_territory is True
    record = campaign.history.first()
    assert record.history_user == users["organiser"]
    assert record.history_change_reason == f"revert to #{before.history_id}: moonlight was right"
    assert f"revert to #{before.history_id}: moonlight was right" in response.content.decode()
    # the game itself is not put back: its turn and state follow the action record
    assert campaign.state and campaign.version == Campaign.objects.get(pk=campaign.pk).version


def test_revert_to_restores_a_pilot_and_leaves_a_record(campaign, staff):
    pilot = Pilot.objects.filter(squadron__campaigns=campaign).first()
    pilot.rank, pilot.air_kills = "Sgt", 0
    pilot._change_reason = "set up"
    pilot.save()
    first = pilot.history.first()
    pilot.rank, pilot.air_kills = "F/O", 3
    pilot.save()
    restored = revert_to(model=Pilot, history_id=first.history_id, user=staff, reason="typo")
    pilot.refresh_from_db()
    assert (pilot.rank, pilot.air_kills) == ("Sgt", 0) == (restored.rank, restored.air_kills)
    record = pilot.history.first()
    assert (record.history_user, record.history_change_reason, record.history_type) == (
        staff,
        f"revert to #{first.history_id}: typo",
        "~",
    )


def test_a_background_task_records_no_user_and_names_the_task(campaign, staff):
    pilot = Pilot.objects.filter(squadron__campaigns=campaign).first()
    request = RequestFactory().post("/battles/1/apply/")
    request.user = staff  # an eager task run inside a signed-in request
    HistoricalRecords.context.request = request
    try:
        with history_task("task battles.apply_result: battle 12"):
            pilot.experience_markers += 1
            pilot.save()
        assert HistoricalRecords.context.request is request  # put back afterwards
    finally:
        del HistoricalRecords.context.request
    record = pilot.history.first()
    assert record.history_user is None
    assert record.history_change_reason == "task battles.apply_result: battle 12"


def test_a_management_command_names_itself_as_the_reason(campaign, monkeypatch):
    pilot = Pilot.objects.filter(squadron__campaigns=campaign).first()
    monkeypatch.setattr("sys.argv", ["manage.py", "demo", "--password", "x"])
    pilot.experience_markers += 1
    pilot.save()
    record = pilot.history.first()
    assert (record.history_user, record.history_change_reason) == (None, "manage.py demo")


def test_inline_rows_saved_in_the_admin_share_the_reason(campaign, staff):
    squadron = Squadron.objects.filter(campaigns=campaign, pilots__isnull=False).first()
    admin = _client(staff)
    url = f"/admin/roster/squadron/{squadron.pk}/change/"
    data = _admin_form_data(admin.get(url))
    data["pilots-0-rank"] = "Squadron Leader"
    data["_change_reason"] = "new CO"
    response = admin.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    pilot = Pilot.objects.get(pk=data["pilots-0-id"])
    assert pilot.rank == "Squadron Leader"
    record = pilot.history.first()
    assert (record.history_user, record.history_change_reason) == (staff, "new CO")
