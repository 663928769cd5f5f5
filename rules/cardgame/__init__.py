"""Pure-Python rules core of the strategic card game (rules file ``003_…``).

No Django import here: the Django layer (models, API, pages) wraps it.

Driving it::

    from rules.dice import Dice
    from rules.cardgame import (default_setup, new_game, replay, view_for,
                               action_from_json, action_to_json, GameState)

    setup = default_setup()               # or default_setup(planes=[{...}, ...]) from the DB
    state = new_game(setup, Dice(seed))   # shuffles, rolls for the first turn
    state.current_side()                  # "allied" / "axis" / None (game over or
                                          # waiting for an engine/table result)
    state.legal_actions()                 # sorted frozen actions; action_to_json(a)
    state.apply(action_from_json(data))   # raises RuleError(rule, message) if illegal
    view_for(state, "allied", log_since=n)  # what that player may see (JSON-able)
    state.to_json() / GameState.from_json(data)   # persist between requests
    replay(setup, seed, recorded_actions)  # the canonical record: same state

The record of a game is ``(setup.to_json(), seed, [action_to_json(a), ...])``
including the umpire's ``SetEngagementMode`` / ``EnterResult`` actions.
"""

from .actions import (
    UMPIRE,
    Action,
    Advance,
    Assign,
    ChooseLoss,
    Discard,
    EnterResult,
    GiveExperience,
    PlayEvent,
    ScrambleFighter,
    SetEngagementMode,
    Unassign,
    action_from_json,
    action_to_json,
)
from .cards import (
    ALLIED,
    AXIS,
    EVENT_LIST,
    MISSIONS,
    SIDES,
    MissionSpec,
    PlaneSpec,
    experience_bonus,
    load_plane_catalog,
    plane_specs,
    production_draws,
)
from .engagement import (
    AttackRoll,
    Combatant,
    Damage,
    Engagement,
    EngagementResult,
    Kill,
    Resolution,
    SurvivalRoll,
    resolve_card,
)
from .events import EVENT_RULES, EventRule
from .state import (
    PHASES,
    RULES_VERSION,
    GameSetup,
    GameState,
    RuleError,
    default_setup,
    new_game,
    other,
    replay,
)
from .visibility import spectator_view, view_for

__all__ = [
    "ALLIED",
    "AXIS",
    "EVENT_LIST",
    "EVENT_RULES",
    "MISSIONS",
    "PHASES",
    "RULES_VERSION",
    "SIDES",
    "UMPIRE",
    "Action",
    "Advance",
    "Assign",
    "AttackRoll",
    "ChooseLoss",
    "Combatant",
    "Damage",
    "Discard",
    "Engagement",
    "EngagementResult",
    "EnterResult",
    "EventRule",
    "GameSetup",
    "GameState",
    "GiveExperience",
    "Kill",
    "MissionSpec",
    "PlaneSpec",
    "PlayEvent",
    "RuleError",
    "ScrambleFighter",
    "Resolution",
    "SetEngagementMode",
    "SurvivalRoll",
    "Unassign",
    "action_from_json",
    "action_to_json",
    "default_setup",
    "experience_bonus",
    "load_plane_catalog",
    "new_game",
    "other",
    "plane_specs",
    "production_draws",
    "replay",
    "resolve_card",
    "spectator_view",
    "view_for",
]
