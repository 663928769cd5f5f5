"""The accounts pages' forms: every error shown at once next to its field, input kept."""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.db import transaction

from campaign.models import Role


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

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail address exists already: log in, or reset its password."
            )
        return email


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
