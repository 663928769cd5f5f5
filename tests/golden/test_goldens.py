"""Golden replays stay byte-identical (see goldens.py for what each check means)."""

from __future__ import annotations

import pytest

from tests.golden import goldens

BATTLE_CASES = goldens.battle_cases()
CARD_CASES = goldens.cardgame_cases()
AIRPIRATES_CASES = goldens.airpirates_cases()


def _load(folder, name):
    return goldens.loads((folder / f"{name}.json").read_text())


def test_every_golden_is_recorded():
    folders = (goldens.BATTLES, goldens.CARDGAMES, goldens.AIRPIRATES_BATTLES)
    recorded = {p.stem for folder in folders for p in folder.glob("*.json")}
    cases = (BATTLE_CASES, CARD_CASES, AIRPIRATES_CASES)
    expected = {c["name"] for group in cases for c in group}
    assert recorded == expected
    assert len(BATTLE_CASES) >= 40  # six scenarios x rules x pilots


@pytest.mark.parametrize("case", BATTLE_CASES, ids=lambda c: c["name"])
def test_battle_replays_byte_identical(case):
    golden = _load(goldens.BATTLES, case["name"])
    again = goldens.replay_battle(golden)
    assert goldens.canonical(again["log"]) == goldens.canonical(golden["log"])
    assert goldens.canonical(again["result"]) == goldens.canonical(golden["result"])


@pytest.mark.parametrize("case", BATTLE_CASES, ids=lambda c: c["name"])
def test_battle_pilots_fly_the_same_again(case):
    golden = _load(goldens.BATTLES, case["name"])
    again = goldens.fly_battle(case)
    assert goldens.canonical(again["setup"]) == goldens.canonical(golden["setup"])
    assert again["actions"] == golden["actions"]
    assert goldens.canonical(again["log"]) == goldens.canonical(golden["log"])


@pytest.mark.parametrize("case", AIRPIRATES_CASES, ids=lambda c: c["name"])
def test_airpirates_replays_byte_identical(case):
    golden = _load(goldens.AIRPIRATES_BATTLES, case["name"])
    again = goldens.replay_airpirates(golden)
    assert goldens.canonical(again["log"]) == goldens.canonical(golden["log"])
    assert goldens.canonical(again["result"]) == goldens.canonical(golden["result"])


@pytest.mark.parametrize("case", AIRPIRATES_CASES, ids=lambda c: c["name"])
def test_airpirates_pilots_fly_the_same_again(case):
    golden = _load(goldens.AIRPIRATES_BATTLES, case["name"])
    again = goldens.fly_airpirates(case)
    assert goldens.canonical(again["setup"]) == goldens.canonical(golden["setup"])
    assert again["actions"] == golden["actions"]
    assert goldens.canonical(again["log"]) == goldens.canonical(golden["log"])


@pytest.mark.parametrize("case", CARD_CASES, ids=lambda c: c["name"])
def test_cardgame_replays_byte_identical(case):
    golden = _load(goldens.CARDGAMES, case["name"])
    again = goldens.replay_cardgame(golden)
    assert goldens.canonical(again["log"]) == goldens.canonical(golden["log"])
    assert goldens.canonical(again["state"]) == goldens.canonical(golden["state"])


@pytest.mark.parametrize("case", CARD_CASES, ids=lambda c: c["name"])
def test_cardgame_plays_the_same_again(case):
    golden = _load(goldens.CARDGAMES, case["name"])
    again = goldens.play_cardgame(case)
    assert again["actions"] == golden["actions"]
    assert goldens.canonical(again["state"]) == goldens.canonical(golden["state"])
