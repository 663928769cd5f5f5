"""The small interface every tactical system implements.

A campaign hands an engagement to a tactical system and gets back one shape
of result, whichever game resolved it. *Angels 20* (000) implements it in
``rules.angels20.system``; *Air Force* (001) and *Air Pirates* (002) can join
later (``docs/architecture.md`` says how each one's sequence of play fits).

The shape follows python-chess and OpenSpiel: a frozen scenario and a seed
in; then ``current_side()``, sorted ``legal_actions()``, a checked
``apply(action)`` that raises an error citing the rule, ``undo()``,
``clone()``, ``is_over()``, ``result()``, and a JSON round trip. A battle's
canonical record is ``(system, scenario JSON, seed, actions as JSON)``:
``replay`` of that record gives the same state, log and result.

Systems join a registry by themselves: each declares a Python entry point in
the ``angels.tactical_systems`` group (pyproject.toml), loaded once by
:func:`tactical_systems`; this package imports none of them. A test registers
a system of its own with :func:`registered`.

One module per job, everything re-exported here (``from rules.tactical import X``):

- :mod:`.interface`: what an action, a battle, a computer pilot and a system are;
- :mod:`.registry`: the systems the product can fly, by name;
- :mod:`.results`: the one result shape and its check;
- :mod:`.decisions`: who decides now and what each side may see;
- :mod:`.steps`: a decision built step by step;
- :mod:`.board`: what the pages draw (the map, the phase, the log's sentences);
- :mod:`.odds`: a decision's odds beside the choice;
- :mod:`.crews`: who flew each aircraft (its ``pilot_ref``, by its number) and what
  the pages call it (its type and pilot quality);
- :mod:`.counts`: the value test the shape checks share.
"""

from rules.tactical.board import (
    Board,
    BoardMarker,
    BoardPart,
    BoardPick,
    BoardPiece,
    BoardUnit,
    board_problems,
    describe_board,
    log_sentence,
    phase_text,
)
from rules.tactical.crews import AircraftName, aircraft_names, pilot_refs
from rules.tactical.decisions import (
    choose_for,
    deciding_sides,
    decision_side,
    legal_for,
    listed_for,
    log_for,
    reveal,
    revealed,
    sealed_count,
    seen_whole,
    view_for,
)
from rules.tactical.interface import ComputerPilot, TacticalAction, TacticalBattle, TacticalSystem
from rules.tactical.odds import DecisionOdds, OddsModifier, decision_odds
from rules.tactical.registry import (
    DEFAULT_SYSTEM,
    ENTRY_POINT_GROUP,
    UnknownSystem,
    register,
    registered,
    system_named,
    tactical_systems,
    unregister,
)
from rules.tactical.results import (
    AIRCRAFT_DETAIL_KEYS,
    AIRCRAFT_KEYS,
    BAILOUT_DICE,
    BAILOUT_OUTCOMES,
    KILL_DETAIL_KEYS,
    KILL_KEYS,
    RESULT_KEYS,
    AircraftDetail,
    AircraftOutcome,
    Bailout,
    BailoutDie,
    Fate,
    KillDetail,
    KillOutcome,
    Side,
    TacticalResult,
    check_result,
)
from rules.tactical.steps import (
    DecisionSteps,
    StepRefused,
    action_from_steps,
    decision_steps,
    steps_check,
    steps_from_text,
    steps_text,
)

__all__ = [
    # interface
    "ComputerPilot",
    "TacticalAction",
    "TacticalBattle",
    "TacticalSystem",
    # registry
    "DEFAULT_SYSTEM",
    "ENTRY_POINT_GROUP",
    "UnknownSystem",
    "register",
    "registered",
    "system_named",
    "tactical_systems",
    "unregister",
    # results
    "AIRCRAFT_DETAIL_KEYS",
    "AIRCRAFT_KEYS",
    "BAILOUT_DICE",
    "BAILOUT_OUTCOMES",
    "KILL_DETAIL_KEYS",
    "KILL_KEYS",
    "RESULT_KEYS",
    "AircraftDetail",
    "AircraftOutcome",
    "Bailout",
    "BailoutDie",
    "Fate",
    "KillDetail",
    "KillOutcome",
    "Side",
    "TacticalResult",
    "check_result",
    # decisions
    "choose_for",
    "decision_side",
    "deciding_sides",
    "legal_for",
    "listed_for",
    "log_for",
    "reveal",
    "revealed",
    "seen_whole",
    "sealed_count",
    "view_for",
    # steps
    "DecisionSteps",
    "StepRefused",
    "action_from_steps",
    "decision_steps",
    "steps_check",
    "steps_from_text",
    "steps_text",
    # board
    "Board",
    "BoardMarker",
    "BoardPart",
    "BoardPick",
    "BoardPiece",
    "BoardUnit",
    "board_problems",
    "describe_board",
    "log_sentence",
    "phase_text",
    # odds
    "DecisionOdds",
    "OddsModifier",
    "decision_odds",
    # crews
    "AircraftName",
    "aircraft_names",
    "pilot_refs",
]
