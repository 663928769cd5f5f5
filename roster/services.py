"""Roster writes: creating squadrons, pilots and airframes, and logging careers."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from angels.errors import RuleViolation

from .models import (
    QUALITY_SCALES,
    AircraftType,
    Airframe,
    Pilot,
    PilotEvent,
    PilotEventKind,
    Squadron,
)


def _clean_and_save(instance: Any) -> None:
    """Run model validation (fields and constraints) and turn failures into RuleViolation."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        rule = "constraint" if field == "__all__" else "field"
        raise RuleViolation(
            "; ".join(messages), field=None if field == "__all__" else field, rule=rule
        ) from exc
    instance.save()


def squadron_create(
    *, name: str, nation: str, side: str, aircraft_type: AircraftType | None = None, base: str = ""
) -> Squadron:
    if aircraft_type is not None and aircraft_type.side and aircraft_type.side != side:
        raise RuleViolation(
            f"{aircraft_type} flies for the {aircraft_type.side} side, not {side}",
            field="aircraft_type",
            rule="side",
        )
    squadron = Squadron(name=name, nation=nation, side=side, aircraft_type=aircraft_type, base=base)
    _clean_and_save(squadron)
    return squadron


def pilot_log(
    *, pilot: Pilot, kind: str, campaign_turn: int | None = None, battle_ref: str = "",
    details: dict[str, Any] | None = None, dice: list[Any] | None = None, recorded_by: str = "",
) -> PilotEvent:  # fmt: skip
    return PilotEvent.objects.create(
        pilot=pilot, kind=kind, campaign_turn=campaign_turn, battle_ref=battle_ref,
        details=details or {}, dice=dice or [], recorded_by=recorded_by,
    )  # fmt: skip


@transaction.atomic
def pilot_create(
    *, squadron: Squadron, name: str, rank: str = "", quality: str = "average", quality_scale: str = "card_game",
    campaign_turn: int | None = None, recorded_by: str = "", **characteristics: Any,
) -> Pilot:  # fmt: skip
    """Enlist a pilot in a squadron (of the squadron's nation) and open the career log."""
    if quality_scale in QUALITY_SCALES and quality not in QUALITY_SCALES[quality_scale]:
        raise RuleViolation(
            f"{quality!r} is not a quality of the {quality_scale} scale ({', '.join(QUALITY_SCALES[quality_scale])})",
            field="quality",
            rule="quality scale",
        )
    pilot = Pilot(
        squadron=squadron, name=name, rank=rank, nation=squadron.nation,
        quality=quality, quality_scale=quality_scale, **characteristics,
    )  # fmt: skip
    _clean_and_save(pilot)
    pilot_log(
        pilot=pilot, kind=PilotEventKind.JOINED, campaign_turn=campaign_turn,
        details={"squadron": squadron.name, "quality": quality}, recorded_by=recorded_by,
    )  # fmt: skip
    return pilot


def airframe_create(
    *,
    aircraft_type: AircraftType,
    serial: str,
    squadron: Squadron | None = None,
    pilot: Pilot | None = None,
) -> Airframe:
    if pilot is not None and squadron is not None and pilot.squadron_id != squadron.pk:
        raise RuleViolation("the pilot belongs to another squadron", field="pilot", rule="squadron")
    airframe = Airframe(aircraft_type=aircraft_type, serial=serial, squadron=squadron, pilot=pilot)
    _clean_and_save(airframe)
    return airframe
