"""The new-battle page for a game other than Angels 20 (issue 25): only that game's settings
as its system describes them (its scenarios, its computer pilots or a person per side, the
time per decision), not Angels 20's aircraft slots and rule switches. Reached with
``?system=<name>`` (the game select's "Choose" button, no script needed); posted to the
same page, read by battles.new_battle._other_game_form."""

from __future__ import annotations

from typing import Any

from angels.errors import RuleViolation
from rules.tactical import DEFAULT_SYSTEM, TacticalSystem, tactical_systems

from . import other_games
from .forms import errors_by_field
from .play_seats import DEADLINE_UNITS


def chosen_game(name: Any) -> TacticalSystem | None:
    """The registered game other than Angels 20 called ``name`` that offers scenarios."""
    if not isinstance(name, str) or name == DEFAULT_SYSTEM:
        return None
    game = tactical_systems().get(name)
    return game if game is not None and other_games.offers_scenarios(game) else None


def game_context(
    post: Any, game: TacticalSystem, errors: list[RuleViolation], *, games: list[dict[str, Any]], person: str
) -> dict[str, Any]:  # fmt: skip
    """The page's fields for ``game``, what was entered kept, each problem by its field."""
    post = post or {}
    by_field = errors_by_field(errors)
    scenarios = list(getattr(game, other_games.SCENARIOS).items())
    return {
        "games": games,
        "system": game.name,
        "game": game,
        "scenarios": scenarios,
        "scenario": post.get("scenario", scenarios[0][0] if scenarios else ""),
        "person": person,
        "sides": [
            {
                "side": side,
                "pilots": list(game.pilots),
                "policy": post.get(f"{side}_policy", game.pilots[0]),
                "user": post.get(f"{side}_user", ""),
                "errors": by_field.get(f"{side}_policy", []) + by_field.get(f"{side}_user", []),
            }
            for side in game.sides
        ],
        "chosen": {k: str(post.get(k, "")) for k in ("deadline_amount", "deadline_unit")},
        "deadline_units": list(DEADLINE_UNITS),
        "errors": by_field,
        "error_count": sum(map(len, by_field.values())),
    }
