"""Accounts that cannot be confused (issue 23): one e-mail address per account, whatever
its case, and no username that reads like another one.

Usernames are compared by their *skeleton* (Unicode TR39, section 4): the name in
NFKC, case folded, each character replaced by the representative of the characters
it may be mistaken for (the confusables table of ``confusable_homoglyphs``, taken
as groups: Cyrillic "а", Latin "a", Greek "α"...). "аdmin" with a Cyrillic "а",
"ADMIN" and "ａｄｍｉｎ" share the skeleton of "admin"; "l", "1" and "|" are one group,
so "pi1ot" is "pilot".
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]  # no stubs
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

TOO_LIKE = "That name is too like an existing one: choose another."


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character mapped to its group's smallest character (a union of
    the table's pairs: the table lists some pairs one way only)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"].strip("\u200e")  # the table marks right-to-left letters
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def username_normal(name: str) -> str:
    """The name as stored: NFKC (full-width "ａｄｍｉｎ" is "admin"), as Django's own form does."""
    return unicodedata.normalize("NFKC", name or "")


def skeleton(name: str) -> str:
    """What ``name`` looks like: two names with the same skeleton may be mistaken for each
    other. Case folded first ("Admin" is "admin"), then each character its group's."""
    table = _representatives()
    folded = username_normal(name).casefold()
    return unicodedata.normalize("NFKC", "".join(table.get(c, c) for c in folded))


def username_too_like(name: str, *, exclude_pk: Any = None) -> bool:
    """True when an existing account's name has the skeleton of ``name`` (itself excepted).

    Reads every username: sign-up is rare and a club's server has hundreds of accounts,
    not millions (a stored skeleton column would be the next step)."""
    wanted = skeleton(name)
    names = get_user_model().objects.exclude(pk=exclude_pk).values_list("username", flat=True)
    return any(skeleton(existing) == wanted for existing in names.iterator())


def email_in_use(email: str, *, exclude_pk: Any = None) -> bool:
    """True when another account has this address, in any case."""
    if not email:
        return False
    users = get_user_model().objects.filter(email__iexact=email.strip())
    return users.exclude(pk=exclude_pk).exists()


def account_create(*, username: str, email: str, password: str, time_zone: str) -> Any:
    """A new account, its name and password checked already (the sign-up form).

    An address another account has is not given to the new one, and that account's
    owner is mailed that someone tried: the page answers alike either way, so sign-up
    tells no one which addresses are registered (the new user may add an address of
    their own in the settings).
    """
    from angels.errors import RuleViolation

    from .models import UserSettings

    username = username_normal(username)
    if username_too_like(username):
        raise RuleViolation(TOO_LIKE, field="username", code="conflict")
    email = (email or "").strip()
    with transaction.atomic():
        owner = (
            get_user_model().objects.filter(email__iexact=email).order_by("pk").first()
            if email
            else None
        )
        user = get_user_model().objects.create_user(
            username=username, email="" if owner else email, password=password
        )
        UserSettings.objects.update_or_create(user=user, defaults={"time_zone": time_zone})
    if owner is not None:
        subject, body = sign_up_attempt_mail(owner=owner, username=username)
        to = [owner.email]
        from .tasks import send_plain_mail

        transaction.on_commit(lambda: send_plain_mail.delay(subject, body, to))
    return user


def sign_up_attempt_mail(*, owner: Any, username: str) -> tuple[str, str]:
    """The mail to an address's owner when a sign-up gave it again (links on
    ``ANGELS_SITE_URL``, never on the request's Host)."""
    login = f"{settings.ANGELS_SITE_URL}{reverse('login')}"
    reset = f"{settings.ANGELS_SITE_URL}{reverse('password_reset')}"
    subject = "Someone tried to sign up with your e-mail address"
    body = (
        f"Someone tried to make a new Angels account named {username!r} with this address. "
        f"It already belongs to your account, {owner.get_username()!r}, so the new account "
        "was not given it.\n\n"
        f"If it was you: log in with your account instead ({login}), or reset its password "
        f"if you have forgotten it ({reset}).\n"
        "If it was not you, there is nothing to do: your account is unchanged.\n"
    )
    return subject, body
