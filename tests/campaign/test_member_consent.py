"""Issue 23, consent for commanders: the members API and the campaign page's invite form
make a pending invitation addressed to the user, never a membership; the user accepts
(becoming a member with the part offered) or declines (the offer removed) on their
invitations page or through the API, and sees it waiting on the "your turn" list."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Invitation
from campaign.models import CampaignMember

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def newcomer(db):
    return get_user_model().objects.create_user("dowding", password="pw-dowding-1")


def _member(campaign, user):
    return CampaignMember.objects.filter(campaign=campaign, user=user).first()


def test_the_members_api_makes_an_invitation_the_user_accepts(campaign, users, newcomer):
    CampaignMember.objects.filter(campaign=campaign, user=users["allied"]).delete()
    answer = _client(users["organiser"]).post(
        f"/api/campaigns/{campaign.pk}/members/",
        {"username": "dowding", "role": "commander", "side": "allied"},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["status"] == "pending" and body["username"] == "dowding"
    assert (body["role"], body["side"]) == ("commander", "allied")
    assert _member(campaign, newcomer) is None  # not a commander without consent
    me = _client(newcomer)
    assert [i["id"] for i in me.get("/api/me/invitations/").json()] == [body["id"]]
    [waiting] = me.get("/api/me/waiting/").json()
    assert waiting["kind"] == "invitation" and waiting["url"] == "/accounts/invitations/"
    stranger = _client(users["spectator"])  # only the addressee answers
    refused = stranger.post(
        f"/api/invitations/{body['id']}/answer/", {"accept": True}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "invitation"
    accepted = me.post(
        f"/api/invitations/{body['id']}/answer/", {"accept": True}, content_type="application/json"
    )
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    member = _member(campaign, newcomer)
    assert (member.role, member.side) == ("commander", "allied")
    assert me.get("/api/me/invitations/").json() == []


def test_the_invite_form_makes_an_invitation_the_user_declines(campaign, users, newcomer):
    organiser = _client(users["organiser"])
    page = organiser.post(
        f"/campaigns/{campaign.pk}/invite/",
        {"username": "dowding", "role": "spectator", "side": ""},
        follow=True,
    ).content.decode()
    assert "dowding is invited as spectator: it waits for them to accept" in page
    assert _member(campaign, newcomer) is None
    me = _client(newcomer)
    mine = me.get("/accounts/invitations/").content.decode()
    assert "orga invites you as spectator" in mine
    assert "You are invited as spectator: accept or decline." in me.get("/").content.decode()
    pk = re.search(r'data-invitation="(\d+)"', mine).group(1)
    declined = me.post(f"/accounts/invitations/{pk}/answer/", {"answer": "decline"}, follow=True)
    assert "Invitation declined." in declined.content.decode()
    assert not Invitation.objects.filter(pk=pk).exists() and _member(campaign, newcomer) is None


def test_accepting_on_the_page_makes_the_member(campaign, users, newcomer):
    _client(users["organiser"]).post(
        f"/campaigns/{campaign.pk}/invite/", {"username": "dowding", "role": "spectator"}
    )
    invitation = Invitation.objects.get(addressee=newcomer)
    answer = _client(newcomer).post(
        f"/accounts/invitations/{invitation.pk}/answer/", {"answer": "accept"}
    )
    assert answer.status_code == 302 and answer["Location"] == f"/campaigns/{campaign.pk}/"
    assert _member(campaign, newcomer).role == "spectator"


def test_only_the_organiser_invites_and_a_taken_side_is_refused(campaign, users, newcomer):
    refused = _client(users["allied"]).post(
        f"/api/campaigns/{campaign.pk}/members/",
        {"username": "dowding", "role": "spectator"},
        content_type="application/json",
    )
    assert refused.status_code == 403
    taken = _client(users["organiser"]).post(
        f"/api/campaigns/{campaign.pk}/members/",
        {"username": "dowding", "role": "commander", "side": "axis"},
        content_type="application/json",
    )
    assert taken.status_code == 400 and taken.json()["field"] == "side"
    assert not Invitation.objects.filter(addressee=newcomer).exists()
