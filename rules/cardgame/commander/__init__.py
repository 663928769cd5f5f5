"""The computer commander of the strategic card game (rules file ``003_…``).

``choose_action(state, side, dice)`` returns one legal action for ``side``
when it is that side's decision; ``random_action`` is the baseline commander
(uniform over the legal actions). Both draw their tie-breaks from ``dice``
(rules.dice: the one seeded source), so a game replays from its seeds.

The commander is a set of rules of thumb, not a search: it plays its cards of
production at once, mans the missions by value with the strength they need
and sends every other plane along (:mod:`.attack`), spreads its interceptors
over the missions still to fly (:mod:`.defend`), plays an event card when the
card changes the mission in flight enough (:mod:`.play`), gives up its least
useful planes, trains the planes closest to their next rank and discards its
least useful cards. Readings: docs/rulings.md, "Computer commander".
"""

from __future__ import annotations

from .core import COMMANDERS, choose_action, random_action

__all__ = ["COMMANDERS", "choose_action", "random_action"]
