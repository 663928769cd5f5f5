"""Writing a campaign as one document (issue 16, "Export and import"); the shape: ``document``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import models
from django.db.models import Q

from battles.models import Battle
from careers.models import (
    AppliedResult,
    AwardDefinition,
    CareerSettings,
    Claim,
    PilotAward,
    PilotEvent,
    TableBattle,
)
from roster.models import AircraftType, Airframe, Pilot, Squadron

from ..access import campaign_pilots
from ..history_access import may_see_history
from ..models import Campaign, CampaignAction, CampaignMember, CampaignPlane
from .document import (
    FORMAT,
    HISTORY_TABLES,
    KIND,
    TABLES,
    TEXT_COLUMNS,
    map_seat_users,
    rewrite_json,
    rewrite_text,
    seal,
)

USER_FIELDS = ("username", "first_name", "last_name")


def label(model: type[models.Model]) -> str:
    return f"{model._meta.app_label}.{model._meta.model_name}"


def user_model_label() -> str:
    from django.contrib.auth import get_user_model

    return label(get_user_model())


def campaign_battles(campaign: Campaign) -> models.QuerySet[Battle]:
    """The campaign's engine battles: their key names the campaign (campaign.engagements)."""
    return Battle.objects.filter(source_key__startswith=f"campaign:{campaign.pk}:")


def collect(campaign: Campaign) -> dict[str, models.QuerySet[Any]]:
    """Every row an export of ``campaign`` holds, by table, each ordered by id.

    The pilots are the campaign's own (``campaign.access.campaign_pilots``:
    serving in it, or free on its squadrons' rolls -- never one serving in
    another campaign, though he fly for a squadron both campaigns play with),
    plus anyone its rows name (a claim's victim, a plane's pilot), with their
    squadrons; the airframes of those squadrons and pilots; the aircraft types
    all of them fly or claimed; every career entry and award of its own pilots,
    and of a pilot only named, those of this campaign.
    """
    planes = CampaignPlane.objects.filter(campaign=campaign)
    tables = TableBattle.objects.filter(campaign=campaign)
    claims = Claim.objects.filter(battle__in=tables)
    named = set(planes.exclude(pilot=None).values_list("pilot_id", flat=True))
    named |= set(claims.values_list("pilot_id", flat=True))
    named |= set(claims.exclude(victim=None).values_list("victim_id", flat=True))
    own = campaign_pilots(campaign).values("pk")
    pilots = Pilot.objects.filter(Q(pk__in=own) | Q(pk__in=named))
    # a pilot only named (he serves elsewhere now): his entries of this campaign only
    careers_of = Q(pilot__in=own) | Q(pilot__in=named, campaign=campaign)
    squadron_ids = set(campaign.squadrons.values_list("pk", flat=True))
    squadron_ids |= set(pilots.values_list("squadron_id", flat=True))
    squadrons = Squadron.objects.filter(pk__in=squadron_ids)
    plane_airframes = set(planes.exclude(airframe=None).values_list("airframe_id", flat=True))
    airframes = Airframe.objects.filter(
        Q(squadron__in=squadron_ids) | Q(pilot__in=pilots) | Q(pk__in=plane_airframes)
    ).distinct()
    type_ids = set(squadrons.exclude(aircraft_type=None).values_list("aircraft_type_id", flat=True))
    type_ids |= set(airframes.values_list("aircraft_type_id", flat=True))
    type_ids |= set(planes.values_list("aircraft_type_id", flat=True))
    type_ids |= set(claims.exclude(victim_type=None).values_list("victim_type_id", flat=True))
    rows: dict[str, models.QuerySet[Any]] = {
        "roster.aircrafttype": AircraftType.objects.filter(pk__in=type_ids),
        "roster.squadron": squadrons,
        "campaign.campaign": Campaign.objects.filter(pk=campaign.pk),
        "roster.pilot": pilots,
        "roster.airframe": airframes,
        "campaign.campaignmember": CampaignMember.objects.filter(campaign=campaign),
        "campaign.campaignaction": CampaignAction.objects.filter(campaign=campaign),
        "campaign.campaignplane": planes,
        "careers.careersettings": CareerSettings.objects.filter(campaign=campaign),
        "careers.awarddefinition": AwardDefinition.objects.filter(campaign=campaign),
        "battles.battle": campaign_battles(campaign),
        "careers.tablebattle": tables,
        "careers.appliedresult": AppliedResult.objects.filter(campaign=campaign),
        "careers.claim": claims,
        "careers.pilotevent": PilotEvent.objects.filter(careers_of),
        "careers.pilotaward": PilotAward.objects.filter(careers_of),
    }
    assert tuple(rows) == TABLES
    return {name: qs.order_by("pk") for name, qs in rows.items()}


