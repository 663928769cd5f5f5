"""The battle pages' forms: the optional rules (new battle page, campaign pages) and the
new-battle form, each reading every field and collecting every problem at once.

:func:`rules_from_post_all` turns the fields drawn by
``templates/battles/_optional_rules_fields.html`` into a rules object of the shape
the API takes (``settings.rules``), checking each rule alone with
:func:`battles.rules_settings.rules_options`, so the pages and the API refuse the same
things with the same messages. :func:`rules_form_initial` fills the fields back from a
rules object; :func:`battle_request_from_post` reads the whole new-battle form.
"""

from __future__ import annotations

import re
from typing import Any

from angels.errors import RuleViolation, is_citation
from rules.angels20.scenario import DEFAULT_HEIGHT, DEFAULT_WIDTH, FLIGHT_MAX
from rules.angels20.stats import CLOUD_KINDS, LIGHTING
from rules.sides import AXIS_FIRST

from .rules_settings import BALLOON_RULE, CLOUDS_RULE, DIRECTION_RULE, FLAK_RULE, rules_options

SIDES = AXIS_FIRST  # the engine's order (rules.sides)
SWITCHES = ("midair_collision", "random_clouds", "later_sixes")
CLOUD_SLOTS = 3  # placed clouds drawn on the page (each its own map)
# 000 'FIGHTER DIRECTION': one point of capacity directs one friendly fighter, and a flight
# has at most five aircraft (000 'BUILDING FLIGHTS'), so more would do nothing (ruling).
DIRECTION_MAX = FLIGHT_MAX
ALTITUDES = range(1, 7)  # 000 'ALTITUDE': six altitude bands


def plain(exc: RuleViolation) -> dict[str, Any]:
    """An error as the pages show it: the message in plain words, the citation apart."""
    message = exc.message
    head, _, rest = message.partition(": ")
    if rest and is_citation(head):  # engine messages start with their citation
        message = rest
    return {"message": message[:1].upper() + message[1:], "rule": exc.rule, "field": exc.field}


def _hexes(text: str, field: str, rule: str, size: int) -> list[list[int]]:
    """ "8,10,3; 4,4,2" -> [[8, 10, 3], [4, 4, 2]] (``size`` numbers each)."""
    out = []
    for i, part in enumerate(p for p in text.split(";") if p.strip()):
        numbers = [n.strip() for n in part.split(",")]
        if len(numbers) != size or not all(re.fullmatch(r"[0-9]{1,3}", n) for n in numbers):
            shape = "column, row, altitude" if size == 3 else "column, row"
            raise RuleViolation(
                f"write each as {shape} with ';' between them (not {part.strip()!r})",
                field=f"{field}[{i}]",
                rule=rule,
            )
        out.append([int(n) for n in numbers])
    return out


def _direction(post: Any, side: str, field: str) -> int:
    raw = (post.get(f"direction_{side}", "") or "").strip() or "0"
    if not re.fullmatch(r"[0-9]{1,2}", raw) or int(raw) > DIRECTION_MAX:
        raise RuleViolation(
            f"the {side} direction capacity is a whole number from 0 to {DIRECTION_MAX} "
            f"(one per fighter directed; not {raw!r})",
            field=f"{field}.fighter_direction.{side}",
            rule=DIRECTION_RULE,
        )
    return int(raw)


def _cloud_shape(post: Any, k: int, field: str) -> dict[str, Any] | None:
    """A placed cloud from its map: the hexes ticked, its base and top altitude."""
    hexes = []
    for value in post.getlist(f"cloud_hex_{k}"):
        parts = value.split(",")
        if len(parts) != 2 or not all(re.fullmatch(r"[0-9]{1,3}", p) for p in parts):
            raise RuleViolation(
                f"a cloud hex is column,row (not {value!r})",
                field=f"{field}[{k}]",
                rule=CLOUDS_RULE,
            )
        hexes.append([int(p) for p in parts])
    if not hexes:
        return None
    levels = []
    for end in ("base", "top"):
        raw = post.get(f"cloud_{end}_{k}", "")
        if raw not in {str(a) for a in ALTITUDES}:
            raise RuleViolation(
                f"choose the cloud's {end} altitude, 1 to 6",
                field=f"{field}[{k}].{end}",
                rule=CLOUDS_RULE,
            )
        levels.append(int(raw))
    return {"hexes": hexes, "base": levels[0], "top": levels[1]}


