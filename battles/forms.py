"""The optional rules as page form fields (new battle page, campaign pages).

:func:`rules_from_post` turns the fields drawn by
``templates/battles/_optional_rules_fields.html`` into a rules object of the
shape the API takes (``settings.rules``); :func:`battles.rules_settings.rules_options`
then validates it like any other, so the pages and the API refuse the same
things with the same messages. :func:`rules_form_initial` fills the fields back
from a stored rules object.
"""

from __future__ import annotations

import json
import re
from typing import Any

from angels.errors import RuleViolation
from rules.angels20.stats import CLOUD_KINDS, LIGHTING

from .rules_settings import BALLOON_RULE, CLOUDS_RULE, DIRECTION_RULE, FLAK_RULE

SIDES = ("axis", "allied")
SWITCHES = ("midair_collision", "random_clouds", "later_sixes")


def _hexes(text: str, field: str, rule: str, size: int) -> list[list[int]]:
    """ "8,10,3; 4,4,2" -> [[8, 10, 3], [4, 4, 2]] (``size`` numbers each)."""
    out = []
    for i, part in enumerate(p for p in text.split(";") if p.strip()):
        numbers = [n.strip() for n in part.split(",")]
        if len(numbers) != size or not all(re.fullmatch(r"-?[0-9]{1,6}", n) for n in numbers):
            shape = "col,row,altitude" if size == 3 else "col,row"
            raise RuleViolation(
                f"write each as {shape}, separated by ';' (not {part.strip()!r})",
                field=f"{field}[{i}]",
                rule=rule,
            )
        out.append([int(n) for n in numbers])
    return out


def rules_from_post(post: Any, *, field: str = "settings.rules") -> dict[str, Any]:
    """A rules object from the form fields; only what is switched on is included."""
    rules: dict[str, Any] = {}
    night = post.get("night", "day") or "day"
    if night != "day":
        rules["night"] = night
    for name in SWITCHES:
        if post.get(name):
            rules[name] = True
    bands = [post.get(f"cloud_{alt}", "") for alt in range(1, 7)]
    if any(bands):
        rules["clouds"] = [band or "clear" for band in bands]
    direction = {}
    for side in SIDES:
        raw = post.get(f"direction_{side}", "").strip() or "0"
        if not re.fullmatch(r"[0-9]{1,6}", raw):
            raise RuleViolation(
                f"direction capacity is a whole number, 0 or more (not {raw!r})",
                field=f"{field}.fighter_direction.{side}",
                rule=DIRECTION_RULE,
            )
        if int(raw):
            direction[side] = int(raw)
    if direction:
        rules["fighter_direction"] = direction
    searchlights = {side: True for side in SIDES if post.get(f"searchlights_{side}")}
    if searchlights:
        rules["searchlights"] = searchlights
    flak = _hexes(post.get("flak_fields", ""), f"{field}.flak_fields", FLAK_RULE, 3)
    if flak:
        rules["flak_fields"] = flak
    balloons = _hexes(
        post.get("barrage_balloons", ""), f"{field}.barrage_balloons", BALLOON_RULE, 2
    )
    if balloons:
        rules["barrage_balloons"] = balloons
    shapes = post.get("cloud_shapes", "").strip()
    if shapes:
        try:
            rules["cloud_shapes"] = json.loads(shapes)
        except ValueError:
            raise RuleViolation(
                'placed clouds are JSON: [{"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}]',
                field=f"{field}.cloud_shapes",
                rule=CLOUDS_RULE,
            ) from None
    return rules


def rules_form_initial(rules: dict[str, Any] | None) -> dict[str, Any]:
    """The form fields' values for a stored rules object (to change it on a page)."""
    rules = rules or {}
    bands = list(rules.get("clouds") or [""] * 6)
    direction = rules.get("fighter_direction") or {}
    lights = rules.get("searchlights") or {}
    return {
        "night": rules.get("night", "day"),
        **{name: bool(rules.get(name)) for name in SWITCHES},
        "clouds": [{"alt": alt, "kind": bands[alt - 1]} for alt in range(1, 7)],
        "direction": [{"side": s, "value": direction.get(s, 0)} for s in SIDES],
        "searchlights": [{"side": s, "on": bool(lights.get(s))} for s in SIDES],
        "flak_fields": "; ".join(",".join(map(str, f)) for f in rules.get("flak_fields", [])),
        "barrage_balloons": "; ".join(
            ",".join(map(str, b)) for b in rules.get("barrage_balloons", [])
        ),
        "cloud_shapes": json.dumps(rules["cloud_shapes"]) if rules.get("cloud_shapes") else "",
        "lighting": LIGHTING,
        "cloud_kinds": CLOUD_KINDS,
    }
