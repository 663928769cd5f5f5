"""*Air Pirates* (002): the aircraft control card and its estimates; the engine comes later.

Stands alone: imports neither ``rules.airforce`` nor ``rules.angels20`` (import-linter)."""
