"""Password guessing is limited everywhere a password is checked, per client address as
the deployment trusts it, with the wait named (issue 23)."""

from __future__ import annotations

import base64
import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from angels.throttling import client_address

pytestmark = pytest.mark.django_db

PASSWORD = "Spitfire-over-Kent-41"
LIMIT = 3
limits = override_settings(
    ANGELS_SIGNIN_FAILURE_LIMIT=LIMIT,
    ANGELS_SIGNIN_WINDOW_MINUTES=15,
    ANGELS_PASSWORD_RESET_LIMIT=2,
)


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def pilot(django_user_model):
    return django_user_model.objects.create_user("pilot", email="p@example.org", password=PASSWORD)


def _basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def _assert_api_429(response) -> None:
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled" and set(body) >= {"detail", "field", "code", "errors"}
    assert "try again in 15 minutes" in body["detail"]
    assert 14 * 60 < int(response["Retry-After"]) <= 15 * 60


# -- the API ------------------------------------------------------------------------------
@limits
def test_token_guesses_with_a_new_forwarded_for_each_time_meet_429(pilot):
    api = APIClient()
    for n in range(LIMIT):
        wrong = api.post(
            "/api/auth/token/",
            {"username": "pilot", "password": f"guess-{n}"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
        assert wrong.status_code == 400
    right = api.post(
        "/api/auth/token/",
        {"username": "pilot", "password": PASSWORD},
        format="json",
        HTTP_X_FORWARDED_FOR="198.51.100.99",
    )
    _assert_api_429(right)  # even the right password: the address waits


def test_the_token_rate_counts_by_address_not_by_the_forwarded_for_header(pilot, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "token": "3/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    api = APIClient()
    answers = [
        api.post(
            "/api/auth/token/",
            {"username": "pilot", "password": PASSWORD},
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(4)
    ]
    assert answers == [200, 200, 200, 429]


@limits
def test_http_basic_on_the_api_is_limited(pilot):
    api = APIClient()
    for n in range(LIMIT):
        api.credentials(HTTP_AUTHORIZATION=_basic("pilot", f"guess-{n}"))
        assert api.get("/api/campaigns/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=_basic("pilot", PASSWORD))
    _assert_api_429(api.get("/api/campaigns/"))


# -- the pages ----------------------------------------------------------------------------
def _log_in(client: Client, password: str, username: str = "pilot", **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


@limits
def test_the_login_form_refuses_even_the_right_password_until_the_wait_is_over(pilot):
    page = Client()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for n in range(LIMIT - 1):
            wrong = _log_in(page, f"guess-{n}")
            assert wrong.status_code == 200 and "correct username and password" in wrong.text
        last = _log_in(page, "guess-last")  # the last one allowed says at once what follows
        assert last.status_code == 429 and "try again in 15 minutes" in last.text
        right = _log_in(page, PASSWORD)
        assert right.status_code == 429
        assert "Too many wrong passwords from your address: try again in 15 minutes." in right.text
        assert '<form method="post"' in right.text  # the form again, the message on it
        assert "_auth_user_id" not in page.session
        clock.shift(timedelta(minutes=10))
        assert "try again in 5 minutes" in _log_in(page, PASSWORD).text  # the wait counts down
        clock.shift(timedelta(minutes=5, seconds=1))
        signed_in = _log_in(page, PASSWORD)
        assert signed_in.status_code == 302 and page.session["_auth_user_id"] == str(pilot.pk)


@limits
def test_a_lockout_reads_the_same_for_a_name_that_exists_and_one_that_does_not(
    django_user_model,
):
    django_user_model.objects.create_user("known-xq", password=PASSWORD)
    page = Client()
    for n in range(LIMIT):  # guesses at names that do not exist count the same
        _log_in(page, "guess", username=f"nobody-{n}")
    known = _log_in(page, PASSWORD, username="known-xq")
    unknown = _log_in(page, PASSWORD, username="absent-xq")
    assert known.status_code == unknown.status_code == 429
    assert _page(known, "known-xq") == _page(unknown, "absent-xq")


def _page(response, name: str) -> str:
    """The page with the name typed and the form's one-time CSRF token blanked."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.text)
    return text.replace(name, "NAME")


@limits
def test_the_password_change_counts_wrong_old_passwords(pilot):
    page = Client()
    page.force_login(pilot)
    new = {"new_password1": "Hurricane-Tangmere-9", "new_password2": "Hurricane-Tangmere-9"}
    for n in range(LIMIT):
        wrong = page.post("/accounts/password_change/", {"old_password": f"guess-{n}", **new})
        assert wrong.status_code == 200 and "id_old_password_errors" in wrong.text
    refused = page.post("/accounts/password_change/", {"old_password": PASSWORD, **new})
    assert refused.status_code == 429 and "try again in 15 minutes" in refused.text
    pilot.refresh_from_db()
    assert pilot.check_password(PASSWORD)


@limits
def test_password_reset_requests_are_limited(pilot, django_capture_on_commit_callbacks):
    page = Client()
    with django_capture_on_commit_callbacks(execute=True):
        answers = [
            page.post("/accounts/password_reset/", {"email": "p@example.org"}) for _ in range(3)
        ]
    assert [a.status_code for a in answers] == [302, 302, 429]
    assert "Too many password reset requests from your address: try again in" in answers[2].text
    assert len(mail.outbox) == 2


# -- which address counts ---------------------------------------------------------------
@limits
def test_the_limit_counts_by_remote_addr_without_a_trusted_proxy(pilot):
    page = Client()
    for n in range(LIMIT):
        _log_in(page, "guess", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=f"10.9.9.{n}")
    assert _log_in(page, PASSWORD, REMOTE_ADDR="192.0.2.1").status_code == 429
    assert _log_in(page, PASSWORD, REMOTE_ADDR="192.0.2.2").status_code == 302  # another client


@limits
@override_settings(ANGELS_TRUSTED_PROXY_COUNT=1)
def test_behind_one_trusted_proxy_the_hop_it_saw_counts(pilot):
    page = Client()
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for n in range(LIMIT):  # what the client wrote itself on the left changes nothing
        _log_in(page, "guess", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.5", **proxy)
    locked = _log_in(page, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.5", **proxy)
    assert locked.status_code == 429
    other = _log_in(page, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.6", **proxy)
    assert other.status_code == 302


def test_the_client_address_trusts_only_the_configured_proxies():
    def address(remote: str, forwarded: str = "", **config) -> str:
        request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
        with override_settings(**config):
            return client_address(request)

    assert address("192.0.2.1", "203.0.113.9") == "192.0.2.1"
    assert address("10.0.0.1", "6.6.6.6, 203.0.113.9", ANGELS_TRUSTED_PROXY_COUNT=1) == (
        "203.0.113.9"
    )
    assert address("10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.1", ANGELS_TRUSTED_PROXY_COUNT=2) == (
        "203.0.113.9"
    )
    nets = {"ANGELS_TRUSTED_PROXIES": ["10.0.0.0/8"]}
    assert address("10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.1", **nets) == "203.0.113.9"
    assert address("192.0.2.1", "203.0.113.9", **nets) == "192.0.2.1"  # not from a proxy
    assert address("10.0.0.2", "not-an-address", **nets) == "10.0.0.2"
