"""A webhook posts only to the internet: its host is resolved when the organiser sets it
and again at each post (a name may be rebound to a private address in between), and the
post goes to the addresses just checked. Host names come from the tests' fake DNS
(tests/conftest.py ``fake_dns``), never the network."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from angels.events import BATTLE_RESULT, send_campaign_event
from notifications.models import CampaignWebhook, Delivery

from .conftest import Receiver


@pytest.fixture
def organiser_api(campaign, people):
    api = APIClient()
    api.force_authenticate(people["orga"])
    return lambda url: api.put(
        f"/api/notifications/campaigns/{campaign.pk}/webhook/", {"url": url}, format="json"
    )


@pytest.mark.parametrize(
    ("url", "names", "said"),
    [
        ("https://localhost/hook", {}, "localhost is this machine"),
        ("https://hooks.example.net/x", {"hooks.example.net": ["10.1.2.3"]},
         "hooks.example.net resolves to 10.1.2.3, a private address"),
        ("https://loop.example.net/x", {"loop.example.net": ["127.0.0.2"]},
         "resolves to 127.0.0.2, this machine (loopback)"),
        # one private address among public ones is enough: the client may pick it
        ("https://mixed.example.net/x", {"mixed.example.net": ["93.184.215.14", "169.254.169.254"]},
         "resolves to 169.254.169.254, a link-local address"),
        ("https://v6.example.net/x", {"v6.example.net": ["fd00::1"]}, "fd00::1, a private address"),
        ("https://[::ffff:127.0.0.1]/x", {}, "this machine (loopback)"),
        ("https://0.0.0.0/x", {}, "an unspecified address"),
        ("https://multi.example.net/x", {"multi.example.net": ["224.0.0.1"]}, "a multicast address"),
        ("https://nowhere.example.net/x", {}, "nowhere.example.net could not be found"),
    ],
)  # fmt: skip
def test_a_webhook_on_a_host_that_is_not_public_is_refused_naming_the_rule(
    organiser_api, campaign, fake_dns, url, names, said
):
    fake_dns.update(names)
    answer = organiser_api(url)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert (body["field"], body["code"]) == ("url", "invalid")
    assert said in body["detail"]
    assert not CampaignWebhook.objects.filter(campaign=campaign).exclude(url="").exists()


def test_a_webhook_on_a_public_name_is_kept(organiser_api, fake_dns):
    fake_dns["hooks.example.net"] = ["93.184.215.14"]
    answer = organiser_api("https://hooks.example.net:8443/api/webhooks/1/abc")
    assert answer.status_code == 200 and answer.json()["url"].startswith("https://hooks.")


def test_a_webhook_url_with_an_impossible_port_is_a_format_error(organiser_api):
    answer = organiser_api("https://discord.com:99999/x")
    assert answer.status_code == 400
    assert (answer.json()["field"], answer.json()["code"]) == ("url", "format")


def test_the_page_says_why_a_name_on_a_private_network_is_refused(
    campaign, people, client, fake_dns
):
    fake_dns["intranet.example.net"] = ["192.168.1.20"]
    client.force_login(people["orga"])
    url = "https://intranet.example.net/hook"
    answer = client.post(f"/notifications/campaigns/{campaign.pk}/", {"url": url})
    page = answer.content.decode()
    assert answer.status_code == 400 and "resolves to 192.168.1.20, a private address" in page
    assert f'value="{url}"' in page  # the input is kept


def test_a_name_rebound_to_this_machine_after_it_was_set_is_not_posted_to(
    campaign, organiser_api, fake_dns, django_capture_on_commit_callbacks
):
    """DNS rebinding: public when the organiser set it, 127.0.0.1 when the post is due."""
    receiver = Receiver()  # on 127.0.0.1, where the rebound name now points
    try:
        fake_dns["rebind.example.net"] = ["93.184.215.14"]
        port = receiver.server.server_address[1]
        url = f"https://rebind.example.net:{port}/hook"
        assert organiser_api(url).status_code == 200
        fake_dns["rebind.example.net"] = ["127.0.0.1"]
        with django_capture_on_commit_callbacks(execute=True):
            send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="b", text="x")
        d = Delivery.objects.get(channel="webhook")
        assert d.status == "pending" and "resolves to 127.0.0.1" in d.last_error
        assert receiver.bodies == []
    finally:
        receiver.close()


def test_the_post_goes_to_the_address_checked_not_a_second_look_up(
    campaign, receiver, fake_dns, django_capture_on_commit_callbacks
):
    """The name exists only in the checked resolution (real DNS does not know it), and
    the post still arrives: the connection is made to the checked address."""
    fake_dns["checked.invalid"] = ["127.0.0.1"]
    port = receiver.server.server_address[1]
    CampaignWebhook.objects.create(
        campaign=campaign, url=f"http://checked.invalid:{port}/hook", kinds=[BATTLE_RESULT]
    )
    with django_capture_on_commit_callbacks(execute=True):
        send_campaign_event(campaign_id=campaign.pk, kind=BATTLE_RESULT, key="c", text="Flown.")
    assert receiver.bodies == [{"content": "**Channel 1941**: Flown."}]
    assert Delivery.objects.get(channel="webhook").status == "sent"
