"""Sign-up with every error at once, the invitation accepted by signing up, password reset
by e-mail, and the user's time zone on every page (issue 15)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts.models import UserSettings
from accounts.services import invitation_create
from campaign.models import CampaignMember

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_lists_every_error_beside_its_field_and_keeps_the_input(client, organiser):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "orga",  # taken
            "email": "orga.example.org",  # not an address (a taken one is no error: issue 23)
            "password1": "12345678",  # too common and all digits
            "password2": "12345678",
            "time_zone": "Mars/Olympus",  # no such zone
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    for field in ("username", "email", "password2", "time_zone"):
        assert f'id="id_{field}_errors"' in html, field
    assert "too common" in html and "entirely numeric" in html  # Django's validators
    assert 'value="orga.example.org"' in html  # kept
    assert "problems below" in html
    assert get_user_model().objects.count() == 1
    mismatch = client.post(
        "/accounts/signup/",
        {"username": "new", "email": "n@example.org", "password1": PASSWORD, "password2": "x"},
    )
    assert "didn’t match" in mismatch.content.decode()
    assert 'value="new"' in mismatch.content.decode()


def test_sign_up_with_an_invitation_lands_in_the_campaign_on_its_side(client, campaign, organiser):
    _, link = invitation_create(
        campaign=campaign, by=organiser, role="commander", side="axis", email="adolf@example.org"
    )
    token = link.rstrip("/").rsplit("/", 1)[1]
    page = client.get(f"/accounts/signup/?invitation={token}")
    assert b"Channel 1940" in page.content and b'value="adolf@example.org"' in page.content
    response = client.post(
        "/accounts/signup/",
        {
            "username": "galland",
            "email": "adolf@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "time_zone": "Europe/Berlin",
            "invitation": token,
        },
    )
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/"
    user = get_user_model().objects.get(username="galland")
    member = CampaignMember.objects.get(campaign=campaign, user=user)
    assert (member.role, member.side) == ("commander", "axis")
    assert UserSettings.objects.get(user=user).time_zone == "Europe/Berlin"
    assert client.get(f"/campaigns/{campaign.pk}/").wsgi_request.user == user  # signed in


def test_password_reset_mail_is_sent_and_its_link_sets_a_new_password(
    client, organiser, django_capture_on_commit_callbacks
):
    assert client.get("/accounts/password_reset/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/accounts/password_reset/", {"email": "orga@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["orga@example.org"]
    assert mail.outbox[0].subject == "Reset your Angels password"
    path = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(path, follow=True)
    assert b"Choose a new password" in form.content and b"new_password1" in form.content
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "Hurricane-Tangmere-9", "new_password2": "Hurricane-Tangmere-9"},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert b"Password changed" in client.get(done["Location"]).content
    organiser.refresh_from_db()
    assert organiser.check_password("Hurricane-Tangmere-9")
    used = client.get(path, follow=True)
    assert b"does not work any more" in used.content


def test_the_time_zone_changes_how_times_render(client, organiser, campaign):
    from accounts.models import Invitation

    invitation, _ = invitation_create(campaign=campaign, by=organiser, role="spectator")
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
    )
    client.force_login(organiser)
    page = f"/accounts/campaigns/{campaign.pk}/invitations/"
    assert "1 Jul 2026, 12:00 UTC" in client.get(page).content.decode()
    saved = client.post(
        "/accounts/settings/", {"time_zone": "Australia/Sydney", "email": "o@example.org"}
    )
    assert saved.status_code == 302
    assert "1 Jul 2026, 22:00 AEST" in client.get(page).content.decode()
    organiser.refresh_from_db()
    assert organiser.email == "o@example.org"


def test_settings_refuse_an_unknown_time_zone(client, organiser):
    client.force_login(organiser)
    response = client.post("/accounts/settings/", {"time_zone": "Europe/Atlantis", "email": "x"})
    html = response.content.decode()
    assert 'id="id_time_zone_errors"' in html and 'id="id_email_errors"' in html
    assert not UserSettings.objects.filter(user=organiser, time_zone="Europe/Atlantis").exists()


def test_signing_up_from_the_header_on_an_invitation_comes_back_to_it(client, campaign, organiser):
    """The header's "Sign up" beside an invitation's own "Sign up and join": it returns
    to the invitation after the account is made (it went to the campaigns, the link lost)."""
    _, link = invitation_create(campaign=campaign, by=organiser, role="spectator")
    path = "/" + link.split("://", 1)[-1].split("/", 1)[1]
    page = client.get(path).content.decode()
    header = re.search(r'<a href="(/accounts/signup/\?next=[^"]+)">Sign up</a>', page).group(1)
    form = client.get(header).content.decode()
    assert f'<input type="hidden" name="next" value="{path}">' in form
    made = client.post(
        "/accounts/signup/",
        {"username": "reporter", "email": "r@example.org", "password1": PASSWORD,
         "password2": PASSWORD, "time_zone": "UTC", "next": path},
    )  # fmt: skip
    assert made.status_code == 302 and made["Location"] == path
