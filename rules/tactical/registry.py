"""The registry of tactical systems: the games the product can fly, by name.

Systems join it by themselves: each declares a Python entry point in the
``angels.tactical_systems`` group (pyproject.toml), loaded once by
:func:`tactical_systems`; this module imports none of them. A test registers a system
of its own with :func:`registered`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.metadata import entry_points

from rules.tactical.interface import TacticalSystem

ENTRY_POINT_GROUP = "angels.tactical_systems"
DEFAULT_SYSTEM = "angels20"  # the system of every battle stored before there were others


class UnknownSystem(LookupError):
    """A tactical system nobody registered; the message names the known ones."""

    def __init__(self, name: object, known: Sequence[str]) -> None:
        self.name, self.known = name, tuple(known)
        super().__init__(
            f"unknown tactical system {name!r} (known: {', '.join(self.known) or 'none'})"
        )

    def __str__(self) -> str:  # a LookupError's str would quote the whole message
        return str(self.args[0])


_SYSTEMS: dict[str, TacticalSystem] = {}
_LOCK = threading.Lock()
_loaded = False


def _load_entry_points() -> None:
    """Register every system declared in the ``angels.tactical_systems`` group, once."""
    global _loaded
    if _loaded:
        return
    with _LOCK:
        if _loaded:
            return
        for point in entry_points(group=ENTRY_POINT_GROUP):
            system = point.load()
            if system.name != point.name:
                raise ValueError(
                    f"entry point {point.name!r} of {ENTRY_POINT_GROUP} names a system "
                    f"called {system.name!r}"
                )
            _SYSTEMS.setdefault(system.name, system)
        _loaded = True


def register(system: TacticalSystem) -> TacticalSystem:
    """Add ``system`` to the registry under its ``name`` (again: no change). Another
    system already under that name is refused."""
    _load_entry_points()
    with _LOCK:
        there = _SYSTEMS.get(system.name)
        if there is not None and there is not system:
            raise ValueError(f"a tactical system named {system.name!r} is registered already")
        _SYSTEMS[system.name] = system
    return system


def unregister(name: str) -> None:
    """Take the system ``name`` out of the registry (tests)."""
    with _LOCK:
        _SYSTEMS.pop(name, None)


@contextmanager
def registered(system: TacticalSystem) -> Iterator[TacticalSystem]:
    """``system`` registered for the ``with`` block only (a test's own system)."""
    register(system)
    try:
        yield system
    finally:
        unregister(system.name)


def tactical_systems() -> dict[str, TacticalSystem]:
    """Every tactical system the product can fly, by name (sorted)."""
    _load_entry_points()
    with _LOCK:
        return dict(sorted(_SYSTEMS.items()))


def system_named(name: object) -> TacticalSystem:
    """The tactical system called ``name``; :class:`UnknownSystem` names the known ones."""
    systems = tactical_systems()
    if not isinstance(name, str) or name not in systems:
        raise UnknownSystem(name, list(systems))
    return systems[name]
