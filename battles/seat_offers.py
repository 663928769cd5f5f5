"""Accepting or declining a seat offered in a battle flown by people (issue 23).

Whoever makes a battle may seat themselves; a seat naming anyone else is stored as an
offer (``"offered": true`` in ``settings["seats"]``, :func:`battles.play_seats.seats_offer`)
and the battle waits: nobody acts and no decision's clock runs until every offered seat
is answered. Accepting seats the person. Declining gives the seat to its computer pilot
(the one named to stand in, tactical unless named); if no person is left in the battle,
the computer pilots fly it in the background like any battle of theirs.

A campaign's web engagements seat its commanders without an offer: they accepted the
campaign's invitation (``battles.services.battle_create_from_setup``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from angels.errors import RuleViolation

from .models import Battle, BattleStatus
from .play import _locked, battle_state, play_start
from .play_notes import note_add
from .play_seats import offered_sides, seat_names, seats_of, settings_with_seats, waiting_for

DEFAULT_PILOT = "tactical"


def seat_answer(*, battle_id: int, user: Any, accept: Any) -> Battle:
    """``user`` accepts (``accept`` True) or declines the seat(s) offered to them; a decline
    is logged (the computer pilot flies the side). The last answer starts the battle. RuleViolation names the field: no seat
    offered to this user is a 403, a battle no longer in play a 400."""
    if not isinstance(accept, bool):
        raise RuleViolation("accept is true or false", field="accept", code="format")
    with transaction.atomic():
        battle = _locked(battle_id)
        if battle is None:
            raise RuleViolation("no such battle", field="battle", code="exists")
        sides = offered_sides(battle, user)
        if not sides:
            raise RuleViolation(
                "no seat in this battle is offered to you", field="battle", code="permission"
            )
        if battle.status != BattleStatus.IN_PLAY:
            raise RuleViolation(
                f"the battle is {battle.get_status_display().lower()}, not waiting for you",
                field="status",
                code="state",
            )
        state = battle_state(battle)
        who = seat_names(battle)[sides[0]]
        seats = seats_of(battle)
        for side in sides:
            if accept:  # seated: the page's seats say so (no log line, nothing was flown)
                seats[side] = {k: v for k, v in seats[side].items() if k != "offered"}
            else:
                pilot = seats[side].get("pilot", DEFAULT_PILOT)
                seats[side] = {"pilot": pilot}
                note_add(battle, state, f"{who} declined the {side} seat: computer pilot ({pilot})")
        battle.settings = {**battle.settings, "seats": seats}
        if waiting_for(battle):
            battle.save(update_fields=["settings", "notes"])
        elif any("user" in seat for seat in seats.values()):
            battle.save(update_fields=["settings", "notes"])
            play_start(battle)  # the computer seats act if theirs is the first decision
        else:  # nobody left to fly it: the computer pilots' battle, flown in the background
            from .services import _dispatch

            rest = {k: v for k, v in battle.settings.items() if k != "deadline"}
            battle.settings, _ = settings_with_seats(rest, system=battle.system)
            battle.status = BattleStatus.PENDING
            battle.save(update_fields=["settings", "notes", "status"])
            _dispatch([battle.pk])
    return battle
