"""Quality progression rule sets (rules/careers/progression.py)."""

from __future__ import annotations

import sys

import pytest

from rules.careers import RULE_SETS, PilotRecord, force_bonus, get_rule_set, is_ace, kill_credits
from rules.careers.characteristics import Characteristics
from rules.careers.progression import card_game_rank, experience_for

CARD = RULE_SETS["card_game"]
AF = RULE_SETS["air_force"]
AP = RULE_SETS["air_pirates"]


def test_no_django_import():
    import subprocess

    code = "import sys, rules.careers; print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_scales_match_the_database_strings():
    assert CARD.scale == ("poor", "average", "veteran", "ace")
    assert AF.scale == ("novice", "average", "ace")
    assert AP.scale == ("green", "inexperienced", "average", "experienced", "ace")
    assert set(RULE_SETS) == {"card_game", "air_force", "air_pirates"}
    assert get_rule_set("air_force") is AF
    with pytest.raises(ValueError):
        get_rule_set("nope")


# -- card game ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("markers", "quality", "bonus", "rank"),
    [
        (0, "poor", 0, "Green"),
        (1, "poor", 0, "Green"),
        (2, "average", 1, "Flier"),
        (4, "average", 1, "Flier"),
        (5, "veteran", 2, "Veteran"),
        (8, "veteran", 2, "Veteran"),
        (9, "ace", 3, "Ace"),
        (30, "ace", 3, "Ace"),
    ],
)
def test_card_game_boundaries(markers, quality, bonus, rank):
    record = PilotRecord(missions=markers)
    assert CARD.quality_for(record) == quality
    assert CARD.force_bonus(markers) == bonus == force_bonus(markers)
    assert card_game_rank(markers) == rank
    assert CARD.engine_quality(quality) == quality
    assert CARD.effects(quality).force == bonus


def test_card_game_entry_and_negative_markers():
    assert CARD.entry_quality() == "poor"
    assert CARD.entry_quality(replacement=True) == "poor"
    with pytest.raises(ValueError):
        force_bonus(-1)
    with pytest.raises(ValueError):
        PilotRecord(missions=-1)


def test_quality_never_goes_down():
    # An organiser's manual promotion stands even if the markers are below it.
    assert CARD.quality_for(PilotRecord(missions=0, quality="veteran")) == "veteran"
    assert CARD.quality_for(PilotRecord(missions=9, quality="average")) == "ace"


# -- kill credits (001 XIX) --------------------------------------------------------
@pytest.mark.parametrize(
    ("bombing", "strafed", "credits"),
    [
        (0, 0, 0),
        (2, 0, 0),
        (3, 0, 1),
        (5, 0, 1),
        (6, 0, 2),
        (0, 3, 0),
        (0, 4, 1),
        (0, 8, 2),
        (3, 4, 2),
    ],
)
def test_kill_credits_bombing_and_strafing(bombing, strafed, credits):
    record = PilotRecord(bombing_successes=bombing, ground_credits=strafed)
    assert kill_credits(record) == credits
    assert AF.kill_credits(record) == credits


def test_kill_credits_count_aircraft_destroyed_on_the_ground():
    assert kill_credits(PilotRecord(air_kills=2, ground_kills=1)) == 3
    assert not is_ace(4)


# -- Air Force -------------------------------------------------------------------
def test_air_force_entry_qualities():
    assert AF.entry_quality() == "average"
    assert AF.entry_quality(replacement=True) == "novice"
    assert AF.entry_quality(True, Characteristics(experience=True)) == "average"
    assert AF.entry_quality(True, Characteristics(vision=True)) == "novice"
    assert AF.entry_quality(False, Characteristics(experience=True, ace=True)) == "ace"
    assert AF.entry_quality(True, Characteristics(experience=True, ace=True)) == "ace"


@pytest.mark.parametrize(
    ("kills", "quality"), [(0, "novice"), (1, "average"), (5, "average"), (6, "ace")]
)
def test_air_force_novice_rises_after_one_then_five_more(kills, quality):
    record = PilotRecord(air_kills=kills, entry_quality="novice", quality="novice")
    assert AF.quality_for(record) == quality


@pytest.mark.parametrize(("kills", "quality"), [(0, "average"), (4, "average"), (5, "ace")])
def test_air_force_average_rises_after_five(kills, quality):
    assert AF.quality_for(PilotRecord(air_kills=kills)) == quality


