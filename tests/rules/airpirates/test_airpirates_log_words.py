"""Every entry a flown *Air Pirates* battle logs reads as a sentence in the game's words
(rules.airpirates.words): the pages' generic sentence is never needed, so no line of the
play page or report reads as a bare placeholder ("None")."""

from rules.airpirates.system import AIRPIRATES
from rules.airpirates.words import log_sentence


def test_each_impulse_opening_is_a_sentence_and_no_entry_lacks_words():
    battle = AIRPIRATES.new_battle(AIRPIRATES.scenario("basic", 1), 1)
    for _ in range(200):  # into the second turn
        legal = battle.legal_actions()
        if not legal:
            break
        battle.apply(legal[0])
    impulses = [e for e in battle.log if str(e["event"]).startswith("impulse ")]
    assert [log_sentence(e) for e in impulses[:2]] == [
        "Turn 1: impulse I begins. [002 '4a']",
        "Turn 1: impulse II begins. [002 '4a']",
    ]
    turn_two = [e for e in battle.log if e["event"] == "turn 2, impulse I"]
    assert [log_sentence(e) for e in turn_two] == ["Turn 2 begins: impulse I. [002 '3d1']"]
    assert [e["event"] for e in battle.log if log_sentence(e) is None] == []