def _read_rules(post: Any, field: str, errors: list[RuleViolation]) -> dict[str, Any]:
    """The rules object from the fields; a field that cannot be read is an error, left out."""
    rules: dict[str, Any] = {}
    night = post.get("night", "day") or "day"
    if night != "day":
        rules["night"] = night
    for name in SWITCHES:
        if post.get(name):
            rules[name] = True
    bands = [post.get(f"cloud_{alt}", "") for alt in ALTITUDES]
    if any(bands):
        rules["clouds"] = [band or "clear" for band in bands]
    direction, shapes = {}, []
    for side in SIDES:
        try:
            if capacity := _direction(post, side, field):
                direction[side] = capacity
        except RuleViolation as exc:
            errors.append(exc)
    if direction:
        rules["fighter_direction"] = direction
    searchlights = {side: True for side in SIDES if post.get(f"searchlights_{side}")}
    if searchlights:
        rules["searchlights"] = searchlights
    for key, rule, size in (("flak_fields", FLAK_RULE, 3), ("barrage_balloons", BALLOON_RULE, 2)):
        try:
            if found := _hexes(post.get(key, ""), f"{field}.{key}", rule, size):
                rules[key] = found
        except RuleViolation as exc:
            errors.append(exc)
    for k in range(CLOUD_SLOTS):
        try:
            if shape := _cloud_shape(post, k, f"{field}.cloud_shapes"):
                shapes.append(shape)
        except RuleViolation as exc:
            errors.append(exc)
    if shapes:
        rules["cloud_shapes"] = shapes
    return rules


def rules_from_post_all(
    post: Any, *, field: str = "settings.rules"
) -> tuple[dict[str, Any], list[RuleViolation]]:
    """A rules object from the form fields (only what is switched on) and every problem found."""
    errors: list[RuleViolation] = []
    rules = _read_rules(post, field, errors)
    for key, value in rules.items():  # each rule alone, so every bad one is named
        alone = {key: value, **({"night": rules["night"]} if "night" in rules else {})}
        try:
            rules_options(alone, field=field)
        except RuleViolation as exc:
            errors.append(exc)
    if not errors:
        try:  # what only the rules together break (bands and the random chart)
            rules_options(rules, field=field)
        except RuleViolation as exc:
            errors.append(exc)
    return rules, errors


def rules_from_post(post: Any, *, field: str = "settings.rules") -> dict[str, Any]:
    """A rules object from the form fields; raises the first problem (campaign pages)."""
    rules, errors = rules_from_post_all(post, field=field)
    if errors:
        raise errors[0]
    return rules


def _cloud_maps(shapes: list[dict[str, Any]], errors: dict[str, list[Any]]) -> list[Any]:
    maps = []
    for k in range(CLOUD_SLOTS):
        shape = shapes[k] if k < len(shapes) else {"hexes": [], "base": "", "top": ""}
        ticked = {tuple(h) for h in shape["hexes"]}
        maps.append(
            {
                "k": k,
                "base": str(shape["base"]),
                "top": str(shape["top"]),
                "open": bool(ticked) or k == 0,
                "rows": [
                    [{"col": c, "row": r, "on": (c, r) in ticked} for c in range(DEFAULT_WIDTH)]
                    for r in range(DEFAULT_HEIGHT)
                ],
                "errors": errors.get(f"cloud_shapes_{k}", []),
            }
        )
    return maps


