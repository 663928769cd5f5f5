"""The turn of a battle flown by people (issue 14): read it, act in it (``battles.play``)."""

from collections.abc import Callable

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from angels.errors import RuleViolation
from angels.numbers import whole_number

from . import play, play_moves, play_steps, seat_offers
from .models import Battle, BattleStatus
from .serializers import TurnActInput, TurnOutput


class StepOutput(serializers.Serializer):
    step = serializers.CharField(help_text="One step in the game's notation, e.g. H.")
    label = serializers.CharField(help_text="The step in words, e.g. fly high.")  # type: ignore[assignment]  # a field named like Field.label


class StepsOutput(serializers.Serializer):
    """A decision built step by step (issue 25): what is chosen and what may follow."""

    side = serializers.CharField(help_text="The side whose decision this is.")
    steps = serializers.ListField(
        child=serializers.CharField(), help_text="The steps chosen so far (none at first)."
    )
    chosen = StepOutput(many=True, help_text="The same steps, each in words.")
    text = serializers.CharField(
        allow_blank=True, help_text="The steps so far in the game's notation, e.g. 3H."
    )
    complete = serializers.BooleanField(
        help_text="The steps so far are a whole decision: post them (more may still follow)."
    )
    prompt = serializers.CharField(
        allow_blank=True, help_text="What the next step chooses, in words."
    )
    next = StepOutput(many=True, help_text="The legal next steps (none: nothing may follow).")
    action = serializers.DictField(
        allow_null=True,
        help_text="Once complete: the action the steps make, in the engine's JSON form.",
    )
    problem = serializers.CharField(
        allow_null=True,
        help_text="Complete steps the game refuses as a whole: why (null: none).",
    )


class PlayTurnOutput(TurnOutput):
    """The turn, with its clock and what is handed to the computer pilot."""

    deadline_seconds = serializers.IntegerField(
        allow_null=True, help_text="The time per decision (settings.deadline), or null: none."
    )
    decision_due = serializers.DateTimeField(
        allow_null=True,
        help_text="When the person to act runs out of time: then the side's computer pilot "
        "(its seat's, tactical unless named) makes the decision.",
    )
    seconds_left = serializers.IntegerField(allow_null=True)
    handed = serializers.DictField(
        help_text='What each side handed to the computer pilot: "side" or a list of aircraft.'
    )
    notes = serializers.ListField(
        child=serializers.DictField(),
        help_text="Log lines the engine does not write (a deadline passed, a hand-over), each "
        "with `at`, the index of the event it comes before, and `text`.",
    )
    offered_to_you = serializers.ListField(
        child=serializers.CharField(),
        help_text="The sides whose seat is offered to you: accept or decline it "
        "(POST .../seat/); until every offered seat is answered the battle waits.",
    )
    waiting_for = serializers.ListField(
        child=serializers.CharField(),
        help_text="The sides whose offered seat is not answered yet (the battle waits).",
    )
    deciding = serializers.ListField(
        child=serializers.CharField(),
        help_text="The sides whose decision is awaited now: one, or several deciding at once "
        "(a simultaneous decision: each seat decides in parallel, its choice sealed from the "
        "others until every side has decided or the deadline passed).",
    )
    view = serializers.DictField(
        allow_null=True,
        help_text="What your side may see now, as the game describes it (null: a game that "
        "hides nothing, its state is the rest of this answer).",
    )
    steps = StepsOutput(
        required=False,
        help_text="Only while your decision is awaited in a game that builds it step by step "
        "(then `legal_actions` and `choices` are empty): the steps chosen (none, or those of "
        "`steps`/`text`) and the legal next ones. Post them as `steps` or `notation`.",
    )


class TurnActStepsInput(TurnActInput):
    steps = serializers.ListField(
        child=serializers.CharField(max_length=play_steps.MAX_STEP),
        max_length=play_steps.MAX_STEPS,
        required=False,
        help_text='Instead of an action: a decision built step by step, e.g. ["3", "H"] '
        "(the turn's `steps`), checked whole by the game.",
    )
    notation = serializers.CharField(
        max_length=play_steps.MAX_TEXT,
        required=False,
        help_text="Instead of an action: the decision typed in the game's notation, e.g. 3H.",
    )
    side = serializers.CharField(
        required=False,
        help_text="With steps or notation: the side it is for, if you decide for several now.",
    )


class SeatAnswerInput(serializers.Serializer):
    accept = serializers.BooleanField(help_text="true: take the seat; false: decline it.")


class HandOverInput(serializers.Serializer):
    side = serializers.CharField(help_text="axis or allied: a side you fly.")
    aircraft = serializers.IntegerField(
        required=False, allow_null=True, help_text="One aircraft of that side; none: the side."
    )
    computer = serializers.BooleanField(
        default=True, help_text="true: to the computer pilot; false: take it back."
    )


def _act_and_answer(
    request: Request,
    pk: int,
    data_class: type[serializers.Serializer],
    act: Callable[..., Battle],
) -> Response:
    """The turn's POSTs (act, hand over), refused in one way and answered with the turn.

    An unknown battle is a 404; input its serializer refuses a 400 naming the field;
    ``act(**validated_data)``, the service, raises RuleViolation naming the field and the
    rule (a 400, or a 403 for who is asking: ``angels.api.exception_handler``). The
    service locks and reads the row, so here only its existence is asked (not its log)."""
    if not Battle.objects.filter(pk=pk).exists():
        raise Http404
    data = data_class(data=request.data)
    data.is_valid(raise_exception=True)
    battle = act(**data.validated_data)
    return Response(PlayTurnOutput(play_steps.turn_view(battle, request.user)).data)


