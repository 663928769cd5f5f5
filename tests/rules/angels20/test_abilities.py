"""Special abilities (rules/angels20/abilities.py): each one with and without it.

Every test flies the same situation twice with scripted dice - once with the
ability on the card and once without - and checks the hook point the ability
uses: the maneuver check (``bonus_parts`` / ``total`` / ``success``), the attack
dice count, the per-die modifier, the damage outcome, the moves allowed, the
REPOSITION phase after movement, or attack eligibility in darkness. Sources:
000 "HOW TO READ A STAT CARD" (Poor at Altitude, Powered Roll, Steady Shooter),
000 "EXAMPLE OF PLAY" (Killer Instinct, Expert Dogfighter), 000 "MOVEMENT AND
SPECIAL ABILITIES" (order of repositioning), 000 "EFFECTS OF DARKNESS", and
docs/rulings.md "Special abilities" for readings the scan does not print.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from pathlib import Path

import pytest
from engine_helpers import advance, at_attack, battle, events, plane, play, pre

from rules.angels20 import (
    CATALOGUE,
    Activate,
    Attack,
    IllegalAction,
    Maneuver,
    MovePlan,
    Rules,
    abilities,
)
from rules.angels20.actions import (
    MANEUVER_BONUS,
    PASS,
    STRAIGHT,
    TURN_LEFT,
    TURN_RIGHT,
    Reposition,
)
from rules.angels20.attacks import can_attack
from rules.angels20.plans import legal_move_plans

BF, HURRI = "Bf 109E Wingman", "Hurricane Mk I"
SHARED = Path(__file__).resolve().parents[4] / "shared" / "data" / "angels20_aircraft.tsv"
CATALOG_DIR = Path(__file__).resolve().parents[3] / "rules" / "catalog"

# Each ability in abilities.ABILITIES and the test(s) below that show it.
TESTED = {
    "Killer Instinct": "test_killer_instinct_extra_die_only_against_a_damaged_target",
    "Expert Dogfighter": "test_expert_dogfighter_minus_one_per_die_to_its_attackers",
    "Poor at Altitude": "test_maneuver_abilities",
    "Powered Roll": "test_maneuver_abilities",
    "Steady Shooter": "test_steady_shooter_extra_die_only_without_a_difficult_maneuver",
    "Practiced Turn": "test_practiced_turn_*",
    "Rugged": "test_rugged_survives_one_vital_armor_hit_only_while_undamaged",
    "Boom and Zoom": "test_boom_and_zoom_*",
    "Expert Flier": "test_maneuver_abilities",
    "Agility": "test_maneuver_abilities",
    "Night Fighter": "test_night_fighter_attacks_in_darkness",
    "Bomber": "tests/engine/test_bombers.py",
}


def card(base: str, *names: str):
    """The catalogue card ``base`` with exactly these abilities (and no others)."""
    return dataclasses.replace(CATALOGUE[base], abilities=tuple(names))


def test_every_ability_has_a_test():
    assert set(TESTED) == set(abilities.KNOWN_ABILITIES)


# -- maneuver check abilities ----------------------------------------------------

MANEUVER_CASES = [
    ("break", 1),
    ("barrel_roll", -1),
    ("climb", 0),
    ("power_dive", 1),
    ("split_s", 3),
    ("scissors", 0),
    ("tight_turn", 1),
]


def expected_bonus(name: str, kind: str, alt: int) -> int:
    """The printed / ruled effect of each maneuver ability on one check."""
    if name == "Poor at Altitude":
        # 000 "HOW TO READ A STAT CARD": "While at altitude 5 or 6, ... -2 on
        # Climb, Roll, and Turn maneuver checks" - never on the Power Dive.
        return -2 if alt >= 5 and kind != "power_dive" else 0
    if name == "Powered Roll":
        return 1 if kind == "split_s" else 0  # "+1 on Split S maneuver checks"
    if name == "Agility":
        return 1 if kind in ("scissors", "tight_turn") else 0  # ruling: Turn maneuvers
    if name == "Expert Flier":
        return 1  # ruling: every maneuver check
    raise AssertionError(name)


def maneuver_check(names: tuple[str, ...], kind: str, option: int, alt: int, dice_sum: int):
    """The Bf 109E (Axis, first player) attempts ``kind`` as the first hex of its move."""
    dice = [dice_sum - dice_sum // 2, dice_sum // 2]
    s = battle(
        [plane(BF, "axis", 0, 0, 0, alt, stats=card(BF, *names)), plane(HURRI, "allied", 8, 0, 0)],
        [1, 1, 6, 6, *dice],  # the Allies win the initiative: the Axis moves first
    )
    play(s, Activate(0, 2), Maneuver(kind, option))
    (e,) = events(s, "maneuver")
    return e


@pytest.mark.parametrize("name", ["Poor at Altitude", "Powered Roll", "Agility", "Expert Flier"])
@pytest.mark.parametrize(
    "kind, option, alt",
    # no Climb at altitude 6 (000 "ALTITUDE")
    [(k, o, a) for k, o in MANEUVER_CASES for a in (4, 5, 6) if (k, a) != ("climb", 6)],
)
def test_maneuver_abilities(name, kind, option, alt):
    """000 "MANEUVER CHECKS": 2d6 + bonus vs 10; an ability adds a part to the bonus."""
    stat = MANEUVER_BONUS[kind]
    base = getattr(CATALOGUE[BF], stat)
    extra = expected_bonus(name, kind, alt)
    # a bonus turns a 9 (fail) into a 10; a penalty turns a 10 (success) into an 8
    dice_sum = (10 if extra < 0 else 9) - base
    without = maneuver_check((), kind, option, alt, dice_sum)
    with_it = maneuver_check((name,), kind, option, alt, dice_sum)
    assert without["bonus_parts"] == [[stat, base]]
    assert without["total"] == dice_sum + base
    if extra == 0:
        assert with_it == without
        return
    assert with_it["bonus_parts"] == [[stat, base], ["ability", extra]]
    assert with_it["total"] == without["total"] + extra
    assert with_it["success"] != without["success"]
    assert with_it["success"] is (extra > 0)


def test_maneuver_abilities_stack():
    """Abilities add up: the Typhoon's Poor at Altitude and Powered Roll on a Split S at 5."""
    e = maneuver_check(("Poor at Altitude", "Powered Roll"), "split_s", 3, 5, 6)
    assert e["bonus_parts"] == [["roll", 4], ["ability", -2], ["ability", 1]]
    assert e["total"] == 6 + 4 - 2 + 1


