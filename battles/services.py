"""Battle writes: create a battle (validated, nothing stored on bad input), fly it
in a task exactly once, fail it with its message, retry it, sweep stale ones,
fan batches out and summarise them."""

from __future__ import annotations

import math
import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from angels.errors import RuleViolation, is_citation
from roster.models import AircraftType, Pilot
from rules.angels20 import Dice, Flight, FlightMember, Rules, Scenario, ScenarioError, new_battle
from rules.angels20 import scenario as engine_scenarios
from rules.angels20.scenario import DEFAULT_HEIGHT, DEFAULT_WIDTH
from rules.angels20.stats import CLOUD_KINDS, LIGHTING, CloudShape
from rules.angels20.stats import SIDES as ENGINE_SIDES
from rules.dice import derive_seed

from .catalogue import catalogue, stats_for
from .models import Battle, BattleBatch, BattleStatus, ScenarioKind

SIDES = ("axis", "allied")
TERRITORIES = ("friendly", "enemy", "neutral")
RULE_SWITCHES = ("tailing", "turn_position", "status", "pilot_survival")  # the advanced rules
SETTINGS_KEYS = {
    "rules",
    "territory",
    "policies",
    "year",
    "theater",
    "advantage",
    "situation",
    "max_turns",
}
FIXED_FLIGHT_SCENARIOS = {
    ScenarioKind.DOGFIGHT: engine_scenarios.dogfight,
    ScenarioKind.INTERCEPT: engine_scenarios.intercept_the_interceptors,
    ScenarioKind.LIMITED_FUEL: engine_scenarios.limited_fuel,
    ScenarioKind.SCHNELLBOMBER: engine_scenarios.schnellbomber,
}
DEFAULT_POLICY = "tactical"
STALE_AFTER = timedelta(minutes=10)
MAX_BATCH_RUNS = 2000


def policy_names() -> tuple[str, ...]:
    from rules.angels20.pilots import POLICIES

    return tuple(POLICIES)


# -- rules switches and optional rules ----------------------------------------------
# settings.rules: every key is optional; absent = the switch's default (all
# optional rules off). Per-side values are objects keyed "axis"/"allied".
BOOL_SWITCHES = {
    "tailing": "000 'TAILING'",
    "turn_position": "000 'CHOOSING TURN POSITION'",
    "status": "000 'AIRCRAFT STATUS'",
    "pilot_survival": "000 'PILOT SURVIVAL'",
    "midair_collision": "000 'OPTIONAL RULE: MIDAIR COLLISION'",
    "random_clouds": "000 'RANDOM CLOUD ARRANGEMENT'",
    "later_sixes": "000 'RESOLVING ATTACKS'",  # as amended by the later edition (Bandits High, 2013)
}
CLOUDS_RULE = "000 'CLOUDS'"
FLAK_RULE = "000 'FLAK FIELDS'"
BALLOON_RULE = "000 'BARRAGE BALLOONS'"
NIGHT_RULE = "000 'NIGHT COMBAT'"
DIRECTION_RULE = "000 'FIGHTER DIRECTION'"
ILLUMINATION_RULE = "000 'ILLUMINATION'"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hex(value: Any, field: str, rule: str, width: int, height: int, what: str) -> tuple[int, int]:
    if not (isinstance(value, list | tuple) and len(value) == 2 and all(map(_whole, value))):
        raise RuleViolation(f"{what} is a [col, row] pair of whole numbers", field=field, rule=rule)
    col, row = value
    if not (0 <= col < width and 0 <= row < height):
        raise RuleViolation(
            f"{what} ({col}, {row}) is off the {width} x {height} map", field=field, rule=rule
        )
    return col, row


