"""Effect, timing and target of every event card (003 "EVENT DECK CARD LIST").

Each card's printed note is turned into an :class:`EventRule`. The rulings
behind each line are recorded in ``docs/rulings.md`` (section "Strategic card
game"). Vocabulary:

* ``player`` -- who may play it: ``own_turn`` (the side whose turn it is, in a
  phase step, not during a mission), ``attacker`` / ``defender`` (in a window of
  the mission being resolved), ``either`` (either side, in a mission window).
* ``effect`` -- ``modifier`` (a roll modifier for the rest of the current
  mission), ``draw_plane``, ``draw_mission``, ``gain_pp``, ``pilot_training``,
  ``discard_mission``, ``ground_plane``, ``extra_flak``.
* ``force`` -- the roll it changes: ``af`` (air attack), ``sf``, ``gf``,
  ``payload`` (SF on a strategic mission, GF on a ground support mission),
  ``all`` (every force roll), ``af_or_gf`` (the player chooses).
* ``scope`` -- which planes, relative to the side playing it: ``target`` (one
  plane, the action's target), ``own_fighters``, ``own_bombers``,
  ``own_heavy``, ``enemy_planes``, ``enemy_fighters``, ``all_fighters``,
  ``all_planes``.
* ``target`` -- what the action must name: ``own_plane``, ``enemy_plane``,
  ``mission`` or nothing; ``target_filter`` narrows a plane target to
  ``fighter``, ``bomber`` or ``non_heavy_bomber``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EventRule:
    name: str
    effect: str
    player: str
    force: str = ""
    amount: int = 0
    scope: str = ""
    target: str = ""
    target_filter: str = ""


def _mod(name, player, force, amount, scope, target="", target_filter=""):
    return EventRule(name, "modifier", player, force, amount, scope, target, target_filter)


EVENT_RULES: dict[str, EventRule] = {
    r.name: r
    for r in (
        # "Enemy Planes get AF-1": the escorting side (either side may play it)
        # gives every opposing plane on the mission -1 to its air attack roll.
        _mod("Fighter Escort", "either", "af", -1, "enemy_planes"),
        _mod(
            "Daring Low Level Raid", "attacker", "sf", +1, "target", "own_plane", "non_heavy_bomber"
        ),
        _mod("Inclement Weather", "either", "all", -1, "all_planes"),
        _mod("Overcast", "either", "all", -1, "all_planes"),
        _mod("Saturation Bombing", "attacker", "sf", +2, "own_heavy"),
        _mod("Carpet Bombing", "attacker", "sf", +2, "own_heavy"),
        _mod("Incendiary Bombs", "attacker", "sf", +2, "target", "own_plane", "bomber"),
        _mod("High Explosive Bombs", "attacker", "gf", +2, "target", "own_plane", "bomber"),
        EventRule("Exceed Quotas", "draw_plane", "own_turn"),
        EventRule("Increase Tempo", "draw_mission", "own_turn"),
        EventRule("Industrialization", "gain_pp", "own_turn", amount=1),
        EventRule("Pilot Training", "pilot_training", "own_turn", amount=3),
        _mod("Superior Tactics", "either", "af", +1, "own_fighters"),
        _mod("Chaff", "attacker", "af", -2, "enemy_fighters"),
        EventRule("Storm", "discard_mission", "defender", target="mission"),
        EventRule("Navigation Error", "ground_plane", "defender", target="enemy_plane"),
        _mod("Out of the Sun", "either", "af", +2, "target", "own_plane", "fighter"),
        _mod("Surprise", "attacker", "af", -3, "target", "enemy_plane", "fighter"),
        _mod("Precision Bombsights", "attacker", "payload", +1, "target", "own_plane", "bomber"),
        EventRule("Decoy Target", "discard_mission", "defender", target="mission"),
        _mod("Rockets", "either", "af_or_gf", +1, "target", "own_plane"),
        _mod("Radar Towers", "defender", "af", +1, "own_fighters"),
        _mod("Night Raid", "attacker", "sf", +1, "own_bombers"),
        _mod("Daylight Raid", "attacker", "gf", +1, "own_bombers"),
        EventRule("Heavy Flak", "extra_flak", "defender", amount=1),
        EventRule("Air Defense", "extra_flak", "defender", amount=1),
        _mod("Dogfight", "either", "af", +1, "all_fighters"),
        _mod("Set Piece Attack", "attacker", "sf", +1, "own_bombers"),
        _mod("Pathfinder", "attacker", "sf", +1, "own_bombers"),
        _mod("Strafing Runs", "attacker", "gf", +2, "target", "own_plane"),
        EventRule("Round the Clock Sorties", "draw_mission", "own_turn"),
        EventRule("Boost Production", "gain_pp", "own_turn", amount=1),
        EventRule("Series of Blunders", "discard_mission", "defender", target="mission"),
        _mod("Scramble", "defender", "af", +1, "own_fighters"),
    )
}
