"""Pure-Python rules core of the strategic card game (rules file ``003_…``).

No Django import here: the Django layer (models, API, pages) wraps it.

    from battles.engine.dice import Dice
    from campaign.game import default_setup, new_game, view_for

    state = new_game(default_setup(), Dice(seed))
    state.legal_actions(); state.apply(action); view_for(state, "allied")
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
    SurvivalRoll,
    register_resolver,
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
from .views import spectator_view, view_for

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
    "register_resolver",
    "replay",
    "resolve_card",
    "spectator_view",
    "view_for",
]
