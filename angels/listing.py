"""Search, filters and pages of the lists (issue 16 "Find things"), the pages' half.

Each list has one ``django_filters.FilterSet`` in its app's ``filters.py``; the API's
list views use it through ``DjangoFilterBackend`` (a bad value is a 400 naming the
query parameter, ``angels.api``), the pages through :func:`filtered_page`: the same
filters, the form keeping what was typed, a plain message for a bad value, and
pages of ``PAGE_SIZE`` rows whose links keep the query (``{% querystring %}``).
"""

from __future__ import annotations

import re
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django_filters.fields import ModelChoiceField

from .numbers import MAX_ID

PAGE_SIZE = 25


def _whole_number(value: Any, low: int, high: int) -> int | None:
    """ASCII digits (``angels.numbers``: ``int()`` also reads '١') within ``low..high``; a
    ValidationError coded ``format`` or ``range``, as the API's hand-parsed numbers are."""
    if value in (None, ""):
        return None
    text = str(value).strip()
    if not re.fullmatch(r"[0-9]+", text):
        raise ValidationError("Enter a whole number.", code="format")
    if len(text) > 18 or not low <= int(text) <= high:
        raise ValidationError(f"Enter a number from {low} to {high}.", code="range")
    return int(text)


class WholeNumberField(forms.Field):
    def __init__(self, *args: Any, min_value: int = 0, max_value: int = MAX_ID, **kwargs: Any):
        self.min_value, self.max_value = min_value, max_value
        kwargs.setdefault("widget", forms.NumberInput(attrs={"min": min_value, "max": max_value}))
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> int | None:
        return _whole_number(value, self.min_value, self.max_value)


class WholeNumberFilter(django_filters.Filter):
    """A whole number 0..MAX_ID (django-filter's NumberFilter takes decimals such as 1941.5,
    and a number past the database's integers reached the database)."""

    field_class = WholeNumberField


class IdChoiceField(ModelChoiceField):
    """A row chosen by its id: not digits is ``format``, too large ``range``, no such row
    ``exists`` (a 400 naming the parameter in the API, a message on the page)."""

    def to_python(self, value: Any) -> Any:
        if _whole_number(value, 0, MAX_ID) is None:
            return None
        try:
            return super().to_python(value)
        except ValidationError as exc:
            raise ValidationError(exc.messages[0], code="exists") from exc


class IdChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = IdChoiceField


def filter_problems(filterset: django_filters.FilterSet) -> list[str]:
    """Every bad filter value in plain words, named by its label."""
    form = filterset.form
    return [
        f"{form.fields[name].label if name in form.fields else name}: {message}"
        for name, messages in form.errors.items()
        for message in messages
    ]


def filtered_page(
    request: HttpRequest,
    filterset_class: type[django_filters.FilterSet],
    queryset: QuerySet[Any],
    *,
    per_page: int = PAGE_SIZE,
) -> dict[str, Any]:
    """The context of a filtered list page: ``filter`` (its form keeps the query),
    ``problems`` (bad values: then no rows rather than rows the user did not ask for),
    ``page_obj`` (``Paginator.get_page``: a bad page number is the first or last page),
    ``rows`` and ``page_links`` (elided page numbers)."""
    filterset = filterset_class(request.GET or None, queryset=queryset, request=request)
    problems = filter_problems(filterset) if filterset.is_bound and not filterset.is_valid() else []
    rows = queryset.none() if problems else filterset.qs
    page = Paginator(rows, per_page).get_page(request.GET.get("page"))
    return {
        "filter": filterset,
        "problems": problems,
        "page_obj": page,
        "rows": page.object_list,
        "page_links": list(page.paginator.get_elided_page_range(page.number)),
        "filtered": any(v for k, v in request.GET.items() if k != "page"),
    }
