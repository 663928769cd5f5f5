"""Roster writes: creating squadrons, pilots and airframes.

A pilot's career (the log, results, claims, awards) is the ``careers`` app's:
``careers.services.pilot_enlist`` enlists a pilot and opens the career log.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction

from angels.errors import RuleViolation
from angels.history import history_reason

from .game_cards import check_game_cards
from .models import QUALITY_SCALES, AircraftType, Airframe, Pilot, Squadron


def clean_and_save(instance: models.Model) -> None:
    """Run model validation (fields and constraints) and turn failures into RuleViolation."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        code = "constraint" if field == "__all__" else "invalid"
        raise RuleViolation(
            "; ".join(messages), field=None if field == "__all__" else field, code=code
        ) from exc
    instance.save()


def squadron_create(
    *, name: str, nation: str, side: str, aircraft_type: AircraftType | None = None, base: str = ""
) -> Squadron:
    if aircraft_type is not None and aircraft_type.side and aircraft_type.side != side:
        raise RuleViolation(
            f"{aircraft_type} flies for the {aircraft_type.side} side, not {side}",
            field="aircraft_type",
            code="invalid",
        )
    squadron = Squadron(name=name, nation=nation, side=side, aircraft_type=aircraft_type, base=base)
    clean_and_save(squadron)
    return squadron


def pilot_create(
    *, squadron: Squadron, name: str, rank: str = "", quality: str = "average",
    quality_scale: str = "card_game", entry_quality: str = "", **characteristics: Any,
) -> Pilot:  # fmt: skip
    """Put a pilot on a squadron's roll (of the squadron's nation). No career log:
    ``careers.services.pilot_enlist`` does this and opens the log."""
    if quality_scale in QUALITY_SCALES and quality not in QUALITY_SCALES[quality_scale]:
        raise RuleViolation(
            f"{quality!r} is not a quality of the {quality_scale} scale ({', '.join(QUALITY_SCALES[quality_scale])})",
            field="quality",
            code="invalid",
        )
    pilot = Pilot(
        squadron=squadron, name=name, rank=rank, nation=squadron.nation,
        quality=quality, quality_scale=quality_scale, entry_quality=entry_quality or quality,
        **characteristics,
    )  # fmt: skip
    clean_and_save(pilot)
    return pilot


def airframe_create(
    *,
    aircraft_type: AircraftType,
    serial: str,
    squadron: Squadron | None = None,
    pilot: Pilot | None = None,
) -> Airframe:
    if pilot is not None and squadron is not None and pilot.squadron_id != squadron.pk:
        raise RuleViolation("the pilot belongs to another squadron", field="pilot", code="invalid")
    airframe = Airframe(aircraft_type=aircraft_type, serial=serial, squadron=squadron, pilot=pilot)
    clean_and_save(airframe)
    return airframe


def aircraft_type_set_game_cards(
    *, aircraft_type_id: int, game_cards: Any, reason: str = ""
) -> AircraftType:
    """Replace the named games' cards of a type (the other games' cards are kept; a game
    given as null is removed). Every block is checked by its game's schema
    (``roster.game_cards``); a bad value is refused naming its path and rule, and
    nothing is stored. Locks the type's row for the read-modify-write."""
    if not isinstance(game_cards, dict):
        raise RuleViolation("an object of cards by game", field="game_cards", code="invalid")
    with transaction.atomic():
        aircraft_type = AircraftType.objects.select_for_update().filter(pk=aircraft_type_id).first()
        if aircraft_type is None:
            raise RuleViolation("no such aircraft type", field="id", code="exists")
        merged = {**(aircraft_type.game_cards or {}), **game_cards}
        merged = {game: block for game, block in merged.items() if block is not None}
        check_game_cards(merged)
        aircraft_type.game_cards = merged
        with history_reason(reason or "game cards edited"):
            aircraft_type.save(update_fields=["game_cards"])
    return aircraft_type
