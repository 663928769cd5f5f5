"""The page of a battle flown by people (issue 14): the map, whose turn, and the choices
of the person whose decision it is, posted as forms (session and CSRF)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from angels.errors import RuleViolation
from angels.numbers import digits

from . import play, play_input, play_steps, seat_offers
from .game_pages import page_parts, play_parts
from .models import Battle
from .report import HEX_SIZE, frames_from_log
from .selectors import battle_crews

GROUPS = (  # the order a player meets the decisions in a game turn (000 "SEQUENCE OF PLAY")
    ("initiative", "Turn position"),
    ("fighter direction", "Fighter direction"),
    ("movement", "Movement"),
    ("status", "Status at the end of the move"),
    ("clouds", "Clouds"),
    ("abilities", "Special abilities"),
    ("attack", "Attacks"),
    ("decision", "Your decision"),  # another game's decisions (rules.tactical), labelled
)
LOG_SHOWN = 40  # the latest events beside the map; the whole log is the report's


def _board(request: HttpRequest, battle: Battle) -> dict[str, Any]:
    view, steps_problem = play_steps.page_view(battle, request.user, request.GET)
    crews = battle_crews(battle)
    names = {a["id"]: a["name"] for a in view["aircraft"]}
    groups = []
    for kind, title in GROUPS:
        choices = [
            {**c, "json": json.dumps(c["action"], sort_keys=True)}
            for c in view["choices"]
            if c["kind"] == kind
        ]
        if choices:
            groups.append({"kind": kind, "title": title, "choices": choices})
    # the report's plain words for the latest events (its frames carry each event's line)
    frames = frames_from_log(view["log"][-LOG_SHOWN - 1 :], battle.setup)
    first = len(view["log"]) - len(frames)
    shown = [{"i": first + k, "text": f["text"]} for k, f in enumerate(frames)]
    drawn = play_parts(battle, view, shown)  # issue 25: the map as the game describes it
    shown = drawn.pop("shown", shown)
    # the lines the engine does not write (a deadline passed, a hand-over) before their event
    for note in view["notes"]:
        if note["at"] >= first:
            k = next((k for k, e in enumerate(shown) if e["i"] >= note["at"]), len(shown))
            shown.insert(k, {"i": note["at"], "text": note["text"], "note": True})
    mine = view["your_sides"]
    handed = view["handed"]
    return {
        "battle": battle,
        "view": view,
        "groups": groups,
        "steps": play_steps.page_steps(view),  # a decision built step by step (issue 25)
        "steps_problem": steps_problem,
        "legend": [
            {**a, "crew": crews.get(a["id"]), "tails": [names[t] for t in a["tailing"]]}
            for a in view["aircraft"]
        ],
        "hex_size": HEX_SIZE,  # the moves by map (play_moves.js) draw over the described map
        "log": list(reversed(shown)),
        **page_parts(battle),  # issue 25: Angels 20's map for its battles only; the stand-in
        **drawn,  # the map as the game describes it, words of another game's log
        "to_act_name": view["seats"].get(view["to_act"] or "", ""),
        "waiting_words": ", ".join(f"{view['seats'][s]} ({s})" for s in view["waiting_for"]),
        "deadline_words": play.deadline_words(view["deadline_seconds"])
        if view["deadline_seconds"]
        else "",
        "left_words": play.deadline_words(view["seconds_left"])
        if view["seconds_left"] is not None
        else "",
        "hand_over": [
            {
                "side": side,
                "whole": handed.get(side) == "side",
                "aircraft": [
                    {**a, "handed": handed.get(side) == "side" or a["id"] in handed.get(side, [])}
                    for a in view["aircraft"]
                    if a["side"] == side and a["state"] == "in play"
                ],
            }
            for side in mine
        ]
        if view["status"] == "in_play"
        else [],
    }


def battle_play(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the board (``?part=board``: the board alone, for the page's refresh).
    POST: one action of the person whose decision it is, then back to the board."""
    battle = get_object_or_404(Battle.objects.defer("log"), pk=pk)  # the state has it
    if not play.seats_of(battle):  # flown by the computer pilots: its report is its page
        return redirect("battle-report", pk=battle.pk)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        if "hand_side" in request.POST:
            return _hand_over(request, battle)
        if "seat_answer" in request.POST:
            return _seat_answer(request, battle)
        return _act(request, battle)
    battle = play.deadline_check(battle)  # the embedded default has no beat task
    if "hand_side" in request.GET:
        return _hand_over_confirm(request, battle)
    context = _board(request, battle)
    if request.GET.get("part") == "board":
        return render(request, "battles/_play_board.html", context)
    return render(request, "battles/play.html", context)


