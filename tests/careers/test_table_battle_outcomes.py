"""Issue 24 §2: a table battle's outcomes read as sentences ("F/O Tony Bartley was
shot down and captured."), not as raw keys ("shot down: True, outcome: captured")."""

from __future__ import annotations

import pytest

from careers.entry_sentences import outcome_sentence
from careers.models import AppliedResult
from careers.services import table_battle_record
from rules.dice import ScriptedDice

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("summary", "sentence"),
    [
        ({"pilot": "F/O Tony Bartley", "aircraft": "", "shot_down": True, "outcome": "captured",
          "wounded_turns": 0}, "F/O Tony Bartley was shot down and captured."),
        ({"pilot": "Bader", "aircraft": "Hawker Hurricane", "kills": 2, "damage": 1},
         "Bader in a Hawker Hurricane shot down 2 aircraft and took 1 hit."),
        ({"pilot": "Tuck", "shot_down": True, "outcome": "seriously_wounded", "wounded_turns": 3,
          "retreated": True}, "Tuck broke off and retreated and was shot down and seriously wounded (out for 3 turns)."),
        ({"pilot": "Lacey"}, "Lacey flew and came back unharmed."),
    ],
)  # fmt: skip
def test_an_outcome_is_a_sentence(summary, sentence):
    assert str(outcome_sentence(summary)) == sentence


def test_an_unknown_key_is_still_shown_in_words():
    text = str(outcome_sentence({"pilot": "Bader", "bailed_out": True}))
    assert text.startswith("Bader flew and came back unharmed.")
    assert "bailed out: yes" in text


def test_the_table_battle_page_shows_each_outcome_as_a_sentence(client, cast, organiser):
    bader, molders = cast["Bader"], cast["Mölders"]
    battle = table_battle_record(
        name="Table 1", system="angels20", territory="axis", campaign=cast["campaign"],
        campaign_turn=1, flights=[{"pilot_id": bader.pk, "destroyed": True}, {"pilot_id": molders.pk}],
        kills=[{"victim_pilot_id": bader.pk, "attacks": [[molders.pk, 1, 0]]}],
        recorded_by=organiser.username, confirm=True, survival_dice=ScriptedDice([1, 1, 1, 1]),
    )  # fmt: skip
    summary = AppliedResult.objects.get(pk=battle.applied_result_id).summary
    fate = summary[str(bader.pk)]["outcome"]
    html = client.get(f"/table-battles/{battle.pk}/").content.decode()
    outcomes = html[html.index("<h2>Outcomes</h2>") :]
    words = {"killed": "killed", "captured": "captured", "missing": "missing",
             "wounded": "wounded", "seriously_wounded": "seriously wounded", "returned": "returned safely"}  # fmt: skip
    assert f"Bader was shot down and {words[fate]}" in outcomes
    assert "Mölders flew and came back unharmed." in outcomes  # his kill is a claim, above
    assert "shot down: True" not in outcomes and "outcome:" not in outcomes
