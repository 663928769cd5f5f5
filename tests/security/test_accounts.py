"""Accounts that cannot be confused (issue 23): one account per e-mail address whatever
its case, sign-up and password reset that tell no one which addresses are registered,
and no username that reads like another."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts.identity import TOO_LIKE

pytestmark = pytest.mark.django_db

PASSWORD = "Spitfire-over-Kent-41"


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user(
        "admin", email="Admin@example.org", password=PASSWORD
    )


def _sign_up(client: Client, username: str, email: str = "", **extra):
    data = {"username": username, "email": email or f"{abs(hash(username))}@example.net"}
    data |= {"password1": PASSWORD, "password2": PASSWORD, "time_zone": "UTC"}
    return client.post("/accounts/signup/", data | extra)


def _page(response) -> str:
    """The page with the form's one-time CSRF token blanked."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


# -- e-mail addresses ---------------------------------------------------------------------
def test_an_address_of_another_account_in_another_case_is_refused_in_the_settings(
    admin, django_user_model
):
    other = django_user_model.objects.create_user("bader", email="b@example.org")
    page = Client()
    page.force_login(other)
    refused = page.post("/accounts/settings/", {"time_zone": "UTC", "email": "ADMIN@example.ORG"})
    assert refused.status_code == 400
    assert "another account has this e-mail address" in refused.content.decode()
    assert 'id="id_email_errors"' in refused.content.decode()
    other.refresh_from_db()
    assert other.email == "b@example.org"
    # one's own address in another case is no conflict
    own = page.post("/accounts/settings/", {"time_zone": "UTC", "email": "B@EXAMPLE.org"})
    assert own.status_code == 302


def test_sign_up_answers_alike_for_a_registered_address_and_mails_its_owner(
    admin, django_capture_on_commit_callbacks
):
    answers = []
    for username, email in (("galland", "ADMIN@example.org"), ("molders", "w@example.org")):
        client = Client()
        with django_capture_on_commit_callbacks(execute=True):
            made = _sign_up(client, username, email)
        answers.append((made.status_code, made["Location"], _page(client.get(made["Location"]))))
    (status1, where1, page1), (status2, where2, page2) = answers
    assert (status1, where1) == (status2, where2) == (302, "/campaigns/")
    assert page1.replace("galland", "NAME") == page2.replace("molders", "NAME")
    users = get_user_model().objects
    assert users.get(username="galland").email == ""  # not given the taken address
    assert users.get(username="molders").email == "w@example.org"
    assert users.filter(email__iexact="admin@example.org").count() == 1
    assert [m.to for m in mail.outbox] == [["Admin@example.org"]]
    assert "Someone tried to make a new Angels account named 'galland'" in mail.outbox[0].body
    assert f"{settings.ANGELS_SITE_URL}/accounts/password_reset/" in mail.outbox[0].body


def test_a_password_reset_answers_alike_for_any_address(admin, django_capture_on_commit_callbacks):
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post("/accounts/password_reset/", {"email": "admin@example.org"})
        unknown = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    done = client.get(known["Location"]).content.decode()
    assert "If an account has that address, a link to choose a new password is on its way" in done
    assert [m.to for m in mail.outbox] == [["Admin@example.org"]]


# -- usernames ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0430dmin",  # Cyrillic а
        "\u0410DMIN",  # Cyrillic А, capitals
        "\u03b1dmin",  # Greek α
        "\uff41\uff44\uff4d\uff49\uff4e",  # full-width ａｄｍｉｎ: NFKC makes it "admin"
    ],
)
def test_a_name_that_reads_like_an_existing_one_is_refused(admin, lookalike):
    refused = _sign_up(Client(), lookalike)
    assert refused.status_code == 200
    html = refused.content.decode()
    assert 'id="id_username_errors"' in html
    assert TOO_LIKE in html or "A user with that username already exists" in html
    assert get_user_model().objects.count() == 1


def test_the_cyrillic_lookalike_gets_the_too_like_message(admin):
    html = _sign_up(Client(), "\u0430dmin").content.decode()
    assert "That name is too like an existing one: choose another." in html


def test_the_same_name_in_capitals_is_refused(admin):
    html = _sign_up(Client(), "ADMIN").content.decode()
    assert "A user with that username already exists" in html


def test_a_full_width_name_is_stored_in_its_normal_form(admin):
    made = _sign_up(Client(), "\uff50\uff49\uff4c\uff4f\uff54\uff12")  # ｐｉｌｏｔ２
    assert made.status_code == 302
    assert get_user_model().objects.filter(username="pilot2").exists()


def test_signing_up_through_an_invitation_refuses_a_lookalike_too(admin, catalog):
    from accounts.services import invitation_create
    from campaign import services as campaign_services

    campaign = campaign_services.campaign_create(name="Channel 1940", created_by=admin, seed=3)
    _, link = invitation_create(campaign=campaign, by=admin, role="spectator")
    token = link.rstrip("/").rsplit("/", 1)[1]
    refused = _sign_up(Client(), "\u0430dmin", invitation=token)
    assert TOO_LIKE in refused.content.decode()
    assert get_user_model().objects.count() == 1
