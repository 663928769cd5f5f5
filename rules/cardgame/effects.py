"""What the card game does to an interception that another system resolves.

When the game waits for an engine (or table) result, :attr:`GameState.engagement_input`
names the planes and their summed air-attack modifiers. A tactical system needs
more than a sum: which event cards are in play and who played them at which
plane (003 "EVENT DECK CARD LIST"), how many flak rolls the defender makes
(003 "INTERCEPTION SEGMENT": "one extra attack due to ground fire & Flak ...
AF = 7", plus Heavy Flak and Air Defense), and which plane cards carry the NF
mark (003 "PLANE DECK CARD NOTATION": "NF = Night Fighter"; "Defending Night
Fighters get AF +1").

:func:`engagement_effects` computes that on demand from the waiting state, so
the recorded state and log (and the card-game goldens) stay as they were.
The engine's reading of each effect is in :mod:`rules.angels20.interception`
and docs/rulings.md ("Engine engagements: the card game's effects").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import EVENT_RULES
from .engagement import CARD_CREDIT_RULE, FLAK, FLAK_AF, EngagementResult, Kill
from .phases import AWAITING_RESULT

if TYPE_CHECKING:
    from .state import GameState

# The event cards whose effect reaches an interception: the modifiers of the
# air attack roll (force "af", "all", or a Rockets card played for AF) and the
# extra flak rolls (003 "EVENT DECK CARD LIST").
INTERCEPTION_EVENTS = frozenset(
    name
    for name, rule in EVENT_RULES.items()
    if rule.effect == "extra_flak"
    or (rule.effect == "modifier" and rule.force in ("af", "all", "af_or_gf"))
)


def engagement_effects(state: GameState) -> dict[str, Any] | None:
    """The card game's effects on the interception the game waits for (None if it waits for none).

    ``events`` -- every interception event card in play on the mission, in the
    order played: ``{"name", "side" (who played it), "target" (a plane id or
    None), "force"}``; a Rockets card played for GF is left out (it is a
    bombing bonus). ``flak_rolls`` / ``flak_af`` -- the defender's flak rolls
    (1 + Heavy Flak + Air Defense) at AF 7. ``night_fighters`` -- the plane ids
    on the mission whose card is marked NF; ``defending_night_fighters`` --
    those of them the defender scrambled (003: "Defending Night Fighters get
    AF +1").
    """
    if state.step != AWAITING_RESULT or state.engagement_input is None:
        return None
    mission = state.engagement_input["mission_id"]
    on = state.attackers_on(mission) + state.defenders_on(mission)
    events = [
        {"name": m["name"], "side": m["side"], "target": m["target"], "force": m["force"]}
        for m in state.mission_mods
        if m["name"] in INTERCEPTION_EVENTS and m["force"] in ("af", "all")
    ]
    nf = [p for p in on if state.plane_spec(p).night_fighter]
    return {
        "mission_id": mission,
        "events": events,
        "flak_rolls": 1 + state.extra_flak,
        "flak_af": FLAK_AF,
        "night_fighters": nf,
        "defending_night_fighters": [p for p in nf if p in state.scrambled],
    }


def resolve_flak_only(
    engagement: dict[str, Any], effects: dict[str, Any], dice: Any, *, mode: str
) -> EngagementResult:
    """A mission nobody intercepts, resolved for the engine: only the flak rolls.

    003 "INTERCEPTION SEGMENT": the defender's flak rolls d10s at AF 7 whether
    or not a fighter scrambled; with no defender there is no battle to fly
    (ruling "Engine engagements: flak"), so the rolls are made here, as the
    card game makes them. Each hit shoots down one attacker, the one the card
    game's default loss would give up (fewest experience markers, ties in
    mission order), credited to the flak.
    """
    queue = sorted(engagement["attackers"], key=lambda c: c["experience"])
    used: list[tuple[str, int, int]] = []
    losses: list[str] = []
    for i in range(int(effects["flak_rolls"])):
        purpose = f"flak {i + 1}"
        die = dice.d10(purpose)
        used.append((purpose, 10, die))
        if die >= int(effects["flak_af"]) and queue:
            losses.append(queue.pop(0)["plane_id"])
    return EngagementResult(
        mode=mode,
        mission_id=engagement["mission_id"],
        losses=tuple(losses),
        kills=tuple(Kill(FLAK, victim, CARD_CREDIT_RULE) for victim in losses),
        dice=tuple(used),
    )
