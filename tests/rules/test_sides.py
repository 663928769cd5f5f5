"""One definition of the two sides (rules.sides); each game keeps the order it
needs, named: the card game and the campaign Allied first, the tactical games
and their battle pages Axis first (stored records and golden replays use them)."""

import battles.forms
import battles.rules_settings
import campaign.enrolment
import campaign.recording
import campaign.services
import campaign.web_engagements
from rules import sides
from rules.airpirates import units
from rules.angels20 import stats
from rules.cardgame import cards


def test_every_game_takes_its_sides_from_the_one_definition():
    assert cards.SIDES is sides.ALLIED_FIRST == ("allied", "axis")
    for module in (campaign.enrolment, campaign.recording, campaign.services):
        assert module.SIDES is sides.ALLIED_FIRST
    assert stats.SIDES is sides.AXIS_FIRST == ("axis", "allied")
    assert stats.SIDE_INDEX == {"axis": 0, "allied": 1}  # the engine's tables
    for module in (units, battles.forms, battles.rules_settings, campaign.web_engagements):
        assert module.SIDES is sides.AXIS_FIRST


def test_each_side_has_the_other_as_opponent():
    assert sides.OPPONENT == {"allied": "axis", "axis": "allied"}
    assert all(cards.other(s) == sides.OPPONENT[s] for s in sides.ALLIED_FIRST)
