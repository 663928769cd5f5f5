"""A webhook never posts into this machine or a private network through an IPv6 address
that carries an IPv4 one (issue 23, item 10): 6to4, Teredo, NAT64, IPv4-mapped and
IPv4-compatible forms of a non-public address are refused like the address itself."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaign.models import Campaign, CampaignMember, Role
from notifications.models import CampaignWebhook


@pytest.fixture
def organiser_put(db):
    orga = get_user_model().objects.create_user("orga", password="pw-orga-1234")
    campaign = Campaign.objects.create(name="Channel 1941", seed=7, created_by=orga)
    CampaignMember.objects.create(campaign=campaign, user=orga, role=Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(orga)

    def put(url: str):
        return api.put(
            f"/api/notifications/campaigns/{campaign.pk}/webhook/", {"url": url}, format="json"
        )

    put.campaign = campaign
    return put


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("[2002:7f00:1::]", "this machine (loopback) wrapped in IPv6 (127.0.0.1)"),  # 6to4
        ("[2002:a00:1::1]", "a private address wrapped in IPv6 (10.0.0.1)"),  # 6to4
        ("[2002:a9fe:a9fe::]", "a link-local address wrapped in IPv6 (169.254.169.254)"),
        # Teredo: server 65.54.227.120, client (obfuscated) 192.0.2.45
        ("[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "wrapped in IPv6 (192.0.2.45)"),
        ("[2001:0:7f00:1::]", "this machine (loopback) wrapped in IPv6 (127.0.0.1)"),  # Teredo
        ("[64:ff9b::7f00:1]", "this machine (loopback) wrapped in IPv6 (127.0.0.1)"),  # NAT64
        ("[64:ff9b::a9fe:a9fe]", "a link-local address wrapped in IPv6 (169.254.169.254)"),
        ("[64:ff9b:1::a00:1]", "a local-use NAT64 address"),
        ("[::ffff:127.0.0.1]", "this machine (loopback)"),  # IPv4-mapped
        ("[::ffff:c0a8:101]", "a private address"),  # IPv4-mapped 192.168.1.1
        ("[::127.0.0.1]", "this machine (loopback) wrapped in IPv6 (127.0.0.1)"),  # compatible
        ("[::10.0.0.1]", "a private address wrapped in IPv6 (10.0.0.1)"),  # compatible
    ],
)
def test_an_ipv6_address_wrapping_a_non_public_ipv4_is_refused(organiser_put, fake_dns, host, said):
    answer = organiser_put(f"https://{host}/hook")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["field"] == "url" and said in body["detail"], body["detail"]
    assert not CampaignWebhook.objects.filter(campaign=organiser_put.campaign).exclude(url="")


def test_a_name_resolving_to_a_6to4_loopback_is_refused(organiser_put, fake_dns):
    fake_dns["hooks.example.net"] = ["2002:7f00:1::"]
    answer = organiser_put("https://hooks.example.net/hook")
    assert answer.status_code == 400
    assert "resolves to 2002:7f00:1::" in answer.json()["detail"]


def test_a_public_ipv6_address_is_still_kept(organiser_put, fake_dns):
    answer = organiser_put("https://[2606:4700:4700::1111]/hook")
    assert answer.status_code == 200, answer.content
