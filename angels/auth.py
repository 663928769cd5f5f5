"""API tokens: ``POST /api/auth/token/`` trades a username and password for the
user's token, and ``/accounts/token/`` shows it (and makes a new one) to a
signed-in user. DRF's own ``authtoken`` (one token per user, kept in the
database, revocable by deleting it; README "Signing in to the API")."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.settings import api_settings

from .authentication import refuse_while_waiting
from .throttling import ScopedRateThrottle


class TokenObtainApi(ObtainAuthToken):
    """Your API token for your username and password: send it as ``Authorization: Token <key>``."""

    permission_classes = [AllowAny]
    # the project's parsers (angels.parsers: deep JSON is a 400), not ObtainAuthToken's own
    parser_classes = cast("list[type[BaseParser]]", api_settings.DEFAULT_PARSER_CLASSES)
    throttle_classes = [ScopedRateThrottle]
    # every request counted per client address (angels.throttling.client_address), and
    # wrong passwords with every other sign-in's (angels.signin_limits): 429s, not guesses
    throttle_scope = "token"

    @extend_schema(
        request=AuthTokenSerializer,
        responses=inline_serializer("TokenOutput", {"token": serializers.CharField()}),
        auth=[],
    )
    def post(self, request, *args, **kwargs):
        refuse_while_waiting(request)  # the password not even checked while the address waits
        return super().post(request, *args, **kwargs)


@login_required
def token_page(request: HttpRequest) -> HttpResponse:
    """The signed-in user's token; a POST makes a new one (the old one stops working)."""
    user = cast(User, request.user)  # signed in: @login_required turned the anonymous away
    if request.method == "POST":
        with transaction.atomic():
            Token.objects.filter(user=user).delete()
            Token.objects.create(user=user)
        messages.success(request, "A new token was made; the old one no longer works.")
        return redirect("api-token-page")
    token = Token.objects.filter(user=user).first()
    return render(request, "accounts/token.html", {"token": token})
