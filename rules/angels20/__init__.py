"""Angels 20 tactical rules engine (pure Python; no Django).

Public API
----------
Scenarios and inputs (``rules.angels20.stats``, ``.scenario``, ``.aircraft``):
    AircraftStats, Rules, Flight, FlightMember, flight(), AircraftSetup,
    Scenario (to_json/from_json), validate_flight(), dogfight(),
    intercept_the_interceptors(), limited_fuel(), schnellbomber(),
    standard_scenario(), bomber_escort(), custom(), CATALOGUE.
Battle (``rules.angels20.state``):
    new_battle(scenario, dice=None, seed=0) -> BattleState
    replay(scenario, seed, actions) -> BattleState
    BattleState: current_side(), legal_actions(), apply(action),
    apply_unchecked(action), undo(), clone(), is_over(), result(), tailing(a, b),
    condition(i), to_json()/from_json(), dumps()/loads(), log, planes, vp, turn, phase.
    Every other rule is a function of the state in its section module, e.g.
    ``rules.angels20.plans.legal_move_plans(state, plane=None, statuses=True)``
    (whole-move plans for programs), ``rules.angels20.attacks.can_attack(state, a, t)``.
    IllegalAction(rule, message).
Actions (``rules.angels20.actions``):
    Activate, Straight, Turn, Maneuver, EndMove, MovePlan, Attack, Decline,
    ChoosePosition, Direct, EnterClouds, Reposition, Pass, action_from_json().
Optional rules (``Rules`` fields, 000 "OPTIONAL RULES" / "SPECIAL CONDITIONS"):
    midair_collision, clouds / random_clouds / cloud_shapes (CloudShape),
    flak_fields, barrage_balloons, night, fighter_direction, searchlights,
    later_sixes; the scenario's territory feeds the pilot survival roll.
Dice (``rules.dice``): Dice, ScriptedDice, Roll.
Geometry (``rules.angels20.hexmap``): hex_map(), HexMap, in_arc(), target_aspect().
Abilities (``rules.angels20.abilities``): ABILITIES, KNOWN_ABILITIES, define(),
    register(), ability(), HOOKS, unknown_ability_message().

Event log (``BattleState.log``): JSON-ready dicts, each with ``"e"`` (kind)
and ``"turn"``; hexes are ``[col, row]`` on the flat-topped odd-q map,
facings 0-5 clockwise from north. Kinds: battle_start, initiative,
turn_position, direction, movement_phase, activate, maneuver, step (position
after each hex), flak, balloon, status, clouds_check, retreat, exit, move_end,
stacking, reposition, pass, collision, illumination, attack_phase, attack
(range, aspect, target number, each die raw / modified / hits, armor
comparison, outcome), condition, destroyed, survival, vp, decline,
no_attacks, end_turn, game_over; "clouds" after battle_start when clouds are
in play.

Result of a finished battle (``BattleState.result()``)::

    {"scenario": str, "kind": str,
     "winner": "axis" | "allied" | None,          # None = draw
     "reason": str,
     "victory_points": {"axis": float, "allied": float},
     "turns_played": int,
     "aircraft": [{"id", "name", "side", "pilot", "pilot_ref",
                   "fate": "destroyed" | "retreated" | "damaged" | "intact",
                   "exit_edge", "scored_exit", "damage",
                   "destroyed_by", "destroyed_by_pilot_ref",
                   "survival_roll", "survival_modifier", "pilot_survived"}],
     "kills": [{"attacker", "attacker_pilot_ref", "target", "target_pilot_ref", "turn"}]}
"""

from rules.dice import Dice, Roll, ScriptedDice

from . import abilities
from .actions import (
    Action,
    Activate,
    Attack,
    ChoosePosition,
    Decline,
    Direct,
    EndMove,
    EnterClouds,
    Maneuver,
    MovePlan,
    Pass,
    Reposition,
    Straight,
    Turn,
    action_from_json,
)
from .aircraft import CATALOGUE
from .hexmap import HexMap, hex_map, in_arc, target_aspect
from .scenario import (
    AircraftSetup,
    Flight,
    FlightMember,
    Scenario,
    ScenarioError,
    bomber_escort,
    custom,
    dogfight,
    flight,
    intercept_the_interceptors,
    limited_fuel,
    schnellbomber,
    standard_scenario,
    validate_flight,
)
from .state import BattleState, IllegalAction, new_battle, replay
from .stats import AircraftStats, CloudShape, Rules

__all__ = [
    "CATALOGUE",
    "Action",
    "Activate",
    "AircraftSetup",
    "AircraftStats",
    "Attack",
    "BattleState",
    "ChoosePosition",
    "CloudShape",
    "Decline",
    "Dice",
    "Direct",
    "EndMove",
    "EnterClouds",
    "Flight",
    "FlightMember",
    "HexMap",
    "IllegalAction",
    "Maneuver",
    "MovePlan",
    "Pass",
    "Reposition",
    "Roll",
    "Rules",
    "Scenario",
    "ScenarioError",
    "ScriptedDice",
    "Straight",
    "Turn",
    "abilities",
    "action_from_json",
    "bomber_escort",
    "custom",
    "dogfight",
    "flight",
    "hex_map",
    "in_arc",
    "intercept_the_interceptors",
    "limited_fuel",
    "new_battle",
    "replay",
    "schnellbomber",
    "standard_scenario",
    "target_aspect",
    "validate_flight",
]
