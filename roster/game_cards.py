"""Each game's aircraft card on an aircraft type (issue 25, "Aircraft data per game").

``AircraftType.game_cards`` holds the cards of the games whose values are not columns:
``{"airforce": {...}, "airpirates": {...}}``, each block checked by its game's schema
in ``rules/`` (``rules.airforce.card.DATA_CARD``, ``rules.airpirates.card.CONTROL_CARD``).
The *Angels 20* card and the card game's values stay columns (the engine and many
pages read them); :func:`game_card` presents them in the same shape, so every game's
block reads alike. :func:`check_game_cards` is the one check: the catalog loader, the
model's ``clean`` (the admin form, the exchange import) and the API call it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from angels.errors import RuleViolation
from rules.airforce.card import DATA_CARD
from rules.airpirates.card import CONTROL_CARD
from rules.game_cards import CardProblem, CardSchema

if TYPE_CHECKING:
    from .models import AircraftType

SCHEMAS: dict[str, CardSchema] = {"airforce": DATA_CARD, "airpirates": CONTROL_CARD}
GAMES = ("angels20", "cardgame", *SCHEMAS)
CARD_GAME_FIELDS = (
    "card_type", "card_af", "card_sf", "card_gf", "night_fighter", "deck", "deck_copies",
)  # fmt: skip
A20_SOURCE = "000_3e786b822f6e109d.txt"
CARD_GAME_SOURCE = "003_93ec40e0c2d0344c.txt (PLANE DECK CARD LIST)"


def game_cards_problems(value: Any) -> list[CardProblem]:
    """Every problem of a ``game_cards`` value, each path starting ``game_cards.``."""
    if not isinstance(value, dict):
        return [CardProblem("game_cards", "an object of cards by game")]
    problems = []
    for game, block in value.items():
        schema = SCHEMAS.get(game)
        if schema is None:
            problems.append(
                CardProblem(
                    f"game_cards.{game}", f"not a game with a card here ({', '.join(SCHEMAS)})"
                )
            )
            continue
        for p in schema.check(block):
            path = f"game_cards.{game}.{p.path}" if p.path else f"game_cards.{game}"
            problems.append(CardProblem(path, p.message, p.rule))
    return problems


def problem_text(problem: CardProblem) -> str:
    rule = f" [{problem.rule}]" if problem.rule else ""
    return f"{problem.path}: {problem.message}{rule}"


def check_game_cards(value: Any) -> None:
    """Raise a RuleViolation naming the first bad value's path and rule (nothing stored)."""
    problems = game_cards_problems(value)
    if problems:
        first = problems[0]
        raise RuleViolation(first.message, field=first.path, rule=first.rule, code="invalid")


def _column_card(
    aircraft_type: AircraftType, fields: tuple[str, ...], printed_source: str
) -> dict[str, Any]:
    estimated = set(aircraft_type.estimated_fields)
    values = {name: getattr(aircraft_type, name) for name in fields}
    provenance = {
        name: {
            "kind": "estimated" if name in estimated else "printed",
            "source": aircraft_type.source or printed_source,
        }
        for name in fields
    }
    return {"values": values, "provenance": provenance}


def game_card(aircraft_type: AircraftType, game: str) -> dict[str, Any] | None:
    """One game's block of a type, read-only: ``{"values", "provenance"}``, ``{"reason"}``,
    or None when the type has none for that game. Angels 20 and the card game come from
    the columns (a value named in ``estimated_fields`` is estimated)."""
    from .models import TACTICAL_FIELDS

    if game == "angels20":
        return _column_card(aircraft_type, TACTICAL_FIELDS, A20_SOURCE)
    if game == "cardgame":
        if not aircraft_type.deck:
            return {"reason": "not in either plane deck of the card game (003)"}
        return _column_card(aircraft_type, CARD_GAME_FIELDS, CARD_GAME_SOURCE)
    if game not in SCHEMAS:
        raise ValueError(f"{game!r} is not one of {', '.join(GAMES)}")
    block = (aircraft_type.game_cards or {}).get(game)
    return dict(block) if isinstance(block, dict) else None


def cards_for_game(game: str, names: Any = None) -> dict[str, dict[str, Any]]:
    """The values of ``game``'s card on each aircraft type that has one (as organisers
    edited them), by type name; ``names`` limits it to those types. What a tactical system
    that flies the roster's cards (its ``roster_cards``) is handed to build a battle."""
    from .models import AircraftType

    rows = AircraftType.objects.all()
    if names is not None:
        rows = rows.filter(name__in=list(names))
    cards = {}
    for name, blocks in rows.values_list("name", "game_cards"):
        block = (blocks or {}).get(game) if isinstance(blocks, dict) else None
        if isinstance(block, dict) and isinstance(block.get("values"), dict):
            cards[name] = dict(block["values"])
    return cards
