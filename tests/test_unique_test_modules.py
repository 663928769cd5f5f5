"""Test modules in folders without ``__init__.py`` are imported by their file name alone
(pytest's default ``prepend`` import mode), so two such files with one name cannot both
be collected in one run: the second is an error ("import file mismatch"). Seen twice
(``test_movement``, then ``test_pilots`` of Angels 20 and Air Pirates)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).parent


def test_no_two_package_less_test_modules_share_a_name():
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        if not (path.parent / "__init__.py").exists():
            by_name[path.name].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert not clashes, f"rename one of each: {clashes}"
