"""Django's login, password change and password reset pages with password guessing
limited per client address (issue 23, angels.signin_limits): a refusal is the form
again, the message on it naming the wait, with status 429."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpResponse

from angels import signin_limits

from .forms import LimitedAuthenticationForm, LimitedPasswordChangeForm, QueuedPasswordResetForm


def _locked(form: Any) -> bool:
    return any(e.code == "locked" for errors in form.errors.as_data().values() for e in errors)


class LoginView(auth_views.LoginView):
    authentication_form = LimitedAuthenticationForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if _locked(form):
            response.status_code = 429
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = LimitedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if _locked(form):
            response.status_code = 429
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Each request counts, whatever the address asked for (the answer is the same for
    an address with an account and one without: "if an account has it...")."""

    form_class = QueuedPasswordResetForm

    def form_valid(self, form: Any) -> HttpResponse:
        wait = signin_limits.wait_seconds(self.request, signin_limits.RESET)
        if wait:
            form.add_error(None, signin_limits.refusal(wait, signin_limits.RESET))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        signin_limits.record(self.request, signin_limits.RESET)
        return super().form_valid(form)
