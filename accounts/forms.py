"""The accounts pages' forms: every error shown at once next to its field, input kept."""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    UserCreationForm,
)
from django.db import transaction

from angels import signin_limits
from campaign.models import Role

from . import identity


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    names = sorted(n for n in available_timezones() if "/" in n or n == "UTC")
    return [(n, n.replace("_", " ")) for n in names]


class TimeZoneField(forms.ChoiceField):
    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", "Deadlines and times on every page are shown in it.")
        super().__init__(choices=time_zone_choices, **kwargs)


class SignUpForm(UserCreationForm):
    """Username, e-mail, password twice (Django's password validators), time zone."""

    email = forms.EmailField(
        label="E-mail", help_text="For your invitations, reminders and a password reset."
    )
    time_zone = TimeZoneField(initial="UTC")

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django's check (no name equal to another, whatever its case), then none that
        reads like another: a Cyrillic "а" for a Latin "a" (accounts.identity)."""
        username = super().clean_username()
        if username and identity.username_too_like(username):
            raise forms.ValidationError(identity.TOO_LIKE, code="too_like")
        return username

    # An address in use is no error here: the page answers alike for any address
    # (accounts.identity.account_create mails the address's owner instead).


# the user's e-mail column (as sign-up checks it); accounts.services.email_check says the same
EMAIL_MAX_LENGTH = 254


class SettingsForm(forms.Form):
    time_zone = TimeZoneField()
    email = forms.EmailField(label="E-mail", required=False, max_length=EMAIL_MAX_LENGTH)


SIDE_CHOICES = [("allied", "Allied"), ("axis", "Axis")]


class InvitationForm(forms.Form):
    role = forms.ChoiceField(
        choices=[(Role.COMMANDER.value, "Commander"), (Role.SPECTATOR.value, "Spectator")],
        initial=Role.COMMANDER.value,
    )
    side = forms.ChoiceField(
        choices=[*SIDE_CHOICES, ("", "— (spectator)")], required=False, initial="allied"
    )
    email = forms.EmailField(
        label="E-mail",
        required=False,
        max_length=EMAIL_MAX_LENGTH,
        help_text="Leave empty to get a link to copy and send yourself.",
    )
    days = forms.IntegerField(label="Link works for (days)", min_value=1, max_value=90)


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's password reset, with the mail queued after commit (accounts.send_mail)
    instead of sent while the request waits on the mail server."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        from django.template import loader

        from .tasks import send_plain_mail

        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        html = (
            loader.render_to_string(html_email_template_name, context)
            if html_email_template_name
            else None
        )
        transaction.on_commit(lambda: send_plain_mail.delay(subject, body, [to_email], html))


class LimitedAuthenticationForm(AuthenticationForm):
    """The login form, refused while the client's address waits (angels.signin_limits):
    the password is then not checked, and the message says how long to wait."""

    def _refuse_while_waiting(self) -> None:
        wait = signin_limits.wait_seconds(self.request) if self.request is not None else 0
        if wait:
            raise forms.ValidationError(signin_limits.refusal(wait), code="locked")

    def clean(self):
        self._refuse_while_waiting()
        try:
            return super().clean()
        except forms.ValidationError:
            self._refuse_while_waiting()  # that one was the last allowed: say so at once
            raise


class LimitedPasswordChangeForm(PasswordChangeForm):
    """Django's password change, its old-password check counted with every other
    sign-in's wrong passwords (it checks the password without ``authenticate()``)."""

    def __init__(self, user, *args, request=None, **kwargs):
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self):
        if self.request is not None and (wait := signin_limits.wait_seconds(self.request)):
            raise forms.ValidationError(signin_limits.refusal(wait), code="locked")
        try:
            return super().clean_old_password()
        except forms.ValidationError:
            if self.request is not None:
                signin_limits.record(self.request)
            raise