# -- attack dice and modifiers ---------------------------------------------------


def two_turns(attacker, target, dice1, dice2, *, rng: int = 2):
    """The attacker sits ``rng`` hexes behind the target (6 o'clock, target number 4)
    and attacks in turns 1 and 2; the target can't shoot back. Returns the state."""
    s = battle(
        [pre(BF, "axis", 0, rng, 0, stats=attacker), pre(HURRI, "allied", 0, 0, 0, stats=target)],
        [6, 6, 1, 1] + list(dice1) + [6, 6, 1, 1] + list(dice2),
    )
    advance(s)
    s.apply(Attack(0, 1))
    if s.is_over():
        return s
    advance(s)
    s.apply(Attack(0, 1))
    return s


def test_killer_instinct_extra_die_only_against_a_damaged_target():
    """000 "EXAMPLE OF PLAY" turn 2: "the Hurricane is now damaged, so the Zeke's Killer
    Instinct special ability now applies, giving it a bonus attack die."

    Turn 1: 5 dice at range 2 score 4 hits (armor 3) - the Hurricane is damaged.
    Turn 2: 6 dice with the ability, 5 without."""
    first = [6, 6, 1, 1, 1]  # 4 hits: damage
    for names, second in (((), 5), (("Killer Instinct",), 6)):
        s = two_turns(card(BF, *names), card(HURRI), first, [1] * second)
        a1, a2 = events(s, "attack")
        assert (a1["dice"], a1["outcome"]) == (5, "damage")  # undamaged target: no bonus
        assert a2["dice"] == second
        assert s.planes[1].damage == 1