class BattleTurnApi(APIView):
    """A battle flown by people (issue 14): read the turn, act in it."""

    def get_permissions(self):
        if self.request.method == "POST":
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="Log events from this index on."),
            OpenApiParameter(
                "moves",
                int,
                description="An aircraft you may start moving: its reachable end hexes "
                "(`move_choices`).",
            ),
            OpenApiParameter(
                "to", str, description='With `moves`: a hex "column,row", its paths and odds.'
            ),
            OpenApiParameter(
                "steps",
                str,
                description="A decision built step by step: the steps chosen so far, "
                'comma-separated (e.g. "3,H"); `steps` answers what may follow. A step not '
                "legal where it stands is a 400 naming it (`steps[1]`).",
            ),
            OpenApiParameter(
                "text",
                str,
                description="Instead of `steps`: the decision typed in the game's notation "
                '(e.g. "3H"), read into steps; unreadable, a 400 naming `text`.',
            ),
            OpenApiParameter(
                "side",
                str,
                description="With `steps` or `text`: the side building, if you decide for "
                "several now.",
            ),
        ],
        responses=PlayTurnOutput,
        description=(
            "What the asking user may see now: phase, side and aircraft to act, the aircraft, "
            "the log, and for the person whose decision it is `legal_actions` in the engine's "
            "JSON form (with `choices`: the same, labelled, with an attack's odds; with `moves`, "
            "an aircraft's reachable end hexes and with `to` the paths to one; in a game that "
            "builds a decision step by step, `steps` instead, after `steps` or `text`); a finished "
            "battle of the computer pilots at its end. No dice "
            "state and no seed: with them the next rolls could be foreseen."
        ),
    )
    def get(self, request, pk: int):
        battle = get_object_or_404(Battle.objects.defer("log"), pk=pk)  # the state has it
        if not play.seats_of(battle) and battle.status != BattleStatus.FINISHED:
            # a finished battle of the computer pilots is shown at its end; one still to be
            # flown is not (its first rolls are not anyone's to see yet)
            raise RuleViolation(
                "a battle of the computer pilots is shown once flown", field="battle", code="state"
            )
        since = whole_number(request.query_params.get("since", "0"), field="since")
        moves, to = play_moves.parse_request(
            request.query_params.get("moves"), request.query_params.get("to")
        )
        steps = play_steps.parse_steps(request.query_params.get("steps"))
        text = request.query_params.get("text")
        side = request.query_params.get("side")
        battle = play.deadline_check(battle)  # the embedded default has no beat task
        view = play_steps.turn_view(
            battle, request.user, steps=steps, text=text, side=side, since=since, moves=moves, to=to
        )
        return Response(PlayTurnOutput(view).data)

    @extend_schema(
        request=TurnActStepsInput,
        responses=PlayTurnOutput,
        description=(
            "Take one of the turn's `legal_actions` (checked by the engine); the computer seats "
            "answer at once. A stale `version` (code conflict), the other side's decision or an "
            "action the rules do not allow (the rule named) is a 400 and changes nothing; of two "
            "people acting on one decision exactly one is applied. Only the people flying the "
            "battle may act (403). With `computer` (tactical or random) instead of `action` the "
            "person hands this decision to that computer pilot. In a game that builds a decision "
            "step by step, `steps` (or typed `notation`) instead: read, checked whole, and "
            "played as that action; a step not legal is a 400 naming it (`steps[1]`), "
            "unreadable notation one naming `notation`."
        ),
    )
    def post(self, request, pk: int):
        return _act_and_answer(
            request,
            pk,
            TurnActStepsInput,
            lambda **data: play_steps.turn_act(battle_id=pk, user=request.user, **data),
        )


class BattleHandOverApi(APIView):
    """Hand a side, or one aircraft, to the computer pilot, or take it back (issue 14)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=HandOverInput,
        responses=PlayTurnOutput,
        description=(
            "The person flying `side` hands it (or its `aircraft`) to the side's computer "
            "pilot (the seat's stand-in, tactical unless named), or with `computer: false` "
            "takes it back. The log says so; the computer's decisions are made at once. "
            "Answers the turn. A side you do not fly is a 403; a bad side or aircraft, or a "
            "battle not in play, a 400 naming the field."
        ),
    )
    def post(self, request, pk: int):
        return _act_and_answer(
            request,
            pk,
            HandOverInput,
            lambda side, computer, aircraft=None: play.hand_over(
                battle_id=pk, user=request.user, side=side, aircraft=aircraft, to_computer=computer
            ),
        )


class BattleSeatApi(APIView):
    """Accept or decline the seat offered to you in a battle flown by people (issue 23)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=SeatAnswerInput,
        responses=PlayTurnOutput,
        description=(
            "Nobody is seated in a battle by someone else without saying yes: a seat naming "
            "another person is offered to them. `accept: true` takes it; `accept: false` "
            "gives it to the seat's computer pilot (tactical unless named). The battle starts "
            "when every offered seat is answered. Answers the turn. No seat offered to you is "
            "a 403."
        ),
    )
    def post(self, request, pk: int):
        return _act_and_answer(
            request,
            pk,
            SeatAnswerInput,
            lambda accept: seat_offers.seat_answer(battle_id=pk, user=request.user, accept=accept),
        )