def _list(value: Any, field: str, rule: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RuleViolation(
            f"{field.rsplit('.', 1)[-1]} is a list of {what}", field=field, rule=rule
        )
    return value


def _per_side(value: Any, field: str, rule: str, *, flag: bool) -> tuple[Any, Any]:
    """{"axis": ..., "allied": ...}: a capacity (whole number >= 0) or a flag (true/false) per side."""
    what = "whether the side has it (true or false)" if flag else "a whole number, 0 or more"
    if not isinstance(value, dict):
        raise RuleViolation(
            f'give one value per side, as {{"axis": ..., "allied": ...}}: {what}',
            field=field,
            rule=rule,
        )
    for side, item in value.items():
        if side not in SIDES:
            raise RuleViolation(f"unknown side {side!r}", field=f"{field}.{side}", code="invalid")
        ok = isinstance(item, bool) if flag else _whole(item) and item >= 0
        if not ok:
            raise RuleViolation(f"give {what}, not {item!r}", field=f"{field}.{side}", rule=rule)
    default = False if flag else 0
    return value.get("axis", default), value.get("allied", default)


def _cloud_bands(value: Any, field: str, width: int, height: int) -> tuple[str, ...]:
    bands = _list(value, field, CLOUDS_RULE, "six cloud bands")
    if bands and len(bands) != 6:
        raise RuleViolation(
            f"give the cloud band of each altitude 1 to 6 (six values, not {len(bands)})",
            field=field,
            rule=CLOUDS_RULE,
        )
    for i, band in enumerate(bands):
        if band not in CLOUD_KINDS:
            raise RuleViolation(
                f"altitude {i + 1}: {band!r} is not one of {', '.join(CLOUD_KINDS)}",
                field=f"{field}[{i}]",
                rule=CLOUDS_RULE,
            )
    return tuple(bands)


def _cloud_shapes(value: Any, field: str, width: int, height: int) -> tuple[CloudShape, ...]:
    shapes = []
    for i, shape in enumerate(_list(value, field, CLOUDS_RULE, "placed clouds")):
        at = f"{field}[{i}]"
        if not isinstance(shape, dict) or set(shape) != {"hexes", "base", "top"}:
            raise RuleViolation(
                'a placed cloud is {"hexes": [[col, row], ...], "base": altitude, "top": altitude}',
                field=at,
                rule=CLOUDS_RULE,
            )
        hexes = _list(shape["hexes"], f"{at}.hexes", CLOUDS_RULE, "[col, row] hexes")
        if not hexes:
            raise RuleViolation(
                "a placed cloud covers at least one hex", field=f"{at}.hexes", rule=CLOUDS_RULE
            )
        cells = tuple(
            _hex(h, f"{at}.hexes[{j}]", CLOUDS_RULE, width, height, "a cloud hex")
            for j, h in enumerate(hexes)
        )
        base, top = shape["base"], shape["top"]
        if not (_whole(base) and _whole(top) and 1 <= base <= top <= 6):
            raise RuleViolation(
                "a placed cloud lies between altitudes 1 and 6, its base at or below its top",
                field=f"{at}.base",
                rule=CLOUDS_RULE,
            )
        shapes.append(CloudShape(hexes=cells, base=base, top=top))
    return tuple(shapes)


def _flak_fields(value: Any, field: str, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for i, item in enumerate(_list(value, field, FLAK_RULE, "[col, row, altitude] flak fields")):
        at = f"{field}[{i}]"
        if not (isinstance(item, list) and len(item) == 3 and all(map(_whole, item))):
            raise RuleViolation(
                "a flak field is [col, row, altitude] of its central hex", field=at, rule=FLAK_RULE
            )
        col, row = _hex(item[:2], at, FLAK_RULE, width, height, "the flak field's central hex")
        if item[2] not in (2, 3, 4):
            raise RuleViolation(
                f"a flak field exists at altitude 2, 3 or 4, not {item[2]}",
                field=at,
                rule=FLAK_RULE,
            )
        out.append((col, row, item[2]))
    return tuple(out)


def _balloons(value: Any, field: str, width: int, height: int) -> tuple[tuple[int, int], ...]:
    items = _list(value, field, BALLOON_RULE, "[col, row] balloon hexes")
    return tuple(
        _hex(item, f"{field}[{i}]", BALLOON_RULE, width, height, "a balloon hex")
        for i, item in enumerate(items)
    )


def _night(value: Any, field: str, width: int, height: int) -> str:
    if value not in LIGHTING:
        raise RuleViolation(f"night is one of {', '.join(LIGHTING)}", field=field, rule=NIGHT_RULE)
    return value


_OPTION_PARSERS = {
    "clouds": _cloud_bands,
    "cloud_shapes": _cloud_shapes,
    "flak_fields": _flak_fields,
    "barrage_balloons": _balloons,
    "night": _night,
    "fighter_direction": lambda v, f, w, h: _per_side(v, f, DIRECTION_RULE, flag=False),
    "searchlights": lambda v, f, w, h: _per_side(v, f, ILLUMINATION_RULE, flag=True),
}
RULE_KEYS = (*BOOL_SWITCHES, *_OPTION_PARSERS)


def rules_options(
    raw: Any,
    *,
    field: str = "settings.rules",
    width: int = DEFAULT_WIDTH,
    height: int = DEFAULT_HEIGHT,
) -> dict[str, Any]:
    """Validate a rules object (a battle's ``settings.rules``, a campaign's engine rules).

    Returns the keyword arguments of :class:`rules.angels20.Rules` it asks
    for (all but ``max_turns``). Raises RuleViolation naming the field
    (``settings.rules.flak_fields[0]``) and the rule it breaks; hexes are
    checked against a ``width`` x ``height`` map (the book's 16 x 22).
    """
    if not isinstance(raw, dict):
        raise RuleViolation(
            "rules must be an object of switches and options", field=field, code="format"
        )
    out: dict[str, Any] = {}
    for key, value in raw.items():
        where = f"{field}.{key}"
        if key in BOOL_SWITCHES:
            if not isinstance(value, bool):
                raise RuleViolation(
                    "a rule switch is true or false", field=where, rule=BOOL_SWITCHES[key]
                )
            out[key] = value
        elif key in _OPTION_PARSERS:
            out[key] = _OPTION_PARSERS[key](value, where, width, height)
        else:
            raise RuleViolation(
                f"unknown rule {key!r} (known: {', '.join(RULE_KEYS)})",
                field=where,
                code="invalid",
            )
    if out.get("clouds") and out.get("random_clouds"):
        raise RuleViolation(
            "give the cloud bands or roll them (random_clouds), not both",
            field=f"{field}.random_clouds",
            rule="000 'RANDOM CLOUD ARRANGEMENT'",
        )
    # Direction and searchlights only matter in darkness, where an aircraft may
    # attack only a lit target or when directed (ruling "Night, fighter
    # direction, illumination"): asked for by day or moonlight they would do nothing.
    darkness = out.get("night") == "darkness"
    for key, rule in (("fighter_direction", DIRECTION_RULE), ("searchlights", ILLUMINATION_RULE)):
        if any(out.get(key, ())) and not darkness:
            raise RuleViolation(
                f"{key.replace('_', ' ')} only acts in darkness: set night to darkness",
                field=f"{field}.{key}",
                rule=rule,
            )
    return out


def rules_build(options: dict[str, Any], *, max_turns: int, field: str = "settings.rules") -> Rules:
    """The engine's Rules from validated options; the engine's own refusal is a RuleViolation too."""
    try:
        return Rules(max_turns=max_turns, **options)
    except ValueError as exc:
        raise RuleViolation(str(exc), field=field, rule=_rule_of(str(exc))) from exc


def optional_rules_on(raw: Any, *, field: str = "settings.rules") -> tuple[str, ...]:
    """Names of the optional rules and special conditions a rules object puts in force."""
    return rules_build(rules_options(raw, field=field), max_turns=1, field=field).optional_rules_on


# -- building the engine's scenario from the request --------------------------------
def _rules(settings: dict[str, Any]) -> Rules:
    options = rules_options(settings.get("rules", {}))
    max_turns = settings.get("max_turns", 30)
    if not _whole(max_turns) or not 1 <= max_turns <= 100:
        raise RuleViolation(
            "max_turns is a whole number from 1 to 100", field="settings.max_turns", code="range"
        )
    return rules_build(options, max_turns=max_turns)


def _check_settings(kind: str, settings: dict[str, Any]) -> None:
    if not isinstance(settings, dict):
        raise RuleViolation("settings must be an object", field="settings", code="format")
    for key in settings:
        if key not in SETTINGS_KEYS:
            raise RuleViolation(
                f"unknown option {key!r} (known: {', '.join(sorted(SETTINGS_KEYS))})",
                field=f"settings.{key}",
                code="invalid",
            )
    policies = settings.get("policies", {})
    known = policy_names()
    if not isinstance(policies, dict):
        raise RuleViolation(
            "policies maps a side to a pilot policy", field="settings.policies", code="format"
        )
    for side, name in policies.items():
        if side not in SIDES:
            raise RuleViolation(
                f"unknown side {side!r}", field=f"settings.policies.{side}", code="invalid"
            )
        if name not in known:
            raise RuleViolation(
                f"unknown pilot policy {name!r} (known: {', '.join(known)})",
                field=f"settings.policies.{side}",
                code="invalid",
            )
    territory = settings.get("territory", {})
    if not isinstance(territory, dict) or any(
        s not in SIDES or t not in TERRITORIES for s, t in territory.items()
    ):
        raise RuleViolation(
            f"territory maps axis/allied to one of {', '.join(TERRITORIES)}",
            field="settings.territory",
            code="invalid",
        )


def _aircraft_type(ref: Any, field: str) -> AircraftType:
    qs = AircraftType.objects.all()
    found = (
        qs.filter(pk=ref).first()
        if isinstance(ref, int)
        else qs.filter(name=ref).first()
        if isinstance(ref, str)
        else None
    )
    if found is None:
        raise RuleViolation(f"unknown aircraft type {ref!r}", field=field, code="exists")
    return found


def _flight(side: str, members: Any) -> Flight:
    field = f"flights.{side}"
    if not isinstance(members, list):
        raise RuleViolation("a flight is a list of aircraft", field=field, code="format")
    built = []
    for i, member in enumerate(members):
        where = f"{field}[{i}]"
        if not isinstance(member, dict) or "aircraft_type" not in member:
            raise RuleViolation(
                "each aircraft needs an aircraft_type (id or name)",
                field=f"{where}.aircraft_type",
                code="required",
            )
        aircraft_type = _aircraft_type(member["aircraft_type"], f"{where}.aircraft_type")
        if aircraft_type.side and aircraft_type.side != side:
            raise RuleViolation(
                f"{aircraft_type.name} flies for the {aircraft_type.side} side, not {side}",
                field=f"{where}.aircraft_type",
                rule="000 'CHOOSING SIDES'",
            )
        quality = member.get("quality")
        pilot_ref = ""
        if member.get("pilot") is not None:
            pilot = Pilot.objects.select_related("squadron").filter(pk=member["pilot"]).first()
            if pilot is None:
                raise RuleViolation(
                    f"unknown pilot {member['pilot']!r}", field=f"{where}.pilot", code="exists"
                )
            if pilot.squadron.side != side:
                raise RuleViolation(
                    f"{pilot} flies for the {pilot.squadron.side} side",
                    field=f"{where}.pilot",
                    code="invalid",
                )
            if pilot.status != "active":
                raise RuleViolation(
                    f"{pilot} is {pilot.status}, not on active duty",
                    field=f"{where}.pilot",
                    code="state",
                )
            pilot_ref = f"pilot:{pilot.pk}"
            quality = quality or engine_quality(pilot)
        if quality is not None and quality not in ("poor", "average", "veteran", "ace"):
            raise RuleViolation(
                "quality is poor, average, veteran or ace",
                field=f"{where}.quality",
                rule="000 'AIRCRAFT STATS'",
            )
        built.append(FlightMember(stats_for(aircraft_type), pilot=quality, pilot_ref=pilot_ref))
    return Flight(side, tuple(built))


def engine_quality(pilot: Pilot) -> str:
    """The Angels 20 quality a roster pilot flies with, by the pilot's rule set."""
    from rules.careers import RULE_SETS

    rule_set = RULE_SETS.get(pilot.quality_scale)
    return rule_set.engine_quality(pilot.quality) if rule_set else pilot.quality


def build_scenario(
    *, kind: str, flights: dict[str, Any], settings: dict[str, Any], seed: int
) -> Scenario:
    """The engine's scenario for a request; raises RuleViolation naming the field and rule."""
    if kind not in ScenarioKind.values:
        raise RuleViolation(
            f"unknown scenario {kind!r} (known: {', '.join(ScenarioKind.values)})",
            field="scenario",
            code="invalid",
        )
    _check_settings(kind, settings)
    rules = _rules(settings)
    try:
        if kind in FIXED_FLIGHT_SCENARIOS:
            if flights:
                raise RuleViolation(
                    "this scenario's flights are set by the book",
                    field="flights",
                    rule="000 'SCENARIOS'",
                )
            scenario = FIXED_FLIGHT_SCENARIOS[kind](rules=rules, catalogue=catalogue())
        else:
            if not isinstance(flights, dict) or set(flights) != set(SIDES):
                raise RuleViolation(
                    "give a flight for the axis and for the allied side",
                    field="flights",
                    rule="000 'BUILDING FLIGHTS'",
                )
            built = {side: _flight(side, flights[side]) for side in SIDES}
            for side in SIDES:
                try:
                    engine_scenarios.validate_flight(
                        built[side], year=settings.get("year"), theater=settings.get("theater")
                    )
                except ScenarioError as exc:
                    raise RuleViolation(
                        str(exc), field=f"flights.{side}", rule=_rule_of(str(exc))
                    ) from exc
            if kind == ScenarioKind.STANDARD:
                scenario = engine_scenarios.standard_scenario(
                    built["axis"], built["allied"], Dice(derive_seed(seed, "standard scenario set-up")), rules=rules, year=settings.get("year"),
                    theater=settings.get("theater"), advantage=settings.get("advantage"), situation=settings.get("situation"),
                )  # fmt: skip
            else:
                escort_side = settings.get("escort_side", "allied")
                other = "axis" if escort_side == "allied" else "allied"
                scenario = engine_scenarios.bomber_escort(
                    built[escort_side], built[other], rules=rules
                )
        territory = settings.get("territory")
        if territory:
            data = scenario.to_json()
            data["territory"] = [
                territory.get("axis", "neutral"),
                territory.get("allied", "neutral"),
            ]
            scenario = Scenario.from_json(data)
    except ValueError as exc:  # ScenarioError, or the engine refusing a card or a rule
        raise RuleViolation(str(exc), field=_field_of(str(exc)), rule=_rule_of(str(exc))) from exc
    return scenario


# Rulebook sections of the optional rules, to name the setting an engine message is about.
_RULE_FIELDS = {
    CLOUDS_RULE: "settings.rules.clouds",
    FLAK_RULE: "settings.rules.flak_fields",
    BALLOON_RULE: "settings.rules.barrage_balloons",
    NIGHT_RULE: "settings.rules.night",
    DIRECTION_RULE: "settings.rules.fighter_direction",
    ILLUMINATION_RULE: "settings.rules.searchlights",
}


def _rule_of(message: str) -> str | None:
    """The rulebook section a ScenarioError names ("000 'BUILDING FLIGHTS': ..."), if any."""
    head = message.split(": ", 1)[0]
    return head if is_citation(head) else None


def _field_of(message: str) -> str:
    """The request field an engine message is about: a setting of an optional rule, else the flights."""
    rule = _rule_of(message)
    if "cloud hex" in message:
        return "settings.rules.cloud_shapes"
    return _RULE_FIELDS.get(rule or "", "flights")


# -- creating and dispatching -----------------------------------------------------
def _dispatch(battle_ids: list[int]) -> None:
    from .tasks import run_battle

    def send() -> None:
        if len(battle_ids) == 1:
            run_battle.delay(battle_ids[0])
        else:
            from celery import group

            group(run_battle.s(i) for i in battle_ids).apply_async()

    transaction.on_commit(send)


def battle_create(
    *, scenario: str, flights: dict[str, Any] | None = None, settings: dict[str, Any] | None = None, seed: int | None = None,
    requested_by: Any = None, resolve: bool = True, source_key: str = "",
) -> Battle:  # fmt: skip
    """Validate, store and (unless ``resolve`` is False) dispatch a battle after commit."""
    seed = secrets.randbits(48) if seed is None else seed
    settings = settings or {}
    flights = flights or {}
    setup = build_scenario(kind=scenario, flights=flights, settings=settings, seed=seed)
    with transaction.atomic():
        battle = Battle.objects.create(
            scenario=scenario, flights=flights, settings=settings, setup=setup.to_json(), seed=seed,
            requested_by=requested_by if getattr(requested_by, "is_authenticated", False) else None,
            status=BattleStatus.PENDING if resolve else BattleStatus.DRAFT, source_key=source_key,
        )  # fmt: skip
        if resolve:
            _dispatch([battle.pk])
    return battle


def battle_create_from_setup(
    *, setup: dict[str, Any], seed: int, source_key: str, settings: dict[str, Any]
) -> Battle:
    """A battle whose scenario another part of the product built (a campaign engagement).

    One battle per ``source_key``: asking again returns the first.
    """
    existing = Battle.objects.filter(source_key=source_key).first()
    if existing is not None:
        return existing
    battle = Battle.objects.create(
        scenario=ScenarioKind.ENGAGEMENT,
        settings=settings,
        setup=setup,
        seed=seed,
        source_key=source_key,
        status=BattleStatus.PENDING,
    )
    _dispatch([battle.pk])
    return battle


# Called with each battle that finishes, after its result is written (apps register here).
BATTLE_FINISHED_HOOKS: list[Any] = []


def battle_resolve(*, battle_id: int) -> Battle:
    """Send a draft (an engagement waiting for the organiser) to the engine."""
    with transaction.atomic():
        if (
            Battle.objects.filter(pk=battle_id, status=BattleStatus.DRAFT).update(
                status=BattleStatus.PENDING
            )
            != 1
        ):
            raise RuleViolation(
                "only a battle waiting to be resolved can be resolved",
                field="status",
                code="state",
            )
        _dispatch([battle_id])
    return Battle.objects.get(pk=battle_id)


def battle_retry(*, battle_id: int) -> Battle:
    """A failed battle goes back to pending, keeps its seed, and is dispatched again."""
    with transaction.atomic():
        updated = Battle.objects.filter(pk=battle_id, status=BattleStatus.FAILED).update(
            status=BattleStatus.PENDING, error="", started_at=None, finished_at=None
        )
        if updated != 1:
            raise RuleViolation("only a failed battle can be retried", field="status", code="state")
        _dispatch([battle_id])
    return Battle.objects.get(pk=battle_id)


# -- flying ------------------------------------------------------------------------
def fly(setup: dict[str, Any], seed: int, policies: dict[str, str]) -> dict[str, Any]:
    """Fly a battle to the end with computer pilots; return its record."""
    from rules.angels20.pilots import POLICIES, pilot_seed

    state = new_battle(Scenario.from_json(setup), Dice(seed))
    # the engine numbers its sides by their index in its SIDES (axis 0, allied 1)
    pilots = {
        i: POLICIES[policies.get(side, DEFAULT_POLICY)](pilot_seed(seed, side))
        for i, side in enumerate(ENGINE_SIDES)
    }
    actions = []
    while not state.is_over():
        action = pilots[state.current_side()].choose(state)
        state.apply(action)
        actions.append(action.to_json())
    return {"result": state.result(), "log": state.log, "actions": actions}


def battle_run(*, battle_id: int) -> bool:
    """Claim a pending battle, fly it, write its result once. Returns whether it ran.

    Idempotent: a battle that is not pending (already running, finished or
    failed) is left alone, so a re-delivered task changes nothing.
    """
    now = timezone.now()
    claimed = Battle.objects.filter(pk=battle_id, status=BattleStatus.PENDING).update(
        status=BattleStatus.RUNNING, started_at=now, attempts=F("attempts") + 1
    )
    if claimed != 1:
        return False
    battle = Battle.objects.get(pk=battle_id)
    try:
        record = fly(battle.setup, battle.seed, battle.settings.get("policies", {}))
    except Exception as exc:  # noqa: BLE001 - any failure is kept on the row, with its message
        Battle.objects.filter(pk=battle_id, status=BattleStatus.RUNNING).update(
            status=BattleStatus.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(),
        )
        _after_battle(battle)
        return True
    with transaction.atomic():
        written = Battle.objects.filter(pk=battle_id, status=BattleStatus.RUNNING).update(
            status=BattleStatus.FINISHED, result=record["result"], log=record["log"], actions=record["actions"],
            finished_at=timezone.now(), error="",
        )  # fmt: skip
        if written:
            _after_battle(battle)
    return True


def _after_battle(battle: Battle) -> None:
    if battle.batch_id:
        batch_maybe_summarise(batch_id=battle.batch_id)
        return
    battle.refresh_from_db()
    if battle.status == BattleStatus.FINISHED:
        for hook in BATTLE_FINISHED_HOOKS:
            hook(battle)


def battles_sweep(*, stale_after: timedelta = STALE_AFTER) -> list[int]:
    """Re-dispatch battles stuck in pending (lost message) or running (dead worker) past a bound."""
    cutoff = timezone.now() - stale_after
    stuck_running = list(
        Battle.objects.filter(status=BattleStatus.RUNNING, started_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    ids = []
    with transaction.atomic():
        for pk in stuck_running:
            if Battle.objects.filter(
                pk=pk, status=BattleStatus.RUNNING, started_at__lt=cutoff
            ).update(status=BattleStatus.PENDING, started_at=None):
                ids.append(pk)
        ids += list(
            Battle.objects.filter(status=BattleStatus.PENDING, created_at__lt=cutoff)
            .exclude(pk__in=ids)
            .values_list("pk", flat=True)
        )
        if ids:
            _dispatch(ids)
    return ids


# -- batches ------------------------------------------------------------------------
def batch_battle_seed(batch_seed: int, index: int) -> int:
    """The seed of battle ``index`` (from 0) of a batch seeded ``batch_seed``."""
    return derive_seed(batch_seed, f"batch battle {index}")


def batch_create(
    *, scenario: str, runs: int, flights: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
    seed: int | None = None, requested_by: Any = None, purpose: str = "balance",
) -> BattleBatch:  # fmt: skip
    """The same matchup flown ``runs`` times, battle i seeded ``batch_battle_seed(seed, i)``, fanned out as a group."""
    if not isinstance(runs, int) or not 1 <= runs <= MAX_BATCH_RUNS:
        raise RuleViolation(
            f"runs is a whole number from 1 to {MAX_BATCH_RUNS}", field="runs", code="range"
        )
    seed = secrets.randbits(40) if seed is None else seed
    settings, flights = settings or {}, flights or {}
    seeds = [batch_battle_seed(seed, i) for i in range(runs)]
    setups = [
        build_scenario(kind=scenario, flights=flights, settings=settings, seed=s).to_json()
        for s in seeds
    ]
    user = requested_by if getattr(requested_by, "is_authenticated", False) else None
    with transaction.atomic():
        batch = BattleBatch.objects.create(
            scenario=scenario,
            settings=settings,
            flights=flights,
            runs=runs,
            seed=seed,
            purpose=purpose,
            requested_by=user,
        )
        battles = Battle.objects.bulk_create(
            Battle(
                scenario=scenario,
                settings=settings,
                flights=flights,
                setup=setup,
                seed=battle_seed,
                batch=batch,
                requested_by=user,
            )
            for battle_seed, setup in zip(seeds, setups, strict=True)
        )
        _dispatch([b.pk for b in battles])
    return batch


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def batch_summary(results: list[dict[str, Any]], failed: int = 0) -> dict[str, Any]:
    n = len(results)
    summary: dict[str, Any] = {
        "battles": n,
        "failed": failed,
        "draws": sum(1 for r in results if r.get("winner") is None),
    }
    for side in SIDES:
        wins = sum(1 for r in results if r.get("winner") == side)
        low, high = wilson_interval(wins, n)
        losses = [
            sum(1 for a in r["aircraft"] if a["side"] == side and a["fate"] == "destroyed")
            for r in results
        ]
        summary[side] = {
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "average_losses": sum(losses) / n if n else 0.0,
            "average_victory_points": sum(r["victory_points"][side] for r in results) / n
            if n
            else 0.0,
        }
    return summary


def batch_maybe_summarise(*, batch_id: int) -> bool:
    """Write the batch's summary once every battle has finished or failed (row lock on the batch)."""
    with transaction.atomic():
        batch = BattleBatch.objects.select_for_update().get(pk=batch_id)
        if batch.summary is not None:
            return False
        states = list(batch.battles.values_list("status", flat=True))
        if any(s not in (BattleStatus.FINISHED, BattleStatus.FAILED) for s in states):
            return False
        results = list(
            batch.battles.filter(status=BattleStatus.FINISHED).values_list("result", flat=True)
        )
        batch.summary = batch_summary(results, failed=states.count(BattleStatus.FAILED))
        batch.finished_at = timezone.now()
        batch.save(update_fields=["summary", "finished_at"])
    return True


def odds_preview(
    *, battle_id: int, runs: int | None = None, requested_by: Any = None
) -> BattleBatch:
    """A quick batch of the same matchup before the organiser commits to resolving it."""
    from django.conf import settings as django_settings

    runs = runs or django_settings.BATTLE_ODDS_RUNS
    battle = Battle.objects.get(pk=battle_id)
    settings = dict(battle.settings)
    settings.setdefault("policies", {"axis": DEFAULT_POLICY, "allied": DEFAULT_POLICY})
    return batch_create(
        scenario=battle.scenario, flights=battle.flights, settings=settings, runs=runs, seed=derive_seed(battle.seed, "odds preview"),
        requested_by=requested_by, purpose=f"odds:{battle.pk}",
    )  # fmt: skip
