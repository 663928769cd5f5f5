"""Angels 20 hides nothing and has one side decide at a time (000 "SEQUENCE OF PLAY"):
its play responses are what they were before the view per side and simultaneous
decisions (issue 25), key for key; the new keys say so (one side deciding, no view)."""

from __future__ import annotations

import json

import pytest

from tests.battles.angels_play_snapshot import SNAPSHOT, fly_and_read

pytestmark = pytest.mark.django_db
NEW_KEYS = ("deciding", "view")


def test_each_seats_and_a_spectators_turn_is_unchanged(catalog, django_user_model):
    make = django_user_model.objects.create_user
    staff = make("umpire", password="pw-umpire-1", is_staff=True)
    axis, allied = make("hans", password="pw-hans-123"), make("tom", password="pw-tom-1234")
    seen = fly_and_read(staff, axis, allied, make("nosy", password="pw-nosy-123"))
    recorded = json.loads(SNAPSHOT.read_text())
    assert len(seen) == len(recorded)
    for now, before in zip(seen, recorded, strict=True):
        for reader, turn in now.items():
            to_act = turn["to_act"]
            assert turn["deciding"] == ([to_act] if to_act else [])
            assert turn["view"] is None
            old = {k: v for k, v in turn.items() if k not in NEW_KEYS}
            assert json.loads(json.dumps(old, sort_keys=True)) == before[reader]