def test_expert_dogfighter_minus_one_per_die_to_its_attackers():
    """000 "EXAMPLE OF PLAY" turn 3: "The Zeke's Expert Dogfighter ability means that the
    Hurricane takes a -1 penalty per die." Five 4s at target number 4: five hits without,
    none with; the ability does nothing for its holder's own attacks."""
    fours = [4] * 5
    for attacker, target, mod, hits in (
        (card(BF), card(HURRI), 0, 5),
        (card(BF), card(HURRI, "Expert Dogfighter"), -1, 0),
        (card(BF, "Expert Dogfighter"), card(HURRI), 0, 5),
    ):
        s = at_attack([pre(BF, "axis", 0, 2, 0, stats=attacker), pre(HURRI, "allied", 0, 0, 0, stats=target)], fours)  # fmt: skip
        s.apply(Attack(0, 1))
        (a,) = events(s, "attack")
        assert (a["target_number"], a["modifier"], a["hits"]) == (4, mod, hits)
        if mod:
            assert a["modifiers"] == [["#1 Hurricane Mk I ability", -1]]
            assert [r[1] for r in a["rolls"]] == [3] * 5


@pytest.mark.parametrize(
    "names, maneuver, dice",
    [
        ((), False, (5, 5)),
        ((), True, (5, 5)),
        (("Steady Shooter",), False, (6, 6)),
        (("Steady Shooter",), True, (5, 6)),  # the extra die is back next turn
    ],
)
def test_steady_shooter_extra_die_only_without_a_difficult_maneuver(names, maneuver, dice):
    """000 "HOW TO READ A STAT CARD": "if this aircraft attempted no difficult maneuvers
    this game turn, it rolls one extra attack die" - a failed attempt counts (ruling
    "Special abilities"). Turn 1 the Bf 109E tries a Climb and fails (1+1); turn 2 it flies
    straight."""
    n1, n2 = dice
    s = battle(
        [pre(BF, "axis", 0, 2, 0, stats=card(BF, *names)), pre(HURRI, "allied", 0, 0, 0)],
        [6, 6, 1, 1] + ([1, 1] if maneuver else []) + [1] * n1 + [6, 6, 1, 1] + [1] * n2,
    )
    play(s, Activate(1, 2), STRAIGHT, STRAIGHT, Activate(0, 2))
    play(s, Maneuver("climb") if maneuver else STRAIGHT, STRAIGHT)
    if maneuver:
        assert events(s, "maneuver")[0]["success"] is False and s.planes[0].alt == 3
    s.apply(Attack(0, 1))
    advance(s)
    s.apply(Attack(0, 1))
    assert [a["dice"] for a in events(s, "attack")] == [n1, n2]


def test_rugged_survives_one_vital_armor_hit_only_while_undamaged():
    """Ruling "Special abilities": an attack reaching its vital armor deals 1 damage
    instead of destroying it, unless it is already damaged. Three 6s = 6 hits against
    the Hurricane's vital armor 6."""
    kill = [6, 6, 6, 1, 1, 1, 1]  # 7 dice at range 1
    s = two_turns(card(BF), card(HURRI), kill, [], rng=1)
    (a,) = events(s, "attack")
    assert (a["hits"], a["vital_armor"], a["outcome"]) == (6, 6, "destroyed")
    assert events(s, "destroyed")[0]["how"] == "vital armor"

    s = two_turns(card(BF), card(HURRI, "Rugged"), kill, kill, rng=1)
    a1, a2 = events(s, "attack")
    assert (a1["hits"], a1["outcome"], a1["damage"]) == (6, "damage", 1)
    assert (a2["hits"], a2["outcome"]) == (6, "destroyed")  # damaged: no second reprieve
    assert s.planes[1].out == 1


# -- Boom and Zoom: a Climb after a Power Dive in the same move -------------------

BZ = ("Boom and Zoom",)
DIVE, CLIMB = Maneuver("power_dive", 1), Maneuver("climb")


def bz_battle(names=BZ, dice=()):
    return battle(
        [plane(BF, "axis", 0, 0, 0, 3, stats=card(BF, *names)), plane(HURRI, "allied", 8, 0, 0)],
        [1, 1, 6, 6, *dice],  # the Axis moves first
    )


def maneuvers_in(actions):
    return sorted({a for a in actions if isinstance(a, Maneuver)})


