from typing import Any

from rest_framework import serializers

from angels.numbers import MAX_ID
from rules.tactical import DEFAULT_SYSTEM

from .models import Battle, BattleBatch, ScenarioKind


class BattleCreateInput(serializers.Serializer):
    system = serializers.CharField(
        required=False,
        default=DEFAULT_SYSTEM,
        help_text="The tactical game (issue 25): a system of the registry, angels20 unless given; "
        "an unknown one is refused naming the known ones.",
    )
    scenario = serializers.CharField(
        help_text=f"Angels 20: one of {', '.join(ScenarioKind.values)}; another game: one of "
        "its own scenarios (the new-battle page lists each game's), which brings its aircraft "
        "and takes no flights and, of the settings, only policies (the game's computer pilots) "
        "or seats and a deadline (a person, or one of the game's computer pilots, per side)."
    )
    flights = serializers.DictField(
        required=False,
        default=dict,
        help_text='{"axis": [{"aircraft_type": "Bf 109E Ace", "pilot": 3, "quality": "ace"}], "allied": [...]}',
    )
    settings = serializers.DictField(
        required=False,
        default=dict,
        help_text=(
            "rules, territory, policies, year, theater, advantage, situation, max_turns. "
            "year and theater: the Standard Scenario and Bomber Escort; advantage and situation: "
            "the Standard Scenario; the Battle of Britain scenarios (dogfight and the others) "
            "bring their own aircraft and set-up and refuse all four. "
            "rules (every key optional, all optional rules off by default): "
            '{"tailing": true, "turn_position": true, "status": true, "pilot_survival": true, '
            '"midair_collision": true, "later_sixes": true, '
            '"clouds": ["clear", "solid", "heavy", "light", "clear", "clear"] (altitudes 1-6) '
            'or "random_clouds": true, '
            '"cloud_shapes": [{"hexes": [[4, 5], [4, 6]], "base": 2, "top": 3}], '
            '"flak_fields": [[col, row, altitude 2-4]], "barrage_balloons": [[col, row]], '
            '"night": "day" | "moonlight" | "darkness", '
            '"fighter_direction": {"axis": 2, "allied": 0}, '
            '"searchlights": {"axis": false, "allied": true}}; '
            'territory: {"axis": "friendly" | "enemy" | "neutral", "allied": ...}; '
            'seats (a battle flown by people, issue 14): {"axis": {"user": id or username}, '
            '"allied": {"pilot": "tactical" | "random"}}: with a person in a seat the battle is '
            '"in play" and flown through /api/battles/<id>/turn/. A seat naming someone '
            "other than you is offered to them (issue 23): the battle waits until they accept "
            "or decline it (POST /api/battles/<id>/seat/)."
        ),
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    resolve = serializers.BooleanField(
        required=False, default=True, help_text="False: keep it waiting (odds preview first)."
    )

    def validate_flights(self, flights: dict[str, Any]) -> dict[str, Any]:
        """A ``pilot`` that is not a roster id (a whole number) is named at its own path,
        ``flights.axis[0].pilot``; it reached the database as it was and came back as
        "Field 'id' expected a number but got 'abc'." under ``flights``. The rest of a
        flight is checked by the battle's service (battles.scenarios)."""
        errors: dict[str, list[dict[str, Any]]] = {}
        for side, members in flights.items():
            if not isinstance(members, list):
                continue
            found = [_pilot_error(m.get("pilot") if isinstance(m, dict) else None) for m in members]
            if any(found):
                errors[str(side)] = [{"pilot": [e]} if e else {} for e in found]
        if errors:
            raise serializers.ValidationError(errors)
        return flights


def _pilot_error(pilot: Any) -> serializers.ErrorDetail | None:
    """Why ``pilot`` (a flight member's) is not a roster pilot's id; None if it may be one
    (absent, or a whole number in the ids' range: whether it exists is the service's)."""
    if pilot is None:
        return None
    if isinstance(pilot, str) and pilot.isascii() and pilot.isdigit():
        pilot = int(pilot)
    if not isinstance(pilot, int) or isinstance(pilot, bool):
        return serializers.ErrorDetail(
            f"pilot is a roster pilot's id, a whole number, not {pilot!r}", code="format"
        )
    if not 1 <= pilot <= MAX_ID:
        return serializers.ErrorDetail(f"no pilot has the id {pilot}", code="exists")
    return None


class BatchCreateInput(BattleCreateInput):
    runs = serializers.IntegerField(min_value=1, max_value=2000)
    # None removes the parent's field (DRF's way); the stubs know only the field's type.
    resolve = None  # type: ignore[assignment]


def _hide_seed(data: Any, battle: Battle, context: dict[str, Any]) -> Any:
    """``seed`` is null unless the request's user may see it (no request: anonymous)."""
    from .services import seed_visible

    request = context.get("request")
    if not seed_visible(battle, getattr(request, "user", None)):
        data["seed"] = None
    return data


class BattleOutput(serializers.ModelSerializer):
    """A battle; ``seed`` is null while it is kept secret from the viewer (a running campaign's)."""

    winner = serializers.CharField(read_only=True, allow_null=True)
    seed = serializers.IntegerField(read_only=True, allow_null=True)
    scenario_title = serializers.CharField(
        read_only=True,
        help_text="The scenario's name as the pages show it: a game's own scenario's title, "
        '"Campaign engagement" for a campaign\'s battle, or the name its setup gives it.',
    )
    queued = serializers.BooleanField(
        read_only=True, help_text="Stored, waiting for the broker (sent when it is back)."
    )
    not_applied = serializers.BooleanField(
        read_only=True,
        help_text="Finished, not applied: handing the result on raised (apply_error); re-apply it.",
    )

    def to_representation(self, instance: Battle) -> Any:
        return _hide_seed(super().to_representation(instance), instance, self.context)

    class Meta:
        model = Battle
        fields = (
            "id", "system", "scenario", "scenario_title", "settings", "flights", "seed", "status", "error", "attempts", "result",
            "winner", "batch", "source_key", "created_at", "started_at", "finished_at", "queued", "applied_at",
            "not_applied", "apply_error",
        )  # fmt: skip


class BattleListItem(BattleOutput):
    """A battle of a page of ``GET /api/battles/``: as ``BattleOutput``, but the seeds kept
    from the viewer come from the view (``selectors.hidden_seeds``, asked once per kind of
    battle) in the context's ``hidden_seeds``, not a query or two per row."""

    def to_representation(self, instance: Battle) -> Any:
        data = serializers.ModelSerializer.to_representation(self, instance)
        if instance.pk in self.context.get("hidden_seeds", ()):
            data["seed"] = None
        return data


class BattleLogOutput(serializers.ModelSerializer):
    seed = serializers.IntegerField(read_only=True, allow_null=True)

    class Meta:
        model = Battle
        fields = ("id", "system", "setup", "seed", "actions", "log")

    def to_representation(self, instance: Battle) -> Any:
        from .play import visible_record

        data = _hide_seed(super().to_representation(instance), instance, self.context)
        # issue 25: in play, the log as the asker's side may read it, no sealed decision
        request = self.context.get("request")
        data["log"], data["actions"] = visible_record(instance, getattr(request, "user", None))
        return data


class BatchOutput(serializers.ModelSerializer):
    """A batch; ``seed`` is null while kept from the viewer (an odds batch of a running campaign's battle)."""

    finished = serializers.IntegerField(read_only=True)
    seed = serializers.IntegerField(read_only=True, allow_null=True)

    def to_representation(self, instance: BattleBatch) -> Any:
        from .services import batch_seed_visible

        data = super().to_representation(instance)
        request = self.context.get("request")
        if not batch_seed_visible(instance, getattr(request, "user", None)):
            data["seed"] = None
        return data

    class Meta:
        model = BattleBatch
        fields = (
            "id",
            "scenario",
            "settings",
            "flights",
            "runs",
            "seed",
            "purpose",
            "summary",
            "finished",
            "created_at",
            "finished_at",
        )


class TurnActInput(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The version of the turn you read (optimistic locking)."
    )
    action = serializers.DictField(
        required=False, help_text="One of the turn's legal_actions, as given."
    )
    computer = serializers.CharField(
        required=False,
        help_text="Instead of an action: hand this decision to a computer pilot (tactical or random).",
    )


class TurnChoiceOutput(serializers.Serializer):
    kind = serializers.CharField(
        help_text="initiative, fighter direction, movement, status, clouds, abilities, attack"
    )
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    action = serializers.DictField()
    odds = serializers.DictField(
        required=False,
        help_text="An attack's range, aspect, target_number, dice, modifier(s), expected_hits.",
    )
    chance = serializers.FloatField(
        required=False, help_text="A maneuver check's chance of success."
    )


class MovePlaceOutput(serializers.Serializer):
    hex = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="[column, row]"
    )
    facing = serializers.IntegerField(help_text="0 north, clockwise to 5 north-west")
    altitude = serializers.IntegerField()