def rules_form_initial(
    rules: dict[str, Any] | None, errors: dict[str, list[Any]] | None = None
) -> dict[str, Any]:
    """The form fields' values for a rules object (to change it, or after an error), and the
    errors of each field (``form.errors.night``)."""
    rules, errors = rules or {}, errors or {}
    bands = list(rules.get("clouds") or [""] * 6)
    direction = rules.get("fighter_direction") or {}
    lights = rules.get("searchlights") or {}
    return {
        "night": rules.get("night", "day"),
        **{name: bool(rules.get(name)) for name in SWITCHES},
        "clouds": [{"alt": alt, "kind": bands[alt - 1]} for alt in ALTITUDES],
        "direction": [
            {"side": s, "value": direction.get(s, 0), "errors": errors.get(f"direction_{s}", [])}
            for s in SIDES
        ],
        "direction_max": DIRECTION_MAX,
        "searchlights": [{"side": s, "on": bool(lights.get(s))} for s in SIDES],
        "flak_fields": "; ".join(",".join(map(str, f)) for f in rules.get("flak_fields", [])),
        "barrage_balloons": "; ".join(
            ",".join(map(str, b)) for b in rules.get("barrage_balloons", [])
        ),
        "cloud_maps": _cloud_maps(list(rules.get("cloud_shapes") or []), errors),
        "altitudes": list(ALTITUDES),
        "lighting": LIGHTING,
        "cloud_kinds": CLOUD_KINDS,
        "errors": errors,
    }


def rules_form_from_post(post: Any, errors: dict[str, list[Any]]) -> dict[str, Any]:
    """The optional rules' fields as the user filled them in, errors beside them."""
    form = rules_form_initial(None, errors)
    form["night"] = post.get("night", "day")
    form.update({name: bool(post.get(name)) for name in SWITCHES})
    form["clouds"] = [{"alt": a, "kind": post.get(f"cloud_{a}", "")} for a in ALTITUDES]
    for d in form["direction"]:
        d["value"] = post.get(f"direction_{d['side']}", "")
    for s in form["searchlights"]:
        s["on"] = bool(post.get(f"searchlights_{s['side']}"))
    form["flak_fields"] = post.get("flak_fields", "")
    form["barrage_balloons"] = post.get("barrage_balloons", "")
    for m in form["cloud_maps"]:
        ticked = set(post.getlist(f"cloud_hex_{m['k']}"))
        m["base"], m["top"] = (
            post.get(f"cloud_base_{m['k']}", ""),
            post.get(f"cloud_top_{m['k']}", ""),
        )
        m["open"] = m["open"] or bool(ticked)
        for row in m["rows"]:
            for cell in row:
                cell["on"] = f"{cell['col']},{cell['row']}" in ticked
    return form


def form_field(api_field: str | None) -> str:
    """The page field an API field is about: ``settings.rules.flak_fields[0]`` -> flak_fields,
    ``flights.axis[2].aircraft_type`` -> axis_aircraft, ``...cloud_shapes[1].base`` -> cloud_shapes_1."""
    name = (api_field or "").removeprefix("settings.rules.").removeprefix("engine_rules.")
    name = name.removeprefix("settings.")
    if m := re.match(r"cloud_shapes\[(\d+)\]", name):
        return f"cloud_shapes_{m[1]}"
    if m := re.match(r"flights\.(axis|allied)", name):
        return f"{m[1]}_aircraft"
    if m := re.match(r"(fighter_direction|policies|seats|searchlights)\.(axis|allied)", name):
        prefix = {"fighter_direction": "direction", "policies": "policy", "seats": "policy"}.get(
            m[1], m[1]
        )
        return f"{m[2]}_policy" if prefix == "policy" else f"{prefix}_{m[2]}"
    if name.startswith("clouds"):
        return "clouds"
    return re.split(r"[.\[]", name)[0] or "form"


def errors_by_field(errors: list[RuleViolation]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for exc in errors:
        shown = plain(exc)
        if shown not in out.setdefault(form_field(exc.field), []):
            out[form_field(exc.field)].append(shown)
    return out