def test_boom_and_zoom_climb_after_a_power_dive():
    """Ruling "Special abilities" (publisher's preview: Boom and Zoom exceeds the one
    difficult maneuver limit, 000 "DIFFICULT MANEUVERS"): after a Power Dive the same move
    may attempt one Climb - and nothing else - and then no more."""
    for names in ((), BZ):
        s = bz_battle(names, [6, 6, 6, 6])
        play(s, Activate(0, 3), DIVE)
        assert s.planes[0].alt == 2
        after_dive = maneuvers_in(s.legal_actions())
        if not names:
            assert after_dive == []
            with pytest.raises(IllegalAction, match="one difficult maneuver"):
                s.apply(CLIMB)
            continue
        assert after_dive == [CLIMB]
        assert set(s.legal_actions()) == {STRAIGHT, TURN_LEFT, TURN_RIGHT, CLIMB}
        s.apply(CLIMB)
        assert s.planes[0].alt == 3
        assert maneuvers_in(s.legal_actions()) == []  # the extra maneuver is used


def test_boom_and_zoom_no_climb_before_the_dive():
    """The Climb comes after the dive, not before (ruling "Special abilities")."""
    s = bz_battle(BZ, [1, 1])
    play(s, Activate(0, 3), CLIMB)
    assert maneuvers_in(s.legal_actions()) == []


def test_boom_and_zoom_later_in_the_move_and_high_speed():
    """The Climb may come any later hex of that move, but still not in the hex right after
    the dive at high speed (000 "High Speed": no maneuvers in consecutive hexes)."""
    s = bz_battle(BZ, [6, 6])
    play(s, Activate(0, 4), DIVE, STRAIGHT)
    assert maneuvers_in(s.legal_actions()) == [CLIMB]
    s = bz_battle(BZ, [6, 6])
    play(s, Activate(0, 5), DIVE)  # speed 5 is the Bf 109E's high speed
    assert maneuvers_in(s.legal_actions()) == []
    s.apply(STRAIGHT)
    assert maneuvers_in(s.legal_actions()) == [CLIMB]


def test_boom_and_zoom_move_plans():
    """legal_move_plans offers the same: (Power Dive, Climb) only with the ability, never
    a Climb before the dive or any other second maneuver; such a plan applies."""

    def kinds(s):
        return {
            tuple(m.kind for m in p.steps if isinstance(m, Maneuver))
            for p in legal_move_plans(s, 0)
            if p.speed == 3
        }

    single = {(), *((k,) for k, _ in MANEUVER_CASES)}
    assert kinds(bz_battle(())) == single
    assert kinds(bz_battle(BZ)) == single | {("power_dive", "climb")}
    plan = MovePlan(0, 3, (DIVE, CLIMB, STRAIGHT))
    assert plan in legal_move_plans(bz_battle(BZ), 0)
    s = bz_battle(BZ, [6, 6, 6, 6])
    s.apply(plan)
    assert [e["maneuver"] for e in events(s, "maneuver")] == ["power_dive", "climb"]
    assert s.planes[0].alt == 3 and s.planes[0].moved
    with pytest.raises(IllegalAction, match="one difficult maneuver"):
        bz_battle((), [6, 6]).apply(plan)


# -- Practiced Turn: the REPOSITION phase after movement ---------------------------

PT = ("Practiced Turn",)


def pt_battle(axis_names, allied_names=(), init=(6, 6, 1, 1)):
    """The Bf 109E ends at the origin facing N; the Hurricane one hex NE of it (at its
    2 o'clock, outside its front arc) facing N, so neither can shoot."""
    return at_attack(
        [
            pre(BF, "axis", 0, 0, 0, stats=card(BF, *axis_names)),
            pre(HURRI, "allied", 1, -1, 0, stats=card(HURRI, *allied_names)),
        ],
        [1] * 7,
        init=init,
    )


def test_practiced_turn_turns_one_hex_side_after_movement():
    """Ruling "Special abilities": after the Movement phase it may turn one hex side in
    its hex (000 "MOVEMENT AND SPECIAL ABILITIES"). Turning right brings the Hurricane
    into the front arc; turning left or passing does not."""
    s = pt_battle(())  # without the ability: no REPOSITION phase, straight to attacks
    kinds = [e["e"] for e in s.log if e["turn"] == 1]
    assert kinds[kinds.index("attack_phase") - 1] == "move_end" and "reposition" not in kinds
    assert not events(s, "attack") and s.turn == 2  # no shot: the turn went by

    for option, facing, shot in ((1, 1, True), (-1, 5, False), (None, 0, False)):
        s = pt_battle(PT)
        assert s.phase == "reposition" and s.current_side() == 0
        assert s.legal_actions() == [Reposition(0, -1), Reposition(0, 1), PASS]
        before = (s.planes[0].hex, s.planes[0].alt)
        s.apply(PASS if option is None else Reposition(0, option))
        p = s.planes[0]
        assert (p.hex, p.alt, p.facing) == (*before, facing)
        if shot:
            assert s.phase == "attack" and Attack(0, 1) in s.legal_actions()
            s.apply(Attack(0, 1))
            assert events(s, "attack")[0]["range"] == 1
        else:
            assert not events(s, "attack") and s.turn == 2
        if option is not None:
            (r,) = events(s, "reposition")
            assert (r["plane"], r["option"], r["facing"]) == (0, option, facing)


