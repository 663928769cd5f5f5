"""Special abilities: each a small named rule that hooks the engine at a defined point.

Stat cards name their abilities (``AircraftStats.abilities``); the catalog
declares them in data. Every ability the engine knows is defined here with
its rule text and source (:data:`ABILITIES`); :data:`KNOWN_ABILITIES` is what
the catalog loader checks names against, so an unknown name is an error when
the catalog is loaded, never a silent no-op. When a battle starts the engine
looks up each aircraft's hook functions once, so an aircraft without
abilities costs nothing in the hot path.

Hook points (each function receives the :class:`~rules.angels20.state.BattleState`
and aircraft ids; ``plane`` is the aircraft holding the ability):

===================  ==========================================================  ===========
hook                 signature                                                   returns
===================  ==========================================================  ===========
initiative           ``fn(state, plane) -> int``                                 bonus to its side's initiative
maneuver             ``fn(state, plane, maneuver) -> int``                       bonus to a maneuver check
attack_dice          ``fn(state, plane, target, dice) -> int``                   new dice count (plane attacks)
attack_modifier      ``fn(state, attacker, target, role) -> int``                per-die modifier; role is "attacker" or "target"
target_number        ``fn(state, attacker, target, number) -> int``              new target number (role of plane: attacker)
damage               ``fn(state, attacker, target, hits, outcome) -> str``       new outcome ("miss", "damage", "destroyed"), called for the target
reposition_options   ``fn(state, plane) -> tuple[int, ...]``                     ways it may adjust its position after the Movement phase
reposition           ``fn(state, plane, option) -> None``                        make that adjustment
can_attack           ``fn(state, attacker, target) -> bool``                     False forbids the attack (both aircraft's abilities)
===================  ==========================================================  ===========

Two rules are data rather than hook functions, because the engine's move
generator needs them up front: ``extra_maneuver`` (after a difficult
maneuver of the first kind, one more of the second kind is allowed in the
same move) and ``darkness`` (may attack in darkness, 000 "EFFECTS OF
DARKNESS"). ``bomber`` marks the bomber rules of 000 "BOMBER STATS", which
the engine applies to every bomber.

Where an ability's text is not in our sources, its reading is a ruling in
``docs/rulings.md`` ("Special abilities").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

HOOKS = (
    "initiative",
    "maneuver",
    "attack_dice",
    "attack_modifier",
    "target_number",
    "damage",
    "reposition_options",
    "reposition",
    "can_attack",
)


@dataclass
class Ability:
    """One special ability: its rule text, where it comes from, and how it hooks the engine."""

    name: str
    text: str
    source: str
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    extra_maneuver: tuple[str, str] | None = None
    darkness: bool = False
    bomber: bool = False


ABILITIES: dict[str, Ability] = {}

# Rules of the land-game appendix (000 "APPENDIX: USING ... PLANES IN THE
# ... LAND GAME"). They rate the miniatures as land-game units and have no
# effect in the air game (ruling "Special abilities"), so the catalog
# rejects them with a message that says so. Agility, also in that table, has
# an air reading below.
LAND_GAME_RULES = frozenset(
    {
        "Aircraft",
        "Antiair",
        "Ace",
        "Inaccurate",
        "Ruthless",
        "Rockets",
        "Steady Firing",
        "Steely Resolve",
        "Superior Armor",
    }
)


def define(
    name: str,
    text: str,
    source: str,
    *,
    extra_maneuver: tuple[str, str] | None = None,
    darkness: bool = False,
    bomber: bool = False,
) -> Ability:
    """Define (or redefine) an ability; hook functions are added with :func:`ability`."""
    ab = Ability(name, text, source, {}, extra_maneuver, darkness, bomber)
    ABILITIES[name] = ab
    return ab


def register(name: str, hook: str, fn: Callable[..., Any]) -> None:
    """Register ``fn`` for the defined ability ``name`` at hook point ``hook``."""
    if hook not in HOOKS:
        raise ValueError(f"unknown hook point {hook!r}; hook points are {HOOKS}")
    if name not in ABILITIES:
        raise ValueError(f"define the ability {name!r} before registering its hooks")
    ABILITIES[name].hooks[hook] = fn


def ability(name: str, hook: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator form of :func:`register`."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        register(name, hook, fn)
        return fn

    return deco


def registered() -> dict[str, tuple[str, ...]]:
    """Ability name -> the hook points it uses."""
    return {name: tuple(sorted(ab.hooks)) for name, ab in ABILITIES.items()}


def unknown_ability_message(name: str) -> str | None:
    """None for a known ability; otherwise why the name is refused."""
    if name in ABILITIES:
        return None
    base = name.rstrip("0123456789 ").strip()
    if base in LAND_GAME_RULES:
        return (
            f"{name!r} is a rule of the land miniatures game (000 'APPENDIX'), "
            "not a special ability of the air game"
        )
    return f"unknown special ability {name!r} (known: {', '.join(sorted(ABILITIES))})"


def hooks_for(abilities: tuple[str, ...]) -> dict[str, tuple[Callable[..., Any], ...]]:
    """The functions an aircraft with these abilities contributes, by hook point."""
    out: dict[str, list[Callable[..., Any]]] = {}
    for name in abilities:
        ab = ABILITIES.get(name)
        if ab is None:
            continue
        for hook, fn in ab.hooks.items():
            out.setdefault(hook, []).append(fn)
    return {hook: tuple(fns) for hook, fns in out.items()}


def extra_maneuvers(abilities: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(first kind, second kind) pairs these abilities allow in one move."""
    out = []
    for name in abilities:
        ab = ABILITIES.get(name)
        if ab is not None and ab.extra_maneuver is not None:
            out.append(ab.extra_maneuver)
    return tuple(sorted(set(out)))