def test_air_force_credits_from_bombing_and_strafing_promote():
    novice = PilotRecord(bombing_successes=3, entry_quality="novice")
    assert AF.quality_for(novice) == "average"
    assert AF.quality_for(PilotRecord(bombing_successes=2, entry_quality="novice")) == "novice"
    assert AF.quality_for(PilotRecord(ground_credits=4, entry_quality="novice")) == "average"
    assert AF.quality_for(PilotRecord(ground_credits=3, entry_quality="novice")) == "novice"
    assert AF.quality_for(PilotRecord(air_kills=3, bombing_successes=3, ground_credits=4)) == "ace"


def test_air_force_entry_inferred_from_current_quality():
    # A novice with no entry recorded is taken as a replacement.
    assert AF.quality_for(PilotRecord(air_kills=0, quality="novice")) == "novice"
    assert AF.quality_for(PilotRecord(air_kills=1, quality="novice")) == "average"


@pytest.mark.parametrize(("missions", "has"), [(0, False), (4, False), (5, True), (9, True)])
def test_experience_after_five_missions(missions, has):
    record = PilotRecord(missions=missions)
    assert experience_for(record) is has
    assert AF.experience_for(record) is has
    assert experience_for(PilotRecord(missions=0, has_experience=True))


def test_air_force_engine_quality_and_effects():
    assert [AF.engine_quality(q) for q in AF.scale] == ["poor", "average", "ace"]
    assert AF.effects("novice").firing == -2
    assert AF.effects("novice").maneuver == 1
    assert AF.effects("ace", air_kills=10).firing == 2
    assert "Concentrated" in AF.effects("ace", air_kills=20).notes
    with pytest.raises(ValueError):
        AF.engine_quality("veteran")


# -- Air Pirates ---------------------------------------------------------------
def test_air_pirates_entry_qualities():
    assert AP.entry_quality() == "average"
    assert AP.entry_quality(replacement=True) == "green"
    assert AP.entry_quality(True, Characteristics(experience=True)) == "average"
    assert AP.entry_quality(False, Characteristics(experience=True, ace=True)) == "ace"


@pytest.mark.parametrize(
    ("kills", "quality"),
    [
        (0, "green"),
        (1, "inexperienced"),
        (2, "average"),
        (3, "average"),
        (4, "experienced"),
        (6, "experienced"),
        (7, "ace"),
    ],
)
def test_air_pirates_green_ladder(kills, quality):
    assert AP.quality_for(PilotRecord(air_kills=kills, entry_quality="green")) == quality


@pytest.mark.parametrize(
    ("kills", "quality"),
    [(0, "average"), (1, "average"), (2, "experienced"), (4, "experienced"), (5, "ace")],
)
def test_air_pirates_average_ladder(kills, quality):
    assert AP.quality_for(PilotRecord(air_kills=kills)) == quality


def test_air_pirates_five_missions_take_a_green_pilot_one_step():
    assert AP.quality_for(PilotRecord(missions=4, entry_quality="green")) == "green"
    assert AP.quality_for(PilotRecord(missions=5, entry_quality="green")) == "inexperienced"
    assert AP.quality_for(PilotRecord(missions=5, air_kills=1, entry_quality="green")) == "average"
    # Missions do nothing for a pilot who did not start green.
    assert AP.quality_for(PilotRecord(missions=50)) == "average"


def test_air_pirates_modifiers_and_engine_mapping():
    table = {
        q: (AP.effects(q).points, AP.effects(q).firing, AP.effects(q).spotting) for q in AP.scale
    }
    assert table == {
        "green": (-2, -1, -2),
        "inexperienced": (-1, 0, -1),
        "average": (0, 0, 0),
        "experienced": (1, 2, 2),
        "ace": (2, 4, 4),
    }
    assert AP.effects("green").forbidden == ("half_loop", "tight_turn")
    assert AP.effects("inexperienced").forbidden == ("half_loop",)
    assert [AP.engine_quality(q) for q in AP.scale] == [
        "poor",
        "average",
        "average",
        "veteran",
        "ace",
    ]


def test_every_engine_quality_is_an_angels20_quality():
    for rules in RULE_SETS.values():
        for quality in rules.scale:
            assert rules.engine_quality(quality) in ("poor", "average", "veteran", "ace")


@pytest.mark.parametrize(("kills", "ace"), [(0, False), (4, False), (5, True), (12, True)])
def test_leaderboard_ace(kills, ace):
    assert is_ace(kills) is ace


def test_record_from_a_model_like_object():
    class Pilot:
        experience_markers = 6
        air_kills = 2
        ground_credits = 4
        bombing_successes = 3
        quality = "average"
        experience = True

    record = PilotRecord.from_obj(Pilot(), entry_quality="novice")
    assert record.missions == record.experience_markers == 6
    assert kill_credits(record) == 4
    assert record.has_experience
    assert AF.quality_for(record) == "average"