class MoveCheckOutput(serializers.Serializer):
    step = serializers.IntegerField(help_text="The hex of the move it is flown in (1 = first).")
    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    chance = serializers.FloatField(
        help_text="P(the maneuver check succeeds), 000 'MANEUVER CHECKS'."
    )


class MovePathOutput(serializers.Serializer):
    action = serializers.DictField(
        help_text="A move_plan in the engine's form: post it with a status of `statuses` "
        "(and clouds: true if `clouds`)."
    )
    speed = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    hexes = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The hexes entered, in order, as [column, row].",
    )
    maneuvers = MoveCheckOutput(many=True)
    chance = serializers.FloatField(help_text="P(every check succeeds): the end is reached.")
    statuses = serializers.ListField(child=serializers.CharField())
    clouds = serializers.BooleanField(help_text="It may try to enter the clouds.")
    if_failed = MovePlaceOutput(allow_null=True, help_text="Where failed checks leave it.")


class MoveEndOutput(MovePlaceOutput):
    more_paths = serializers.IntegerField(help_text="Further, less likely paths not listed.")
    paths = MovePathOutput(many=True)


class MoveReachOutput(serializers.Serializer):
    hex = serializers.ListField(child=serializers.IntegerField(), help_text="[column, row]")
    ends = serializers.IntegerField(help_text="Distinct (facing, altitude) ends in this hex.")
    chance = serializers.FloatField(help_text="The surest path's chance of getting there.")