@dataclass
class _Refs:
    """Database id -> file ref, per table; users by username."""

    refs: dict[str, dict[int, int]] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)

    def __call__(self, table: str, pk: int) -> int | None:
        return self.refs.get(table, {}).get(pk)


def _plain(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _key_value(f: models.Field, value: Any, refs: _Refs, users: set[int]) -> Any:
    target = label(f.related_model)  # type: ignore[arg-type]
    if value is None:
        return None
    if target == user_model_label():
        users.add(value)
        return refs.users.get(value)
    return refs(target, value)


def row_fields(model: type[models.Model]) -> list[models.Field]:
    """The columns a row of ``model`` carries in a document (all but its id)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def serialise_row(
    table: str, obj: models.Model, refs: _Refs, users: set[int], *, model_fields: list[Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in model_fields:
        value = getattr(obj, f.attname)
        if f.is_relation:
            out[f.name] = _key_value(f, value, refs, users)
        elif isinstance(f, models.JSONField):
            out[f.name] = map_seat_users(
                table, f.name, rewrite_json(table, f.name, value, refs), _username(refs, users)
            )
        elif (table, f.name) in TEXT_COLUMNS:
            out[f.name] = rewrite_text(value, refs)
        else:
            out[f.name] = _plain(value)
    return out


def _username(refs: _Refs, users: set[int]) -> Callable[[Any], Any]:
    """A seat's user id as its username (the user then travels in the file's users)."""

    def name(pk: Any) -> Any:
        if isinstance(pk, int) and pk in refs.users:
            users.add(pk)
            return refs.users[pk]
        return pk

    return name


def _seen_ids(qs: models.QuerySet[Any], viewer: Any) -> list[int]:
    """The rows of ``qs`` whose history ``viewer`` may read (``campaign.history_access``:
    the same rule as the history pages); ``None`` (a management command) or staff: all."""
    if viewer is None or viewer.is_staff or viewer.is_superuser:
        return list(qs.values_list("pk", flat=True))
    return [obj.pk for obj in qs if may_see_history(viewer, obj)]


def _history_rows(
    table: str, qs: models.QuerySet[Any], refs: _Refs, users: set[int], viewer: Any
) -> list:
    model = apps.get_model(table)
    history: Any = getattr(model, "history").model  # noqa: B009 (added by simple_history)
    columns = [f for f in history._meta.concrete_fields if f.name not in ("history_id",)]
    rows = []
    ids = _seen_ids(qs, viewer)
    for record in history.objects.filter(id__in=ids).order_by("history_id"):
        row: dict[str, Any] = {}
        for f in columns:
            value = getattr(record, f.attname)
            if f.name == "id":
                row["id"] = refs(table, value)
            elif f.is_relation:
                row[f.name] = _key_value(f, value, refs, users)
            elif isinstance(f, models.JSONField):
                row[f.name] = rewrite_json(table, f.name, value, refs)
            else:
                row[f.name] = _plain(value)
        rows.append(row)
    return rows


def campaign_export(campaign: Campaign, *, viewer: Any = None) -> dict[str, Any]:
    """The whole campaign as one document (``campaign.exchange.document``).

    ``viewer`` is who asks (the API's user): the history rows are only those of
    rows whose history page he may read (an organiser: not those of a pilot
    serving elsewhere); ``None`` (``manage.py campaign_export``) or staff: all.
    """
    from django.contrib.auth import get_user_model

    rows = collect(campaign)
    refs = _Refs()
    for table, qs in rows.items():
        refs.refs[table] = {pk: n for n, pk in enumerate(qs.values_list("pk", flat=True), 1)}
    User = get_user_model()
    refs.users = dict(User.objects.values_list("pk", User.USERNAME_FIELD))
    users: set[int] = set()
    tables: dict[str, list[dict[str, Any]]] = {}
    for table, qs in rows.items():
        model = qs.model
        columns = row_fields(model)
        m2m = list(model._meta.many_to_many)
        out = []
        for obj in qs:
            row: dict[str, Any] = {"ref": refs(table, obj.pk)}
            row |= serialise_row(table, obj, refs, users, model_fields=columns)
            for f in m2m:
                target = label(f.related_model)
                mapped = (
                    refs(target, pk) for pk in getattr(obj, f.name).values_list("pk", flat=True)
                )
                row[f.name] = sorted(r for r in mapped if r is not None)
            out.append(row)
        tables[table] = out
    history = {
        table: _history_rows(table, rows[table], refs, users, viewer) for table in HISTORY_TABLES
    }
    people = [
        dict(zip(USER_FIELDS, values, strict=True))
        for values in User.objects.filter(pk__in=users)
        .order_by(User.USERNAME_FIELD)
        .values_list(*USER_FIELDS)
    ]
    return seal(
        {"format": FORMAT, "kind": KIND, "users": people, "tables": tables, "history": history}
    )