def fights_in_darkness(abilities: tuple[str, ...]) -> bool:
    return any(ABILITIES[n].darkness for n in abilities if n in ABILITIES)


# -- the abilities ----------------------------------------------------------------

ROLL_MANEUVERS = frozenset({"break", "barrel_roll", "split_s"})
TURN_MANEUVERS = frozenset({"scissors", "tight_turn"})

define(
    "Killer Instinct",
    "Rolls one extra attack die against a damaged target.",
    "000 'EXAMPLE OF PLAY' turn 2",
)


@ability("Killer Instinct", "attack_dice")
def _killer_instinct(state: Any, plane: int, target: int, dice: int) -> int:
    # "the Hurricane is now damaged, so the Zeke's Killer Instinct special
    # ability now applies, giving it a bonus attack die."
    return dice + 1 if state.planes[target].damage > 0 else dice


define(
    "Expert Dogfighter",
    "Aircraft attacking this aircraft take -1 per die.",
    "000 'EXAMPLE OF PLAY' turn 3",
)


@ability("Expert Dogfighter", "attack_modifier")
def _expert_dogfighter(state: Any, attacker: int, target: int, role: str) -> int:
    # "The Zeke's Expert Dogfighter ability means that the Hurricane takes a
    # -1 penalty per die."
    return -1 if role == "target" else 0


define(
    "Poor at Altitude",
    "While at altitude 5 or 6, -2 on Climb, Roll and Turn maneuver checks.",
    "000 'HOW TO READ A STAT CARD' (Typhoon Interceptor)",
)


@ability("Poor at Altitude", "maneuver")
def _poor_at_altitude(state: Any, plane: int, maneuver: str) -> int:
    if state.planes[plane].alt < 5:
        return 0
    return -2 if maneuver in ROLL_MANEUVERS | TURN_MANEUVERS | {"climb"} else 0


define(
    "Powered Roll",
    "+1 on Split S maneuver checks.",
    "000 'HOW TO READ A STAT CARD' (Typhoon Interceptor)",
)


@ability("Powered Roll", "maneuver")
def _powered_roll(state: Any, plane: int, maneuver: str) -> int:
    return 1 if maneuver == "split_s" else 0


define(
    "Steady Shooter",
    "Rolls one extra attack die if it attempted no difficult maneuver this game turn.",
    "000 'HOW TO READ A STAT CARD' (Typhoon Interceptor)",
)


@ability("Steady Shooter", "attack_dice")
def _steady_shooter(state: Any, plane: int, target: int, dice: int) -> int:
    return dice if state.planes[plane].dm_tried else dice + 1


define(
    "Practiced Turn",
    "After the Movement phase, may turn one hex side (60 degrees) in its hex.",
    "ruling 'Special abilities' (000 'MOVEMENT AND SPECIAL ABILITIES')",
)


@ability("Practiced Turn", "reposition_options")
def _practiced_turn_options(state: Any, plane: int) -> tuple[int, ...]:
    return (-1, 1)


@ability("Practiced Turn", "reposition")
def _practiced_turn(state: Any, plane: int, option: int) -> None:
    p = state.planes[plane]
    p.facing = (p.facing + option) % 6


define(
    "Rugged",
    "An attack that equals or exceeds its vital armor deals 1 point of damage instead of "
    "destroying it outright, unless it is already damaged.",
    "ruling 'Special abilities'",
)


@ability("Rugged", "damage")
def _rugged(state: Any, attacker: int, target: int, hits: int, outcome: str) -> str:
    if outcome == "destroyed" and state.planes[target].damage == 0:
        return "damage"
    return outcome


define(
    "Boom and Zoom",
    "In a move in which it attempted a Power Dive, it may also attempt one Climb.",
    "ruling 'Special abilities' (publisher's preview: it exceeds the one difficult maneuver limit)",
    extra_maneuver=("power_dive", "climb"),
)

define(
    "Expert Flier",
    "+1 on every maneuver check.",
    "ruling 'Special abilities' (publisher's preview names it among the pilots' abilities)",
)


@ability("Expert Flier", "maneuver")
def _expert_flier(state: Any, plane: int, maneuver: str) -> int:
    return 1


define(
    "Agility",
    "+1 on Turn maneuver checks (Scissors, Tight Turn).",
    "ruling 'Special abilities' (000 'APPENDIX' names it)",
)


@ability("Agility", "maneuver")
def _agility(state: Any, plane: int, maneuver: str) -> int:
    return 1 if maneuver in TURN_MANEUVERS else 0


define(
    "Night Fighter",
    "May attack in darkness.",
    "000 'EFFECTS OF DARKNESS' (name: ruling 'Special abilities'; 003 night fighter cards)",
    darkness=True,
)

define(
    "Bomber",
    "Flies straight or turns only, no other maneuver; defensive guns fire in any direction.",
    "000 'BATTLE OF BRITAIN: LIMITED FUEL' / 'BOMBER ESCORT SCENARIO' (Bomber Stats)",
    bomber=True,
)

KNOWN_ABILITIES = frozenset(ABILITIES)
