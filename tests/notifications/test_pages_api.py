"""The in-app list (page and API, each user's own only), the header's unread count,
mark-read, the user's choices and the organiser's webhook (page and API)."""

from __future__ import annotations

from rest_framework.test import APIClient

from angels.events import BATTLE_RESULT, MUST_ACT, send_campaign_event
from notifications.models import CampaignWebhook, Notification, Preference


def told(campaign):
    send_campaign_event(campaign_id=campaign.pk, kind=MUST_ACT, key="must_act:axis:t1",
                        text="The axis must assign planes to missions by Friday 18:00.",
                        side="axis", url=f"/campaigns/{campaign.pk}/")  # fmt: skip
    send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="battle_result:b1",
                        text="The raid on Dover was flown.", url="/battles/")  # fmt: skip


def test_list_page_badge_and_mark_read(campaign, people, client):
    told(campaign)
    client.force_login(people["axis"])
    page = client.get("/notifications/").content.decode()
    assert "The axis must assign planes" in page and "The raid on Dover" in page
    assert 'id="notifications-badge"' in page and '<b class="badge">2</b>' in page
    mine = Notification.objects.get(user=people["axis"], key="must_act:axis:t1")
    answer = client.post(f"/notifications/{mine.pk}/read/", {"next": "url"})
    assert answer.status_code == 302 and answer["Location"] == f"/campaigns/{campaign.pk}/"
    assert '<b class="badge">1</b>' in client.get("/notifications/").content.decode()
    assert '<b class="badge">1</b>' in client.get("/aces/").content.decode()  # every page
    client.post("/notifications/read-all/")
    assert 'class="badge"' not in client.get("/notifications/").content.decode()


def test_nobody_reads_or_marks_anothers(campaign, people, client):
    told(campaign)
    theirs = Notification.objects.get(user=people["axis"], key="must_act:axis:t1")
    client.force_login(people["allied"])
    assert "The axis must assign planes" not in client.get("/notifications/").content.decode()
    assert client.post(f"/notifications/{theirs.pk}/read/").status_code == 404
    assert client.get(f"/notifications/{theirs.pk}/read/").status_code == 405
    theirs.refresh_from_db()
    assert theirs.read_at is None
    client.logout()
    assert client.get("/notifications/").status_code == 302  # to the log-in page


def test_api_lists_own_and_marks_read(campaign, people):
    told(campaign)
    api = APIClient()
    api.force_authenticate(people["allied"])
    listed = api.get("/api/notifications/").json()
    assert [n["key"] for n in listed["results"]] == ["battle_result:b1"]
    assert listed["results"][0]["read"] is False
    theirs = Notification.objects.get(user=people["axis"], key="must_act:axis:t1")
    answer = api.post(f"/api/notifications/{theirs.pk}/read/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    own = listed["results"][0]["id"]
    assert api.post(f"/api/notifications/{own}/read/").json()["read"] is True
    assert api.get("/api/notifications/?unread=1").json()["count"] == 0
    assert APIClient().get("/api/notifications/").status_code == 401


def test_preferences_page_and_api(campaign, people, client):
    client.force_login(people["axis"])
    page = client.get("/notifications/settings/").content.decode()
    assert 'name="must_act-email" aria-label="Your side must act by e-mail" checked' in page
    assert 'name="new_ace-email" aria-label="A new ace by e-mail">' in page
    client.post("/notifications/settings/", {"must_act-in_app": "on", "new_ace-email": "on"})
    pref = {p.kind: (p.email, p.in_app) for p in Preference.objects.filter(user=people["axis"])}
    assert pref["must_act"] == (False, True) and pref["new_ace"] == (True, False)
    api = APIClient()
    api.force_authenticate(people["axis"])
    answer = api.put("/api/notifications/preferences/",
                     {"preferences": {"battle_result": {"email": True}}}, format="json")  # fmt: skip
    assert answer.json()["preferences"]["battle_result"] == {"email": True, "in_app": False}
    bad = api.put("/api/notifications/preferences/", {"preferences": {"gossip": {}}}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "preferences.gossip"


def test_the_organiser_sets_the_webhook_on_its_page(campaign, people, client):
    client.force_login(people["orga"])
    assert (
        f"/notifications/campaigns/{campaign.pk}/"
        in client.get("/notifications/settings/").content.decode()
    )
    bad = client.post(f"/notifications/campaigns/{campaign.pk}/", {"url": "http://example.org/x"})
    assert bad.status_code == 400 and "https://" in bad.content.decode()
    assert 'value="http://example.org/x"' in bad.content.decode()  # the input is kept
    local = client.post(f"/notifications/campaigns/{campaign.pk}/", {"url": "https://127.0.0.1/x"})
    assert local.status_code == 400 and "private network" in local.content.decode()
    url = "https://discord.com/api/webhooks/1/abc"
    client.post(
        f"/notifications/campaigns/{campaign.pk}/", {"url": url, "kinds": ["battle_result"]}
    )
    hook = CampaignWebhook.objects.get(campaign=campaign)
    assert (hook.url, hook.kinds) == (url, ["battle_result"])
    client.force_login(people["axis"])
    assert client.get(f"/notifications/campaigns/{campaign.pk}/").status_code == 403


def test_the_webhook_api_is_the_organisers(campaign, people):
    api = APIClient()
    api.force_authenticate(people["orga"])
    path = f"/api/notifications/campaigns/{campaign.pk}/webhook/"
    url = "https://discord.com/api/webhooks/2/def"
    assert api.put(path, {"url": url}, format="json").json()["url"] == url
    assert api.get(path).json()["kinds"][0] == "must_act"
    bad = api.put(path, {"url": "ftp://example.org"}, format="json")
    assert bad.status_code == 400 and (bad.json()["field"], bad.json()["code"]) == ("url", "format")
    api.force_authenticate(people["allied"])
    assert api.put(path, {"url": url}, format="json").status_code == 403
    assert api.get(path).status_code == 403
