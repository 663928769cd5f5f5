"""Every RuleError of the card game cites 003 as ``003 'SECTION'``, the
section heading spelled as the rulebook spells it."""

import ast
import re
from pathlib import Path

import pytest

from rules.cardgame import checks
from rules.cardgame.checks import SECTIONS, RuleError, cite

PACKAGE = Path(checks.__file__).resolve().parent
RULEBOOKS = Path(__file__).resolve().parents[4] / "shared" / "rules"
CITATION = re.compile(r"^003 '([A-Z ]+)'$")


def test_every_section_heading_is_in_the_rulebook():
    books = sorted(RULEBOOKS.glob("003_*.txt"))
    if not books:
        pytest.skip("the rulebooks are not next to the project")
    text = books[0].read_text(encoding="utf-8")
    missing = [s for s in SECTIONS if f"{s} " not in text]
    assert missing == []


def test_cite_refuses_a_heading_the_rulebook_does_not_have():
    assert cite("MISSION PHASE") == "003 'MISSION PHASE'"
    with pytest.raises(ValueError):
        cite("Mission Phase")
    with pytest.raises(ValueError):
        cite("event-target")


def _rule_arguments():
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "RuleError"
            ):
                yield path.name, node.lineno, node.args[0]


def test_every_rule_error_in_the_engine_cites_a_section():
    seen = 0
    for name, line, arg in _rule_arguments():
        seen += 1
        if isinstance(arg, ast.Name) and arg.id == "rule":  # correct(): PP_RULE or ST_RULE
            continue
        assert isinstance(arg, ast.Name), f"{name}:{line}: cite a named rule"
        value = getattr(checks, arg.id)
        match = CITATION.match(value)
        assert match and match.group(1) in SECTIONS, f"{name}:{line}: {value!r}"
    assert seen > 40


def test_the_rule_is_shown_with_the_message():
    err = RuleError(checks.MISSION_RULE, "m01 is not a mission in play")
    assert str(err) == "[003 'MISSION PHASE'] m01 is not a mission in play"