class MoveExitOutput(serializers.Serializer):
    hex = serializers.ListField(
        child=serializers.IntegerField(), help_text="[column, row]: the hex the map is left from."
    )
    edge = serializers.CharField(help_text="north, east, south or west: the edge left by.")
    ways = serializers.IntegerField(help_text="Ways off the map from this hex.")
    chance = serializers.FloatField(help_text="The surest way's chance of leaving.")


class MoveExitPathOutput(MovePathOutput):
    edge = serializers.CharField(help_text="The edge it leaves by.")


class MoveChoicesOutput(serializers.Serializer):
    """One aircraft's whole moves by end hex (issue 14, movement by clicking)."""

    plane = serializers.IntegerField()
    name = serializers.CharField()
    start = MovePlaceOutput()
    plans = serializers.IntegerField(help_text="Its whole-move plans, every status counted.")
    off_map = serializers.IntegerField(help_text="Plans leaving the map (see `exits`).")
    reach = MoveReachOutput(many=True, help_text="Every hex it may end its move in.")
    to = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="The hex asked about."
    )
    ends = MoveEndOutput(many=True, help_text="The ends in the hex `to`, likeliest paths first.")
    exits = MoveExitOutput(
        many=True,
        help_text="Where moves leave the map (000 'THE BATTLE MAP': a retreat, or an exit by "
        "the scenario's edge): the hex left from, with the edge (a corner hex once per edge).",
    )
    exit_paths = MoveExitPathOutput(
        many=True, help_text="The ways off the map from the hex `to`, likeliest first."
    )


class TurnOutput(serializers.Serializer):
    """A battle flown by people as the asking user may see it now (no dice state, no seed)."""

    battle = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    scenario = serializers.CharField()
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    to_act = serializers.CharField(allow_null=True, help_text="axis, allied, or null once over.")
    aircraft_to_act = serializers.IntegerField(
        allow_null=True, help_text="The aircraft moving, if one is."
    )
    your_sides = serializers.ListField(child=serializers.CharField())
    your_turn = serializers.BooleanField()
    seats = serializers.DictField(child=serializers.CharField())
    victory_points = serializers.DictField(child=serializers.FloatField())
    aircraft = serializers.ListField(child=serializers.DictField())
    legal_actions = serializers.ListField(
        child=serializers.DictField(),
        help_text="The engine's JSON actions; empty unless it is your turn.",
    )
    choices = TurnChoiceOutput(many=True)
    movable = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The aircraft you may start moving now (ask `moves` for one).",
    )
    move_choices = MoveChoicesOutput(
        allow_null=True,
        help_text="With `moves`: that aircraft's reachable end hexes; with `to`, the paths there. "
        "Only for the person whose decision it is.",
    )
    log_since = serializers.IntegerField()
    log = serializers.ListField(
        child=serializers.DictField(), help_text="Events from log_since on."
    )
    result = serializers.DictField(allow_null=True)
