"""API plumbing shared by every app: the exception handler."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import RuleViolation


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn domain errors into HTTP 400 responses that name the field and the rule."""
    if isinstance(exc, RuleViolation):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            body: dict[str, Any] = {
                k: [str(m) for e in v for m in e.messages] for k, v in exc.error_dict.items()
            }
        else:
            body = {"detail": exc.messages}
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