@pytest.mark.parametrize("init, first", [((6, 6, 1, 1), 1), ((1, 1, 6, 6), 0)])
def test_practiced_turn_first_player_declares_first_then_alternate(init, first):
    """000 "MOVEMENT AND SPECIAL ABILITIES": "the first player declares ... first. Declare
    the use of special abilities one at a time, alternating between players, until both
    players have used all special abilities they wish to use." Each aircraft adjusts once;
    a side that passes is done (ruling "Special abilities")."""
    s = at_attack(
        [
            pre(BF, "axis", -4, 0, 0, stats=card(BF, *PT)),  # 0
            pre(BF, "axis", 4, 0, 0, stats=card(BF, *PT)),  # 1
            pre(HURRI, "allied", -4, -6, 3, stats=card(HURRI, *PT)),  # 2
            pre(HURRI, "allied", 4, -6, 3, stats=card(HURRI, *PT)),  # 3
        ],
        init=init,
    )
    second = 1 - first
    mine = {0: (0, 1), 1: (2, 3)}
    assert s.phase == "reposition" and s.current_side() == first
    a, b = mine[first]
    x, y = mine[second]
    assert {r.plane for r in s.legal_actions() if isinstance(r, Reposition)} == {a, b}
    s.apply(Reposition(a, 1))
    assert s.current_side() == second  # alternate
    assert {r.plane for r in s.legal_actions() if isinstance(r, Reposition)} == {x, y}
    s.apply(Reposition(x, -1))
    assert s.current_side() == first
    assert s.legal_actions() == [Reposition(b, -1), Reposition(b, 1), PASS]
    with pytest.raises(IllegalAction, match="each aircraft adjusts once"):
        s.apply(Reposition(a, -1))
    s.apply(PASS)  # the first player is done; b never turns
    assert s.phase == "reposition" and s.current_side() == second
    s.apply(Reposition(y, 1))
    assert s.phase != "reposition"  # nothing left to declare
    assert [r["plane"] for r in events(s, "reposition")] == [a, x, y]
    assert events(s, "pass")[0]["side"] == ("axis", "allied")[first]
    facings = {0: 0, 1: 0, 2: 3, 3: 3}
    turned = {a: 1, x: -1, y: 1}
    for i, f in facings.items():
        assert s.planes[i].facing == (f + turned.get(i, 0)) % 6
    with pytest.raises(IllegalAction, match="after the Movement phase"):
        s.apply(Reposition(b, 1))


def test_practiced_turn_only_its_owner_side_is_asked():
    """Only sides with an aircraft holding the ability declare: the Allied Hurricane has it,
    the Axis first player has nothing to declare, so the Allies are asked."""
    s = pt_battle((), PT, init=(1, 1, 6, 6))  # the Axis is first player
    assert s.phase == "reposition" and s.current_side() == 1
    assert s.legal_actions() == [Reposition(1, -1), Reposition(1, 1), PASS]


# -- Night Fighter: may attack in darkness ------------------------------------------


