"""Battles flown by people (issue 14): each side's seat is a person or a computer pilot.

A person-flown battle is stored like any other (setup, seed, ``actions``,
``log``) with its seats in ``settings["seats"]``::

    {"axis": {"user": 7}, "allied": {"pilot": "tactical"}}

It stays ``in play`` while people fly it. The engine's state is never stored:
it is rebuilt from seed + actions (the replay every battle already has), so
the report, the replay and the result are those of an engine battle.

This module is the front door; the work is split by job (issue 25):

- ``battles.play_state``: the state, replayed and kept per process (``battle_state``);
- ``battles.play_view``: what one user may see now (``turn_view``: the state without the
  dice's state or the seed, with which the next rolls could be foreseen; their side's view
  and log of a game with hidden information), read only;
- ``battles.play_input``: the checks of what is posted, refusals naming the field;
- ``battles.play_services``: the writes (``turn_act``, ``hand_over``, the deadlines,
  ``play_start``), each through one guard, the battle in play under its row lock;
- ``battles.play_computer``: the computer seats' and handed-over decisions;
- ``battles.play_seats``: the seats and the time per decision.
"""

from __future__ import annotations

from .play_seats import deadline_words as deadline_words
from .play_seats import offered_sides as offered_sides
from .play_seats import seats_of as seats_of
from .play_seats import settings_with_seats as settings_with_seats
from .play_seats import user_sides as user_sides
from .play_seats import waiting_for as waiting_for
from .play_services import _locked as _locked
from .play_services import deadline_check as deadline_check
from .play_services import deadline_pass as deadline_pass
from .play_services import deadlines_sweep as deadlines_sweep
from .play_services import hand_over as hand_over
from .play_services import in_play_locked as in_play_locked
from .play_services import play_start as play_start
from .play_services import turn_act as turn_act
from .play_state import STATES as STATES
from .play_state import StateCache as StateCache
from .play_state import battle_state as battle_state
from .play_state import replay_state as replay_state
from .play_view import _viewer as _viewer
from .play_view import turn_view as turn_view
from .play_view import visible_log as visible_log
from .play_view import visible_record as visible_record
