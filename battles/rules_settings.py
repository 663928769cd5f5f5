"""A battle's rules settings: the advanced rules and every optional rule and special
condition of 000, as clients send them in ``settings.rules`` (and campaigns in their
engine rules), checked field by field into the engine's ``Rules``."""

from __future__ import annotations

from typing import Any

from angels.errors import RuleViolation, is_citation
from rules.angels20 import Rules
from rules.angels20.scenario import DEFAULT_HEIGHT, DEFAULT_WIDTH
from rules.angels20.stats import CLOUD_KINDS, LIGHTING, CloudShape
from rules.sides import AXIS_FIRST

SIDES = AXIS_FIRST  # the engine's order (rules.sides)


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


def _rule_of(message: str) -> str | None:
    """The rulebook section a ScenarioError names ("000 'BUILDING FLIGHTS': ..."), if any."""
    head = message.split(": ", 1)[0]
    return head if is_citation(head) else None


def optional_rules_on(raw: Any, *, field: str = "settings.rules") -> tuple[str, ...]:
    """Names of the optional rules and special conditions a rules object puts in force."""
    return rules_build(rules_options(raw, field=field), max_turns=1, field=field).optional_rules_on