def test_night_fighter_attacks_in_darkness():
    """000 "EFFECTS OF DARKNESS": no attack without "a special ability allowing it to
    attack in darkness", fighter direction or an illuminated target; -1 per die. The
    target's ability does not help its attacker."""
    dark = Rules(night="darkness")

    def shoot(attacker, target, rules, can=True):
        return at_attack(
            [pre(BF, "axis", 0, 2, 0, stats=attacker), pre(HURRI, "allied", 0, 0, 0, stats=target)],
            [1] * 5 if can else [],  # with no shot the next initiative rolls at once
            rules=rules,
        )

    s = shoot(card(BF, "Night Fighter"), card(HURRI), dark)
    assert s.phase == "attack" and Attack(0, 1) in s.legal_actions()
    s.apply(Attack(0, 1))
    (a,) = events(s, "attack")
    assert a["dice"] == 5 and ["darkness", -1] in a["modifiers"]

    for attacker, target, rules, can in (
        (card(BF), card(HURRI), dark, False),
        (card(BF), card(HURRI, "Night Fighter"), dark, False),
        (card(BF), card(HURRI), Rules(), True),
    ):
        s = shoot(attacker, target, rules, can)
        assert can_attack(s, 0, 1) is can
        if not can:
            assert not events(s, "attack") and s.turn == 2
            assert {e["side"] for e in events(s, "no_attacks")} == {"axis", "allied"}


# -- the registry and the catalog's names --------------------------------------------


def _split(names: str) -> list[str]:
    out = []
    for n in names.split(";"):
        n = re.sub(r"\s*\(.*\)\s*$", "", n.strip())  # "Bomber (straight or turn only; ...)"
        if n:
            out.append(n)
    return out


def _tsv_abilities() -> set[str]:
    with SHARED.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    # the tokens' text has a ';' inside its parentheses: drop them before splitting
    return {a for r in rows for a in _split(re.sub(r"\([^)]*\)", "", r["abilities"] or ""))}


def _catalog_abilities() -> set[str]:
    names: set[str] = set()
    for path in sorted(CATALOG_DIR.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                names.update(_split(row.get("abilities") or ""))
                if (row.get("night_fighter") or "").lower() in ("yes", "true", "1"):
                    names.add("Night Fighter")
    return names


@pytest.mark.skipif(not SHARED.exists(), reason="shared/data is not beside the project")
def test_known_abilities_cover_the_shared_data_and_the_catalog():
    """Issue: implement every ability that appears on a card in ../shared/data/ and the
    catalog; an unknown one is an error when the catalog is loaded."""
    tsv = _tsv_abilities()
    assert {"Bomber", "Boom and Zoom", "Practiced Turn", "Rugged", "Killer Instinct"} <= tsv
    assert tsv <= abilities.KNOWN_ABILITIES, tsv - abilities.KNOWN_ABILITIES
    catalog = _catalog_abilities()
    assert "Poor at Altitude" in catalog
    assert catalog <= abilities.KNOWN_ABILITIES, catalog - abilities.KNOWN_ABILITIES
    for name in tsv | catalog:
        assert abilities.unknown_ability_message(name) is None


def test_unknown_ability_messages():
    assert abilities.unknown_ability_message("Rugged") is None
    for land in ("Steady Firing", "Superior Armor 2", "Steely Resolve 2", "Inaccurate 1"):
        msg = abilities.unknown_ability_message(land)
        assert msg is not None and "land" in msg and "APPENDIX" in msg, land
    msg = abilities.unknown_ability_message("Laser Cannon")
    assert msg is not None and msg.startswith("unknown special ability 'Laser Cannon'")
    assert "Rugged" in msg  # names the known ones


def test_builtin_cards_name_only_known_abilities_or_land_game_rules():
    """The built-in estimated cards (aircraft.py) carry a few land-game rules of the
    Appendix from the tsv; they are no air-game ability and have no effect."""
    for stats in CATALOGUE.values():
        for name in stats.abilities:
            msg = abilities.unknown_ability_message(name)
            assert msg is None or "land miniatures game" in msg, (stats.name, name)


def test_abilities_have_text_and_source_and_hooks_are_known():
    for name, ab in abilities.ABILITIES.items():
        if name not in abilities.KNOWN_ABILITIES:
            continue  # a test's temporary ability
        assert ab.text and ab.source, name
        assert set(ab.hooks) <= set(abilities.HOOKS), name
        assert ab.hooks or ab.extra_maneuver or ab.darkness or ab.bomber, name


def test_built_in_cards_carry_only_known_abilities():
    """The engine's own stat cards name no land-game rule (ruling "Special abilities")."""
    from rules.angels20.aircraft import CATALOGUE

    for card in CATALOGUE.values():
        for name in card.abilities:
            assert abilities.unknown_ability_message(name) is None, (card.name, name)
