"""manage.py simulate_campaigns: seeded card-game campaigns between commanders."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args):
    out = StringIO()
    call_command("simulate_campaigns", *args, stdout=out)
    return out.getvalue()


def test_it_prints_each_side_and_each_commander_with_an_interval():
    text = run("--runs", "4", "--axis", "computer", "--allied", "random", "--seed", "5", "--swap")
    assert "4 games (seed 5), card engagements" in text
    assert "allied (computer/random): " in text and "axis (computer/random): " in text
    assert "commander computer: " in text and "commander random: " in text
    assert "95% CI" in text and "median turns" in text
    assert run("--runs", "4", "--axis", "computer", "--allied", "random", "--seed", "5",
               "--swap").splitlines()[:-1] == text.splitlines()[:-1]  # fmt: skip


def test_it_refuses_an_unknown_commander_and_no_runs():
    with pytest.raises(CommandError):
        run("--runs", "2", "--axis", "genius")
    with pytest.raises(CommandError):
        run("--runs", "0")
