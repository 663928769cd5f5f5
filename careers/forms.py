"""Forms of the table-mode page: a battle played with miniatures, entered by hand."""

from __future__ import annotations

from typing import cast

from django import forms

from angels.numbers import MAX_TURN
from roster.models import Pilot

from .models import TableBattle, TableSystem, Territory

# Bounds of the hand-entered numbers (ruling "Bounds of the table-battle form"): no card of
# the three books takes a hundred hits; cockpit hits (001 'C: COCKPIT HIT'), crew hits and
# fires (002 13c) count in ones; a battle lasts at most 100 game turns, as the engine's.
MAX_HITS = 99
MAX_SMALL = 9
MAX_GAME_TURN = 100
FLIGHT_ROWS = 8
SHOT_ROWS = 8
OUTCOMES = (
    ("destroyed", "shot down"),
    ("fired", "fired, no visible result"),
    ("damaged", "damaged"),
    ("probable", "probably destroyed"),
)


class _PilotChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Pilot) -> str:
        return f"{obj} — {obj.squadron.name}"


def _pilots():
    return (
        Pilot.objects.filter(status="active")
        .select_related("squadron")
        .order_by("squadron__side", "squadron__name", "name")
    )


class TableBattleForm(forms.Form):
    # The campaign choice comes from the key to the campaign (the campaign app sits above careers).
    campaign = TableBattle._meta.get_field("campaign").formfield(required=False)
    name = forms.CharField(max_length=80)
    system = forms.ChoiceField(choices=TableSystem.choices)
    territory = forms.ChoiceField(choices=Territory.choices)
    campaign_turn = forms.IntegerField(min_value=1, max_value=MAX_TURN, required=False)
    confirm = forms.BooleanField(required=False, help_text="Confirm every kill claim now.")


class FlightForm(forms.Form):
    pilot = _PilotChoice(queryset=Pilot.objects.none(), required=False)
    damage = forms.IntegerField(min_value=0, max_value=MAX_HITS, initial=0, required=False)
    crew_hits = forms.IntegerField(
        min_value=0, max_value=MAX_SMALL, initial=0, required=False, help_text="Air Pirates"
    )
    fires = forms.IntegerField(
        min_value=0, max_value=MAX_SMALL, initial=0, required=False, help_text="Air Pirates"
    )
    cockpit_hits = forms.IntegerField(
        min_value=0, max_value=MAX_SMALL, initial=0, required=False, help_text="Air Force"
    )
    retreated = forms.BooleanField(required=False)
    destroyed = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(_PilotChoice, self.fields["pilot"]).queryset = _pilots()


class ShotForm(forms.Form):
    shooter = _PilotChoice(queryset=Pilot.objects.none(), required=False)
    target = _PilotChoice(queryset=Pilot.objects.none(), required=False)
    turn = forms.IntegerField(min_value=1, max_value=MAX_GAME_TURN, required=False)
    sequence = forms.IntegerField(min_value=0, max_value=MAX_HITS, initial=0, required=False)
    outcome = forms.ChoiceField(choices=OUTCOMES, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        shooter = cast(_PilotChoice, self.fields["shooter"])
        target = cast(_PilotChoice, self.fields["target"])
        shooter.queryset = target.queryset = _pilots()


FlightFormSet = forms.formset_factory(FlightForm, extra=FLIGHT_ROWS)
ShotFormSet = forms.formset_factory(ShotForm, extra=SHOT_ROWS)


def table_battle_input(
    flights: forms.BaseFormSet[FlightForm], shots: forms.BaseFormSet[ShotForm]
) -> dict:
    """Turn the filled rows into ``table_battle_record``'s flights, kills, damages
    and probables: every shot at a target that was shot down is an attack on it
    (the last to fire gets the kill)."""
    out_flights = []
    for row in flights.cleaned_data:
        if not row or row.get("pilot") is None:
            continue
        out_flights.append(
            {"pilot_id": row["pilot"].pk, "aircraft": row["pilot"].squadron.aircraft_type.name if row["pilot"].squadron.aircraft_type_id else "",
             "damage": row.get("damage") or 0, "crew_hits": row.get("crew_hits") or 0, "fires": row.get("fires") or 0,
             "cockpit_hits": row.get("cockpit_hits") or 0, "retreated": bool(row.get("retreated")),
             "destroyed": bool(row.get("destroyed"))}
        )  # fmt: skip
    rows = [r for r in shots.cleaned_data if r and r.get("shooter") and r.get("target")]
    downed = [
        t for t in dict.fromkeys(r["target"].pk for r in rows if r.get("outcome") == "destroyed")
    ]
    kills = [
        {"victim_pilot_id": t, "attacks": [[r["shooter"].pk, r.get("turn") or 1, r.get("sequence") or 0] for r in rows if r["target"].pk == t]}
        for t in downed
    ]  # fmt: skip
    damages = [{"pilot_id": r["shooter"].pk, "victim_pilot_id": r["target"].pk, "turn": r.get("turn")}
               for r in rows if r.get("outcome") == "damaged" and r["target"].pk not in downed]  # fmt: skip
    probables = [{"pilot_id": r["shooter"].pk, "victim_pilot_id": r["target"].pk, "turn": r.get("turn")}
                 for r in rows if r.get("outcome") == "probable" and r["target"].pk not in downed]  # fmt: skip
    return {"flights": out_flights, "kills": kills, "damages": damages, "probables": probables}
