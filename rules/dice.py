"""The one seeded, recorded source of every random number in Angels.

Everything random in a battle or a campaign turn (every die, every shuffle)
is drawn from a :class:`Dice`. Its whole state is three integers, so it
serialises to JSON exactly and a battle or campaign can be resumed or
replayed from ``(seed, actions)``.

The generator is SplitMix64 (Steele, Lea & Flood, 2014): tiny, fast in pure
Python, and good enough for game dice. Values are drawn by rejection sampling,
so every face is exactly equally likely. The module never touches the global
``random`` module.

:class:`ScriptedDice` replays fixed values for tests and for worked examples
of the rulebooks: it raises if a script runs out or a value does not fit the
die, so a test can never pass on a roll it did not script.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

_MASK64 = (1 << 64) - 1
SEED_BITS = 48  # seeds fit a signed 64-bit column and a JSON number exactly
_DEFAULT_KEY = b"angels: child seeds"
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded draw: what it was for, the die's size, and the face."""

    purpose: str
    sides: int
    value: int

    def to_json(self) -> list[Any]:
        return [self.purpose, self.sides, self.value]


# the slot descriptors of Roll's three fields
_set_purpose, _set_sides, _set_value = (
    vars(Roll)[f].__set__ for f in ("purpose", "sides", "value")
)


def _new_roll(purpose: str, sides: int, value: int) -> Roll:
    """``Roll(purpose, sides, value)`` at half the cost: the frozen dataclass's
    ``__init__`` goes through ``object.__setattr__``; this fills the slots directly."""
    r = object.__new__(Roll)
    _set_purpose(r, purpose)
    _set_sides(r, sides)
    _set_value(r, value)
    return r


def derive_seed(parent: int, purpose: str, *, key: bytes = b"") -> int:
    """The seed of a child stream (a battle of a batch, a computer pilot, ...).

    Keyed BLAKE2b of the parent seed and the child's purpose, so children of
    one parent are independent of each other and no child reveals its parent
    or a sibling (unlike ``seed + i`` or ``seed ^ k``). ``key`` lets the
    product keep children secret from anyone who lacks it (the server's
    secret); left empty, a fixed public key is used and anyone may replay.
    """
    if not isinstance(parent, int) or isinstance(parent, bool):
        raise TypeError("a parent seed must be an int")
    if not purpose:
        raise ValueError("a child seed needs a purpose")
    digest = hashlib.blake2b(
        f"{parent}|{purpose}".encode(), digest_size=8, key=key or _DEFAULT_KEY
    ).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


class DiceError(RuntimeError):
    """A scripted die ran out or was asked for a value it cannot give."""


class Dice:
    """Seeded dice that record every roll.

    ``record`` is switched off by programs that only need speed (search,
    play-outs); the draws are identical either way.
    """

    __slots__ = ("seed", "_state", "count", "rolls", "record")

    def __init__(self, seed: int, *, record: bool = True) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("a dice seed must be an int")
        self.seed = seed
        self._state = seed & _MASK64
        self.count = 0
        self.rolls: list[Roll] = []
        self.record = record

    # -- generator -----------------------------------------------------------
    def _next64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def _below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no bias)."""
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self._next64()
            if x <= limit:
                return x % n

    # -- public API ----------------------------------------------------------
    def roll(self, sides: int, purpose: str = "") -> int:
        """Roll one die of ``sides`` faces (1..sides) and record it.

        :meth:`_next64` and :meth:`_below` written out in one body: a die is
        the engine's most frequent call, and the same draws come out.
        """
        if sides < 1:
            raise ValueError("a die needs at least one side")
        limit = _MASK64 - (_MASK64 + 1) % sides
        state = self._state
        while True:
            state = (state + _GOLDEN) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            if z <= limit:
                break
        self._state = state
        value = z % sides + 1
        self.count += 1
        if self.record:
            self.rolls.append(_new_roll(purpose, sides, value))
        return value

    def roll_many(self, n: int, sides: int, purpose: str = "") -> tuple[int, ...]:
        return tuple(self.roll(sides, purpose) for _ in range(n))

    def d6(self, purpose: str = "") -> int:
        return self.roll(6, purpose)

    def d10(self, purpose: str = "") -> int:
        return self.roll(10, purpose)

    def shuffle(self, items: list[Any], purpose: str = "shuffle") -> None:
        """Shuffle ``items`` in place (Fisher-Yates); each swap is a recorded draw."""
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1, purpose) - 1
            items[i], items[j] = items[j], items[i]

    def _draw(self, sides: int, purpose: str) -> int:
        return self._below(sides) + 1

    # -- serialisation ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Generator position only; the roll record belongs to the event log."""
        return {"seed": self.seed, "state": self._state, "count": self.count}

    @classmethod
    def from_json(cls, data: dict[str, Any], *, record: bool = True) -> Dice:
        dice = cls(int(data["seed"]), record=record)
        dice._state = int(data["state"])
        dice.count = int(data["count"])
        return dice

    def clone(self) -> Dice:
        other = type(self).__new__(type(self))
        other.seed = self.seed
        other._state = self._state
        other.count = self.count
        other.rolls = list(self.rolls)
        other.record = self.record
        return other


class ScriptedDice(Dice):
    """Dice that return a fixed script of faces, for tests and worked examples.

    A shuffle with no scripted draws left keeps the order it was given, so a
    test can lay out a deck exactly; with draws scripted it consumes them like
    :class:`Dice` does.
    """

    __slots__ = ("script", "position")

    def __init__(self, values: list[int] | tuple[int, ...] = (), *, record: bool = True) -> None:
        super().__init__(0, record=record)
        self.script = list(values)
        self.position = 0

    def extend(self, values: list[int] | tuple[int, ...]) -> None:
        self.script.extend(values)

    @property
    def remaining(self) -> int:
        return len(self.script) - self.position

    def shuffle(self, items: list[Any], purpose: str = "shuffle") -> None:
        if self.remaining == 0:
            return
        super().shuffle(items, purpose)

    def _draw(self, sides: int, purpose: str) -> int:
        if self.position >= len(self.script):
            raise DiceError(
                f"scripted dice ran out at roll {self.position + 1} ({purpose or 'roll'} d{sides})"
            )
        value = self.script[self.position]
        if not 1 <= value <= sides:
            raise DiceError(
                f"scripted value {value} cannot come up on a d{sides} ({purpose or 'roll'})"
            )
        self.position += 1
        return value

    def roll(self, sides: int, purpose: str = "") -> int:
        """The next scripted face (checked against the die), recorded like :meth:`Dice.roll`."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        value = self._draw(sides, purpose)
        self.count += 1
        if self.record:
            self.rolls.append(Roll(purpose, sides, value))
        return value

    def to_json(self) -> dict[str, Any]:
        return {"script": self.script, "position": self.position, "count": self.count}

    def clone(self) -> ScriptedDice:
        other = ScriptedDice(self.script, record=self.record)
        other.position = self.position
        other.count = self.count
        other.rolls = list(self.rolls)
        return other
