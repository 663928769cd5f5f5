"""Invitations (issue 15): the organiser invites by e-mail or by a link; the invited person
joins on the side offered, once, before the link expires, unless it was withdrawn."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Invitation
from accounts.services import invitation_create
from campaign.models import CampaignMember

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db
LINK = re.compile(r"http://testserver(/accounts/invitations/[\w-]+/)")


def _member(campaign, user):
    return CampaignMember.objects.filter(campaign=campaign, user=user).first()


def test_invitation_by_email_is_mailed_after_commit_and_joins_the_side(
    organiser_client, campaign, django_user_model, django_capture_on_commit_callbacks, client
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = organiser_client.post(
            f"/accounts/campaigns/{campaign.pk}/invitations/",
            {"role": "commander", "side": "axis", "email": "hans@example.org", "days": 7},
        )
    assert response.status_code == 200
    assert len(callbacks) == 1  # the mail waits for the commit
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hans@example.org"]
    assert "Channel 1940" in message.subject
    assert "commander of the Axis side" in message.body
    path = LINK.search(message.body).group(1)
    assert path in response.content.decode()  # the organiser sees the link once too

    hans = django_user_model.objects.create_user("hans", password=PASSWORD)
    client.force_login(hans)
    page = client.get(path)
    assert b"Join as commander of the Axis side" in page.content
    joined = client.post(path)
    assert joined.status_code == 302 and joined["Location"] == f"/campaigns/{campaign.pk}/"
    member = _member(campaign, hans)
    assert (member.role, member.side) == ("commander", "axis")
    invitation = Invitation.objects.get()
    assert invitation.status == "accepted" and invitation.accepted_by == hans


def test_a_link_without_email_sends_nothing_and_works_by_api(
    campaign, organiser, django_user_model, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            f"/api/campaigns/{campaign.pk}/invitations/",
            {"role": "commander", "side": "allied"},
            format="json",
        )
    assert made.status_code == 201, made.content
    assert made.data["status"] == "pending" and made.data["part"] == "commander of the Allied side"
    assert not mail.outbox
    token = made.data["link"].rstrip("/").rsplit("/", 1)[1]
    # only the hash is stored: the token itself is nowhere in the database
    assert not Invitation.objects.filter(token_hash=token).exists()

    listed = api.get(f"/api/campaigns/{campaign.pk}/invitations/")
    assert [i["status"] for i in listed.data] == ["pending"] and "link" not in listed.data[0]

    keith = django_user_model.objects.create_user("keith", password=PASSWORD)
    invited = APIClient()
    invited.force_authenticate(keith)
    accepted = invited.post(f"/api/invitations/{token}/accept/")
    assert accepted.status_code == 200, accepted.content
    assert accepted.data == {"campaign": campaign.pk, "role": "commander", "side": "allied"}
    assert api.get(f"/api/campaigns/{campaign.pk}/invitations/").data[0]["accepted_by"] == "keith"


def test_a_used_link_cannot_be_used_again_by_another(campaign, organiser, django_user_model):
    _, link = invitation_create(campaign=campaign, by=organiser, role="commander", side="axis")
    token = link.rstrip("/").rsplit("/", 1)[1]
    first, second = (
        django_user_model.objects.create_user(n, password=PASSWORD) for n in ("first", "second")
    )
    api = APIClient()
    api.force_authenticate(first)
    assert api.post(f"/api/invitations/{token}/accept/").status_code == 200
    api.force_authenticate(second)
    again = api.post(f"/api/invitations/{token}/accept/")
    assert again.status_code == 400
    assert again.json()["field"] == "token" and "already been used" in again.json()["detail"]
    assert _member(campaign, second) is None
    # the page says so in plain words and offers no button
    from django.test import Client

    page = Client()
    page.force_login(second)
    shown = page.get(link.removeprefix("http://testserver"))
    assert b"already been used" in shown.content and b"Ask the campaign" in shown.content
    assert b"Join as" not in shown.content


def test_an_expired_link_says_so(campaign, organiser, django_user_model, client):
    _, link = invitation_create(
        campaign=campaign, by=organiser, role="commander", side="axis", days=2
    )
    path = link.removeprefix("http://testserver")
    late = django_user_model.objects.create_user("late", password=PASSWORD)
    client.force_login(late)
    with time_machine.travel(timezone.now() + timedelta(days=2, minutes=1)):
        shown = client.get(path)
        assert b"This invitation has expired" in shown.content
        assert b"Join as" not in shown.content
        assert client.post(path).status_code == 400  # refused, said again
        organiser_view = APIClient()
        organiser_view.force_authenticate(organiser)
        listed = organiser_view.get(f"/api/campaigns/{campaign.pk}/invitations/")
        assert listed.data[0]["status"] == "expired"
    assert _member(campaign, late) is None
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert b"Join as" in client.get(path).content  # within its two days it worked


def test_a_withdrawn_link_says_so(campaign, organiser, organiser_client, django_user_model):
    invitation, link = invitation_create(campaign=campaign, by=organiser, role="spectator")
    block = organiser_client.get(f"/campaigns/{campaign.pk}/")
    assert b"1 waiting" in block.content and b"Withdraw" in block.content
    withdrawn = organiser_client.post(
        f"/accounts/invitations/{invitation.pk}/revoke/", {"next": f"/campaigns/{campaign.pk}/"}
    )
    assert withdrawn.status_code == 302 and withdrawn["Location"] == f"/campaigns/{campaign.pk}/"
    token = link.rstrip("/").rsplit("/", 1)[1]
    late = django_user_model.objects.create_user("late", password=PASSWORD)
    api = APIClient()
    api.force_authenticate(late)
    refused = api.post(f"/api/invitations/{token}/accept/")
    assert refused.status_code == 400 and "withdrawn" in refused.json()["detail"]
    assert _member(campaign, late) is None
    listing = organiser_client.get(f"/accounts/campaigns/{campaign.pk}/invitations/")
    assert b'data-status="revoked"' in listing.content


def test_bad_invitations_are_refused_naming_the_field(campaign, organiser, django_user_model):
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/campaigns/{campaign.pk}/invitations/"
    no_side = api.post(url, {"role": "commander"}, format="json")
    assert no_side.status_code == 400 and no_side.json()["field"] == "side"
    bad_mail = api.post(url, {"role": "spectator", "email": "not-mail"}, format="json")
    assert bad_mail.status_code == 400 and bad_mail.json()["field"] == "email"
    too_long = api.post(url, {"role": "spectator", "days": 400}, format="json")
    assert too_long.status_code == 400 and too_long.json()["field"] == "days"
    taken = django_user_model.objects.create_user("taken", password=PASSWORD)
    CampaignMember.objects.create(campaign=campaign, user=taken, role="commander", side="axis")
    conflict = api.post(url, {"role": "commander", "side": "axis"}, format="json")
    assert conflict.status_code == 400 and conflict.json()["code"] == "conflict"
    assert not Invitation.objects.exists()
    # the page form: every error beside its field, input kept
    from django.test import Client

    page = Client()
    page.force_login(organiser)
    shown = page.post(
        f"/accounts/campaigns/{campaign.pk}/invitations/",
        {"role": "commander", "side": "axis", "email": "wrong", "days": 0},
    )
    assert shown.status_code == 400
    html = shown.content.decode()
    assert 'id="id_email_errors"' in html and 'id="id_days_errors"' in html
    assert 'value="wrong"' in html


def test_only_the_organiser_sees_and_makes_invitations(campaign, django_user_model, client):
    someone = django_user_model.objects.create_user("someone", password=PASSWORD)
    client.force_login(someone)
    assert client.get(f"/accounts/campaigns/{campaign.pk}/invitations/").status_code == 403
    assert b'id="invitations"' not in client.get(f"/campaigns/{campaign.pk}/").content
    api = APIClient()
    api.force_authenticate(someone)
    invitation_create(campaign=campaign, by=campaign.created_by, role="spectator")
    listed = api.get(f"/api/campaigns/{campaign.pk}/invitations/")
    assert listed.status_code == 200 and listed.json() == []  # only the organiser sees them
    refused = api.post(f"/api/campaigns/{campaign.pk}/invitations/", {"role": "spectator"})
    assert refused.status_code == 403 and refused.json()["code"] == "permission"
    assert APIClient().post("/api/invitations/whatever/accept/").status_code == 401


def test_the_organiser_opening_his_own_link_is_told_to_send_it(campaign, organiser, client):
    _, link = invitation_create(campaign=campaign, by=organiser, role="spectator")
    path = link.removeprefix("http://testserver")
    client.force_login(organiser)
    shown = client.get(path)
    assert b"send this link to the person you invite" in shown.content
    assert b"Join as" not in shown.content
    assert client.post(path).status_code == 403
    assert Invitation.objects.get().status == "pending"  # still there for the invited
