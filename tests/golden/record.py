"""Record (or re-record) the golden replays.

    .venv/bin/python -m tests.golden.record [--only NAME]

Re-record only when a change of behaviour is intended, and list the changed
goldens in the commit message and the closing note.
"""

from __future__ import annotations

import argparse

from tests.golden import goldens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="record only the golden with this name")
    args = parser.parse_args()
    goldens.BATTLES.mkdir(exist_ok=True)
    goldens.CARDGAMES.mkdir(exist_ok=True)
    goldens.AIRPIRATES_BATTLES.mkdir(exist_ok=True)
    for case in goldens.battle_cases():
        if args.only and case["name"] != args.only:
            continue
        record = goldens.fly_battle(case)
        (goldens.BATTLES / f"{case['name']}.json").write_text(goldens.dumps(record))
        print(case["name"], len(record["actions"]), "actions", record["result"]["winner"])
    for case in goldens.airpirates_cases():
        if args.only and case["name"] != args.only:
            continue
        record = goldens.fly_airpirates(case)
        (goldens.AIRPIRATES_BATTLES / f"{case['name']}.json").write_text(goldens.dumps(record))
        print(case["name"], len(record["actions"]), "actions", record["result"]["winner"])
    for case in goldens.cardgame_cases():
        if args.only and case["name"] != args.only:
            continue
        record = goldens.play_cardgame(case)
        (goldens.CARDGAMES / f"{case['name']}.json").write_text(goldens.dumps(record))
        print(case["name"], len(record["actions"]), "actions")


if __name__ == "__main__":
    main()