def _act(request: HttpRequest, battle: Battle) -> HttpResponse:
    computer = request.POST.get("computer") or None  # this decision handed to a computer pilot
    version = digits(request.POST.get("version", ""))
    try:
        built = play_steps.posted_steps(request.POST)  # a decision built step by step, or typed
        try:
            action = None if computer or built else json.loads(request.POST.get("action", ""))
        except (ValueError, RecursionError):  # not JSON, or nested too deeply: not an action
            action = {}
        play_steps.turn_act(
            battle_id=battle.pk,
            user=request.user,
            version=version,
            action=action,
            computer=computer,
            **built,
        )
    except RuleViolation as exc:
        if exc.code == "permission":
            raise PermissionDenied(exc.message) from exc
        messages.error(request, str(exc))
        battle.refresh_from_db()
        return render(request, "battles/play.html", _board(request, battle), status=400)
    return redirect("battle-play", pk=battle.pk)


def _hand_over(request: HttpRequest, battle: Battle) -> HttpResponse:
    """A side or one aircraft to the computer pilot, or back (``hand_to``: computer | person)."""
    raw = request.POST.get("hand_aircraft", "")
    number = digits(raw)
    aircraft = number if number is not None else raw or None  # not a number: refused
    side, to_computer = request.POST.get("hand_side", ""), request.POST.get("hand_to") != "person"
    try:
        play_input.hand_over_checked(side=side, aircraft=aircraft, to_computer=to_computer)
        play.hand_over(
            battle_id=battle.pk,
            user=request.user,
            side=side,
            aircraft=number,
            to_computer=to_computer,
        )
    except RuleViolation as exc:
        if exc.code == "permission":
            raise PermissionDenied(exc.message) from exc
        messages.error(request, str(exc))
        battle.refresh_from_db()
        return render(request, "battles/play.html", _board(request, battle), status=400)
    return redirect("battle-play", pk=battle.pk)


def _hand_over_confirm(request: HttpRequest, battle: Battle) -> HttpResponse:
    """GET ``?hand_side=<side>[&hand_aircraft=<id>]``: what would go to the computer pilot,
    and a Confirm button (its POST hands it over); only for the person flying that side."""
    side = request.GET.get("hand_side", "")
    context = _board(request, battle)
    seat = next((h for h in context["hand_over"] if h["side"] == side), None)
    if seat is None:
        raise PermissionDenied(f"only the person flying the {side} side may hand it over")
    raw = request.GET.get("hand_aircraft", "")
    aircraft = None
    if raw:
        aircraft = next((a for a in seat["aircraft"] if str(a["id"]) == raw), None)
        if aircraft is None:
            messages.error(request, f"No aircraft {raw} of the {side} side is in play.")
            return redirect("battle-play", pk=battle.pk)
    return render(
        request,
        "battles/hand_over_confirm.html",
        {"battle": battle, "side": side, "aircraft": aircraft, "seat": seat},
    )


def _seat_answer(request: HttpRequest, battle: Battle) -> HttpResponse:
    """The seat offered to this user, accepted or declined (issue 23: seated by consent)."""
    answer = request.POST.get("seat_answer")
    accept = {"accept": True, "decline": False}.get(answer or "", answer)
    try:
        seat_offers.seat_answer(battle_id=battle.pk, user=request.user, accept=accept)
    except RuleViolation as exc:
        if exc.code == "permission":
            raise PermissionDenied(exc.message) from exc
        messages.error(request, str(exc))
        battle.refresh_from_db()
        return render(request, "battles/play.html", _board(request, battle), status=400)
    battle.refresh_from_db()
    if not play.seats_of(battle):  # declined by all: the computer pilots fly it
        return redirect("battle-report", pk=battle.pk)
    return redirect("battle-play", pk=battle.pk)
